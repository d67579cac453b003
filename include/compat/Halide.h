#ifndef LOOM_COMPAT_HALIDE_H
#define LOOM_COMPAT_HALIDE_H

/// \file Halide source compatibility: a program written against Halide's C++ API builds
/// against Loom by including this header instead of Halide's.

#include <loom/loom.h>

/// The version of Halide whose API and semantics Loom follows.
#define HALIDE_VERSION_MAJOR 21
#define HALIDE_VERSION_MINOR 0
#define HALIDE_VERSION_PATCH 0

namespace loom {
/// Halide::Internal names Loom's internal namespace.
namespace Internal = internal;
} // namespace loom

/// Every Halide:: name is the Loom name.
namespace Halide = loom;

#endif
