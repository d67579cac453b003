#include "lower/find_intrinsics.h"

#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"

#include <algorithm>
#include <limits>

namespace loom {
namespace internal {

namespace {

/// The intrinsic codegen_intrinsics.cpp knows as saturating_cast<T>((widening_mul(a, b) +
/// 2^(q-1)) >> q) (not in Call's list of names: it has no front-end constructor).
const char *const rounding_mul_shift_right_name = "rounding_mul_shift_right";

/// The value of an integer constant (or broadcast of one), signed or unsigned.
bool const_value(const Expr &e, int64_t *v) {
    if (const int64_t *i = as_const_int(e)) {
        *v = *i;
        return true;
    }
    if (const uint64_t *u = as_const_uint(e)) {
        if (*u > (uint64_t)std::numeric_limits<int64_t>::max()) return false;
        *v = (int64_t)*u;
        return true;
    }
    return false;
}

/// The integer types the rewrites apply to: 8, 16 or 32 bits.
bool narrow_int(Type t) { return (t.is_int() || t.is_uint()) && t.bits() >= 8 && t.bits() <= 32; }

/// Whether the wide type w holds every sum, difference and product of two values of type n
/// (and those plus one) exactly: twice the bits, signed when the result can be negative.
bool holds_exactly(Type w, Type n, bool may_be_negative) {
    if (!(w.is_int() || w.is_uint())) return false;
    if (may_be_negative && !w.is_int()) return false;
    return w.bits() >= 2 * n.bits() && w.bits() <= 64;
}

/// The range of a type as 128-bit integers (products of 32-bit values need more than 64 bits).
using Int128 = __int128;
Int128 range_min(Type t) { return t.is_uint() ? 0 : -((Int128)1 << (t.bits() - 1)); }
Int128 range_max(Type t) {
    return t.is_uint() ? ((Int128)1 << t.bits()) - 1 : ((Int128)1 << (t.bits() - 1)) - 1;
}
bool fits(Int128 lo, Int128 hi, Type t) { return lo >= range_min(t) && hi <= range_max(t); }

/// Whether clamping to [lo, hi] and then casting to n (wrapping) equals saturating to n, for
/// every value in [vmin, vmax]: the clamp must cut exactly where n's range does.
bool clamp_is_saturation(Int128 vmin, Int128 vmax, int64_t lo, int64_t hi, Type n) {
    if (lo > hi) return false;
    return std::max<Int128>(vmin, lo) == std::max<Int128>(vmin, range_min(n)) &&
           std::min<Int128>(vmax, hi) == std::min<Int128>(vmax, range_max(n));
}

/// Floor division by 2^k of a 128-bit value (an arithmetic shift).
Int128 shift_floor(Int128 v, int k) {
    return v >= 0 ? v >> k : -((-v + ((Int128)1 << k) - 1) >> k);
}

Expr intrinsic(Type t, const char *name, const std::vector<Expr> &args) {
    return Call::make(t, name, args, Call::PureIntrinsic);
}

/// The two operands of `e` narrowed to type n (both must be lossless casts of n values or
/// constants that fit n; not both constant).
bool narrow_operands(const Expr &a, const Expr &b, Type n, Expr *na, Expr *nb) {
    if (is_const(a) && is_const(b)) return false;
    *na = lossless_cast(n, a);
    *nb = lossless_cast(n, b);
    return na->defined() && nb->defined();
}

/// x >> k or x / 2^k with constant k: sets *x and *k.
bool as_shift_right(const Expr &e, Expr *x, int *k) {
    if (const Call *c = e.as<Call>()) {
        int64_t v;
        if (c->is_intrinsic(Call::shift_right) && const_value(c->args[1], &v) && v >= 0 && v < 64) {
            *x = c->args[0];
            *k = (int)v;
            return true;
        }
    }
    if (const Div *d = e.as<Div>()) {
        int bits;
        if (is_const_power_of_two_integer(d->b, &bits)) {
            *x = d->a;
            *k = bits;
            return true;
        }
    }
    return false;
}

/// The non-constant terms of a tree of Adds and the sum of its constants.
bool flatten_add(const Expr &e, std::vector<Expr> *terms, int64_t *c) {
    if (const Add *a = e.as<Add>()) {
        return flatten_add(a->a, terms, c) && flatten_add(a->b, terms, c);
    }
    int64_t v;
    if (const_value(e, &v)) {
        if (v > (1 << 30) || v < -(1 << 30)) return false;
        *c += v;
        return true;
    }
    terms->push_back(e);
    return true;
}

class FindIntrinsics : public IRMutator {
    using IRMutator::visit;

