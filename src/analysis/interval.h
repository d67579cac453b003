#ifndef LOOM_ANALYSIS_INTERVAL_H
#define LOOM_ANALYSIS_INTERVAL_H

/// \file Symbolic closed intervals [min, max] of Exprs, the values of the bounds analysis
/// (bounds.h). A side without a bound holds one of two marker Exprs, Interval::neg_inf() or
/// Interval::pos_inf(): Int(32) Variables named "neg_inf" / "pos_inf". The markers never appear
/// inside a larger expression: every operation on intervals checks for them first.
///
/// Examples: [0, 9]; [x.min - 1, x.max + 1]; [neg_inf, 255]; everything() == [neg_inf, pos_inf];
/// nothing() == [pos_inf, neg_inf] (the empty interval, the identity of include()).

#include <loom/expr.h>

namespace loom {
namespace internal {

/// A symbolic closed interval [min, max] (both ends included).
struct Interval {
    /// The smallest and largest value; neg_inf() / pos_inf() when unbounded on that side.
    Expr min, max;

    /// The empty interval (same as nothing()).
    Interval();
    Interval(const Expr &min, const Expr &max);

    /// (-inf, +inf): no information.
    static Interval everything();
    /// The empty interval [pos_inf, neg_inf]; include() into it gives the included value.
    static Interval nothing();
    /// [e, e].
    static Interval single_point(const Expr &e);

    /// The marker for "no upper bound".
    static Expr pos_inf();
    /// The marker for "no lower bound".
    static Expr neg_inf();
    /// Whether e is the pos_inf() / neg_inf() marker.
    static bool is_pos_inf(const Expr &e);
    static bool is_neg_inf(const Expr &e);

    /// Unbounded on both sides.
    bool is_everything() const;
    /// The empty interval (min is pos_inf or max is neg_inf).
    bool is_empty() const;
    /// min and max are the same finite expression (same node or structurally equal).
    bool is_single_point() const;
    /// Whether this is exactly [e, e].
    bool is_single_point(const Expr &e) const;
    /// Both ends finite.
    bool is_bounded() const;
    bool has_lower_bound() const;
    bool has_upper_bound() const;

    /// Grow to the union with o (symbolic min/max of the ends, simplified).
    void include(const Interval &o);
    /// Grow to contain the value e (a scalar expression).
    void include(const Expr &e);
    /// Shrink to the intersection with o (symbolic max/min of the ends, simplified).
    void intersect(const Interval &o);

    /// The smallest interval containing a and b.
    static Interval make_union(const Interval &a, const Interval &b);
    /// The intersection of a and b (may be empty, which is not always provable symbolically).
    static Interval make_intersection(const Interval &a, const Interval &b);

    /// min(a, b) / max(a, b) of interval ends, treating the markers as infinities.
    static Expr make_min(const Expr &a, const Expr &b);
    static Expr make_max(const Expr &a, const Expr &b);
};

/// Prints "[min, max]" (ends print as -inf / +inf when unbounded).
std::ostream &operator<<(std::ostream &os, const Interval &i);

} // namespace internal
} // namespace loom

#endif
