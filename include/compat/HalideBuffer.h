#ifndef LOOM_COMPAT_HALIDE_BUFFER_H
#define LOOM_COMPAT_HALIDE_BUFFER_H

/// \file Halide-source compatibility: Halide::Runtime::Buffer is loom::Runtime::Buffer.

#include "HalideRuntime.h"
#include "halide_namespace.h"
#include <loom/runtime/loom_buffer.h>

#endif