    /// The clamp around a value: a chain of min/max with constants, in any order. Sets the
    /// bounds (the tightest of each side; INT64_MIN/MAX when absent) and the clamped value.
    static bool peel_clamp(const Expr &value, int64_t *lo, int64_t *hi, Expr *x) {
        *lo = std::numeric_limits<int64_t>::min(), *hi = std::numeric_limits<int64_t>::max();
        *x = value;
        bool clamped = false;
        while (true) {
            int64_t k;
            Expr next; // (not assigned to *x directly: it points into the node *x holds)
            if (const Min *m = x->as<Min>()) {
                if (const_value(m->b, &k)) {
                    *hi = std::min(*hi, k), next = m->a;
                } else if (const_value(m->a, &k)) {
                    *hi = std::min(*hi, k), next = m->b;
                } else {
                    break;
                }
            } else if (const Max *m = x->as<Max>()) {
                if (const_value(m->b, &k)) {
                    *lo = std::max(*lo, k), next = m->a;
                } else if (const_value(m->a, &k)) {
                    *lo = std::max(*lo, k), next = m->b;
                } else {
                    break;
                }
            } else {
                break;
            }
            *x = next;
            clamped = true;
        }
        return clamped;
    }

    /// T(clamp(W(a) +/- W(b))) -> saturating_add/sub(a, b); x is the clamped value.
    Expr match_saturating(Type t, const Expr &x, int64_t lo, int64_t hi) {
        Type w = x.type();
        Expr p, q;
        bool add;
        if (const Add *a = x.as<Add>()) {
            p = a->a, q = a->b, add = true;
        } else if (const Sub *s = x.as<Sub>()) {
            p = s->a, q = s->b, add = false;
        } else {
            return Expr();
        }
        Type n = t.with_lanes(w.lanes());
        if (!holds_exactly(w, n, !add || n.is_int())) return Expr();
        Expr a, b;
        if (!narrow_operands(p, q, n, &a, &b)) return Expr();
        // The range of the exact result, then clamped: it must saturate exactly at T's range
        // (and reach past it, or the plain add/sub would have done).
        Int128 xmin = add ? 2 * range_min(n) : range_min(n) - range_max(n);
        Int128 xmax = add ? 2 * range_max(n) : range_max(n) - range_min(n);
        if (!clamp_is_saturation(xmin, xmax, lo, hi, n)) return Expr();
        return intrinsic(n, add ? Call::saturating_add : Call::saturating_sub, {a, b});
    }

    /// T((W(a) + W(b) [+ 1]) >> 1) -> (rounding_)halving_add(a, b);
    /// T((W(a) * W(b)) >> q) -> mul_shift_right(a, b, q);
    /// T((W(a) * W(b) + 2^(q-1)) >> q) -> rounding_mul_shift_right(a, b, q);
    /// each also under a clamp [lo, hi] that saturates exactly to T.
    Expr match_shift(Type t, const Expr &value, int64_t lo, int64_t hi) {
        Type w = value.type();
        Type n = t.with_lanes(w.lanes());
        Expr x;
        int k;
        if (!as_shift_right(value, &x, &k) || k < 1) return Expr();
        std::vector<Expr> terms;
        int64_t c = 0;
        if (!flatten_add(x, &terms, &c)) return Expr();
        if (k == 1 && terms.size() == 2 && (c == 0 || c == 1)) {
            if (!holds_exactly(w, n, n.is_int())) return Expr();
            Expr a, b;
            if (!narrow_operands(terms[0], terms[1], n, &a, &b)) return Expr();
            // The average always fits T: a clamp must not cut inside T's range.
            if (!clamp_is_saturation(range_min(n), range_max(n), lo, hi, n)) return Expr();
            return intrinsic(n, c ? Call::rounding_halving_add : Call::halving_add, {a, b});
        }
        const Mul *m = terms.size() == 1 ? terms[0].as<Mul>() : nullptr;
        bool rounding = c != 0;
        if (!m || (rounding && c != (int64_t)1 << (k - 1))) return Expr();
        // The intrinsic clamps its shift to twice T's bits minus one.
        if (k >= 2 * n.bits()) return Expr();
        if (!holds_exactly(w, n, n.is_int())) return Expr();
        Expr a, b;
        if (!narrow_operands(m->a, m->b, n, &a, &b)) return Expr();
        // The exact product (plus the rounding term) must fit W, where the source computes
        // it, and twice T's width, where the intrinsic does.
        Int128 corners[] = {range_min(n) * range_min(n), range_min(n) * range_max(n),
                            range_max(n) * range_max(n)};
        Int128 pmin = *std::min_element(corners, corners + 3) + c;
        Int128 pmax = *std::max_element(corners, corners + 3) + c;
        if (!fits(pmin, pmax, w) || !fits(pmin, pmax, n.with_bits(2 * n.bits()))) return Expr();
        // The shifted result must saturate to T exactly as the clamp (or the lack of one,
        // when it always fits) does.
        if (!clamp_is_saturation(shift_floor(pmin, k), shift_floor(pmax, k), lo, hi, n))
            return Expr();
        return intrinsic(n, rounding ? rounding_mul_shift_right_name : Call::mul_shift_right,
                         {a, b, make_const(UInt(n.bits(), n.lanes()), (int64_t)k)});
    }

