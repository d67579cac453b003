#ifndef LOOM_CODEGEN_C_CODEGEN_C_H
#define LOOM_CODEGEN_C_CODEGEN_C_H

/// \file The C back end: a LoweredFunc (lower/lowered_func.h) as C99 source, for any C compiler
/// (DSP toolchains, cross compilers, plain `cc -std=c99 -pedantic`).
///
/// codegen_c writes the definitions the functions need (vector types and operations through
/// the SIMD mapping contract of c_ops.h, scalar helpers, closure structs, declarations of the
/// extern functions called), then
///   static int <impl_name>(void *uc, <args in LoweredFunc order after args[0]>)
/// (a buffer argument is a halide_buffer_t *, a scalar its C type, bool as bool) and, before
/// it, each parallel task of f.functions with the runtime's task signature (halide_task_t,
/// halide_loop_task_t), all `static`. It returns 0 or the code of the first failed assertion,
/// after freeing the heap allocations in scope and running registered destructors, exactly as
/// the LLVM back end (codegen/llvm/codegen_llvm.h). The text assumes <stdint.h>, <stdbool.h>,
/// <string.h>, <math.h>, the runtime header (include/loom/runtime/loom_runtime.h) and a SIMD
/// mapping (codegen/c/simd/) precede it: the driver (driver/aot_c.h) assembles the translation
/// unit and the public entry points.
///
/// What has no C translation is a CompileError naming it: GPU kernels, float16 and bfloat16
/// values, calls to C++ functions, tracing and profiling calls (the target features are refused
/// earlier, by the driver). Tests: tests/correctness/c_backend.cpp.

#include "lower/lowered_func.h"

#include <loom/target.h>

#include <string>

namespace loom {
namespace internal {

/// The C source of f as above. `declared` is C text already in the translation unit (the
/// runtime header): functions declared there are called without a new declaration.
std::string codegen_c(const LoweredFunc &f, const std::string &impl_name, const Target &target,
                      const std::string &declared);

/// Whether every float operation of f must be rounded as written: the target has StrictFloat or
/// f uses strict_float (the C compiler's float options apply to whole functions, not to single
/// expressions). Otherwise the translation unit lets the C compiler contract a * b + c into a
/// fused multiply-add, as the LLVM back end does (driver/aot_c.cpp).
bool c_needs_strict_float(const LoweredFunc &f, const Target &target);

} // namespace internal
} // namespace loom

#endif
