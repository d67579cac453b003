#ifndef LOOM_CODEGEN_LLVM_LLVM_TARGET_H
#define LOOM_CODEGEN_LLVM_LLVM_TARGET_H

/// \file From a loom::Target to LLVM: the triple, CPU and feature string Halide picks for it,
/// the TargetMachine that generates code for it, and the serialization of a finished module
/// (object file, assembly, bitcode, textual IR). Used by the JIT (src/driver/jit.cpp) and by
/// ahead-of-time compilation. Only src/codegen/llvm and src/driver include this header.

#include "codegen/llvm/llvm_headers.h"

#include <loom/target.h>

#include <memory>
#include <string>

namespace loom {
namespace internal {

/// The LLVM triple for t, as Halide writes it: x86-64-linux -> "x86_64-unknown-linux-gnu",
/// x86-32 -> "i386-...", arm-64-linux -> "aarch64-unknown-linux-gnu", arm-32-linux ->
/// "armv7a-unknown-linux-gnueabihf", osx -> "...-apple-macosx", windows -> "...-pc-windows-msvc",
/// android -> "...-linux-android(eabi)", ios -> "arm64-apple-ios". A CompileError for a target
/// with no architecture or word size.
std::string llvm_triple(const Target &t);

/// The CPU LLVM generates code for (Halide's mcpu): x86 "k8" (SSE2), "penryn" (SSE4.1),
/// "corei7-avx", "haswell" (AVX2), "skylake-avx512", "cannonlake", "sapphirerapids", "znver4",
/// "znver5"; arm64 "generic" ("cyclone"/"apple-a12" on iOS/macOS, "cortex-x1" with SVE2); arm32
/// "cortex-a9" ("swift" with ARMv7s).
std::string llvm_cpu(const Target &t);

/// The comma-separated LLVM feature string for t's features (Halide's mattrs), e.g.
/// "+fma,+f16c" or "+neon,+dotprod,+fullfp16".
std::string llvm_features(const Target &t);

/// The TargetOptions for t (hard/soft float ABI, init arrays, function sections).
llvm::TargetOptions llvm_target_options(const Target &t);

/// Initializes every target this LLVM build has (info, MC, code generator, assembly printer and
/// parser). Idempotent and thread-safe.
void initialize_llvm_targets();

/// The TargetMachine for t: llvm_triple / llvm_cpu / llvm_features, PIC relocations, the large
/// code model with Target::LLVMLargeCodeModel (else the default), CodeGenOptLevel::Aggressive.
/// A CompileError naming the target string when this LLVM has no backend for it.
std::unique_ptr<llvm::TargetMachine> make_target_machine(const Target &t);

/// The forms emit_module writes.
enum class LLVMOutput {
    Object,       ///< a relocatable object file (ELF / Mach-O / COFF, as the triple says)
    Assembly,     ///< the target's assembly text
    Bitcode,      ///< LLVM bitcode
    LLVMAssembly, ///< textual LLVM IR
};

/// Serializes an (already optimized) module m in the given form, using tm for Object and
/// Assembly (m must have tm's triple and data layout, as codegen_llvm gives it). Throws
/// InternalError with LLVM's message on failure. m is left unchanged (the code generator's
/// passes run on a copy), so one module can be emitted in several forms.
std::string emit_module(llvm::Module &m, llvm::TargetMachine &tm, LLVMOutput kind);

} // namespace internal
} // namespace loom

#endif
