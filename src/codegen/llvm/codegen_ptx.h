#ifndef LOOM_CODEGEN_LLVM_CODEGEN_PTX_H
#define LOOM_CODEGEN_LLVM_CODEGEN_PTX_H

/// \file CUDA kernels: LoweredKernels (lower/lowered_func.h) compiled through LLVM's NVPTX
/// back end into one PTX module, which the CUDA driver compiles for the GPU it runs on
/// (src/runtime/cuda.cpp). The kernels' arithmetic is CodeGenLLVM's, so they compute what the
/// CPU code computes; math functions use libdevice when it is found (the CUDA toolkit's, or the
/// nvidia-cuda-nvcc-cu12 wheel's; LOOM_LIBDEVICE_PATH names one), otherwise the GPU's
/// approximate instructions for sin, cos, exp, log and pow in float32 and a CompileError for the
/// others.

#include <loom/target.h>

#include "lower/lowered_func.h"

#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The PTX module of `kernels`, for the GPU architecture target's cuda_capability_* features
/// name (sm_50 without one).
std::string codegen_ptx(const std::vector<LoweredKernel> &kernels, const Target &target);

/// "sm_XX" for target's highest cuda_capability feature ("sm_50" without one).
std::string cuda_architecture(const Target &target);

} // namespace internal
} // namespace loom

#endif
