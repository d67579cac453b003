#ifndef LOOM_LOWER_SCHEDULE_FUNCTIONS_H
#define LOOM_LOWER_SCHEDULE_FUNCTIONS_H

/// \file schedule_functions: the loop nest of the whole pipeline, before bounds are known.
///
/// Walks the realization order backwards (consumers first). Each Func is either inlined into
/// the statement built so far (inline.h), or its computation is injected at its placement:
///   realize f([f.x.min_realized, f.x.extent_realized], ...) {
///     produce f { <stage 0 loop nest> <stage 1 loop nest> ... }
///     consume f { <what was there> }
///   }
/// A Func stored outside its compute level (store_root/store_at) gets the Realize at the store
/// level and only `produce f; consume f` at the compute level:
///   realize f(...) { for (out.s0.y ...) { produce f {...} consume f {...} } }
/// Root placement wraps the whole statement (outputs are computed at the root too, so the
/// first output ends up innermost); Innermost placement wraps the body of every loop whose
/// own statements (not counting nested loops) call f; At wraps the body of the named loop.
/// Stage loop nests come from build_provide_loop_nest.h. Every "<f>.s<k>.<v>.min/.max" and
/// "<f>.<v>.min_realized/.extent_realized" is still free: bounds_inference defines them.
///
/// Example: out(x) = f(x) + 1 with f(x) = x * 2 compute_root:
///   realize f(...) { produce f { for (f.s0.__outermost...) ... f(f.s0.x) = f.s0.x*2 }
///     consume f { realize out(...) { produce out { ... out(out.s0.x) = f(out.s0.x) + 1 }
///                                    consume out { no-op } } } }
/// Tests: tests/unit/lower/schedule_functions_test.cpp.

#include "lang/call_graph.h"

namespace loom {
namespace internal {

/// The loop nest of the pipeline `graph` describes (outputs, realization order, placements,
/// compute_with groups).
Stmt schedule_functions(const CallGraph &graph);

} // namespace internal
} // namespace loom

#endif
