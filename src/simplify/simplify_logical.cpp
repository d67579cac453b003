// Simplification of And, Or and Not. The right operand of a && b is simplified knowing a is
// true (and of a || b knowing a is false), so x < 5 && x < 10 becomes x < 5. Negation pushes
// into comparisons (!(a < b) -> b <= a for non-floats) and through && / || (De Morgan).

#include "simplify/const_fold.h"
#include "simplify/simplifier.h"

#include <utility>

namespace loom {
namespace internal {

namespace {

const rewrite::RuleList &and_rules() {
    static const rewrite::RuleList rules = [] {
        LOOM_PATTERN_VARS;
        return RuleList{
            {BOOL, broadcast(x) && broadcast(y), broadcast(x && y)},
            {BOOL, x && true, x},
            {BOOL, x && false, false},
            {BOOL, x && x, x},
            {BOOL, x && !x, false},
            {BOOL, !x && x, false},
            {BOOL, (x && y) && x, x && y},
            {BOOL, (x && y) && y, x && y},
            {BOOL, x && (x && y), x && y},
            {BOOL, x && (y && x), y && x},
            {BOOL, x && (x || y), x},
            {BOOL, x && (y || x), x},
            {BOOL, (x || y) && x, x},
            {BOOL, (y || x) && x, x},
            {BOOL, x < y && y < x, false},
            {BOOL, x != y && x == y, false},
            {BOOL, x == y && x != y, false},
            {BOOL, x < c0 && x < c1, x < fold(min(c0, c1))},
            {BOOL, c0 < x && c1 < x, fold(max(c0, c1)) < x},
            {BOOL, x <= c0 && x <= c1, x <= fold(min(c0, c1))},
            {BOOL, c0 <= x && c1 <= x, fold(max(c0, c1)) <= x},
            // Empty ranges.
            {BOOL, x < c0 && c1 < x, false, c0 <= c1},
            {BOOL, c1 < x && x < c0, false, c0 <= c1},
            {BOOL, x <= c0 && c1 < x, false, c0 <= c1},
            {BOOL, c1 < x && x <= c0, false, c0 <= c1},
            {BOOL, x < c0 && c1 <= x, false, c0 <= c1},
            {BOOL, c1 <= x && x < c0, false, c0 <= c1},
            {BOOL, x <= c0 && c1 <= x, false, c0 < c1},
            {BOOL, c1 <= x && x <= c0, false, c0 < c1},
            {BOOL, x == c0 && x == c1, false, c0 != c1},
        };
    }();
    return rules;
}

const rewrite::RuleList &or_rules() {
    static const rewrite::RuleList rules = [] {
        LOOM_PATTERN_VARS;
        return RuleList{
            {BOOL, broadcast(x) || broadcast(y), broadcast(x || y)},
            {BOOL, x || true, true},
            {BOOL, x || false, x},
            {BOOL, x || x, x},
            {BOOL, x || !x, true},
            {BOOL, !x || x, true},
            {BOOL, (x || y) || x, x || y},
            {BOOL, (x || y) || y, x || y},
            {BOOL, x || (x || y), x || y},
            {BOOL, x || (y || x), y || x},
            {BOOL, x || (x && y), x},
            {BOOL, x || (y && x), x},
            {BOOL, (x && y) || x, x},
            {BOOL, (y && x) || x, x},
            {BOOL, x < c0 || x < c1, x < fold(max(c0, c1))},
            {BOOL, c0 < x || c1 < x, fold(min(c0, c1)) < x},
            {BOOL, x <= c0 || x <= c1, x <= fold(max(c0, c1))},
            {BOOL, c0 <= x || c1 <= x, fold(min(c0, c1)) <= x},
            {BOOL, x != c0 || x != c1, true, c0 != c1},
            {BOOL, x != y || x == y, true},
            {BOOL, x == y || x != y, true},
        };
    }();
    return rules;
}

} // namespace

Expr Simplify::negate(const Expr &e) {
    if (Expr f = fold_not(e); f.defined()) return f;
    if (const LT *lt = e.as<LT>()) {
        if (!lt->a.type().is_float()) return LE::make(lt->b, lt->a);
    } else if (const LE *le = e.as<LE>()) {
        if (!le->a.type().is_float()) return LT::make(le->b, le->a);
    } else if (const EQ *eq = e.as<EQ>()) {
        return NE::make(eq->a, eq->b);
    } else if (const NE *ne = e.as<NE>()) {
        return EQ::make(ne->a, ne->b);
    } else if (const Not *n = e.as<Not>()) {
        return n->a;
    } else if (const Broadcast *b = e.as<Broadcast>()) {
        return Broadcast::make(negate(b->value), b->lanes);
    } else if (const And *a = e.as<And>()) {
        return mutate(Or::make(negate(a->a), negate(a->b)));
    } else if (const Or *o = e.as<Or>()) {
        return mutate(And::make(negate(o->a), negate(o->b)));
    }
    return Not::make(e);
}

Expr Simplify::visit(const Not *op, ExprInfo *info) {
    Expr a = mutate(op->a);
    if (a.same_as(op->a) && !a.as<Not>() && !a.as<LT>() && !a.as<LE>() && !a.as<EQ>() &&
        !a.as<NE>() && !a.as<And>() && !a.as<Or>() && !a.as<Broadcast>() && !is_numeric_const(a)) {
        return op;
    }
    return negate(a);
}

Expr Simplify::visit(const And *op, ExprInfo *info) {
    Expr a = mutate(op->a), b;
    {
        // b only matters when a holds.
        FactScope facts(this);
        facts.learn_true(a);
        b = mutate(op->b);
    }
    if (should_commute(a, b)) std::swap(a, b);
    if (Expr f = fold_binary(IRNodeType::And, a, b); f.defined()) return f;
    return rebuild_and_rewrite(op, a, b, and_rules(), a.type(), info);
}

Expr Simplify::visit(const Or *op, ExprInfo *info) {
    Expr a = mutate(op->a), b;
    {
        // b only matters when a does not hold.
        FactScope facts(this);
        facts.learn_false(a);
        b = mutate(op->b);
    }
    if (should_commute(a, b)) std::swap(a, b);
    if (Expr f = fold_binary(IRNodeType::Or, a, b); f.defined()) return f;
    return rebuild_and_rewrite(op, a, b, or_rules(), a.type(), info);
}

} // namespace internal
} // namespace loom
