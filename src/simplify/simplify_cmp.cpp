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
            {INT32, x + c0 < y, x < y + fold(0 - c0), !is_constant(y)},
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
            {INT32, x * c0 == y * c0, x == y, c0 != 0},
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
    if (no_overflow(t.element_of())) {
        if (Expr d = decide_by_difference(a, b, true); d.defined()) return d;
        if (Expr d = split_min_max_lt(a, b); d.defined()) return d;
    }
    Expr e = LT::make(a, b);
    Expr r;
    ExprInfo ri;
    if (rewrite_with(lt_rules(), e, t, &ri, &r)) return r;
    return e;
}

Expr Simplify::decide_by_difference(const Expr &a, const Expr &b, bool less_than) {
    // The bounds of a - b decide relations that the operands' own bounds cannot, such as
    // (x / 8) * 8 <= x (the difference is -(x % 8), in [-7, 0]). Only without overflow.
    // Against a constant, a - b has just a's bounds, already checked.
    if (is_numeric_const(a) || is_numeric_const(b)) return Expr();
    int lanes = a.type().lanes();
    ExprInfo di;
    // a - b may overflow even though a and b do not; a wrapped constant fold would then give
    // wrong bounds. (Interval bounds are clamped to the type, which keeps their sign right.)
    bool outer_wrapped = int32_wrapped;
    int32_wrapped = false;
    Expr d = mutate(Sub::make(a, b), &di);
    bool wrapped = int32_wrapped;
    int32_wrapped = outer_wrapped || wrapped;
    if (wrapped) return Expr();
    // The facts recorded for d's nodes assume that d's own arithmetic does not overflow, which
    // nothing guarantees; recompute its range in exact integer arithmetic instead.
    int budget = 64;
    ConstantInterval r = exact_bounds(d, 8, &budget);
    if (less_than) {
        if (r.max_defined && r.max < 0) return const_true(lanes);
        if (r.min_defined && r.min >= 0) return const_false(lanes);
    } else {
        if (r.is_single_point(0)) return const_true(lanes);
        if (!r.contains(0)) return const_false(lanes);
    }
    return Expr();
}

ConstantInterval Simplify::exact_bounds(const Expr &e, int depth, int *budget) {
    int64_t c;
    if (const_int_value(e, &c)) return ConstantInterval::single_point(c);
    if (depth == 0 || --*budget < 0) return ConstantInterval::everything();
    auto sub = [&](const Expr &x) { return exact_bounds(x, depth - 1, budget); };
    if (const Add *op = e.as<Add>()) return sub(op->a) + sub(op->b);
    if (const Sub *op = e.as<Sub>()) return sub(op->a) - sub(op->b);
    if (const Mul *op = e.as<Mul>()) return sub(op->a) * sub(op->b);
    if (const Div *op = e.as<Div>()) return sub(op->a) / sub(op->b);
    if (const Mod *op = e.as<Mod>()) return sub(op->a) % sub(op->b);
    if (const Min *op = e.as<Min>()) return min(sub(op->a), sub(op->b));
    if (const Max *op = e.as<Max>()) return max(sub(op->a), sub(op->b));
    if (const Select *op = e.as<Select>()) {
        return ConstantInterval::make_union(sub(op->true_value), sub(op->false_value));
    }
    if (const Broadcast *op = e.as<Broadcast>()) return sub(op->value);
    if (const Ramp *op = e.as<Ramp>()) {
        return sub(op->base) + sub(op->stride) * ConstantInterval::bounded(0, op->lanes - 1);
    }
    // Leaves: variables, loads, calls and casts have their own facts, which do not depend on
    // the overflow assumption for d.
    if (e.as<Variable>() || e.as<Load>() || e.as<Call>() || e.as<Cast>()) {
        auto it = simplified.find(e.get());
        if (it != simplified.end() && it->second.epoch == epoch) return it->second.info.bounds;
        if (const Variable *v = e.as<Variable>()) {
            auto vi = vars.find(v->name);
            if (vi != vars.end()) return vi->second.info.bounds.fit_to(v->type);
        }
    }
    return ConstantInterval::bounds_of_type(e.type());
}

Expr Simplify::split_min_max_lt(const Expr &a, const Expr &b) {
    // min(p, q) < b is p < b || q < b (and so on); worth it only when a part is decided.
    Expr p, q;
    bool is_or;
    if (const Min *m = a.as<Min>()) {
        p = LT::make(m->a, b), q = LT::make(m->b, b), is_or = true;
    } else if (const Max *m = a.as<Max>()) {
        p = LT::make(m->a, b), q = LT::make(m->b, b), is_or = false;
    } else if (const Min *m = b.as<Min>()) {
        p = LT::make(a, m->a), q = LT::make(a, m->b), is_or = false;
    } else if (const Max *m = b.as<Max>()) {
        p = LT::make(a, m->a), q = LT::make(a, m->b), is_or = true;
    } else {
        return Expr();
    }
    Expr sp = mutate(p);
    ConstVal cv;
    if (as_const_val(sp, &cv)) {
        // true || q, false && q decide; otherwise the answer is the other part.
        if ((bool)cv.u == is_or) return sp;
        return mutate(q);
    }
    Expr sq = mutate(q);
    if (as_const_val(sq, &cv)) {
        if ((bool)cv.u == is_or) return sq;
        return sp;
    }
    return Expr();
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
            // Different residues never meet.
            ModulusRemainder d = normalize(ia.alignment - ib.alignment);
            if (d.modulus != 1 && d.remainder != 0) return const_false(lanes);
            if (Expr d = decide_by_difference(a, b, false); d.defined()) return d;
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
