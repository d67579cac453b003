#ifndef LOOM_COMPAT_HALIDE_BUFFER_H
#define LOOM_COMPAT_HALIDE_BUFFER_H

/// \file Halide-source compatibility: Halide::Runtime::Buffer is loom::Runtime::Buffer.

#include "HalideRuntime.h"
#include <loom/runtime/loom_buffer.h>

/// Halide's namespace is Loom's (redeclaring this alias elsewhere, e.g. in Halide.h, is fine).
namespace Halide = loom;

#endif
