#ifndef LOOM_CODEGEN_DEVICE_CODE_H
#define LOOM_CODEGEN_DEVICE_CODE_H

/// \file The device back ends behind one entry point: the GPU kernels of a pipeline for one
/// API become that API's device module, which the host module embeds and hands to
/// halide_<api>_initialize_kernels (src/runtime/cuda.cpp, opencl.cpp).

#include <loom/target.h>

#include "lower/lowered_func.h"

#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The device module of `kernels` (all for `api`) for target's device features: PTX text for
/// CUDA (codegen/llvm/codegen_ptx.h), OpenCL C source for OpenCL (codegen/opencl).
std::string compile_device_kernels(DeviceAPI api, const std::vector<LoweredKernel> &kernels,
                                   const Target &target);

} // namespace internal
} // namespace loom

#endif
