// Target -> LLVM triple / CPU / features / TargetMachine, following Halide's choices (its
// get_triple_for_target and the mcpu/mattrs of CodeGen_X86 and CodeGen_ARM), and module
// serialization.
#include "codegen/llvm/llvm_target.h"

#include "support/error.h"
#include "support/util.h"

#include <mutex>
#include <vector>

namespace loom {
namespace internal {

namespace {

std::string join(const std::vector<std::string> &parts, const char *sep) {
    std::string s;
    for (size_t i = 0; i < parts.size(); i++) {
        if (i) s += sep;
        s += parts[i];
    }
    return s;
}

/// The "vendor-os-environment" part of a triple for OS `os` (after the architecture).
std::string os_suffix(const Target &t, bool arm32) {
    switch (t.os) {
    case Target::Linux:
        return arm32 ? "unknown-linux-gnueabihf" : "unknown-linux-gnu";
    case Target::Android:
        return arm32 ? "unknown-linux-androideabi" : "unknown-linux-android";
    case Target::OSX:
        return "apple-macosx";
    case Target::IOS:
        // x86 iOS is the simulator.
        return t.arch == Target::X86 ? "apple-ios-simulator" : "apple-ios";
    case Target::Windows:
        return "pc-windows-msvc";
    case Target::Fuchsia:
        return "unknown-fuchsia";
    case Target::QuRT:
        return "unknown-unknown-elf";
    case Target::NoOS:
        return arm32 ? "unknown-none-eabihf" : "unknown-none-elf";
    case Target::WebAssemblyRuntime:
    case Target::OSUnknown:
        return t.arch == Target::WebAssembly ? "unknown-unknown" : "unknown-unknown-elf";
    }
    return "unknown-unknown";
}

[[noreturn]] void no_backend(const Target &t, const std::string &why) {
    throw CompileError("Cannot generate code for target " + t.to_string() + ": " + why + "\n");
}

void x86_features(const Target &t, std::vector<std::string> &attrs) {
    if (t.has_feature(Target::FMA)) attrs.push_back("+fma");
    if (t.has_feature(Target::FMA4)) attrs.push_back("+fma4");
    if (t.has_feature(Target::F16C)) attrs.push_back("+f16c");
    if (t.features_any_of({Target::AVX512, Target::AVX512_KNL, Target::AVX512_Skylake,
                           Target::AVX512_Cannonlake})) {
        attrs.push_back("+avx512f");
        attrs.push_back("+avx512cd");
        if (t.has_feature(Target::AVX512_KNL)) {
            attrs.push_back("+avx512pf");
            attrs.push_back("+avx512er");
        }
        if (t.features_any_of({Target::AVX512_Skylake, Target::AVX512_Cannonlake})) {
            attrs.push_back("+avx512vl");
            attrs.push_back("+avx512bw");
            attrs.push_back("+avx512dq");
        }
        if (t.has_feature(Target::AVX512_Cannonlake)) {
            attrs.push_back("+avx512ifma");
            attrs.push_back("+avx512vbmi");
        }
    }
    if (t.has_feature(Target::AVX512_SapphireRapids)) {
        attrs.push_back("+avx512bf16");
        attrs.push_back("+avx512vnni");
    }
    if (t.features_any_of({Target::AVX512_Zen4, Target::AVX512_Zen5})) {
        for (const char *a : {"+avx512f", "+avx512cd", "+avx512vl", "+avx512bw", "+avx512dq",
                              "+avx512ifma", "+avx512vbmi", "+avx512vbmi2", "+avx512vnni",
                              "+avx512bitalg", "+avx512vpopcntdq", "+avx512bf16"}) {
            attrs.push_back(a);
        }
    }
    if (t.has_feature(Target::AVX512_Zen5)) attrs.push_back("+avx512vp2intersect");
    if (t.has_feature(Target::AVXVNNI)) attrs.push_back("+avxvnni");
    if (t.has_feature(Target::AVX10_1)) {
        attrs.push_back(t.vector_bits == 256 ? "+avx10.1-256" : "+avx10.1-512");
    }
    if (t.has_feature(Target::X86APX)) {
        for (const char *a : {"+egpr", "+push2pop2", "+ppx", "+ndd"}) attrs.push_back(a);
    }
}

void arm_features(const Target &t, std::vector<std::string> &attrs) {
    if (t.bits == 32) {
        attrs.push_back(t.has_feature(Target::NoNEON) ? "-neon" : "+neon");
        return;
    }
    if (!t.has_feature(Target::NoNEON)) attrs.push_back("+neon");
    if (t.has_feature(Target::SVE2)) {
        attrs.push_back("+sve2");
    } else if (t.has_feature(Target::SVE)) {
        attrs.push_back("+sve");
    }
    if (t.has_feature(Target::ARMDotProd)) attrs.push_back("+dotprod");
    if (t.has_feature(Target::ARMFp16)) attrs.push_back("+fullfp16");
    const std::pair<Target::Feature, const char *> versions[] = {
        {Target::ARMv8a, "+v8a"},    {Target::ARMv81a, "+v8.1a"}, {Target::ARMv82a, "+v8.2a"},
        {Target::ARMv83a, "+v8.3a"}, {Target::ARMv84a, "+v8.4a"}, {Target::ARMv85a, "+v8.5a"},
        {Target::ARMv86a, "+v8.6a"}, {Target::ARMv87a, "+v8.7a"}, {Target::ARMv88a, "+v8.8a"},
        {Target::ARMv89a, "+v8.9a"},
    };
    for (const auto &v : versions) {
        if (t.has_feature(v.first)) attrs.push_back(v.second);
    }
    // Apple reserves x18.
    if (t.os == Target::IOS || t.os == Target::OSX) attrs.push_back("+reserve-x18");
}

} // namespace

std::string llvm_triple(const Target &t) {
    if (t.bits != 32 && t.bits != 64) no_backend(t, "the word size must be 32 or 64 bits");
    bool b64 = t.bits == 64;
    switch (t.arch) {
    case Target::X86:
        return std::string(b64 ? "x86_64-" : "i386-") + os_suffix(t, false);
    case Target::ARM:
        if (b64) {
            // Apple spells AArch64 "arm64".
            bool apple = t.os == Target::OSX || t.os == Target::IOS;
            return std::string(apple ? "arm64-" : "aarch64-") + os_suffix(t, false);
        }
        if (t.os == Target::IOS || t.os == Target::OSX) {
            return std::string(t.has_feature(Target::ARMv7s) ? "armv7s-" : "armv7-") +
                   os_suffix(t, true);
        }
        return std::string(t.has_feature(Target::ARMv7s) ? "armv7s-" : "armv7a-") +
               os_suffix(t, true);
    case Target::POWERPC:
        return std::string(b64 ? "powerpc64le-" : "powerpc-") + os_suffix(t, false);
    case Target::RISCV:
        return std::string(b64 ? "riscv64-" : "riscv32-") + os_suffix(t, false);
    case Target::WebAssembly:
        return std::string(b64 ? "wasm64-" : "wasm32-") + "unknown-unknown";
    case Target::Hexagon:
        return "hexagon-unknown-unknown-elf";
    case Target::ArchUnknown:
        break;
    }
    no_backend(t, "the architecture is unknown");
}

std::string llvm_cpu(const Target &t) {
    switch (t.arch) {
    case Target::X86:
        if (t.has_feature(Target::AVX512_Zen5)) return "znver5";
        if (t.has_feature(Target::AVX512_Zen4)) return "znver4";
        if (t.has_feature(Target::AVX512_SapphireRapids)) return "sapphirerapids";
        if (t.has_feature(Target::AVX512_Cannonlake)) return "cannonlake";
        if (t.has_feature(Target::AVX512_Skylake)) return "skylake-avx512";
        if (t.has_feature(Target::AVX512_KNL)) return "knl";
        if (t.has_feature(Target::AVX2)) return "haswell";
        if (t.has_feature(Target::AVX)) return "corei7-avx";
        if (t.has_feature(Target::SSE41)) return "penryn";
        // The baseline is SSE2 without SSSE3: k8 rather than core2.
        return "k8";
    case Target::ARM:
        if (t.bits == 32) return t.has_feature(Target::ARMv7s) ? "swift" : "cortex-a9";
        if (t.os == Target::IOS) return "cyclone";
        if (t.os == Target::OSX) return "apple-a12";
        if (t.has_feature(Target::SVE2)) return "cortex-x1";
        return "generic";
    case Target::POWERPC:
        return t.has_feature(Target::POWER_ARCH_2_07) ? "pwr8" : "pwr7";
    case Target::Hexagon:
        if (t.has_feature(Target::HVX_v68)) return "hexagonv68";
        if (t.has_feature(Target::HVX_v66)) return "hexagonv66";
        if (t.has_feature(Target::HVX_v65)) return "hexagonv65";
        return "hexagonv62";
    case Target::RISCV:
        return t.bits == 32 ? "generic-rv32" : "generic-rv64";
    default:
        return "generic";
    }
}

std::string llvm_features(const Target &t) {
    std::vector<std::string> attrs;
    switch (t.arch) {
    case Target::X86:
        x86_features(t, attrs);
        break;
    case Target::ARM:
        arm_features(t, attrs);
        break;
    case Target::POWERPC:
        attrs.push_back(t.has_feature(Target::VSX) ? "+altivec,+vsx" : "+altivec");
        if (t.has_feature(Target::POWER_ARCH_2_07)) attrs.push_back("+power8-vector");
        break;
    case Target::RISCV:
        attrs.push_back("+m,+a,+f,+d,+c");
        if (t.has_feature(Target::RVV)) {
            attrs.push_back("+v");
            if (t.vector_bits > 0) attrs.push_back("+zvl" + std::to_string(t.vector_bits) + "b");
        }
        break;
    case Target::Hexagon:
        if (t.has_feature(Target::HVX_128)) attrs.push_back("+hvx-length128b");
        break;
    case Target::WebAssembly:
        attrs.push_back("+sign-ext,+nontrapping-fptoint");
        if (t.has_feature(Target::WasmSimd128)) attrs.push_back("+simd128");
        if (t.has_feature(Target::WasmThreads)) attrs.push_back("+atomics");
        if (t.has_feature(Target::WasmBulkMemory)) attrs.push_back("+bulk-memory");
        break;
    default:
        break;
    }
    return join(attrs, ",");
}

llvm::TargetOptions llvm_target_options(const Target &t) {
    llvm::TargetOptions options;
    options.UseInitArray = true;
    options.FunctionSections = true;
    options.FloatABIType =
        t.has_feature(Target::SoftFloatABI) ? llvm::FloatABI::Soft : llvm::FloatABI::Hard;
    return options;
}

void initialize_llvm_targets() {
    static std::once_flag once;
    std::call_once(once, [] {
        llvm::InitializeAllTargetInfos();
        llvm::InitializeAllTargets();
        llvm::InitializeAllTargetMCs();
        llvm::InitializeAllAsmPrinters();
        llvm::InitializeAllAsmParsers();
        // HL_LLVM_ARGS, as in Halide: options for LLVM itself, space-separated
        // ("-time-passes" reports where the optimizer and code generator spend their time).
        std::vector<std::string> args{"loom"};
        for (const std::string &a : split_string(get_env("HL_LLVM_ARGS"), " ")) {
            if (!a.empty()) args.push_back(a);
        }
        if (args.size() > 1) {
            std::vector<const char *> argv;
            for (const std::string &a : args) argv.push_back(a.c_str());
            llvm::cl::ParseCommandLineOptions((int)argv.size(), argv.data(), "Loom\n");
        }
    });
}

std::unique_ptr<llvm::TargetMachine> make_target_machine(const Target &t) {
    initialize_llvm_targets();
    std::string triple = llvm_triple(t);
    std::string error;
    const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
    if (!target) no_backend(t, "this LLVM has no backend for " + triple + " (" + error + ")");
    std::optional<llvm::CodeModel::Model> code_model;
    if (t.has_feature(Target::LLVMLargeCodeModel)) code_model = llvm::CodeModel::Large;
    std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
        triple, llvm_cpu(t), llvm_features(t), llvm_target_options(t), llvm::Reloc::PIC_,
        code_model, llvm::CodeGenOptLevel::Aggressive));
    if (!tm) no_backend(t, "LLVM could not create a TargetMachine for " + triple);
    return tm;
}