    /// W(a) - W(b) with a, b of a type of half W's bits or less: the narrow a and b.
    bool narrow_difference(const Expr &e, Expr *a, Expr *b) {
        const Sub *s = e.as<Sub>();
        if (!s || !s->type.is_int()) return false;
        for (int bits = 8; bits * 2 <= s->type.bits(); bits *= 2) {
            for (Type n : {UInt(bits, s->type.lanes()), Int(bits, s->type.lanes())}) {
                if (narrow_operands(s->a, s->b, n, a, b)) return true;
            }
        }
        return false;
    }

    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        const Call *c = e.as<Call>();
        if (!c || !c->is_intrinsic(Call::abs) || c->args.size() != 1) return e;
        // abs(W(a) - W(b)) -> uW(absd(a, b)): the difference is exact in W.
        Expr a, b;
        if (!narrow_difference(c->args[0], &a, &b)) return e;
        Expr d = intrinsic(a.type().with_code(Type::UInt), Call::absd, {a, b});
        return Cast::make(c->type, d);
    }

    Expr visit(const Cast *op) override {
        Expr value = mutate(op->value);
        Type t = op->type;
        if (narrow_int(t) && value.type().bits() > t.bits()) {
            // uT(uW(absd(a, b))) with absd no wider than T: the widening is undone exactly.
            if (const Cast *inner = value.as<Cast>()) {
                const Call *d = inner->value.as<Call>();
                if (t.is_uint() && inner->type.is_uint() && d && d->is_intrinsic(Call::absd) &&
                    d->type.bits() <= t.bits()) {
                    return d->type == t ? inner->value : Cast::make(t, inner->value);
                }
            }
            int64_t lo, hi;
            Expr x;
            bool clamped = peel_clamp(value, &lo, &hi, &x);
            Expr r;
            if (clamped) r = match_saturating(t, x, lo, hi);
            if (!r.defined()) r = match_shift(t, x, lo, hi);
            if (r.defined()) return r;
        }
        if (value.same_as(op->value)) return op;
        return Cast::make(t, value);
    }

    Expr visit(const Select *op) override {
        Expr e = IRMutator::visit(op);
        const Select *s = e.as<Select>();
        if (!s || !narrow_int(s->type.element_of()) || s->type.bits() > 32) return e;
        // select(x < y, y - x, x - y) (or <=; > and >= with the branches swapped) is
        // |x - y| wrapped to the type: absd(x, y) reinterpreted.
        Expr x, y;
        bool less;
        if (const LT *c = s->condition.as<LT>()) {
            x = c->a, y = c->b, less = true;
        } else if (const LE *c = s->condition.as<LE>()) {
            x = c->a, y = c->b, less = true;
        } else if (const GT *c = s->condition.as<GT>()) {
            x = c->a, y = c->b, less = false;
        } else if (const GE *c = s->condition.as<GE>()) {
            x = c->a, y = c->b, less = false;
        } else {
            return e;
        }
        if (x.type() != s->type) return e;
        const Sub *big = (less ? s->true_value : s->false_value).as<Sub>();
        const Sub *small = (less ? s->false_value : s->true_value).as<Sub>();
        if (!big || !small) return e;
        if (!equal(big->a, y) || !equal(big->b, x) || !equal(small->a, x) || !equal(small->b, y))
            return e;
        Expr d = intrinsic(s->type.with_code(Type::UInt), Call::absd, {x, y});
        return d.type() == s->type ? d : Cast::make(s->type, d);
    }
};

} // namespace

Expr find_intrinsics(const Expr &e) { return FindIntrinsics().mutate(e); }

Stmt find_intrinsics(const Stmt &s) { return FindIntrinsics().mutate(s); }

} // namespace internal
} // namespace loom
