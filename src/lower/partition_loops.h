#ifndef LOOM_LOWER_PARTITION_LOOPS_H
#define LOOM_LOWER_PARTITION_LOOPS_H

/// \file Loop partitioning: a loop whose body holds likely() hints is split into a prologue, a
/// steady state where every hint is statically true, and an epilogue. Boundary conditions put
/// the hints there (repeat_edge reads at clamp(likely(x), min, max)), so the steady state of a
/// stencil over a clamped input has no clamps left and the back end can vectorize it.
///
/// For each serial or parallel loop over v (outermost first, as in Halide), the pass finds the
/// nodes of its whole body whose likely side is marked: min(a, b) / max(a, b) where only a holds
/// a likely tag (steady where a <= b / a >= b, value a), select(c, t, f) where only one value
/// holds a tag or c is likely(..) (steady where the condition picks that side), if (likely(c))
/// (steady where c). Lets inside the loop are looked through. A condition on inner loop
/// variables counts where it holds for all their iterations (relaxed over each inner loop's
/// range by interval arithmetic): the tile loops of a tiled stencil get a steady state of
/// whole tiles inside the input, with no clamps left in any of their inner loops. A scalar
/// clamp invariant in the innermost loop around it counts only under always_partition (LLVM
/// hoists it), unless it is in a Func region's `.min`/`.max` let (bounds inference tags those
/// under a GuardWithIf test): a steady state then gives the Func a constant size. Conditions
/// that read memory or do not depend on v are skipped. Each condition is solved for v
/// (analysis/solve.h); the steady interval is the intersection, and the conditions the solver
/// finds independent of v (the input is not empty) must hold too, else the steady state is
/// empty. Its ends are clamped to the loop's range so that the three loops cover it exactly for
/// every extent (the steady state may be empty). The steady body has those nodes replaced by
/// their likely side, and its inner loops are partitioned in turn by the tags left; the
/// prologue and epilogue run the original body, inner loops whole (as Halide does: it keeps
/// the code from growing as 3^depth for edges that run a few iterations), except the
/// innermost loops of constant trip count that gather, which are partitioned on their own
/// tags (an edge tile of a tiled stencil then gathers only at the border). Tags that mention v
/// (and no inner loop variable) are removed once v's loop is partitioned. Lets whose values,
/// expanded, exceed 512 nodes (the bounds chains of a deep group of Funcs computed per tile)
/// stay names, and conditions through them are not used: expanding them grows exponentially
/// with the depth of the group (minutes of compile time for an autoscheduled pyramid_blend).
/// A parallel loop stays
/// one loop, its body an if between the steady body and the edge code (as in Halide: the edge
/// iterations run beside the steady ones, and there is one join). After the pass no
/// likely() remains, and the result is simplified.
///
/// Assumes flat IR (after storage flattening): loop bounds are final. likely_if_innermost
/// counts only in loops without inner loops (Halide's rule).
///
/// Example (tests/unit/lower/partition_loops_test.cpp has more):
///   for (x, 0, n) {
///     out[x] = in[max(min(likely((x - 1)), 99), 0)]
///   }
/// becomes
///   let x.steady_min = min(n, 1)
///   let x.steady_end = max(min(n, 101), x.steady_min)
///   for (x, 0, x.steady_min) {
///     out[0] = in[0]
///   }
///   for (x, x.steady_min, (x.steady_end - x.steady_min)) {
///     out[x] = in[(x + -1)]
///   }
///   for (x, x.steady_end, (n - x.steady_end)) {
///     out[x] = in[min(max((x + -1), 0), 99)]
///   }

#include "ir/ir.h"

namespace loom {
namespace internal {

/// Partitions the loops of s that hold likely() hints; see the file comment.
Stmt partition_loops(const Stmt &s);

} // namespace internal
} // namespace loom

#endif
