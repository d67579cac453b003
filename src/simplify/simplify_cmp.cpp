// Simplification of comparisons. Canonical forms: a > b becomes b < a and a >= b becomes
// b <= a; for integers a <= b is simplified as !(b < a), so every integer rule is written once,
// for <. Comparisons are decided from operand bounds and alignment; rules that move terms
// across the comparison hold only without overflow (INT32), while equality rules hold in
// wrap-around arithmetic (RING). Floats only get rules that are exact with NaN.

#include "simplify/const_fold.h"
#include "simplify/simplifier.h"

#include "ir/ir_utils.h"

#include <utility>

namespace loom {
namespace internal {

namespace {

const rewrite::RuleList &lt_rules() {
    static const rewrite::RuleList rules = [] {
        LOOM_PATTERN_VARS;
        return RuleList{
            {ANY | BOOL, broadcast(x) < broadcast(y), broadcast(x < y)},
            {ANY | BOOL, x < x, false},
            {ANY, select(x, c0, c1) < c2, select(x, fold(c0 < c2), fold(c1 < c2))},
            {ANY, c2 < select(x, c0, c1), select(x, fold(c2 < c0), fold(c2 < c1))},
            // Move constants to the right-hand side.
            {INT32, x + c0 < c1, x < fold(c1 - c0)},
            {INT32, c1 < x + c0, fold(c1 - c0) < x},
            {INT32, x + c0 < y + c1, x < y + fold(c1 - c0)},
            {INT32, x + c0 < y, x < y + fold(0 - c0)},
            {INT32, c0 - x < c1, fold(c0 - c1) < x},
            {INT32, c1 < c0 - x, x < fold(c0 - c1)},
            // Cancel shared terms.
            {INT32, x < x + y, 0 < y},
            {INT32, x < y + x, 0 < y},
            {INT32, x + y < x, y < 0},
            {INT32, y + x < x, y < 0},
            {INT32, x + y < x + z, y < z},
            {INT32, x + y < z + x, y < z},
            {INT32, y + x < x + z, y < z},
            {INT32, y + x < z + x, y < z},
            {INT32, x - y < x, 0 < y},
            {INT32, x < x - y, y < 0},
            {INT32, x - y < z - y, x < z},
            {INT32, x - y < x - z, z < y},
            {INT32, x - y < 0, x < y},
            {INT32, 0 < x - y, y < x},
            // Scaled and divided operands.
            {INT32, x * c0 < c1, x<fold((c1 + c0 - 1) / c0), c0> 0},
            {INT32, c1<x * c0, fold(c1 / c0) < x, c0> 0},
            {INT32, x * c0 < y * c0, x<y, c0> 0},
            {INT32, x * c0 < y * c0, y < x, c0 < 0},
            {INT32, x / c0 < c1, x<fold(c1 * c0), c0> 0},
            {INT32, c1<x / c0, fold((c1 + 1) * c0 - 1) < x, c0> 0},
            // min/max against one of their operands or a constant.
            {RING, min(x, y) < x, y < x},
            {RING, min(y, x) < x, y < x},
            {RING, x < max(x, y), x < y},
            {RING, x < max(y, x), x < y},
            {RING, max(x, y) < x, false},
            {RING, max(y, x) < x, false},
            {RING, x < min(x, y), false},
            {RING, x < min(y, x), false},
            {RING, min(x, c0) < c1, x < c1, c1 <= c0},
            {RING, max(x, c0) < c1, x < c1, c0 < c1},
            {RING, c0 < min(x, c1), c0 < x, c0 < c1},
            {RING, c0 < max(x, c1), c0 < x, c1 <= c0},
            // Unsigned values are never below zero.
            {UINT, x < 1, x == 0},
            {UINT, 0 < x, x != 0},
        };
    }();
    return rules;
}

const rewrite::RuleList &le_float_rules() {
    static const rewrite::RuleList rules = [] {
        LOOM_PATTERN_VARS;
        return RuleList{
            {FLOAT, broadcast(x) <= broadcast(y), broadcast(x <= y)},
            {FLOAT, select(x, c0, c1) <= c2, select(x, fold(c0 <= c2), fold(c1 <= c2))},
            {FLOAT, c2 <= select(x, c0, c1), select(x, fold(c2 <= c0), fold(c2 <= c1))},
        };
    }();
    return rules;
}

const rewrite::RuleList &eq_rules() {
    static const rewrite::RuleList rules = [] {
        LOOM_PATTERN_VARS;
        return RuleList{
            {ANY | BOOL, broadcast(x) == broadcast(y), broadcast(x == y)},
            // x == x is false for a NaN.
            {RING | BOOL, x == x, true},
            {ANY, select(x, c0, c1) == c2, select(x, fold(c0 == c2), fold(c1 == c2))},
            {BOOL, x == 1, x},
            {BOOL, x == 0, !x},
            {RING, x + c0 == c1, x == fold(c1 - c0)},
            {RING, c0 - x == c1, x == fold(c0 - c1)},
            {RING, x + y == x + z, y == z},
            {RING, x + y == z + x, y == z},
            {RING, y + x == x + z, y == z},
            {RING, y + x == z + x, y == z},
            {RING, x + y == x, y == 0},
            {RING, y + x == x, y == 0},
            {RING, x == x + y, y == 0},
            {RING, x == y + x, y == 0},
            {RING, x - y == 0, x == y},
            {RING, x - y == x, y == 0},
            {RING, x == x - y, y == 0},
            {RING, x - y == z - y, x == z},
            {RING, x - y == x - z, y == z},
            {INT32, x * c0 == c1, x == fold(c1 / c0), c0 != 0 && c1 % c0 == 0},
            {INT32, x * c0 == c1, false, c0 != 0 && c1 % c0 != 0},
            {RING, min(x, c0) == c1, x == c1, c1 < c0},
            {RING, max(x, c0) == c1, x == c1, c0 < c1},
        };
    }();
    return rules;
}

/// The single handle for an unchanged binary node.
template <typename T>
Expr reuse(const T *op, const Expr &r) {
    const T *n = r.as<T>();
    if (n && n->a.same_as(op->a) && n->b.same_as(op->b)) return op;
    return r;
}

} // namespace

Expr Simplify::simplify_lt(const Expr &a, const Expr &b, const ExprInfo &ia, const ExprInfo &ib) {
    Type t = a.type();
    int lanes = t.lanes();
    if (Expr f = fold_binary(IRNodeType::LT, a, b); f.defined()) return f;
    if (t.is_int_or_uint()) {
        const ConstantInterval &x = ia.bounds, &y = ib.bounds;
        if (x.max_defined && y.min_defined && x.max < y.min) return const_true(lanes);
        if (x.min_defined && y.max_defined && x.min >= y.max) return const_false(lanes);
        if (no_overflow(t.element_of())) {
            // ramp(x, s) < broadcast(y) compares ramp(x - y, s) against zero, whose bounds are
            // often constant (y == x + 4); use that form only when it decides the comparison.
            const Ramp *ra = a.as<Ramp>();
            const Broadcast *bb = b.as<Broadcast>();
            const Broadcast *ba = a.as<Broadcast>();
            const Ramp *rb = b.as<Ramp>();
            Expr moved;
            if (ra && bb && !is_const_zero(bb->value) && ra->base.type() == bb->value.type()) {
                Expr base = Sub::make(ra->base, bb->value);
                Expr z = make_zero(bb->value.type());
                moved = LT::make(Ramp::make(base, ra->stride, ra->lanes),
                                 Broadcast::make(z, bb->lanes));
            } else if (ba && rb && !is_const_zero(ba->value) &&
                       rb->base.type() == ba->value.type()) {
                Expr base = Sub::make(rb->base, ba->value);
                Expr z = make_zero(ba->value.type());
                moved = LT::make(Broadcast::make(z, ba->lanes),
                                 Ramp::make(base, rb->stride, rb->lanes));
            }
            if (moved.defined()) {
                Expr r = mutate(moved);
                if (is_numeric_const(r)) return r;
            }
        }
    }
    Expr e = LT::make(a, b);
    Expr r;
    ExprInfo ri;
    if (rewrite_with(lt_rules(), e, t, &ri, &r)) return r;
    return e;
}

Expr Simplify::simplify_le(const Expr &a, const Expr &b, const ExprInfo &ia, const ExprInfo &ib) {
    Type t = a.type();
    int lanes = t.lanes();
    if (Expr f = fold_binary(IRNodeType::LE, a, b); f.defined()) return f;
    if (t.is_float()) {
        // NaN makes a <= b differ from !(b < a).
        Expr e = LE::make(a, b);
        Expr r;
        ExprInfo ri;
        if (rewrite_with(le_float_rules(), e, t, &ri, &r)) return r;
        return e;
    }
    if (t.is_int_or_uint()) {
        const ConstantInterval &x = ia.bounds, &y = ib.bounds;
        if (x.max_defined && y.min_defined && x.max <= y.min) return const_true(lanes);
        if (x.min_defined && y.max_defined && x.min > y.max) return const_false(lanes);
    }
    return negate(simplify_lt(b, a, ib, ia));
}

Expr Simplify::simplify_eq(const Expr &a_in, const Expr &b_in, const ExprInfo &ia_in,
                           const ExprInfo &ib_in) {
    Expr a = a_in, b = b_in;
    ExprInfo ia = ia_in, ib = ib_in;
    if (should_commute(a, b)) {
        std::swap(a, b);
        std::swap(ia, ib);
    }
    Type t = a.type();
    int lanes = t.lanes();
    if (Expr f = fold_binary(IRNodeType::EQ, a, b); f.defined()) return f;
    if (t.is_int_or_uint()) {
        const ConstantInterval &x = ia.bounds, &y = ib.bounds;
        if ((x.max_defined && y.min_defined && x.max < y.min) ||
            (y.max_defined && x.min_defined && y.max < x.min)) {
            return const_false(lanes);
        }
        if (no_overflow(t.element_of())) {
            // a - b is never a multiple of ... zero: different residues never meet.
            ModulusRemainder d = normalize(ia.alignment - ib.alignment);
            if (d.modulus != 1 && d.remainder != 0) return const_false(lanes);
        }
    }
    Expr e = EQ::make(a, b);
    Expr r;
    ExprInfo ri;
    if (rewrite_with(eq_rules(), e, t, &ri, &r)) return r;
    return e;
}

Expr Simplify::visit(const LT *op, ExprInfo *info) {
    ExprInfo ia, ib;
    Expr a = mutate(op->a, &ia), b = mutate(op->b, &ib);
    return reuse(op, simplify_lt(a, b, ia, ib));
}

Expr Simplify::visit(const LE *op, ExprInfo *info) {
    ExprInfo ia, ib;
    Expr a = mutate(op->a, &ia), b = mutate(op->b, &ib);
    return reuse(op, simplify_le(a, b, ia, ib));
}

Expr Simplify::visit(const GT *op, ExprInfo *info) {
    ExprInfo ia, ib;
    Expr a = mutate(op->a, &ia), b = mutate(op->b, &ib);
    return simplify_lt(b, a, ib, ia);
}

Expr Simplify::visit(const GE *op, ExprInfo *info) {
    ExprInfo ia, ib;
    Expr a = mutate(op->a, &ia), b = mutate(op->b, &ib);
    return simplify_le(b, a, ib, ia);
}

Expr Simplify::visit(const EQ *op, ExprInfo *info) {
    ExprInfo ia, ib;
    Expr a = mutate(op->a, &ia), b = mutate(op->b, &ib);
    return reuse(op, simplify_eq(a, b, ia, ib));
}

Expr Simplify::visit(const NE *op, ExprInfo *info) {
    ExprInfo ia, ib;
    Expr a = mutate(op->a, &ia), b = mutate(op->b, &ib);
    return reuse(op, negate(simplify_eq(a, b, ia, ib)));
}

} // namespace internal
} // namespace loom
