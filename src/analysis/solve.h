#ifndef LOOM_ANALYSIS_SOLVE_H
#define LOOM_ANALYSIS_SOLVE_H

/// \file Solving a condition for one integer variable: the values of `var` for which a boolean
/// condition is true, as one interval whose ends are expressions in the other (invariant)
/// variables. Loop partitioning (src/lower/partition_loops.h) uses it to find the steady state
/// of a loop, where every boundary clamp is known to take its likely side.
///
/// Handled: comparisons (<, <=, >, >=, ==, !=) of Int(32)/Int(64) expressions built from `var`
/// with +, -, * and / by constants, min and max (of var-dependent or invariant operands),
/// likely(), Let; &&, ||, ! of such conditions; invariant conditions (which make the interval
/// empty when they are false). Anything else gives up.
///
/// Examples (tests/unit/analysis/solve_test.cpp has many more):
///   solve_for_inner_interval(x - 1 >= m, "x")                    == [m + 1, +inf]
///   solve_for_inner_interval(2 * x < 7 && 0 <= x, "x")            == [0, 3]
///   solve_for_inner_interval(min(x + 1, e) <= 9, "x")             == [select(e <= 9, -inf, ...
///   solve_for_inner_interval(x >= a && 0 < e, "x")
///       == [select(0 < e, a, 2147483647), select(0 < e, 2147483647, -2147483648)]
/// (the last: when 0 < e is false the interval is [max, min] of the type: empty).

#include "analysis/interval.h"

#include <string>

namespace loom {
namespace internal {

/// An interval of values of the integer variable `var` for all of which `cond` is true (an
/// under-approximation: `cond` may also hold outside it). The ends are simplified expressions
/// in the condition's other free variables; an end without a bound is the Interval marker. The
/// interval may be empty for some values of those variables (its min then exceeds its max).
/// Interval::nothing() means the solver could not find such an interval (it gave up, or the
/// condition is never true), which is always a correct answer.
Interval solve_for_inner_interval(const Expr &cond, const std::string &var);

/// The same, with the conditions that do not depend on `var` but that `cond` requires (its
/// invariant conjuncts, and those the solver derives: min(x, h) >= l is x >= l && h >= l)
/// returned in *invariant instead of folded into the interval's ends: every value in the
/// result satisfies `cond` when *invariant is true. *invariant is const_true() when there are
/// none. The ends then have no selects on such conditions.
Interval solve_for_inner_interval(const Expr &cond, const std::string &var, Expr *invariant);

} // namespace internal
} // namespace loom

#endif
