#ifndef LOOM_LOWER_BOUNDS_INFERENCE_H
#define LOOM_LOWER_BOUNDS_INFERENCE_H

/// \file Bounds inference: defines the free bound variables schedule_functions left, from the
/// regions consumers need (interval analysis over the loop nest, src/analysis/bounds.h).
///
/// For every `realize f` (processed innermost first, so a consumer's bounds are defined before
/// its producers are sized), with R = the box of f read by the `consume f` part (for an output,
/// also the output buffer's region "<f>.min.<d>" .. + "<f>.extent.<d>" - 1):
///  - the stages are sized last to first: stage k's pure Vars span R ("<f>.s<k>.<v>.min/.max"),
///    then R grows by what stage k reads of f (stage k - 1 must have computed it);
///  - the storage covers what any stage reads or writes: "<f>.<v>.min_realized" and
///    "<f>.<v>.extent_realized";
/// all as LetStmts around the Realize. A region the analysis cannot bound (f(g(x)) with g
/// unbounded int32 data) is a CompileError naming both Funcs.
///
/// Example (out(x) = f(x - 1) + f(x + 1), f compute_root):
///   let f.s0.x.max = out.s0.x.max + 1 ... let f.x.min_realized = out.s0.x.min + -1 ...
///   realize f([f.x.min_realized, f.x.extent_realized]) { produce f {...} consume f {...} }
/// Tests: tests/unit/lower/bounds_inference_test.cpp.

#include "lang/call_graph.h"

namespace loom {
namespace internal {

/// Defines the bounds of every realization in s (schedule_functions(graph)) from what its
/// consumers need; indices read from pure Funcs are bounded by graph.value_bounds.
Stmt bounds_inference(const Stmt &s, const CallGraph &graph);

} // namespace internal
} // namespace loom

#endif
