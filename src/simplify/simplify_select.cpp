// Simplification of Select: constant and known conditions, equal branches, negated conditions,
// boolean selects as logic, shared terms pulled out of both branches, and select-as-min/max.

#include "simplify/const_fold.h"
#include "simplify/simplifier.h"

namespace loom {
namespace internal {

namespace {

const rewrite::RuleList &select_rules() {
    static const rewrite::RuleList rules = [] {
        LOOM_PATTERN_VARS;
        return RuleList{
            {ANY | BOOL, select(x, y, y), y},
            {ANY | BOOL, select(!x, y, z), select(x, z, y)},
            {ANY | BOOL, select(broadcast(x), broadcast(y), broadcast(z)),
             broadcast(select(x, y, z))},
            {ANY | BOOL, select(x, select(x, y, z), w), select(x, y, w)},
            {ANY | BOOL, select(x, y, select(x, z, w)), select(x, y, w)},
            // Boolean selects are logic (when the condition has the values' lanes).
            {BOOL, select(x, true, false), x},
            {BOOL, select(x, false, true), !x},
            {BOOL, select(x, y, false), x && y},
            {BOOL, select(x, y, true), !x || y},
            {BOOL, select(x, true, y), x || y},
            {BOOL, select(x, false, y), !x && y},
            // Shared terms (each side computes the same operation on the same values).
            {ANY, select(x, y + z, y + w), y + select(x, z, w)},
            {ANY, select(x, y + z, w + z), select(x, y, w) + z},
            {ANY, select(x, y - z, y - w), y - select(x, z, w)},
            {ANY, select(x, y - z, w - z), select(x, y, w) - z},
            {ANY, select(x, y * z, y * w), y * select(x, z, w)},
            {ANY, select(x, y * z, w * z), select(x, y, w) * z},
            // min and max are selects (Loom defines them that way for floats too).
            {ANY, select(x < y, x, y), min(x, y)},
            {ANY, select(y < x, x, y), max(x, y)},
            {RING, select(x < y, y, x), max(x, y)},
            {RING, select(y < x, y, x), min(x, y)},
            {RING, select(x <= y, x, y), min(x, y)},
            {RING, select(x <= y, y, x), max(x, y)},
        };
    }();
    return rules;
}

} // namespace

Expr Simplify::visit(const Select *op, ExprInfo *info) {
    Expr c = mutate(op->condition);
    ConstVal cv;
    if (as_const_val(c, &cv)) return mutate(cv.u ? op->true_value : op->false_value, info);
    // The branches are simplified without the condition's facts: both branches
    // are evaluated whatever the condition, so a load's index simplified under the condition
    // (clamp(x, 0, 63) to x where the condition says x is inside) would read out of bounds
    // where the other branch is selected.
    ExprInfo it, ifalse;
    Expr t = mutate(op->true_value, &it);
    Expr f = mutate(op->false_value, &ifalse);
    info->bounds = ConstantInterval::make_union(it.bounds, ifalse.bounds);
    info->alignment = unify(it.alignment, ifalse.alignment);
    Expr e = (c.same_as(op->condition) && t.same_as(op->true_value) && f.same_as(op->false_value))
                 ? Expr(op)
                 : Select::make(c, t, f);
    Expr r;
    if (rewrite_with(select_rules(), e, t.type(), info, &r)) return r;
    return e;
}

} // namespace internal
} // namespace loom
