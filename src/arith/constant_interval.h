#ifndef LOOM_ARITH_CONSTANT_INTERVAL_H
#define LOOM_ARITH_CONSTANT_INTERVAL_H

/// \file Constant integer intervals: the range of values an integer expression can take, with
/// either end possibly unbounded. Used by the simplifier to prove comparisons and by bounds
/// inference. Arithmetic follows Loom's integer semantics (DESIGN.md §4): division and modulo
/// are Euclidean and x / 0 == x % 0 == 0. Arithmetic on the bounds themselves is exact: a bound
/// that does not fit in int64 becomes undefined (unbounded) rather than wrapping.

#include <loom/expr.h>

#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>

namespace loom {
namespace internal {

/// An interval [min, max] of int64 values; an undefined end means unbounded on that side.
struct ConstantInterval {
    int64_t min = 0, max = 0;
    bool min_defined = false, max_defined = false;

    /// Unbounded on both sides (the default).
    ConstantInterval() = default;
    ConstantInterval(int64_t lo, bool lo_defined, int64_t hi, bool hi_defined)
        : min(lo), max(hi), min_defined(lo_defined), max_defined(hi_defined) {}

    /// (-inf, inf)
    static ConstantInterval everything();
    /// [v, v]
    static ConstantInterval single_point(int64_t v);
    /// [lo, hi]
    static ConstantInterval bounded(int64_t lo, int64_t hi);
    /// [lo, inf)
    static ConstantInterval bounded_below(int64_t lo);
    /// (-inf, hi]
    static ConstantInterval bounded_above(int64_t hi);
    /// The values of an integer type ([0, 255] for uint8; uint64 is [0, inf) since its top half
    /// does not fit in int64). Non-integer types give everything().
    static ConstantInterval bounds_of_type(Type t);

    bool is_single_point() const { return min_defined && max_defined && min == max; }
    bool is_single_point(int64_t v) const { return is_single_point() && min == v; }
    bool is_bounded() const { return min_defined && max_defined; }
    bool is_everything() const { return !min_defined && !max_defined; }
    /// True when min > max (only possible for intersections of disjoint intervals).
    bool is_empty() const { return min_defined && max_defined && min > max; }
    bool contains(int64_t v) const {
        return (!min_defined || min <= v) && (!max_defined || v <= max);
    }
    /// Whether every value of this interval is in `o`.
    bool is_subset_of(const ConstantInterval &o) const;
    /// Whether every value of this interval is representable in t.
    bool within(Type t) const;

    /// Grow to include `o` (union hull) or a single value.
    void include(const ConstantInterval &o);
    void include(int64_t v);
    static ConstantInterval make_union(const ConstantInterval &a, const ConstantInterval &b);
    static ConstantInterval make_intersection(const ConstantInterval &a, const ConstantInterval &b);

    /// The interval of the values after conversion to integer type t: unchanged when it fits,
    /// else t's full range (wrap-around can produce any value). For a non-integer t returns
    /// everything(); for bool, [0, 1] unless the interval is exactly {0}.
    ConstantInterval cast_to(Type t) const;
    /// The interval of an arithmetic result of type t: unchanged when it fits, else the type's
    /// full range, since the result wrapped. This holds for Int(32) too: the simplifier may
    /// assume Int(32) index arithmetic does not overflow, but the expressions it builds by
    /// reassociating can, so bounds never rely on that assumption.
    ConstantInterval fit_to(Type t) const;

    bool operator==(const ConstantInterval &o) const;
    bool operator!=(const ConstantInterval &o) const { return !(*this == o); }
};

/// Interval arithmetic (exact on the bounds; an overflowing bound becomes unbounded).
ConstantInterval operator+(const ConstantInterval &a, const ConstantInterval &b);
ConstantInterval operator-(const ConstantInterval &a, const ConstantInterval &b);
ConstantInterval operator-(const ConstantInterval &a);
ConstantInterval operator*(const ConstantInterval &a, const ConstantInterval &b);
/// Euclidean division; a divisor range containing 0 contributes 0 (x / 0 == 0).
ConstantInterval operator/(const ConstantInterval &a, const ConstantInterval &b);
/// Euclidean modulo: within [0, max|b| - 1] (0 when b can be 0), refined when a is small.
ConstantInterval operator%(const ConstantInterval &a, const ConstantInterval &b);
ConstantInterval min(const ConstantInterval &a, const ConstantInterval &b);
ConstantInterval max(const ConstantInterval &a, const ConstantInterval &b);
/// |a|
ConstantInterval abs(const ConstantInterval &a);

/// Prints "[lo, hi]" with "-inf"/"inf" for unbounded ends.
std::ostream &operator<<(std::ostream &os, const ConstantInterval &i);

/// The range of values of the integer (or bool) expression `e`, per lane for vectors. Variables
/// are looked up in `scope` (Let bindings inside `e` are handled), otherwise bounded by their
/// type. The result always lies within e's type's range; float or handle expressions give
/// everything().
ConstantInterval constant_integer_bounds(const Expr &e,
                                         const std::map<std::string, ConstantInterval> &scope = {});

} // namespace internal
} // namespace loom

#endif
