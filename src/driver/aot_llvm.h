#ifndef LOOM_DRIVER_AOT_LLVM_H
#define LOOM_DRIVER_AOT_LLVM_H

/// \file The LLVM module of an ahead-of-time compiled pipeline (src/driver only).
///
/// For a Module named `fn` compiled from LoweredFunc `lowered` it defines (Halide's AOT ABI):
///   int fn([void *__user_context,] <the user's arguments in their order>, <outputs>)
///       buffers as halide_buffer_t*, scalars by value (bool as one byte, 0 or 1); the user
///       context comes first only with the target feature user_context (else the lowered code
///       gets null). Arguments the pipeline does not use are accepted and ignored.
///   int fn_argv(void **args)
///       the same arguments in the same order; args[i] points at a scalar's value (for the user
///       context: at a void*), or IS the halide_buffer_t* of a buffer.
///   const struct halide_filter_metadata_t *fn_metadata(void)
/// (argv and metadata as LinkageType says), the lowered code itself as an internal function,
/// constant copies of Buffers the pipeline uses that the user did not list, and, unless the
/// target has no_runtime, the runtime (src/runtime compiled to bitcode at build time) with
/// every definition weak: two pipelines in one program share one copy, and a program overrides
/// any runtime function (halide_error, halide_malloc, ...) by defining it.

#include "codegen/llvm/llvm_headers.h"
#include "driver/module_contents.h"

#include <memory>

namespace loom {
namespace internal {

/// Turns the lowered function codegen_llvm generated into `module` into the internal function
/// behind the entry points `m` describes (above). The one place the entry ABI is built: the
/// JIT uses it too, with the lowered arguments as the public ones (jit.cpp).
void add_entry_points(llvm::Module &module, const ModuleContents &m, llvm::TargetMachine &tm);

/// Builds, links and optimizes the module for `m` with tm (from make_target_machine(m.target)).
std::unique_ptr<llvm::Module> build_aot_module(const ModuleContents &m, llvm::LLVMContext &ctx,
                                               llvm::TargetMachine &tm);

/// Links the runtime bitcode for t's architecture into `module` (its triple and data layout
/// win) and makes every runtime definition with external linkage weak. A CompileError for an
/// architecture without a runtime build (x86-64 and arm-64 have one).
void link_runtime(llvm::Module &module, const Target &t);

} // namespace internal
} // namespace loom

#endif
