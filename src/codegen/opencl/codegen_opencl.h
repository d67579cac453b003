#ifndef LOOM_CODEGEN_OPENCL_CODEGEN_OPENCL_H
#define LOOM_CODEGEN_OPENCL_CODEGEN_OPENCL_H

/// \file The OpenCL C back end for device kernels: one OpenCL C 1.2 translation unit for the
/// kernels of a pipeline (lower/lowered_func.h's LoweredKernel), which the OpenCL runtime builds
/// with clBuildProgram and launches by name. No LLVM: the device compiler does the rest.
///
/// Each kernel becomes
///   __kernel void <name>(<args in order>[, __local uchar *__loom_shared])
/// where a buffer argument is `__global <T> *restrict <ident>` (`__global const <T> *restrict`
/// when the kernel never stores to it), a scalar argument is its C type by value (bool as
/// uchar), and the trailing `__local uchar *__loom_shared` is present only when the body names
/// "__loom_shared" (a Variable or the buffer of a Load/Store): the runtime passes it when the
/// launch has shared memory. IR names map to C identifiers by replacing characters that are not
/// letters, digits or '_' with '_', prefixing names that could clash with OpenCL C (keywords,
/// built-ins, macros) and numbering repeats, deterministically.
///
/// Values follow the CPU back end (codegen/llvm) exactly where OpenCL C lets them: Euclidean
/// integer division and modulo (zero for a zero divisor), wrapping 8-, 16- and 64-bit arithmetic,
/// saturating and widening intrinsics, lerp, shifts by any amount. Float math calls use the
/// OpenCL built-ins (within OpenCL's error bounds, not bit-identical to the CPU's libm); division
/// and sqrt are correctly rounded only if the runtime builds with
/// -cl-fp32-correctly-rounded-divide-sqrt. `#define LOOM_STRICT_FLOAT 1` (and FP_CONTRACT OFF)
/// starts the source when a kernel uses strict_float or the target has StrictFloat; the runtime
/// then builds without fast-math options. Anything without an exact translation (float16 and
/// bfloat16 values, vectors of other than 2, 3, 4, 8 or 16 lanes, 64-bit lerp and
/// mul_shift_right, extern calls, asserts, atomics, GPU-shared allocations) is an InternalError
/// naming the node and the kernel. Tests: tests/unit/codegen/opencl_codegen_test.cpp.

#include "lower/lowered_func.h"

#include <loom/target.h>

#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The OpenCL C source of `kernels` (each with api DeviceAPI::OpenCL), one __kernel per kernel
/// in order, for `target` (StrictFloat is read).
std::string codegen_opencl_source(const std::vector<LoweredKernel> &kernels, const Target &target);

} // namespace internal
} // namespace loom

#endif
