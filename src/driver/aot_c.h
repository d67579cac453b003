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
///   -DLOOM_SIMD_AVX2 (with -mavx2 -mfma), -DLOOM_SIMD_SSE41 (with -msse4.1) and
///   -DLOOM_SIMD_NEON (AArch64): the generic mapping plus intrinsics, or
///   -DLOOM_SIMD_HEADER='"my_dsp.h"' for a mapping of one's own;
/// - -DLOOM_C_NO_THREADS builds for targets without POSIX threads (parallel loops run
///   serially).
/// Buffers the pipeline uses without listing them are embedded as constant data, as in Halide.

#include "driver/module_contents.h"

#include <loom/runtime/loom_runtime.h>

#include <string>

namespace loom {
namespace internal {

/// C99 text defining static storage `name` of `size` bytes aligned as a double (C99 has no
/// alignas): `static [const] union { uint8_t b[size]; double align; } name`, initialized with
/// `data` (zero when null), ending ";\n". Embedded buffers and testbenches hold data this way.
std::string c_byte_storage(const std::string &name, const uint8_t *data, size_t size,
                           bool is_const);
/// C99 text defining `static halide_dimension_t name[]` with b's dimensions (one zero
/// dimension when b has none), ending ";\n".
std::string c_dimension_array(const std::string &name, const halide_buffer_t *b);

/// The text of m's C translation unit. Target features the C runtime has no support for
/// (GPU APIs, tracing, profiling) are a CompileError that names them.
std::string aot_c_source(const ModuleContents &m);

} // namespace internal
} // namespace loom

#endif
