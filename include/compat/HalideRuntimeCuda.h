#ifndef LOOM_COMPAT_HALIDE_RUNTIME_CUDA_H
#define LOOM_COMPAT_HALIDE_RUNTIME_CUDA_H

/// \file Halide-source compatibility: Halide's HalideRuntimeCuda.h is Loom's CUDA runtime header
/// (same function names and signatures).

#include "HalideRuntime.h"

#include <loom/runtime/loom_runtime_cuda.h>

#endif
