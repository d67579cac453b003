#include "analysis/interval_arith.h"

#include "analysis/bounds.h"
#include "ir/ir.h"
#include "ir/ir_utils.h"
#include "simplify/simplify.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <vector>

namespace loom {
namespace internal {

namespace {

// Constant ends are combined exactly in 128-bit integers (every 64-bit value and every sum fits),
// then checked against the result type, so wrap-around is seen instead of folded away.
using i128 = __int128;

using MakeBinary = Expr (*)(Expr, Expr);

bool is_inf(const Expr &e) { return Interval::is_pos_inf(e) || Interval::is_neg_inf(e); }

Expr side_inf(bool upper) { return upper ? Interval::pos_inf() : Interval::neg_inf(); }

bool const_int(const Expr &e, i128 *v) {
    if (const IntImm *i = e.as<IntImm>()) {
        *v = i->value;
        return true;
    }
    if (const UIntImm *u = e.as<UIntImm>()) {
        *v = u->value;
        return true;
    }
    return false;
}

bool const_float(const Expr &e, double *v) {
    if (const FloatImm *f = e.as<FloatImm>()) {
        *v = f->value;
        return true;
    }
    return false;
}

i128 type_min(Type t) { return t.is_uint() ? 0 : -(i128(1) << (t.bits() - 1)); }
i128 type_max(Type t) {
    return t.is_uint() ? (i128(1) << t.bits()) - 1 : (i128(1) << (t.bits() - 1)) - 1;
}

Expr int_const(Type t, i128 v) {
    return t.is_int() ? make_const(t, (int64_t)v) : make_const(t, (uint64_t)v);
}

i128 ediv(i128 a, i128 b) {
    if (b == 0) return 0;
    i128 q = a / b, r = a % b;
    if (r < 0) q += (b > 0) ? -1 : 1;
    return q;
}
i128 emod(i128 a, i128 b) {
    if (b == 0) return 0;
    i128 r = a % b;
    if (r < 0) r += (b > 0) ? b : -b;
    return r;
}
i128 iabs(i128 a) { return a < 0 ? -a : a; }

/// Whether arithmetic in t may wrap around: Loom assumes Int(32) and Int(64) index arithmetic
/// never overflows (DESIGN.md §4), but narrower and unsigned types wrap by definition.
bool may_wrap(Type t) { return t.is_uint() || (t.is_int() && t.bits() < 32); }

/// [lo, hi] as constants of t, or t's full range when the exact result does not fit (the
/// operation wrapped, or for Int(32) overflowed and so says nothing).
Interval const_interval(Type t, i128 lo, i128 hi) {
    if (lo < type_min(t) || hi > type_max(t)) return bounds_of_type(t);
    return Interval(int_const(t, lo), int_const(t, hi));
}

Interval float_interval(Type t, double lo, double hi) {
    if (std::isnan(lo) || std::isnan(hi)) return Interval::everything();
    return Interval(make_const(t, lo), make_const(t, hi));
}

struct IntEnds {
    i128 a0, a1, b0, b1;
};
bool int_ends(const Interval &a, const Interval &b, IntEnds *c) {
    return const_int(a.min, &c->a0) && const_int(a.max, &c->a1) && const_int(b.min, &c->b0) &&
           const_int(b.max, &c->b1);
}
struct FloatEnds {
    double a0, a1, b0, b1;
};
bool float_ends(const Interval &a, const Interval &b, FloatEnds *c) {
    return const_float(a.min, &c->a0) && const_float(a.max, &c->a1) && const_float(b.min, &c->b0) &&
           const_float(b.max, &c->b1);
}

/// An interval end combining finite ends x and y; an unbounded operand end leaves the result
/// unbounded on that side (always a valid, if loose, bound).
Expr end_op(const Expr &x, const Expr &y, bool upper, MakeBinary make) {
    if (is_inf(x) || is_inf(y)) return side_inf(upper);
    i128 a, b;
    Type t = x.type();
    if (t.is_int_or_uint() && const_int(x, &a) && const_int(y, &b)) {
        // Fold constant ends exactly: an end beyond the type's range means the bound is lost on
        // that side (the simplifier would wrap it instead).
        i128 r = 0;
        bool known = true;
        if (make == &Add::make)
            r = a + b;
        else if (make == &Sub::make)
            r = a - b;
        else if (make == &Mul::make)
            known = !__builtin_mul_overflow(a, b, &r);
        else if (make == &Div::make)
            r = ediv(a, b);
        else
            known = false;
        if (known && r >= type_min(t) && r <= type_max(t)) return int_const(t, r);
        if (make != &Min::make && make != &Max::make) return side_inf(upper);
    }
    return simplify(make(x, y));
}

Expr neg(const Expr &x) {
    if (Interval::is_pos_inf(x)) return Interval::neg_inf();
    if (Interval::is_neg_inf(x)) return Interval::pos_inf();
    i128 v;
    if (const_int(x, &v)) {
        // -INT_MIN does not fit: the negated end is beyond the type's range.
        if (-v > type_max(x.type())) return Interval::pos_inf();
        if (-v < type_min(x.type())) return Interval::neg_inf();
        return int_const(x.type(), -v);
    }
    return simplify(Sub::make(make_zero(x.type()), x));
}

Expr cmp_zero(const Expr &e, MakeBinary make) { return make(e, make_zero(e.type())); }

bool prove_ge0(const Expr &e) {
    if (Interval::is_pos_inf(e)) return true;
    if (Interval::is_neg_inf(e)) return false;
    i128 v;
    double d;
    if (const_int(e, &v)) return v >= 0;
    if (const_float(e, &d)) return d >= 0;
    if (e.type().is_uint()) return true;
    return can_prove(cmp_zero(e, &GE::make));
}
bool prove_le0(const Expr &e) {
    if (Interval::is_neg_inf(e)) return true;
    if (Interval::is_pos_inf(e)) return false;
    i128 v;
    double d;
    if (const_int(e, &v)) return v <= 0;
    if (const_float(e, &d)) return d <= 0;
    return can_prove(cmp_zero(e, &LE::make));
}
bool prove_gt0(const Expr &e) {
    if (Interval::is_pos_inf(e)) return true;
    if (Interval::is_neg_inf(e)) return false;
    i128 v;
    double d;
    if (const_int(e, &v)) return v > 0;
    if (const_float(e, &d)) return d > 0;
    return can_prove(cmp_zero(e, &GT::make));
}
bool prove_lt0(const Expr &e) {
    if (Interval::is_neg_inf(e)) return true;
    if (Interval::is_pos_inf(e)) return false;
    i128 v;
    double d;
    if (const_int(e, &v)) return v < 0;
    if (const_float(e, &d)) return d < 0;
    if (e.type().is_uint()) return false;
    return can_prove(cmp_zero(e, &LT::make));
}

/// What can be proven about the sign of an interval's values. Straddle means min <= 0 <= max is
/// proven; Unknown means nothing is, so the interval may lie on either side of zero.
enum class Sign { NonNeg, NonPos, Straddle, Unknown };
Sign sign_of(const Interval &a) {
    if (prove_ge0(a.min)) return Sign::NonNeg;
    if (prove_le0(a.max)) return Sign::NonPos;
    if (prove_le0(a.min) && prove_ge0(a.max)) return Sign::Straddle;
    return Sign::Unknown;
}

bool both_single(const Interval &a, const Interval &b) {
    return a.is_single_point() && b.is_single_point();
}

/// The smallest 2^n - 1 >= x (x >= 0): an upper bound of x | y and x ^ y for 0 <= y <= x.
i128 ones_above(i128 x) {
    i128 r = 0;
    while (r < x) r = r * 2 + 1;
    return r;
}

/// Euclidean a / b for b > 0 (both bounds finite or not).
Interval div_positive(const Interval &a, const Interval &b, Type t) {
    MakeBinary d = &Div::make;
    if (b.is_single_point())
        return Interval(end_op(a.min, b.min, false, d), end_op(a.max, b.min, true, d));
    // An unbounded divisor brings the quotient to 0 (or -1 for a negative numerator).
    auto over_max = [&](const Expr &x, bool upper) {
        return is_inf(b.max) ? make_zero(t) : end_op(x, b.max, upper, d);
    };
    switch (sign_of(a)) {
    case Sign::NonNeg:
        return Interval(over_max(a.min, false), end_op(a.max, b.min, true, d));
    case Sign::NonPos:
        return Interval(end_op(a.min, b.min, false, d), over_max(a.max, true));
    case Sign::Straddle:
        return Interval(end_op(a.min, b.min, false, d), end_op(a.max, b.min, true, d));
    default:
        // a / b is monotone in a and, for a fixed a, in b: the extremes are at the corners.
        return Interval(Interval::make_min(end_op(a.min, b.min, false, d), over_max(a.min, false)),
                        Interval::make_max(end_op(a.max, b.min, true, d), over_max(a.max, true)));
    }
}

Interval negate(const Interval &a) { return Interval(neg(a.max), neg(a.min)); }

} // namespace

Interval fit_to_type(const Interval &i, Type t) {
    t = t.element_of();
    if (!t.is_int_or_uint() || (t.is_int() && t.bits() >= 32)) return i;
    Interval r = i;
    if (Interval::is_neg_inf(r.min)) r.min = t.min();
    if (Interval::is_pos_inf(r.max)) r.max = t.max();
    return r;
}

Interval add_intervals(const Interval &a, const Interval &b, Type t) {
    if (a.is_empty() || b.is_empty()) return Interval::nothing();
    IntEnds c;
    FloatEnds f;
    if (t.is_int_or_uint() && int_ends(a, b, &c))
        return const_interval(t, c.a0 + c.b0, c.a1 + c.b1);
    if (t.is_float() && float_ends(a, b, &f)) return float_interval(t, f.a0 + f.b0, f.a1 + f.b1);
    if (both_single(a, b)) return Interval::single_point(simplify(Add::make(a.min, b.min)));
    if (may_wrap(t)) return bounds_of_type(t);
    return Interval(end_op(a.min, b.min, false, &Add::make),
                    end_op(a.max, b.max, true, &Add::make));
}

Interval sub_intervals(const Interval &a, const Interval &b, Type t) {
    if (a.is_empty() || b.is_empty()) return Interval::nothing();
    IntEnds c;
    FloatEnds f;
    if (t.is_int_or_uint() && int_ends(a, b, &c))
        return const_interval(t, c.a0 - c.b1, c.a1 - c.b0);
    if (t.is_float() && float_ends(a, b, &f)) return float_interval(t, f.a0 - f.b1, f.a1 - f.b0);
    if (both_single(a, b)) return Interval::single_point(simplify(Sub::make(a.min, b.min)));
    if (may_wrap(t)) return bounds_of_type(t);
    return Interval(end_op(a.min, b.max, false, &Sub::make),
                    end_op(a.max, b.min, true, &Sub::make));
}

Interval mul_intervals(const Interval &a_in, const Interval &b_in, Type t) {
    if (a_in.is_empty() || b_in.is_empty()) return Interval::nothing();
    IntEnds c;
    FloatEnds f;
    if (t.is_int_or_uint() && int_ends(a_in, b_in, &c)) {
        i128 lo = 0, hi = 0;
        bool first = true;
        for (i128 x : {c.a0, c.a1}) {
            for (i128 y : {c.b0, c.b1}) {
                i128 p;
                if (__builtin_mul_overflow(x, y, &p)) return bounds_of_type(t);
                lo = first ? p : std::min(lo, p);
                hi = first ? p : std::max(hi, p);
                first = false;
            }
        }
        return const_interval(t, lo, hi);
    }
    if (t.is_float() && float_ends(a_in, b_in, &f)) {
        double p[4] = {f.a0 * f.b0, f.a0 * f.b1, f.a1 * f.b0, f.a1 * f.b1};
        return float_interval(t, *std::min_element(p, p + 4), *std::max_element(p, p + 4));
    }
    if (both_single(a_in, b_in))
        return Interval::single_point(simplify(Mul::make(a_in.min, b_in.min)));
    if (t.is_int_or_uint() && ((a_in.is_single_point() && is_const_zero(a_in.min)) ||
                               (b_in.is_single_point() && is_const_zero(b_in.min)))) {
        return Interval::single_point(make_zero(t));
    }
    if (may_wrap(t)) return bounds_of_type(t);

    // Put the single point (a symbolic scale factor, typically) in b.
    bool swap = a_in.is_single_point() && !b_in.is_single_point();
    const Interval &a = swap ? b_in : a_in;
    const Interval &b = swap ? a_in : b_in;
    MakeBinary m = &Mul::make;
    if (b.is_single_point()) {
        const Expr &k = b.min;
        if (prove_ge0(k)) return Interval(end_op(a.min, k, false, m), end_op(a.max, k, true, m));
        if (prove_le0(k)) return Interval(end_op(a.max, k, false, m), end_op(a.min, k, true, m));
        if (!a.is_bounded()) return Interval::everything();
        Expr p = simplify(Mul::make(a.min, k)), q = simplify(Mul::make(a.max, k));
        return Interval(Interval::make_min(p, q), Interval::make_max(p, q));
    }
    Sign sa = sign_of(a), sb = sign_of(b);
    auto lo = [&](const Expr &x, const Expr &y) { return end_op(x, y, false, m); };
    auto hi = [&](const Expr &x, const Expr &y) { return end_op(x, y, true, m); };
    auto min2 = [](const Expr &x, const Expr &y) { return Interval::make_min(x, y); };
    auto max2 = [](const Expr &x, const Expr &y) { return Interval::make_max(x, y); };
    if (sa == Sign::Unknown && sb == Sign::Unknown) {
        return Interval(min2(min2(lo(a.min, b.min), lo(a.min, b.max)),
                             min2(lo(a.max, b.min), lo(a.max, b.max))),
                        max2(max2(hi(a.min, b.min), hi(a.min, b.max)),
                             max2(hi(a.max, b.min), hi(a.max, b.max))));
    }
    if (sa == Sign::Unknown) {
        // By symmetry, put the operand of unknown sign in b.
        return mul_intervals(b, a, t);
    }
    if (sb == Sign::Unknown) {
        // a * y is monotone in y (increasing for a >= 0, decreasing for a <= 0) and linear in a.
        if (sa == Sign::NonNeg) {
            return Interval(min2(lo(a.min, b.min), lo(a.max, b.min)),
                            max2(hi(a.min, b.max), hi(a.max, b.max)));
        }
        if (sa == Sign::NonPos) {
            return Interval(min2(lo(a.min, b.max), lo(a.max, b.max)),
                            max2(hi(a.min, b.min), hi(a.max, b.min)));
        }
        // A straddling a gives the same extremes whatever b's sign: the last case below.
    }
    switch (sa) {
    case Sign::NonNeg:
        if (sb == Sign::NonNeg) return Interval(lo(a.min, b.min), hi(a.max, b.max));
        if (sb == Sign::NonPos) return Interval(lo(a.max, b.min), hi(a.min, b.max));
        return Interval(lo(a.max, b.min), hi(a.max, b.max));
    case Sign::NonPos:
        if (sb == Sign::NonNeg) return Interval(lo(a.min, b.max), hi(a.max, b.min));
        if (sb == Sign::NonPos) return Interval(lo(a.max, b.max), hi(a.min, b.min));
        return Interval(lo(a.min, b.max), hi(a.min, b.min));
    default:
        // a straddles zero.
        if (sb == Sign::NonNeg) return Interval(lo(a.min, b.max), hi(a.max, b.max));
        if (sb == Sign::NonPos) return Interval(lo(a.max, b.min), hi(a.min, b.min));
        // The most negative product pairs opposite signs, the largest equal signs.
        return Interval(min2(lo(a.min, b.max), lo(a.max, b.min)),
                        max2(hi(a.min, b.min), hi(a.max, b.max)));
    }
}

Interval div_intervals(const Interval &a, const Interval &b, Type t) {
    if (a.is_empty() || b.is_empty()) return Interval::nothing();
    IntEnds c;
    FloatEnds f;
    if (t.is_int_or_uint() && int_ends(a, b, &c)) {
        // The extremes over a divisor range not containing zero are at its ends; a range
        // containing zero splits into [b0, -1], {0} (quotient 0) and [1, b1].
        std::vector<i128> divisors;
        if (c.b0 > 0 || c.b1 < 0) {
            divisors = {c.b0, c.b1};
        } else {
            if (c.b0 < 0) divisors.insert(divisors.end(), {c.b0, -1});
            if (c.b1 > 0) divisors.insert(divisors.end(), {1, c.b1});
        }
        bool zero = !(c.b0 > 0 || c.b1 < 0);
        i128 lo = 0, hi = 0;
        bool first = !zero;
        for (i128 d : divisors) {
            for (i128 x : {c.a0, c.a1}) {
                i128 q = ediv(x, d);
                lo = first ? q : std::min(lo, q);
                hi = first ? q : std::max(hi, q);
                first = false;
            }
        }
        return const_interval(t, lo, hi);
    }
    if (t.is_float() && float_ends(a, b, &f)) {
        if (!(f.b0 > 0 || f.b1 < 0)) return Interval::everything();
        double q[4] = {f.a0 / f.b0, f.a0 / f.b1, f.a1 / f.b0, f.a1 / f.b1};
        return float_interval(t, *std::min_element(q, q + 4), *std::max_element(q, q + 4));
    }
    if (b.is_single_point() && is_const_zero(b.min)) {
        return t.is_float() ? Interval::everything() : Interval::single_point(make_zero(t));
    }
    if (both_single(a, b)) return Interval::single_point(simplify(Div::make(a.min, b.min)));
    if (t.is_float()) {
        // Real division is monotone on each side of zero, like Euclidean division; the
        // positive-divisor rules of div_positive hold with 0 as the limit at infinity.
        if (prove_gt0(b.min)) return div_positive(a, b, t);
        if (prove_lt0(b.max)) return negate(div_positive(a, negate(b), t));
        return Interval::everything();
    }
    if (prove_gt0(b.min)) return div_positive(a, b, t);
    if (prove_lt0(b.max)) {
        // Negation may wrap in narrow types (-128 / -1 == -128 in int8).
        if (may_wrap(t)) return bounds_of_type(t);
        if (b.is_single_point()) {
            // Euclidean division by a negative constant is decreasing in a.
            MakeBinary d = &Div::make;
            return Interval(end_op(a.max, b.min, false, d), end_op(a.min, b.min, true, d));
        }
        // a / b == -(a / -b) for Euclidean division.
        return negate(div_positive(a, negate(b), t));
    }
    if (b.is_single_point() && a.is_bounded() && !may_wrap(t)) {
        // One divisor of unknown sign (a Param, say): the quotient is monotone in a for it
        // (non-decreasing for b > 0, non-increasing for b < 0, zero for b == 0), so it lies
        // between the quotients of a's ends, as in Halide. x / k over [0, 59] is then
        // [min(0 / k, 59 / k), max(0 / k, 59 / k)], [0, 19] when k is 3 at run time.
        Expr lo = simplify(Div::make(a.min, b.min)), hi = simplify(Div::make(a.max, b.min));
        return Interval(Interval::make_min(lo, hi), Interval::make_max(lo, hi));
    }
    // The divisor may be zero: |a / b| <= |a| still holds.
    if (t.is_uint()) return Interval(make_zero(t), a.max);
    if (may_wrap(t) || !a.is_bounded()) return bounds_of_type(t);
    switch (sign_of(a)) {
    case Sign::NonNeg:
        return Interval(neg(a.max), a.max);
    case Sign::NonPos:
        return Interval(a.min, neg(a.min));
    default:
        return Interval(Interval::make_min(a.min, neg(a.max)),
                        Interval::make_max(a.max, neg(a.min)));
    }
}

Interval mod_intervals(const Interval &a, const Interval &b, Type t) {
    if (a.is_empty() || b.is_empty()) return Interval::nothing();
    if (t.is_float()) {
        double k;
        if (b.is_single_point() && const_float(b.min, &k) && k != 0) {
            // a - b * floor(a / b) lies between 0 and b.
            return k > 0 ? Interval(make_zero(t), b.min) : Interval(b.min, make_zero(t));
        }
        return Interval::everything();
    }
    IntEnds c;
    if (int_ends(a, b, &c)) {
        if (c.b0 == c.b1) {
            i128 m = iabs(c.b0);
            if (m == 0) return const_interval(t, 0, 0);
            if (c.a1 - c.a0 + 1 < m) {
                // a stays within one period unless it wraps past a multiple of m.
                i128 r0 = emod(c.a0, m), r1 = emod(c.a1, m);
                if (r0 <= r1) return const_interval(t, r0, r1);
            }
            return const_interval(t, 0, std::min(m - 1, type_max(t)));
        }
        i128 hi = std::max(iabs(c.b0), iabs(c.b1)) - 1;
        if (c.a0 >= 0) hi = std::min(hi, c.a1);
        return const_interval(t, 0, std::min(hi, type_max(t)));
    }
    if (b.is_single_point() && is_const_zero(b.min)) return Interval::single_point(make_zero(t));
    if (both_single(a, b)) return Interval::single_point(simplify(Mod::make(a.min, b.min)));
    i128 k;
    if (b.is_single_point() && const_int(b.min, &k)) {
        i128 m = iabs(k);
        if (m <= type_max(t) && a.is_bounded()) {
            // When a.min and a.max fall in the same period, the remainder is monotone.
            Expr me = int_const(t, m);
            if (can_prove(EQ::make(Div::make(a.min, me), Div::make(a.max, me)))) {
                return Interval(simplify(Mod::make(a.min, me)), simplify(Mod::make(a.max, me)));
            }
        }
        return const_interval(t, 0, std::min(m - 1, type_max(t)));
    }
    Expr hi = Interval::pos_inf();
    if (b.is_bounded()) {
        Expr one = make_one(t);
        switch (sign_of(b)) {
        case Sign::NonNeg:
            hi = simplify(Sub::make(b.max, one));
            break;
        case Sign::NonPos:
            if (may_wrap(t)) return bounds_of_type(t);
            hi = simplify(Sub::make(neg(b.min), one));
            break;
        default:
            if (may_wrap(t)) return bounds_of_type(t);
            hi = simplify(Sub::make(Interval::make_max(b.max, neg(b.min)), one));
            break;
        }
        // b == 0 gives 0; keep the upper end non-negative.
        if (!t.is_uint()) hi = Interval::make_max(hi, make_zero(t));
    }
    if (sign_of(a) == Sign::NonNeg) hi = Interval::make_min(hi, a.max);
    return Interval(make_zero(t), hi);
}

Interval min_intervals(const Interval &a, const Interval &b, Type) {
    if (a.is_empty() || b.is_empty()) return Interval::nothing();
    return Interval(Interval::make_min(a.min, b.min), Interval::make_min(a.max, b.max));
}

Interval max_intervals(const Interval &a, const Interval &b, Type) {
    if (a.is_empty() || b.is_empty()) return Interval::nothing();
    return Interval(Interval::make_max(a.min, b.min), Interval::make_max(a.max, b.max));
}

namespace {

/// x < y (or x <= y) for interval ends, which may be the infinity markers.
Expr cmp_end(const Expr &x, const Expr &y, bool or_equal) {
    if (Interval::is_neg_inf(x) || Interval::is_pos_inf(y)) return const_true();
    if (Interval::is_pos_inf(x) || Interval::is_neg_inf(y)) return const_false();
    return simplify(or_equal ? LE::make(x, y) : LT::make(x, y));
}

Interval as_bool_interval(const Interval &a) { return fit_to_type(a, Bool()); }

} // namespace

Interval compare_intervals(const Interval &a, const Interval &b, Cmp cmp) {
    if (a.is_empty() || b.is_empty()) return Interval::nothing();
    switch (cmp) {
    case Cmp::LT:
        return Interval(cmp_end(a.max, b.min, false), cmp_end(a.min, b.max, false));
    case Cmp::LE:
        return Interval(cmp_end(a.max, b.min, true), cmp_end(a.min, b.max, true));
    default: {
        Expr lo =
            both_single(a, b)
                ? simplify(EQ::make(a.min, b.min))
                : simplify(And::make(cmp_end(a.max, b.min, true), cmp_end(b.max, a.min, true)));
        Expr hi = simplify(And::make(cmp_end(a.min, b.max, true), cmp_end(b.min, a.max, true)));
        return Interval(lo, hi);
    }
    }
}

Interval and_intervals(const Interval &a_in, const Interval &b_in) {
    if (a_in.is_empty() || b_in.is_empty()) return Interval::nothing();
    Interval a = as_bool_interval(a_in), b = as_bool_interval(b_in);
    return Interval(simplify(And::make(a.min, b.min)), simplify(And::make(a.max, b.max)));
}

Interval or_intervals(const Interval &a_in, const Interval &b_in) {
    if (a_in.is_empty() || b_in.is_empty()) return Interval::nothing();
    Interval a = as_bool_interval(a_in), b = as_bool_interval(b_in);
    return Interval(simplify(Or::make(a.min, b.min)), simplify(Or::make(a.max, b.max)));
}

Interval not_interval(const Interval &a_in) {
    if (a_in.is_empty()) return Interval::nothing();
    Interval a = as_bool_interval(a_in);
    return Interval(simplify(Not::make(a.max)), simplify(Not::make(a.min)));
}

Interval cast_interval(const Interval &a, Type from, Type to) {
    from = from.element_of();
    to = to.element_of();
    if (a.is_empty()) return Interval::nothing();
    if (from == to) return a;
    double flo, fhi;
    if (from.is_float() && to.is_int_or_uint() && !to.is_bool() && const_float(a.min, &flo) &&
        const_float(a.max, &fhi)) {
        // Float to int truncates toward zero: monotone. A NaN or out-of-range value is
        // undefined behaviour (as in Halide): any value of the type.
        if (std::isnan(flo) || std::isnan(fhi)) return bounds_of_type(to);
        flo = std::trunc(flo);
        fhi = std::trunc(fhi);
        if (flo < (double)type_min(to) || fhi > (double)type_max(to)) return bounds_of_type(to);
        return const_interval(to, (i128)flo, (i128)fhi);
    }
    if (a.is_single_point()) return Interval::single_point(simplify(Cast::make(to, a.min)));
    auto cast_end = [&](const Expr &x) { return is_inf(x) ? x : simplify(Cast::make(to, x)); };
    if (to.is_bool()) {
        // A cast to bool tests for nonzero.
        if (from.is_bool()) return a;
        if (prove_gt0(a.min) || prove_lt0(a.max)) return Interval::single_point(const_true());
        return bounds_of_type(to);
    }
    if (to.is_float()) return Interval(cast_end(a.min), cast_end(a.max)); // monotone
    if (!to.is_int_or_uint()) return Interval::everything();
    if (from.is_int_or_uint()) {
        i128 lo, hi;
        if (const_int(a.min, &lo) && const_int(a.max, &hi)) return const_interval(to, lo, hi);
        bool fits_below = type_min(to) <= type_min(from);
        bool fits_above = type_max(to) >= type_max(from);
        // A bound of `to` that `from` cannot represent is beyond every value of `from`.
        if (!fits_below && !is_inf(a.min) && type_min(to) > type_min(from)) {
            fits_below = can_prove(GE::make(a.min, int_const(from, type_min(to))));
        }
        if (!fits_above && !is_inf(a.max) && type_max(to) < type_max(from)) {
            fits_above = can_prove(LE::make(a.max, int_const(from, type_max(to))));
        }
        if (fits_below && fits_above)
            return fit_to_type(Interval(cast_end(a.min), cast_end(a.max)), to);
        return bounds_of_type(to);
    }
    if (from.is_float()) {
        // Out-of-range values are undefined behaviour, so only narrow targets need the range
        // check.
        if (!may_wrap(to)) return Interval(cast_end(a.min), cast_end(a.max));
        if (a.is_bounded() && can_prove(GE::make(a.min, make_const(from, (double)type_min(to)))) &&
            can_prove(LE::make(a.max, make_const(from, (double)type_max(to))))) {
            return Interval(cast_end(a.min), cast_end(a.max));
        }
        return bounds_of_type(to);
    }
    return bounds_of_type(to);
}

Interval saturating_cast_interval(const Interval &a, Type from, Type to) {
    from = from.element_of();
    to = to.element_of();
    if (a.is_empty()) return Interval::nothing();
    if (!to.is_int_or_uint()) return cast_interval(a, from, to);
    i128 lo, hi;
    double flo, fhi;
    if (from.is_int_or_uint() && const_int(a.min, &lo) && const_int(a.max, &hi)) {
        lo = std::min(std::max(lo, type_min(to)), type_max(to));
        hi = std::min(std::max(hi, type_min(to)), type_max(to));
        return const_interval(to, lo, hi);
    }
    if (from.is_float() && const_float(a.min, &flo) && const_float(a.max, &fhi) &&
        !std::isnan(flo) && !std::isnan(fhi)) {
        flo = std::min(std::max(std::trunc(flo), (double)type_min(to)), (double)type_max(to));
        fhi = std::min(std::max(std::trunc(fhi), (double)type_min(to)), (double)type_max(to));
        return const_interval(to, (i128)flo, (i128)fhi);
    }
    if (from.is_int_or_uint() && type_min(to) <= type_min(from) && type_max(to) >= type_max(from)) {
        return cast_interval(a, from, to);
    }
    return bounds_of_type(to);
}

Interval promise_interval(const Interval &v, const Interval &clamp) {
    if (v.is_empty()) return v;
    // A value known exactly (a fused loop's x = fused % extent + min, at a fixed fused
    // iteration) is tighter than any range: a Func computed per iteration of a fused loop
    // needs that one point, not the whole promised range (which made it quadratic).
    if (v.is_single_point()) return v;
    // Prefer the promised bound, which is what the user wrote, unless both are constants.
    auto pick = [](const Expr &own, const Expr &promised, bool upper) {
        if (is_inf(promised)) return own;
        if (is_inf(own)) return promised;
        i128 x, y;
        double fx, fy;
        if (const_int(own, &x) && const_int(promised, &y))
            return (upper ? x < y : x > y) ? own : promised;
        if (const_float(own, &fx) && const_float(promised, &fy)) {
            return (upper ? fx < fy : fx > fy) ? own : promised;
        }
        return promised;
    };
    return Interval(pick(v.min, clamp.min, false), pick(v.max, clamp.max, true));
}

Interval abs_interval(const Interval &a, Type arg, Type result) {
    arg = arg.element_of();
    result = result.element_of();
    if (a.is_empty()) return Interval::nothing();
    i128 lo, hi;
    double flo, fhi;
    if (const_int(a.min, &lo) && const_int(a.max, &hi)) {
        if (lo >= 0) return const_interval(result, lo, hi);
        if (hi <= 0) return const_interval(result, -hi, -lo);
        return const_interval(result, 0, std::max(-lo, hi));
    }
    if (const_float(a.min, &flo) && const_float(a.max, &fhi)) {
        if (flo >= 0) return float_interval(result, flo, fhi);
        if (fhi <= 0) return float_interval(result, -fhi, -flo);
        return float_interval(result, 0, std::max(-flo, fhi));
    }
    if (a.is_single_point()) {
        return Interval::single_point(
            simplify(Call::make(result, Call::abs, {a.min}, Call::PureIntrinsic)));
    }
    auto to_result = [&](const Expr &x) {
        return (is_inf(x) || result == arg) ? x : simplify(Cast::make(result, x));
    };
    switch (sign_of(a)) {
    case Sign::NonNeg:
        return fit_to_type(Interval(to_result(a.min), to_result(a.max)), result);
    case Sign::NonPos:
        return fit_to_type(Interval(to_result(neg(a.max)), to_result(neg(a.min))), result);
    default:
        if (!a.is_bounded())
            return fit_to_type(Interval(make_zero(result), Interval::pos_inf()), result);
        // Take the max in the result type: -a.min may wrap in arg's type (abs(-128) == 128u).
        return Interval(make_zero(result),
                        Interval::make_max(to_result(neg(a.min)), to_result(a.max)));
    }
}

Interval absd_interval(const Interval &a, const Interval &b, Type arg, Type result) {
    arg = arg.element_of();
    result = result.element_of();
    if (a.is_empty() || b.is_empty()) return Interval::nothing();
    IntEnds c;
    FloatEnds f;
    if (int_ends(a, b, &c)) {
        i128 hi = std::max(c.a1 - c.b0, c.b1 - c.a0);
        i128 lo = c.a0 > c.b1 ? c.a0 - c.b1 : (c.b0 > c.a1 ? c.b0 - c.a1 : 0);
        return const_interval(result, lo, hi);
    }
    if (float_ends(a, b, &f)) {
        double hi = std::max(f.a1 - f.b0, f.b1 - f.a0);
        double lo = f.a0 > f.b1 ? f.a0 - f.b1 : (f.b0 > f.a1 ? f.b0 - f.a1 : 0);
        return float_interval(result, lo, hi);
    }
    if (may_wrap(arg)) return bounds_of_type(result);
    return abs_interval(sub_intervals(a, b, arg), arg, result);
}

Interval bitand_interval(const Interval &a, const Interval &b, Type t) {
    if (a.is_empty() || b.is_empty()) return Interval::nothing();
    if (!t.is_int_or_uint()) return bounds_of_type(t);
    i128 x, y;
    if (both_single(a, b) && const_int(a.min, &x) && const_int(b.min, &y)) {
        return const_interval(t, x & y, x & y);
    }
    Sign sa = sign_of(a), sb = sign_of(b);
    // Clearing bits of a non-negative value only lowers it, so x & y <= x when x >= 0 and
    // x & y >= 0 when either side is non-negative.
    if (sa == Sign::NonNeg && sb == Sign::NonNeg) {
        return Interval(make_zero(t), Interval::make_min(a.max, b.max));
    }
    if (sa == Sign::NonNeg) return Interval(make_zero(t), a.max);
    if (sb == Sign::NonNeg) return Interval(make_zero(t), b.max);
    if (prove_lt0(a.max) && prove_lt0(b.max)) {
        // Both negative: the sign bit stays set and other bits are only cleared.
        return fit_to_type(Interval(Interval::neg_inf(), Interval::make_min(a.max, b.max)), t);
    }
    return bounds_of_type(t);
}

Interval bitor_interval(const Interval &a, const Interval &b, Type t) {
    if (a.is_empty() || b.is_empty()) return Interval::nothing();
    if (!t.is_int_or_uint()) return bounds_of_type(t);
    Sign sa = sign_of(a), sb = sign_of(b);
    if (sa == Sign::NonNeg && sb == Sign::NonNeg) {
        // Setting bits only raises a non-negative value, and x | y <= x + y.
        Expr lo = Interval::make_max(a.min, b.min);
        i128 x, y;
        if (const_int(a.max, &x) && const_int(b.max, &y)) {
            return Interval(lo, int_const(t, ones_above(std::max(x, y))));
        }
        if (may_wrap(t)) return Interval(lo, t.max());
        return Interval(lo, end_op(a.max, b.max, true, &Add::make));
    }
    if (prove_lt0(a.max) && prove_lt0(b.max)) {
        return Interval(Interval::make_max(a.min, b.min), make_const(t, (int64_t)-1));
    }
    return bounds_of_type(t);
}

Interval bitxor_interval(const Interval &a, const Interval &b, Type t) {
    if (a.is_empty() || b.is_empty()) return Interval::nothing();
    if (!t.is_int_or_uint()) return bounds_of_type(t);
    if (sign_of(a) == Sign::NonNeg && sign_of(b) == Sign::NonNeg) {
        i128 x, y;
        if (const_int(a.max, &x) && const_int(b.max, &y)) {
            return Interval(make_zero(t), int_const(t, ones_above(std::max(x, y))));
        }
        if (may_wrap(t)) return bounds_of_type(t);
        return Interval(make_zero(t), end_op(a.max, b.max, true, &Add::make));
    }
    return bounds_of_type(t);
}

Interval bitnot_interval(const Interval &a, Type t) {
    if (a.is_empty()) return Interval::nothing();
    if (!t.is_int_or_uint()) return bounds_of_type(t);
    // ~x is -1 - x for signed and max - x for unsigned values: decreasing, and never wraps.
    Expr top = t.is_uint() ? t.max() : make_const(t, (int64_t)-1);
    auto flip = [&](const Expr &x, bool upper) {
        return is_inf(x) ? side_inf(upper) : simplify(Sub::make(top, x));
    };
    return fit_to_type(Interval(flip(a.max, false), flip(a.min, true)), t);
}

Interval shift_interval(const Interval &a, const Interval &b, Type t, bool left) {
    if (a.is_empty() || b.is_empty()) return Interval::nothing();
    if (!t.is_int_or_uint()) return bounds_of_type(t);
    i128 k0, k1;
    if (!const_int(b.min, &k0) || !const_int(b.max, &k1)) return bounds_of_type(t);
    if (k0 == k1 && k0 < 0) {
        // A negative shift amount shifts the other way (Halide's semantics).
        left = !left;
        k0 = k1 = -k0;
    }
    if (k0 < 0 || k1 >= t.bits()) return bounds_of_type(t);
    // a << k == a * 2^k and a >> k == floor(a / 2^k) are monotone in k for a fixed a, so the
    // extremes over k in [k0, k1] are at k0 or k1.
    Interval r = Interval::nothing();
    for (i128 k : {k0, k1}) {
        i128 p = i128(1) << (int)k;
        if (p > type_max(t)) return bounds_of_type(t);
        Interval s = Interval::single_point(int_const(t, p));
        r.include(left ? mul_intervals(a, s, t) : div_intervals(a, s, t));
    }
    return fit_to_type(r, t);
}

Interval exact_wide_interval(const std::string &intrinsic, const Interval &a, const Interval &b,
                             Type t) {
    if (a.is_empty() || b.is_empty()) return Interval::nothing();
    if (!t.is_int_or_uint()) return Interval::everything();
    bool halving = intrinsic == Call::halving_add || intrinsic == Call::rounding_halving_add;
    IntEnds c;
    if (int_ends(a, b, &c)) {
        auto sat = [&](i128 v) { return std::min(std::max(v, type_min(t)), type_max(t)); };
        if (intrinsic == Call::saturating_add)
            return const_interval(t, sat(c.a0 + c.b0), sat(c.a1 + c.b1));
        if (intrinsic == Call::saturating_sub)
            return const_interval(t, sat(c.a0 - c.b1), sat(c.a1 - c.b0));
        i128 r = intrinsic == Call::rounding_halving_add ? 1 : 0;
        if (halving) return const_interval(t, ediv(c.a0 + c.b0 + r, 2), ediv(c.a1 + c.b1 + r, 2));
    }
    if (halving) {
        // The (rounded) average of two values lies between them.
        return Interval(Interval::make_min(a.min, b.min), Interval::make_max(a.max, b.max));
    }
    return bounds_of_type(t);
}

Interval monotone_math_interval(const std::string &name, const Interval &a, Type t) {
    if (a.is_empty()) return Interval::nothing();
    size_t us = name.rfind('_');
    std::string fn = us == std::string::npos ? name : name.substr(0, us);
    if (fn == "sin" || fn == "cos") return Interval(make_const(t, -1.0), make_const(t, 1.0));
    double (*f)(double) = nullptr;
    bool needs_nonneg = false;
    if (fn == "floor")
        f = [](double x) { return std::floor(x); };
    else if (fn == "ceil")
        f = [](double x) { return std::ceil(x); };
    else if (fn == "round")
        f = [](double x) { return std::nearbyint(x); };
    else if (fn == "trunc")
        f = [](double x) { return std::trunc(x); };
    else if (fn == "exp")
        f = [](double x) { return std::exp(x); };
    else if (fn == "tanh")
        f = [](double x) { return std::tanh(x); };
    else if (fn == "atan")
        f = [](double x) { return std::atan(x); };
    else if (fn == "sqrt") {
        f = [](double x) { return std::sqrt(x); };
        needs_nonneg = true;
    }
    if (!f) return Interval::everything();
    if (needs_nonneg && !prove_ge0(a.min)) return Interval::everything();
    double lo, hi;
    if (const_float(a.min, &lo) && const_float(a.max, &hi)) return float_interval(t, f(lo), f(hi));
    auto end = [&](const Expr &x, bool upper) {
        // The limits at infinity of the functions that have one.
        if (is_inf(x)) {
            if (fn == "exp" && !upper) return make_zero(t);
            if (fn == "tanh") return make_const(t, upper ? 1.0 : -1.0);
            if (fn == "atan") return make_const(t, upper ? M_PI_2 : -M_PI_2);
            return x;
        }
        return simplify(Call::make(t, name, {x}, Call::PureExtern));
    };
    return Interval(end(a.min, false), end(a.max, true));
}

} // namespace internal
} // namespace loom
