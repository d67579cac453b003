// Simplification of Add and Sub: constant folding, gathering constants outermost, cancelling
// terms, vector (ramp/broadcast) algebra. Valid in wrap-around arithmetic (RING) unless marked
// INT32; float rules are exact in IEEE arithmetic.

#include "simplify/const_fold.h"
#include "simplify/simplifier.h"

#include <utility>

namespace loom {
namespace internal {

namespace {

const rewrite::RuleList &add_rules() {
    static const rewrite::RuleList rules = [] {
        LOOM_PATTERN_VARS;
        return RuleList{
            // Vectors.
            {ANY, broadcast(x) + broadcast(y), broadcast(x + y)},
            {RING, ramp(x, y) + ramp(z, w), ramp(x + z, y + w)},
            {RING, ramp(x, y) + broadcast(z), ramp(x + z, y)},
            {RING, broadcast(z) + ramp(x, y), ramp(z + x, y)},
            {ANY, select(x, y, z) + select(x, w, u), select(x, y + w, z + u)},
            {ANY, select(x, c0, c1) + c2, select(x, fold(c0 + c2), fold(c1 + c2))},
            // Identities. (x + 0.0 is not x for x == -0.0.)
            {RING, x + 0, x},
            // Gather constants outermost.
            {RING, (x + c0) + c1, x + fold(c0 + c1)},
            {RING, (c0 - x) + c1, fold(c0 + c1) - x},
            {RING, (x + c0) + y, (x + y) + c0, !is_constant(y)},
            {RING, x + (y + c0), (x + y) + c0, !is_constant(x)},
            {RING, (c0 - x) + y, (y - x) + c0, !is_constant(y)},
            {RING, x + (c0 - y), (x - y) + c0, !is_constant(x)},
            // Cancellation.
            {RING, (x - y) + y, x},
            {RING, x + (y - x), y},
            {RING, (x - y) + (y - z), x - z},
            {RING, (x - y) + (z - x), z - y},
            {RING, (x - y) + (y + z), x + z},
            {RING, (x - y) + (z + y), x + z},
            {RING, (x + y) + (z - x), y + z},
            {RING, (x + y) + (z - y), x + z},
            {RING, (0 - x) + y, y - x},
            {RING, x + (0 - y), x - y},
            // Collect like terms.
            {RING, x + x, x * 2},
            {RING, x * c0 + x, x * fold(c0 + 1)},
            {RING, x + x * c0, x * fold(c0 + 1)},
            {RING, x * c0 + x * c1, x * fold(c0 + c1)},
            {RING, x * y + z * y, (x + z) * y},
            {RING, x * y + y * z, (x + z) * y},
            {RING, y * x + z * y, y * (x + z)},
            {RING, y * x + y * z, y * (x + z)},
            // Euclidean identity: (x / c) * c + x % c == x.
            {RING, (x / c0) * c0 + x % c0, x, c0 != 0},
            {RING, x % c0 + (x / c0) * c0, x, c0 != 0},
            // One of min and max is x, the other y.
            {RING, min(x, y) + max(x, y), x + y},
            {RING, min(x, y) + max(y, x), x + y},
            {RING, max(x, y) + min(x, y), x + y},
            {RING, max(x, y) + min(y, x), x + y},
            // Constants through min/max (no overflow).
            {INT32, min(x + c0, c2) + c1, min(x, fold(c2 + c1)), c0 + c1 == 0},
            {INT32, max(x + c0, c2) + c1, max(x, fold(c2 + c1)), c0 + c1 == 0},
            {INT32, min(x + c0, y) + c1, min(x, y + c1), c0 + c1 == 0 && !is_constant(y)},
            {INT32, min(y, x + c0) + c1, min(y + c1, x), c0 + c1 == 0 && !is_constant(y)},
            {INT32, max(x + c0, y) + c1, max(x, y + c1), c0 + c1 == 0 && !is_constant(y)},
            {INT32, max(y, x + c0) + c1, max(y + c1, x), c0 + c1 == 0 && !is_constant(y)},
        };
    }();
    return rules;
}

const rewrite::RuleList &sub_rules() {
    static const rewrite::RuleList rules = [] {
        LOOM_PATTERN_VARS;
        const uint8_t SIGNED = INT32 | INT_OTHER;
        return RuleList{
            // Vectors.
            {ANY, broadcast(x) - broadcast(y), broadcast(x - y)},
            {RING, ramp(x, y) - ramp(z, w), ramp(x - z, y - w)},
            {RING, ramp(x, y) - broadcast(z), ramp(x - z, y)},
            {RING, broadcast(x) - ramp(z, w), ramp(x - z, 0 - w)},
            {ANY, select(x, y, z) - select(x, w, u), select(x, y - w, z - u)},
            {ANY, select(x, c0, c1) - c2, select(x, fold(c0 - c2), fold(c1 - c2))},
            {ANY, c2 - select(x, c0, c1), select(x, fold(c2 - c0), fold(c2 - c1))},
            // Identities; x - c becomes x + (-c) for signed integers (canonical form).
            {ANY, x - 0, x},
            {SIGNED, x - c0, x + fold(0 - c0)},
            {RING, x - x, 0},
            // Cancellation.
            {RING, (x + y) - x, y},
            {RING, (x + y) - y, x},
            {RING, x - (x + y), 0 - y},
            {RING, y - (x + y), 0 - x},
            {RING, (x - y) - x, 0 - y},
            {RING, x - (x - y), y},
            {RING, (x + y) - (x + z), y - z},
            {RING, (x + y) - (z + x), y - z},
            {RING, (y + x) - (x + z), y - z},
            {RING, (y + x) - (z + x), y - z},
            {RING, (x - y) - (x - z), z - y},
            {RING, (x - y) - (z - y), x - z},
            {RING, (x + y) - (x - z), y + z},
            {RING, (y + x) - (x - z), y + z},
            {RING, ((x + y) + z) - x, y + z},
            {RING, ((y + x) + z) - x, y + z},
            {RING, (x + (y + z)) - y, x + z},
            // Gather constants outermost.
            {RING, (x + c0) - c1, x + fold(c0 - c1)},
            {RING, (x + c0) - y, (x - y) + c0, !is_constant(y)},
            {RING, x - (y + c0), (x - y) + fold(0 - c0), !is_constant(x)},
            {RING, c0 - (x + c1), fold(c0 - c1) - x},
            {RING, c0 - (c1 - x), x + fold(c0 - c1)},
            {RING, (c0 - x) - y, c0 - (x + y), !is_constant(y)},
            {RING, x - (c0 - y), (x + y) + fold(0 - c0), !is_constant(x)},
            {RING, x - (0 - y), x + y},
            // Collect like terms.
            {RING, x * c0 - x, x * fold(c0 - 1)},
            {RING, x - x * c0, x * fold(1 - c0)},
            {RING, x * c0 - x * c1, x * fold(c0 - c1)},
            {RING, x * y - z * y, (x - z) * y},
            {RING, x * y - y * z, (x - z) * y},
            {RING, y * x - z * y, y * (x - z)},
            {RING, y * x - y * z, y * (x - z)},
            // Selects with a shared side.
            {RING, select(x, y, z) - y, select(x, 0, z - y)},
            {RING, select(x, y, z) - z, select(x, y - z, 0)},
            {RING, y - select(x, y, z), select(x, 0, y - z)},
            {RING, z - select(x, y, z), select(x, z - y, 0)},
            // Euclidean identity: x - (x / c) * c == x % c (and rounding up or down to a
            // multiple of c differs from x by a remainder, whose bounds are known).
            {RING, x - (x / c0) * c0, x % c0, c0 != 0},
            {RING, (x / c0) * c0 - x, 0 - x % c0, c0 != 0},
            {RING, x - ((x + c1) / c0) * c0, (x + c1) % c0 - c1, c0 != 0},
            {RING, ((x + c1) / c0) * c0 - x, c1 - (x + c1) % c0, c0 != 0},
            // min/max minus one of their operands (no overflow).
            {RING, min(x, y) - min(y, x), 0},
            {RING, max(x, y) - max(y, x), 0},
            {INT32, min(x, y) - x, min(y - x, 0)},
            {INT32, min(y, x) - x, min(y - x, 0)},
            {INT32, max(x, y) - x, max(y - x, 0)},
            {INT32, max(y, x) - x, max(y - x, 0)},
            {INT32, x - min(x, y), max(x - y, 0)},
            {INT32, x - min(y, x), max(x - y, 0)},
            {INT32, x - max(x, y), min(x - y, 0)},
            {INT32, x - max(y, x), min(x - y, 0)},
            {INT32, min(x + c0, y) - x, min(y - x, c0)},
            {INT32, min(y, x + c0) - x, min(y - x, c0)},
            {INT32, max(x + c0, y) - x, max(y - x, c0)},
            {INT32, max(y, x + c0) - x, max(y - x, c0)},
            {INT32, x - min(x + c0, y), max(x - y, fold(0 - c0))},
            {INT32, x - min(y, x + c0), max(x - y, fold(0 - c0))},
            {INT32, x - max(x + c0, y), min(x - y, fold(0 - c0))},
            {INT32, x - max(y, x + c0), min(x - y, fold(0 - c0))},
            {INT32, min(x, y + c0) - y, min(x - y, c0)},
            {INT32, max(x, y + c0) - y, max(x - y, c0)},
            {INT32, (x + y) - min(x, y), max(x, y)},
            {INT32, (x + y) - max(x, y), min(x, y)},
            {INT32, (y + x) - min(x, y), max(x, y)},
            {INT32, (y + x) - max(x, y), min(x, y)},
        };
    }();
    return rules;
}

} // namespace

Expr Simplify::visit(const Add *op, ExprInfo *info) {
    ExprInfo ia, ib;
    Expr a = mutate(op->a, &ia), b = mutate(op->b, &ib);
    if (should_commute(a, b)) {
        std::swap(a, b);
        std::swap(ia, ib);
    }
    Type t = op->type;
    if (Expr f = fold_binary(IRNodeType::Add, a, b, &int32_wrapped); f.defined()) {
        *info = const_info(f);
        return f;
    }
    info->bounds = (ia.bounds + ib.bounds).fit_to(t);
    info->alignment = ia.alignment + ib.alignment;
    return rebuild_and_rewrite(op, a, b, add_rules(), t, info);
}

Expr Simplify::visit(const Sub *op, ExprInfo *info) {
    ExprInfo ia, ib;
    Expr a = mutate(op->a, &ia), b = mutate(op->b, &ib);
    Type t = op->type;
    if (Expr f = fold_binary(IRNodeType::Sub, a, b, &int32_wrapped); f.defined()) {
        *info = const_info(f);
        return f;
    }
    info->bounds = (ia.bounds - ib.bounds).fit_to(t);
    info->alignment = ia.alignment - ib.alignment;
    return rebuild_and_rewrite(op, a, b, sub_rules(), t, info);
}

} // namespace internal
} // namespace loom
