#ifndef LOOM_DRIVER_AOT_C_H
#define LOOM_DRIVER_AOT_C_H

/// \file The C99 translation unit of an ahead-of-time pipeline (OutputFileType::c_source): the
/// C back end's code (codegen/c/codegen_c.h) behind the same public entry points as the LLVM
/// back end's object files (aot_llvm.h): `<name>`, `<name>_argv` and `<name>_metadata`, with
/// the header of aot_header.h. It carries everything it needs, so it builds with
/// `cc -std=c99 -pedantic -c` and links with `-lm -lpthread` alone:
/// - the runtime's declarations (include/loom/runtime/loom_runtime.h) and the C runtime
///   (src/runtime/c/), whose functions are weak: several pipelines link together, and a
///   program's own (or libloom's) definitions take precedence;
/// - the SIMD mappings (src/codegen/c/simd/), one chosen when the C is compiled:
///   -DLOOM_SIMD_SCALAR, -DLOOM_SIMD_GENERIC (the default under GCC and Clang),
///   -DLOOM_SIMD_AVX2 (with -mavx2 -mfma) and -DLOOM_SIMD_NEON (AArch64): the generic mapping
///   plus intrinsics, or -DLOOM_SIMD_HEADER='"my_dsp.h"' for a mapping of one's own;
/// - -DLOOM_C_NO_THREADS builds for targets without POSIX threads (parallel loops run
///   serially).
/// Buffers the pipeline uses without listing them are embedded as constant data, as in Halide.

#include "driver/module_contents.h"

#include <string>

namespace loom {
namespace internal {

/// The text of m's C translation unit. Target features the C runtime has no support for
/// (GPU APIs, tracing, profiling) are a CompileError that names them.
std::string aot_c_source(const ModuleContents &m);

} // namespace internal
} // namespace loom

#endif
