#include "lower/find_intrinsics.h"

#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"

#include <algorithm>
#include <limits>

namespace loom {
namespace internal {

namespace {

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

int64_t type_min(Type t) { return t.is_uint() ? 0 : -((int64_t)1 << (t.bits() - 1)); }
int64_t type_max(Type t) {
    return t.is_uint() ? (int64_t)(((uint64_t)1 << t.bits()) - 1)
                       : (int64_t)(((uint64_t)1 << (t.bits() - 1)) - 1);
}

/// Whether the wide type w holds every sum, difference and product of two values of type n
/// (and those plus one) exactly: twice the bits, signed when the result can be negative.
bool holds_exactly(Type w, Type n, bool may_be_negative) {
    if (!(w.is_int() || w.is_uint())) return false;
    if (may_be_negative && !w.is_int()) return false;
    return w.bits() >= 2 * n.bits() && w.bits() <= 64;
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

    /// T(clamp(W(a) +/- W(b))) -> saturating_add/sub(a, b).
    Expr match_saturating(Type t, const Expr &value) {
        Type w = value.type();
        // Peel the clamp: a chain of min/max with constants, in any order.
        int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
        Expr x = value;
        bool clamped = false;
        while (true) {
            int64_t k;
            if (const Min *m = x.as<Min>()) {
                if (const_value(m->b, &k)) {
                    hi = std::min(hi, k), x = m->a;
                } else if (const_value(m->a, &k)) {
                    hi = std::min(hi, k), x = m->b;
                } else {
                    break;
                }
            } else if (const Max *m = x.as<Max>()) {
                if (const_value(m->b, &k)) {
                    lo = std::max(lo, k), x = m->a;
                } else if (const_value(m->a, &k)) {
                    lo = std::max(lo, k), x = m->b;
                } else {
                    break;
                }
            } else {
                break;
            }
            clamped = true;
        }
        if (!clamped) return Expr();
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
        // The range of the exact result, then clamped: it must be exactly T's range.
        int64_t xmin = add ? 2 * type_min(n) : type_min(n) - type_max(n);
        int64_t xmax = add ? 2 * type_max(n) : type_max(n) - type_min(n);
        if (std::max(lo, xmin) != type_min(n) || std::min(hi, xmax) != type_max(n)) return Expr();
        return intrinsic(n, add ? Call::saturating_add : Call::saturating_sub, {a, b});
    }

    /// T((W(a) + W(b) [+ 1]) >> 1) -> (rounding_)halving_add(a, b);
    /// T((W(a) * W(b)) >> q) -> mul_shift_right(a, b, q).
    Expr match_shift(Type t, const Expr &value) {
        Type w = value.type();
        Type n = t.with_lanes(w.lanes());
        Expr x;
        int k;
        if (!as_shift_right(value, &x, &k)) return Expr();
        if (k == 1) {
            std::vector<Expr> terms;
            int64_t c = 0;
            if (!flatten_add(x, &terms, &c) || terms.size() != 2 || (c != 0 && c != 1))
                return Expr();
            if (!holds_exactly(w, n, n.is_int())) return Expr();
            Expr a, b;
            if (!narrow_operands(terms[0], terms[1], n, &a, &b)) return Expr();
            return intrinsic(n, c ? Call::rounding_halving_add : Call::halving_add, {a, b});
        }
        if (const Mul *m = x.as<Mul>()) {
            // The shifted product fits T only when q >= bits(T); q < 2 bits(T) keeps the
            // intrinsic's clamp of q (to twice T's bits minus one) from changing it.
            if (k < n.bits() || k >= 2 * n.bits()) return Expr();
            if (!holds_exactly(w, n, n.is_int())) return Expr();
            // u8 * u8 needs 16 unsigned bits, or more than 16 signed ones.
            if (n.is_uint() && w.is_int() && w.bits() == 2 * n.bits()) return Expr();
            Expr a, b;
            if (!narrow_operands(m->a, m->b, n, &a, &b)) return Expr();
            return intrinsic(n, Call::mul_shift_right,
                             {a, b, make_const(UInt(n.bits(), n.lanes()), (int64_t)k)});
        }
        return Expr();
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
            Expr r = match_saturating(t, value);
            if (!r.defined()) r = match_shift(t, value);
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
