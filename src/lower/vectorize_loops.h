#ifndef LOOM_LOWER_VECTORIZE_LOOPS_H
#define LOOM_LOWER_VECTORIZE_LOOPS_H

/// \file Vectorization: every ForType::Vectorized loop of constant extent N becomes its body
/// evaluated once with the loop variable replaced by the vector Ramp(min, 1, N) (Halide's
/// VectorizeLoops). Everything that depends on the variable is widened to N lanes:
/// arithmetic, casts, comparisons, select, min/max, lets (a widened let is renamed
/// "<name>.widened.<loop>"), loads (a vector index; codegen makes Ramp indices dense loads,
/// small strides shuffles and the rest gathers), stores, pure intrinsics and pure externs
/// (elementwise). Loop-invariant subexpressions stay scalar.
///
/// - An if whose condition differs between lanes, around stores and lets only, becomes
///   `if (likely(all lanes true)) { vector body } else { predicated body }`: loads and stores
///   get the condition as their predicate. The all-lanes test is a scalar comparison where the
///   lanes' extremes are known (ramps and broadcasts), so partition_loops can give the outer
///   loop a steady state without the test: the GuardWithIf tail of vectorize(x, 8).
/// - A store whose index is the same for every lane but whose value varies (an associative
///   update over a vectorized RVar, under atomic()) becomes a VectorReduce and a scalar store
///   for +, *, min, max, && and ||.
/// - Inner loops stay loops when their bounds are the same for every lane.
/// - Anything else (calls with side effects, allocations, parallel or already-vectorized inner
///   loops, inner loops whose bounds vary by lane, other reductions) leaves the loop a serial
///   loop over the lanes: correct, slower. The result lists each such loop with the reason,
///   and lower() warns about it, naming the Func and the loop (Halide scalarizes silently).
///
/// A Vectorized loop whose extent is not a constant is a CompileError naming the loop.

#include <loom/target.h>

#include "ir/ir.h"

#include <string>
#include <vector>

namespace loom {
namespace internal {

/// A loop scheduled vectorize() that stays a serial loop over its lanes.
struct ScalarLoop {
    std::string loop;   ///< the For's name ("f.s0.x.xi")
    std::string reason; ///< why, in the user's terms ("it calls g, which has no vector form")
    /// "The loop over x.xi of f is scheduled to be vectorized, but stays scalar: <reason>."
    std::string message() const;
    bool operator==(const ScalarLoop &o) const { return loop == o.loop && reason == o.reason; }
};

struct VectorizeResult {
    Stmt stmt;
    /// The Vectorized loops left serial, each once, in the order met.
    std::vector<ScalarLoop> scalar_loops;
};

/// Vectorizes the Vectorized loops of s; see the file comment.
VectorizeResult vectorize_loops(const Stmt &s, const Target &target);

} // namespace internal
} // namespace loom

#endif
