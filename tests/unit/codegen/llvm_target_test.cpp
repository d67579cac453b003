// Code generation for targets other than the host: the triple/CPU/features each Target maps to,
// object files whose headers name the right machine, and assembly whose instruction set follows
// the target's features.
#include "codegen/llvm/codegen_llvm.h"
#include "codegen/llvm/llvm_target.h"
#include "codegen_test_util.h"
#include "common/expect_error.h"

#include <loom/target.h>

#include <gtest/gtest.h>

#include <cstring>
#include <string>

using namespace loom;
using namespace loom::internal;
using namespace loom::internal::test;

namespace {

/// out[x] = in[x] * 3 + 1 on float32, written as explicit 16-lane vectors (the loop covers
/// extent / 16 vectors), so the vector registers the backend picks show the target's width.
LoweredFunc float_vector_loop() {
    FuncBuilder fb("fvec");
    fb.buffer("in", Float(32), 1);
    fb.buffer("out", Float(32), 1, true);
    Expr base = var("x") * 16;
    Expr v = load(Float(32, 16), "in", Ramp::make(base, 1, 16));
    Expr value = v * Broadcast::make(3.0f, 16) + Broadcast::make(1.0f, 16);
    Stmt body =
        loop("x", 0, var("out.extent.0") / 16, store("out", value, Ramp::make(base, 1, 16)));
    return fb.finish(body);
}

/// The function compiled and optimized for t, serialized as `kind`.
std::string compile_for(const std::string &target, LLVMOutput kind) {
    Target t(target);
    std::unique_ptr<llvm::TargetMachine> tm = make_target_machine(t);
    llvm::LLVMContext ctx;
    std::unique_ptr<llvm::Module> m = codegen_llvm(float_vector_loop(), ctx, *tm);
    optimize_module(*m, *tm);
    return emit_module(*m, *tm, kind);
}

struct ElfHeader {
    bool is_elf = false;
    int elf_class = 0; // 1: 32-bit, 2: 64-bit
    int machine = 0;
};

ElfHeader elf_header(const std::string &bytes) {
    ElfHeader h;
    if (bytes.size() < 20 || bytes.compare(0, 4,
                                           "\x7f"
                                           "ELF") != 0)
        return h;
    h.is_elf = true;
    h.elf_class = (unsigned char)bytes[4];
    EXPECT_EQ(bytes[5], 1) << "little-endian";
    // e_machine: the half-word at offset 18 (after e_ident[16] and e_type).
    h.machine = (unsigned char)bytes[18] | ((unsigned char)bytes[19] << 8);
    return h;
}

bool contains(const std::string &s, const std::string &part) {
    return s.find(part) != std::string::npos;
}

constexpr int EM_386 = 3, EM_ARM = 40, EM_X86_64 = 62, EM_AARCH64 = 183;

TEST(LLVMTarget, Triples) {
    EXPECT_EQ(llvm_triple(Target("x86-64-linux")), "x86_64-unknown-linux-gnu");
    EXPECT_EQ(llvm_triple(Target("x86-32-linux")), "i386-unknown-linux-gnu");
    EXPECT_EQ(llvm_triple(Target("arm-64-linux")), "aarch64-unknown-linux-gnu");
    EXPECT_EQ(llvm_triple(Target("arm-32-linux")), "armv7a-unknown-linux-gnueabihf");
    EXPECT_EQ(llvm_triple(Target("x86-64-osx")), "x86_64-apple-macosx");
    EXPECT_EQ(llvm_triple(Target("arm-64-osx")), "arm64-apple-macosx");
    EXPECT_EQ(llvm_triple(Target("arm-64-ios")), "arm64-apple-ios");
    EXPECT_EQ(llvm_triple(Target("x86-64-windows")), "x86_64-pc-windows-msvc");
    EXPECT_EQ(llvm_triple(Target("arm-64-android")), "aarch64-unknown-linux-android");
    EXPECT_EQ(llvm_triple(Target("arm-32-android")), "armv7a-unknown-linux-androideabi");
    loom_test::expect_error([] { llvm_triple(Target(Target::Linux, Target::ArchUnknown, 64)); },
                            {"Cannot generate code for target", "arch_unknown-64-linux"});
}

TEST(LLVMTarget, CpuAndFeaturesFollowHalide) {
    EXPECT_EQ(llvm_cpu(Target("x86-64-linux")), "k8");
    EXPECT_EQ(llvm_cpu(Target("x86-64-linux-sse41")), "penryn");
    EXPECT_EQ(llvm_cpu(Target("x86-64-linux-sse41-avx")), "corei7-avx");
    EXPECT_EQ(llvm_cpu(Target("x86-64-linux-avx2-fma")), "haswell");
    EXPECT_EQ(llvm_cpu(Target("x86-64-linux-avx512-avx512_skylake")), "skylake-avx512");
    EXPECT_EQ(llvm_cpu(Target("x86-64-linux-avx512_sapphirerapids")), "sapphirerapids");
    EXPECT_EQ(llvm_cpu(Target("arm-64-linux")), "generic");
    EXPECT_EQ(llvm_cpu(Target("arm-32-linux")), "cortex-a9");
    EXPECT_EQ(llvm_features(Target("x86-64-linux")), "");
    EXPECT_EQ(llvm_features(Target("x86-64-linux-avx2-fma-f16c")), "+fma,+f16c");
    EXPECT_EQ(llvm_features(Target("x86-64-linux-avx512-avx512_skylake")),
              "+avx512f,+avx512cd,+avx512vl,+avx512bw,+avx512dq");
    EXPECT_EQ(llvm_features(Target("arm-64-linux")), "+neon");
    EXPECT_EQ(llvm_features(Target("arm-64-linux-arm_dot_prod-arm_fp16")),
              "+neon,+dotprod,+fullfp16");
    EXPECT_EQ(llvm_features(Target("arm-64-linux-sve2-armv84a")), "+neon,+sve2,+v8.4a");
    EXPECT_EQ(llvm_features(Target("arm-32-linux-no_neon")), "-neon");
}

TEST(LLVMTarget, TargetMachineHasTheTargetsTripleAndCpu) {
    std::unique_ptr<llvm::TargetMachine> tm = make_target_machine(Target("arm-64-linux"));
    EXPECT_EQ(tm->getTargetTriple().str(), "aarch64-unknown-linux-gnu");
    EXPECT_EQ(tm->getTargetCPU().str(), "generic");
    EXPECT_EQ(tm->getRelocationModel(), llvm::Reloc::PIC_);
    EXPECT_EQ(tm->getOptLevel(), llvm::CodeGenOptLevel::Aggressive);
    tm = make_target_machine(Target("x86-64-linux-llvm_large_code_model"));
    EXPECT_EQ(tm->getCodeModel(), llvm::CodeModel::Large);
    // No backend: a CompileError naming the target.
    loom_test::expect_error(
        [] { make_target_machine(Target(Target::NoOS, Target::ArchUnknown, 32)); },
        {"Cannot generate code for target arch_unknown-32-noos"});
}

TEST(LLVMTarget, ObjectHeadersNameTheMachine) {
    struct Case {
        const char *target;
        int elf_class, machine;
    } cases[] = {
        {"x86-64-linux", 2, EM_X86_64},
        {"x86-64-linux-avx2-fma", 2, EM_X86_64},
        {"x86-64-linux-avx512-avx512_skylake-avx512_sapphirerapids", 2, EM_X86_64},
        {"x86-32-linux", 1, EM_386},
        {"arm-64-linux", 2, EM_AARCH64},
        {"arm-64-linux-arm_dot_prod", 2, EM_AARCH64},
        {"arm-32-linux", 1, EM_ARM},
    };
    for (const Case &c : cases) {
        ElfHeader h = elf_header(compile_for(c.target, LLVMOutput::Object));
        EXPECT_TRUE(h.is_elf) << c.target;
        EXPECT_EQ(h.elf_class, c.elf_class) << c.target;
        EXPECT_EQ(h.machine, c.machine) << c.target;
    }
    // Other object formats: Mach-O 64 (0xfeedfacf, little-endian) and COFF (machine 0x8664).
    std::string macho = compile_for("arm-64-osx", LLVMOutput::Object);
    ASSERT_GE(macho.size(), 4u);
    EXPECT_EQ(macho.compare(0, 4, "\xcf\xfa\xed\xfe"), 0);
    std::string coff = compile_for("x86-64-windows", LLVMOutput::Object);
    ASSERT_GE(coff.size(), 2u);
    EXPECT_EQ((unsigned char)coff[0] | ((unsigned char)coff[1] << 8), 0x8664);
}

TEST(LLVMTarget, AssemblyFollowsTheFeatures) {
    std::string base = compile_for("x86-64-linux", LLVMOutput::Assembly);
    EXPECT_TRUE(contains(base, "%xmm")) << base;
    EXPECT_FALSE(contains(base, "%ymm")) << base;
    EXPECT_FALSE(contains(base, "%zmm")) << base;

    std::string avx2 = compile_for("x86-64-linux-avx2-fma", LLVMOutput::Assembly);
    EXPECT_TRUE(contains(avx2, "%ymm")) << avx2;
    EXPECT_FALSE(contains(avx2, "%zmm")) << avx2;

    std::string avx512 = compile_for("x86-64-linux-avx512-avx512_skylake-avx512_sapphirerapids",
                                     LLVMOutput::Assembly);
    EXPECT_TRUE(contains(avx512, "%ymm") || contains(avx512, "%zmm")) << avx512;

    std::string arm = compile_for("arm-64-linux", LLVMOutput::Assembly);
    EXPECT_TRUE(contains(arm, "fmul") || contains(arm, "fmla")) << arm;
    EXPECT_TRUE(contains(arm, ".4s")) << arm; // 4 x float vector registers
    EXPECT_FALSE(contains(arm, "%xmm")) << arm;
}

TEST(LLVMTarget, BitcodeAndLLVMAssembly) {
    std::string bc = compile_for("arm-64-linux", LLVMOutput::Bitcode);
    ASSERT_GE(bc.size(), 4u);
    EXPECT_EQ(bc.compare(0, 4, "BC\xc0\xde"), 0);
    std::string ll = compile_for("arm-64-linux", LLVMOutput::LLVMAssembly);
    EXPECT_TRUE(contains(ll, "target triple = \"aarch64-unknown-linux-gnu\"")) << ll;
    EXPECT_TRUE(contains(ll, "define")) << ll;
    EXPECT_TRUE(contains(ll, "@fvec(")) << ll;
}

TEST(LLVMTarget, EmittingLeavesTheModuleUnchanged) {
    Target t("x86-64-linux-avx2");
    std::unique_ptr<llvm::TargetMachine> tm = make_target_machine(t);
    llvm::LLVMContext ctx;
    std::unique_ptr<llvm::Module> m = codegen_llvm(float_vector_loop(), ctx, *tm);
    optimize_module(*m, *tm);
    std::string before = emit_module(*m, *tm, LLVMOutput::LLVMAssembly);
    std::string obj1 = emit_module(*m, *tm, LLVMOutput::Object);
    std::string asm1 = emit_module(*m, *tm, LLVMOutput::Assembly);
    EXPECT_EQ(emit_module(*m, *tm, LLVMOutput::LLVMAssembly), before);
    EXPECT_EQ(emit_module(*m, *tm, LLVMOutput::Object), obj1);
    EXPECT_TRUE(contains(asm1, "%ymm"));
}

} // namespace
