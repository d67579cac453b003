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
///   loop over the lanes: correct, slower.
///
/// A Vectorized loop whose extent is not a constant is a CompileError naming the loop.

#include <loom/target.h>

#include "ir/ir.h"

#include <map>
#include <string>

namespace loom {
namespace internal {

/// Vectorizes the Vectorized loops of s; see the file comment.
Stmt vectorize_loops(const Stmt &s, const Target &target);

/// A scalar condition true exactly when every lane of the vector condition `cond` is true,
/// built from the lanes' extremes (ramps with constant strides, broadcasts, sums, products by
/// constants, min/max, likely(), and the variables in `lets`, widened lets whose vector values
/// it looks through); && splits. Undefined when it cannot tell (e.g. data-dependent lanes).
Expr all_lanes_true(const Expr &cond, const std::map<std::string, Expr> &lets = {});

} // namespace internal
} // namespace loom

#endif
