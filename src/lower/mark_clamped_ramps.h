#ifndef LOOM_LOWER_MARK_CLAMPED_RAMPS_H
#define LOOM_LOWER_MARK_CLAMPED_RAMPS_H

/// \file Hand-written boundary conditions (`f(clamp(2 * x - 1, 0, w - 1))`) leave, once x is
/// vectorized, a clamped ramp in a vector index: `max(min(ramp(b, s, n), w - 1), 0)`, which is
/// a gather in every iteration although the clamp only bites at the edges. This pass marks the
/// ramp operand of each min/max in a vector index likely(), as Halide's partition_loops does
/// (also a ramp offset by a broadcast or clamped itself: max(min(ramp, w) + -1, 0), a phase
/// of clamp(x / 2 - 1, 0, w - 1) once deinterleave_vector_phases split x), so that partition_loops
/// splits the loop into edges and a steady state where the index is the bare ramp (a dense or
/// strided load). Looked at: Load and Store indices, and the values of vector integer lets
/// (vectorization binds widened indices to lets). Runs right before partition_loops, which removes
/// every tag (lower.cpp). Tests: tests/correctness/clamped_ramps.cpp.

#include "ir/ir.h"

namespace loom {
namespace internal {

/// s with the ramps clamped by min/max in vector indices tagged likely().
Stmt mark_clamped_ramps(const Stmt &s);

} // namespace internal
} // namespace loom

#endif
