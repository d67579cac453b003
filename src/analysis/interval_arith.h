#ifndef LOOM_ANALYSIS_INTERVAL_ARITH_H
#define LOOM_ANALYSIS_INTERVAL_ARITH_H

/// \file Arithmetic on Intervals: the result interval of each operator given its operands'
/// intervals, for values of element type t. These are the building blocks of
/// bounds_of_expr_in_scope (bounds.h), usable on their own when a caller already holds the
/// operand intervals.
///
/// Every function is exact (tight) when the operand ends are constants, and otherwise builds
/// small symbolic ends with simplify(), using can_prove() to pick sides by sign. Integer
/// division and modulo are Euclidean and x / 0 == x % 0 == 0, as everywhere in Loom. Types that
/// wrap on overflow (unsigned, and signed narrower than 32 bits) get their type's full range
/// whenever wrap-around cannot be ruled out; Int(32) and Int(64) arithmetic is assumed not to
/// overflow unless the constant ends show that it does.

#include "analysis/interval.h"

#include <string>

namespace loom {
namespace internal {

/// Replaces the unbounded ends of i with t's limits when t is a bounded type (see
/// bounds_of_type), and narrows constant ends that exceed them.
Interval fit_to_type(const Interval &i, Type t);

Interval add_intervals(const Interval &a, const Interval &b, Type t);
Interval sub_intervals(const Interval &a, const Interval &b, Type t);
Interval mul_intervals(const Interval &a, const Interval &b, Type t);
/// Euclidean division for integers (real division for floats).
Interval div_intervals(const Interval &a, const Interval &b, Type t);
/// Euclidean remainder for integers (result in [0, |b| - 1]); a - b * floor(a / b) for floats.
Interval mod_intervals(const Interval &a, const Interval &b, Type t);
Interval min_intervals(const Interval &a, const Interval &b, Type t);
Interval max_intervals(const Interval &a, const Interval &b, Type t);

/// The comparisons whose Bool intervals compare_intervals computes (GT/GE swap operands; NE is
/// not_interval of EQ).
enum class Cmp { LT, LE, EQ };
/// The Bool interval of `a cmp b`: [true, true] when it holds for every value, [false, false]
/// when for none, otherwise a symbolic or [false, true] interval.
Interval compare_intervals(const Interval &a, const Interval &b, Cmp cmp);
Interval and_intervals(const Interval &a, const Interval &b);
Interval or_intervals(const Interval &a, const Interval &b);
Interval not_interval(const Interval &a);

/// The interval of cast<to>(x) for x in a (of type from): exact when every value fits in `to`,
/// `to`'s full range when a narrowing cast may wrap.
Interval cast_interval(const Interval &a, Type from, Type to);
/// saturating_cast<to>(x) for x in a: a clamped to `to`'s range.
Interval saturating_cast_interval(const Interval &a, Type from, Type to);
/// A value in v promised to lie in `clamp` (promise_clamped): the intersection.
Interval promise_interval(const Interval &v, const Interval &clamp);
/// abs(x) for x in a of type arg; result of type result (unsigned for integers).
Interval abs_interval(const Interval &a, Type arg, Type result);
/// absd(x, y) = |x - y| computed without overflow; result of type result.
Interval absd_interval(const Interval &a, const Interval &b, Type arg, Type result);
Interval bitand_interval(const Interval &a, const Interval &b, Type t);
Interval bitor_interval(const Interval &a, const Interval &b, Type t);
Interval bitxor_interval(const Interval &a, const Interval &b, Type t);
Interval bitnot_interval(const Interval &a, Type t);
/// a << b (left) or a >> b (arithmetic for signed a); a negative shift shifts the other way.
Interval shift_interval(const Interval &a, const Interval &b, Type t, bool left);
/// Intrinsics computed exactly in a wider type and narrowed back: saturating_add,
/// saturating_sub, halving_add, rounding_halving_add (named by their Call:: names).
Interval exact_wide_interval(const std::string &intrinsic, const Interval &a, const Interval &b,
                             Type t);
/// Float math functions of one argument by their PureExtern names ("floor_f32", "sqrt_f64",
/// ...): monotone ones map the ends; others are unbounded.
Interval monotone_math_interval(const std::string &name, const Interval &a, Type t);

} // namespace internal
} // namespace loom

#endif
