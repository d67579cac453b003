#ifndef LOOM_COMPAT_HALIDE_RUNTIME_OPENCL_H
#define LOOM_COMPAT_HALIDE_RUNTIME_OPENCL_H

/// \file Halide-source compatibility: Halide's HalideRuntimeOpenCL.h is Loom's OpenCL runtime
/// header (same function names and signatures).

#include "HalideRuntime.h"

#include <loom/runtime/loom_runtime_opencl.h>

#endif