std::string emit_module(llvm::Module &m, llvm::TargetMachine &tm, LLVMOutput kind) {
    llvm::SmallString<0> bytes;
    llvm::raw_svector_ostream os(bytes);
    switch (kind) {
    case LLVMOutput::Bitcode:
        llvm::WriteBitcodeToFile(m, os);
        break;
    case LLVMOutput::LLVMAssembly:
        m.print(os, nullptr);
        break;
    case LLVMOutput::Object:
    case LLVMOutput::Assembly: {
        internal_assert(m.getTargetTriple() == tm.getTargetTriple().str())
            << "emit_module: the module's triple " << m.getTargetTriple()
            << " is not the TargetMachine's " << tm.getTargetTriple().str() << "\n";
        // The code generator's passes rewrite the IR (CodeGenPrepare...): run them on a copy.
        std::unique_ptr<llvm::Module> copy = llvm::CloneModule(m);
        llvm::legacy::PassManager pm;
        auto type = kind == LLVMOutput::Object ? llvm::CodeGenFileType::ObjectFile
                                               : llvm::CodeGenFileType::AssemblyFile;
        if (tm.addPassesToEmitFile(pm, os, nullptr, type)) {
            internal_error << "emit_module: the TargetMachine for " << tm.getTargetTriple().str()
                           << " cannot emit "
                           << (kind == LLVMOutput::Object ? "objects" : "assembly") << "\n";
        }
        pm.run(*copy);
        break;
    }
    }
    return std::string(bytes.data(), bytes.size());
}

} // namespace internal
} // namespace loom
