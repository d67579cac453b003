#ifndef LOOM_LOWER_SKIP_STAGES_H
#define LOOM_LOWER_SKIP_STAGES_H

/// \file Skip stages: a Func whose consumers use it only under a condition is computed only
/// when that condition holds, as in Halide. For `out(x, y) = select(p, a(x, y), b(x, y))` with a
/// and b computed at root, `produce a` becomes `if (p) produce a` and `produce b` becomes
/// `if (!p) produce b`; with a and b computed at out's y loop and `select(y < 5, a, b)`, each row
/// computes one of them.
///
/// The condition is read off the consumer (`consume f` and what it encloses): each call to f
/// contributes the conjunction of the select and if conditions it sits under; lets the
/// conjunction names are substituted, and a loop variable it names is eliminated by asking
/// whether the condition holds for some iteration (the upper bound of the condition over the
/// loop's range: `x < 5` for x in [m, M] becomes `m < 5`). A condition that reads a Func or a
/// buffer (not yet computed where f is produced), that the bounds cannot eliminate a loop from,
/// or that grows past 256 nodes (nested selects, substituted let chains: not worth testing at
/// run time), counts as always true. f is used wherever its buffer is named (extern stages).
///
/// Not skipped where the condition differs between the lanes of an enclosing vectorized loop
/// (the loop would stay scalar). Left alone: outputs; Funcs stored outside the loop they are
/// computed in (sliding windows and folded storage need every iteration's values), unless only
/// their allocation is hoisted there (hoist_storage); memoized
/// Funcs (the cache must not store what was not computed); Funcs fused by compute_with (their
/// produce holds other Funcs' stages).
///
/// Runs after inject_memoization, on the unflattened loop nest.
/// Tests: tests/compat/halide_skip_stages.cpp (built against Halide 21 too).

#include "lang/call_graph.h"

namespace loom {
namespace internal {

Stmt skip_stages(const Stmt &s, const CallGraph &graph);

} // namespace internal
} // namespace loom

#endif
