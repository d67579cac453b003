#ifndef LOOM_COMPAT_HALIDE_RUNTIME_H
#define LOOM_COMPAT_HALIDE_RUNTIME_H

/// \file Halide-source compatibility: Halide's HalideRuntime.h is Loom's C runtime header (same
/// structs, same function names).

#include <loom/runtime/loom_runtime.h>

#endif
