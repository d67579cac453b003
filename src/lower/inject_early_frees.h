#ifndef LOOM_LOWER_INJECT_EARLY_FREES_H
#define LOOM_LOWER_INJECT_EARLY_FREES_H

/// \file Frees each heap allocation right after its last use (Halide's early frees).
/// An Allocate's buffer lives until the end of its body. A Func computed at the root is
/// allocated around everything after its production, so without this a chain of root stages
/// (the layers of a network, the levels of a pyramid) holds every intermediate buffer until the
/// pipeline ends. The pass walks the Allocate's body through Blocks, lets, producer/consumer
/// markers and nested allocations, finds the last statement of that sequence that uses the
/// buffer (a loop or an if that uses it counts as a whole: the Free never lands inside a loop),
/// and places a Free after it. Stack allocations are left alone.
/// Tests: tests/unit/lower/inject_early_frees_test.cpp.

#include "ir/ir.h"

namespace loom {
namespace internal {

/// s with a Free after the last use of each heap allocation that is used before the end of
/// its scope (see the file comment).
Stmt inject_early_frees(const Stmt &s);

} // namespace internal
} // namespace loom

#endif
