// Simplification of Mul, Div and Mod. Division and modulo are Euclidean and x / 0 == x % 0 == 0
// (DESIGN.md §4); rules that move a division across + or * hold only without overflow (INT32).
// Alignment facts (x is 4k + 1) decide divisions and remainders that rules alone cannot.

#include "simplify/const_fold.h"
#include "simplify/simplifier.h"

#include "ir/ir_equality.h"
#include "ir/ir_utils.h"

#include <cmath>
#include <utility>

namespace loom {
namespace internal {

namespace {

const rewrite::RuleList &mul_rules() {
    static const rewrite::RuleList rules = [] {
        LOOM_PATTERN_VARS;
        return RuleList{
            {ANY, broadcast(x) * broadcast(y), broadcast(x * y)},
            {RING, ramp(x, y) * broadcast(z), ramp(x * z, y * z)},
            {RING, broadcast(z) * ramp(x, y), ramp(z * x, z * y)},
            {ANY, select(x, c0, c1) * c2, select(x, fold(c0 * c2), fold(c1 * c2))},
            // x * 0.0 is not 0 for floats (inf, nan, -0.0).
            {RING, x * 0, 0},
            {ANY, x * 1, x},
            // Distribute constants so that they gather outermost.
            {RING, (x + c0) * c1, x * c1 + fold(c0 * c1)},
            {RING, (c0 - x) * c1, x * fold(0 - c1) + fold(c0 * c1)},
            {RING, (x * c0) * c1, x * fold(c0 * c1)},
            {RING, (x * c0) * y, (x * y) * c0, !is_constant(y)},
            {RING, x * (y * c0), (x * y) * c0, !is_constant(x)},
            {RING, min(x, y) * max(x, y), x * y},
            {RING, min(x, y) * max(y, x), x * y},
            {RING, max(x, y) * min(x, y), x * y},
            {RING, max(x, y) * min(y, x), x * y},
        };
    }();
    return rules;
}

const rewrite::RuleList &div_rules() {
    static const rewrite::RuleList rules = [] {
        LOOM_PATTERN_VARS;
        const uint8_t SIGNED = INT32 | INT_OTHER;
        return RuleList{
            {ANY, broadcast(x) / broadcast(y), broadcast(x / y)},
            {ANY, select(x, c0, c1) / c2, select(x, fold(c0 / c2), fold(c1 / c2))},
            {RING, x / 0, 0},
            {RING, 0 / x, 0},
            {ANY, x / 1, x},
            {SIGNED, x / -1, 0 - x},
            {INT32, ramp(x, c0) / broadcast(c1), ramp(x / c1, fold(c0 / c1)),
             c1 != 0 && c0 % c1 == 0},
            {INT32, (x * c0) / c1, x * fold(c0 / c1), c1 != 0 && c0 % c1 == 0},
            {INT32, (x * c0) / c1, x / fold(c1 / c0), c0 > 0 && c1 % c0 == 0},
            {INT32, (x * c0 + y) / c1, x * fold(c0 / c1) + y / c1, c1 != 0 && c0 % c1 == 0},
            {INT32, (y + x * c0) / c1, y / c1 + x * fold(c0 / c1), c1 != 0 && c0 % c1 == 0},
            {INT32, (y - x * c0) / c1, y / c1 - x * fold(c0 / c1), c1 != 0 && c0 % c1 == 0},
            {INT32, (x + c0) / c1, x / c1 + fold(c0 / c1), c1 != 0 && c0 % c1 == 0},
            // Reduce a constant offset beyond the divisor: (x + 9) / 4 -> (x + 1) / 4 + 2.
            // (Not negative offsets: x + (c0 % c1) could overflow where x + c0 does not.)
            {INT32, (x + c0) / c1, (x + fold(c0 % c1)) / c1 + fold(c0 / c1), c1 > 0 && c0 >= c1},
            {INT32, (x / c0) / c1, x / fold(c0 * c1), c0 > 0 && c1 > 0},
        };
    }();
    return rules;
}

const rewrite::RuleList &mod_rules() {
    static const rewrite::RuleList rules = [] {
        LOOM_PATTERN_VARS;
        const uint8_t SIGNED = INT32 | INT_OTHER;
        return RuleList{
            {ANY, broadcast(x) % broadcast(y), broadcast(x % y)},
            {ANY, select(x, c0, c1) % c2, select(x, fold(c0 % c2), fold(c1 % c2))},
            {RING, x % 0, 0},
            {RING, 0 % x, 0},
            {RING, x % 1, 0},
            {SIGNED, x % -1, 0},
            {INT32, ramp(x, c0) % broadcast(c1), broadcast(x % c1), c1 != 0 && c0 % c1 == 0},
            {INT32, (x * c0) % c1, 0, c1 != 0 && c0 % c1 == 0},
            {INT32, (x * c0 + y) % c1, y % c1, c1 != 0 && c0 % c1 == 0},
            {INT32, (y + x * c0) % c1, y % c1, c1 != 0 && c0 % c1 == 0},
            {INT32, (y - x * c0) % c1, y % c1, c1 != 0 && c0 % c1 == 0},
            {INT32, (x + c0) % c1, x % c1, c1 != 0 && c0 % c1 == 0},
            {INT32, (x + c0) % c1, (x + fold(c0 % c1)) % c1, c1 > 0 && c0 >= c1},
            {RING, (x % c0) % c1, x % c1, c0 != 0 && c1 != 0 && c0 % c1 == 0},
        };
    }();
    return rules;
}

/// Whether the fact m proves the value is r modulo c (c > 0); sets *r.
bool residue(const ModulusRemainder &m, int64_t c, int64_t *r) {
    if (c <= 0) return false;
    if (m.modulus != 0 && m.modulus % c != 0) return false;
    int64_t v = m.remainder % c;
    *r = v < 0 ? v + c : v;
    return true;
}

/// floor(a / b) for b > 0.
int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

} // namespace

ModulusRemainder Simplify::alignment_of(const Expr &e) {
    const ModulusRemainder unknown(1, 0);
    int64_t c;
    if (const_int_value(e, &c)) return ModulusRemainder(0, c);
    if (!no_overflow(e.type().element_of())) return unknown;
    if (const Variable *v = e.as<Variable>()) {
        auto it = vars.find(v->name);
        return it == vars.end() ? unknown : it->second.info.alignment;
    }
    if (const Add *op = e.as<Add>()) return alignment_of(op->a) + alignment_of(op->b);
    if (const Sub *op = e.as<Sub>()) return alignment_of(op->a) - alignment_of(op->b);
    if (const Mul *op = e.as<Mul>()) return alignment_of(op->a) * alignment_of(op->b);
    if (const Div *op = e.as<Div>()) return alignment_of(op->a) / alignment_of(op->b);
    if (const Mod *op = e.as<Mod>()) return alignment_of(op->a) % alignment_of(op->b);
    if (const Min *op = e.as<Min>()) return unify(alignment_of(op->a), alignment_of(op->b));
    if (const Max *op = e.as<Max>()) return unify(alignment_of(op->a), alignment_of(op->b));
    if (const Select *op = e.as<Select>()) {
        return unify(alignment_of(op->true_value), alignment_of(op->false_value));
    }
    if (const Broadcast *op = e.as<Broadcast>()) return alignment_of(op->value);
    if (const Ramp *op = e.as<Ramp>())
        return alignment_of(op->base) + alignment_of(op->stride) * unknown;
    return unknown;
}

Expr Simplify::visit(const Mul *op, ExprInfo *info) {
    ExprInfo ia, ib;
    Expr a = mutate(op->a, &ia), b = mutate(op->b, &ib);
    if (should_commute(a, b)) {
        std::swap(a, b);
        std::swap(ia, ib);
    }
    Type t = op->type;
    if (Expr f = fold_binary(IRNodeType::Mul, a, b, &int32_wrapped); f.defined()) {
        *info = const_info(f);
        return f;
    }
    info->bounds = (ia.bounds * ib.bounds).fit_to(t);
    info->alignment = ia.alignment * ib.alignment;
    // (x / c) * c == x when x is known to be a multiple of c.
    int64_t c, r;
    if (no_overflow(t.element_of()) && const_int_value(b, &c) && c > 0) {
        if (const Div *d = a.as<Div>()) {
            if (equal(d->b, b) && residue(alignment_of(d->a), c, &r) && r == 0) return d->a;
        }
    }
    return rebuild_and_rewrite(op, a, b, mul_rules(), t, info);
}

Expr Simplify::visit(const Div *op, ExprInfo *info) {
    ExprInfo ia, ib;
    Expr a = mutate(op->a, &ia), b = mutate(op->b, &ib);
    Type t = op->type;
    if (Expr f = fold_binary(IRNodeType::Div, a, b, &int32_wrapped); f.defined()) {
        *info = const_info(f);
        return f;
    }
    info->bounds = (ia.bounds / ib.bounds).fit_to(t);
    info->alignment = ia.alignment / ib.alignment;

    ConstVal cv;
    if (t.is_float() && as_const_val(b, &cv)) {
        // x / 2^k == x * 2^-k exactly (both round the same real number) when 2^-k is
        // representable in the type.
        int exp;
        double m = std::frexp(cv.f, &exp);
        double inv = 1.0 / cv.f;
        double inv_t = t.bits() == 32 ? (double)(float)inv : inv;
        if (std::fabs(m) == 0.5 && inv_t == inv && std::isfinite(inv)) {
            return mutate(Mul::make(a, make_const(t, inv)), info);
        }
    }

    int64_t c, r;
    if (no_overflow(t.element_of()) && const_int_value(b, &c) && c > 0) {
        // (x + k) / c == x / c + floor((r + k) / c) when x is r modulo c.
        if (const Add *add = a.as<Add>()) {
            int64_t k;
            if (const_int_value(add->b, &k) && residue(alignment_of(add->a), c, &r)) {
                int64_t q = floor_div(r + k, c);
                Expr d = Div::make(add->a, b);
                return mutate(q == 0 ? d : Add::make(d, make_const(t, q)), info);
            }
        }
        // A ramp whose lanes stay within one multiple of c divides to a broadcast.
        if (const Ramp *ramp = a.as<Ramp>()) {
            int64_t s;
            if (const_int_value(ramp->stride, &s) && s >= 0 &&
                residue(alignment_of(ramp->base), c, &r) && r + s * (ramp->lanes - 1) < c) {
                Expr v = Div::make(ramp->base, make_const(ramp->base.type(), c));
                return mutate(Broadcast::make(v, ramp->lanes), info);
            }
        }
    }

    return rebuild_and_rewrite(op, a, b, div_rules(), t, info);
}

Expr Simplify::visit(const Mod *op, ExprInfo *info) {
    ExprInfo ia, ib;
    Expr a = mutate(op->a, &ia), b = mutate(op->b, &ib);
    Type t = op->type;
    if (Expr f = fold_binary(IRNodeType::Mod, a, b, &int32_wrapped); f.defined()) {
        *info = const_info(f);
        return f;
    }
    info->bounds = (ia.bounds % ib.bounds).fit_to(t);
    info->alignment = ia.alignment % ib.alignment;

    int64_t c, r;
    if (t.is_int_or_uint() && const_int_value(b, &c) && c != 0) {
        // A value already within [0, |c|) is its own remainder.
        int64_t mag = c == INT64_MIN ? 0 : (c < 0 ? -c : c); // |INT64_MIN| does not fit
        if (mag > 0 && ia.bounds.is_subset_of(ConstantInterval::bounded(0, mag - 1))) {
            *info = ia;
            return a;
        }
        // A ramp whose lanes stay within one multiple of c keeps its stride.
        if (no_overflow(t.element_of()) && c > 0) {
            if (const Ramp *ramp = a.as<Ramp>()) {
                int64_t s;
                if (const_int_value(ramp->stride, &s) && s >= 0 &&
                    residue(alignment_of(ramp->base), c, &r) && r + s * (ramp->lanes - 1) < c) {
                    Expr base = Mod::make(ramp->base, make_const(ramp->base.type(), c));
                    return mutate(Ramp::make(base, ramp->stride, ramp->lanes), info);
                }
            }
        }
    }

    return rebuild_and_rewrite(op, a, b, mod_rules(), t, info);
}

} // namespace internal
} // namespace loom
