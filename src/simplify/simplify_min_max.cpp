// Simplification of Min and Max: decisions from operand bounds, constants gathered outermost,
// absorption, clamps (canonical form min(max(x, lo), hi)), and moving + - * / by constants out
// of min/max (INT32). Float rules are limited to those exact with NaN under Loom's definition
// min(a, b) = a < b ? a : b, max(a, b) = a > b ? a : b.

#include "ir/ir_equality.h"
#include "simplify/const_fold.h"
#include "simplify/simplifier.h"

#include <utility>

namespace loom {
namespace internal {

namespace {

const rewrite::RuleList &min_rules() {
    static const rewrite::RuleList rules = [] {
        LOOM_PATTERN_VARS;
        return RuleList{
            {ANY, min(broadcast(x), broadcast(y)), broadcast(min(x, y))},
            {ANY, min(x, x), x},
            {ANY, min(select(x, y, z), select(x, w, u)), select(x, min(y, w), min(z, u))},
            // Constants outermost.
            {RING, min(min(x, c0), c1), min(x, fold(min(c0, c1)))},
            {RING, min(min(x, c0), y), min(min(x, y), c0), !is_constant(y)},
            {RING, min(x, min(y, c0)), min(min(x, y), c0), !is_constant(x)},
            // Absorption.
            {RING, min(x, min(x, y)), min(x, y)},
            {RING, min(x, min(y, x)), min(y, x)},
            {RING, min(min(x, y), x), min(x, y)},
            {RING, min(min(x, y), y), min(x, y)},
            {RING, min(x, max(x, y)), x},
            {RING, min(x, max(y, x)), x},
            {RING, min(max(x, y), x), x},
            {RING, min(max(y, x), x), x},
            {RING, min(max(x, y), min(x, y)), min(x, y)},
            {RING, min(max(x, y), min(y, x)), min(y, x)},
            {RING, min(min(x, y), max(x, y)), min(x, y)},
            {RING, min(min(x, y), max(y, x)), min(x, y)},
            // Distributivity over a shared bound: the union of two clamps of different values
            // to one range is one clamp (bounds inference unions many such accesses).
            {RING, min(max(x, y), max(z, y)), max(min(x, z), y)},
            {RING, min(min(x, y), min(z, y)), min(min(x, z), y)},
            // Taps x + c of one clamp to [.., y + c0]: min(x + c, y + c0) is written
            // min(x, y) + c0 when c == c0. Their union is one such tap; without these the
            // regions of stages read through clamps by root consumers grew with every stage.
            {INT32, min(min(x, y) + c0, min(x + c1, y + c0)), min(x, y) + c0, c0 <= c1},
            {INT32, min(min(x + c1, y + c0), min(x, y) + c0), min(x, y) + c0, c0 <= c1},
            {INT32, min(min(x, y) + c0, min(x + c1, y + c0)), min(x + c1, y + c0), c1 < c0},
            {INT32, min(min(x + c1, y + c0), min(x, y) + c0), min(x + c1, y + c0), c1 < c0},
            {INT32, min(min(x, y) + c0, min(x, y + c0)), min(x, y) + c0, c0 <= 0},
            {INT32, min(min(x, y + c0), min(x, y) + c0), min(x, y) + c0, c0 <= 0},
            {INT32, min(min(x, y) + c0, min(x, y + c0)), min(x, y + c0), c0 > 0},
            {INT32, min(min(x, y + c0), min(x, y) + c0), min(x, y + c0), c0 > 0},
            // Shared terms (no overflow).
            {INT32, min(x + c0, x + c1), x + fold(min(c0, c1))},
            {INT32, min(x + c0, x), x, c0 > 0},
            {INT32, min(x + c0, x), x + c0, c0 < 0},
            {INT32, min(x, x + c0), x, c0 > 0},
            {INT32, min(x, x + c0), x + c0, c0 < 0},
            {INT32, min(x + y, x + z), x + min(y, z)},
            {INT32, min(x + y, z + x), x + min(y, z)},
            {INT32, min(y + x, x + z), min(y, z) + x},
            {INT32, min(y + x, z + x), min(y, z) + x},
            {INT32, min(x, x + y), x + min(y, 0)},
            {INT32, min(x + y, x), x + min(y, 0)},
            {INT32, min(x, y + x), min(y, 0) + x},
            {INT32, min(y + x, x), min(y, 0) + x},
            {INT32, min(x - y, x - z), x - max(y, z)},
            {INT32, min(x - y, z - y), min(x, z) - y},
            {INT32, min(c0 - x, c1 - x), fold(min(c0, c1)) - x},
            {INT32, min(x * c0, y * c0), min(x, y) * c0, c0 > 0},
            {INT32, min(x * c0, y * c0), max(x, y) * c0, c0 < 0},
            {INT32, min(x * c0, c1), min(x, fold(c1 / c0)) * c0, c0 > 0 && c1 % c0 == 0},
            {INT32, min(x / c0, y / c0), min(x, y) / c0, c0 > 0},
            {INT32, min((x / c0) * c0, x), (x / c0) * c0, c0 > 0},
            {INT32, min(x, (x / c0) * c0), (x / c0) * c0, c0 > 0},
        };
    }();
    return rules;
}

const rewrite::RuleList &max_rules() {
    static const rewrite::RuleList rules = [] {
        LOOM_PATTERN_VARS;
        return RuleList{
            {ANY, max(broadcast(x), broadcast(y)), broadcast(max(x, y))},
            {ANY, max(x, x), x},
            {ANY, max(select(x, y, z), select(x, w, u)), select(x, max(y, w), max(z, u))},
            {RING, max(max(x, c0), c1), max(x, fold(max(c0, c1)))},
            {RING, max(max(x, c0), y), max(max(x, y), c0), !is_constant(y)},
            {RING, max(x, max(y, c0)), max(max(x, y), c0), !is_constant(x)},
            {RING, max(x, max(x, y)), max(x, y)},
            {RING, max(x, max(y, x)), max(y, x)},
            {RING, max(max(x, y), x), max(x, y)},
            {RING, max(max(x, y), y), max(x, y)},
            {RING, max(x, min(x, y)), x},
            {RING, max(x, min(y, x)), x},
            {RING, max(min(x, y), x), x},
            {RING, max(min(y, x), x), x},
            {RING, max(min(x, y), max(x, y)), max(x, y)},
            {RING, max(min(x, y), max(y, x)), max(y, x)},
            {RING, max(max(x, y), min(x, y)), max(x, y)},
            {RING, max(max(x, y), min(y, x)), max(x, y)},
            // Canonical clamp: min(max(x, lo), hi).
            {RING, max(min(x, c1), c0), min(max(x, c0), c1), c0 <= c1},
            {RING, max(min(x, y), min(z, y)), min(max(x, z), y)},
            {RING, max(max(x, y), max(z, y)), max(max(x, z), y)},
            // The largest of the taps x + c of one clamp to [.., y + c0] (see min_rules).
            {INT32, max(min(x, y) + c0, min(x + c1, y + c0)), min(x + c1, y + c0), c0 <= c1},
            {INT32, max(min(x + c1, y + c0), min(x, y) + c0), min(x + c1, y + c0), c0 <= c1},
            {INT32, max(min(x, y) + c0, min(x + c1, y + c0)), min(x, y) + c0, c1 < c0},
            {INT32, max(min(x + c1, y + c0), min(x, y) + c0), min(x, y) + c0, c1 < c0},
            {INT32, max(min(x, y) + c0, min(x, y + c0)), min(x, y + c0), c0 <= 0},
            {INT32, max(min(x, y + c0), min(x, y) + c0), min(x, y + c0), c0 <= 0},
            {INT32, max(min(x, y) + c0, min(x, y + c0)), min(x, y) + c0, c0 > 0},
            {INT32, max(min(x, y + c0), min(x, y) + c0), min(x, y) + c0, c0 > 0},
            {INT32, max(x + c0, x + c1), x + fold(max(c0, c1))},
            {INT32, max(x + c0, x), x + c0, c0 > 0},
            {INT32, max(x + c0, x), x, c0 < 0},
            {INT32, max(x, x + c0), x + c0, c0 > 0},
            {INT32, max(x, x + c0), x, c0 < 0},
            {INT32, max(x + y, x + z), x + max(y, z)},
            {INT32, max(x + y, z + x), x + max(y, z)},
            {INT32, max(y + x, x + z), max(y, z) + x},
            {INT32, max(y + x, z + x), max(y, z) + x},
            {INT32, max(x, x + y), x + max(y, 0)},
            {INT32, max(x + y, x), x + max(y, 0)},
            {INT32, max(x, y + x), max(y, 0) + x},
            {INT32, max(y + x, x), max(y, 0) + x},
            {INT32, max(x - y, x - z), x - min(y, z)},
            {INT32, max(x - y, z - y), max(x, z) - y},
            {INT32, max(c0 - x, c1 - x), fold(max(c0, c1)) - x},
            {INT32, max(x * c0, y * c0), max(x, y) * c0, c0 > 0},
            {INT32, max(x * c0, y * c0), min(x, y) * c0, c0 < 0},
            {INT32, max(x * c0, c1), max(x, fold(c1 / c0)) * c0, c0 > 0 && c1 % c0 == 0},
            {INT32, max(x / c0, y / c0), max(x, y) / c0, c0 > 0},
            {INT32, max((x / c0) * c0, x), x, c0 > 0},
            {INT32, max(x, (x / c0) * c0), x, c0 > 0},
        };
    }();
    return rules;
}

/// Whether `x` is one of the operands of the chain of nested T nodes `chain` (e.g. x is a, b or
/// c of min(min(a, b), c)). Bounds inference unions many overlapping accesses into such chains.
template <typename T>
bool chain_contains(const Expr &chain, const Expr &x, int depth = 0) {
    if (equal(chain, x)) return true;
    const T *op = chain.as<T>();
    if (!op || depth > 32) return false;
    return chain_contains<T>(op->a, x, depth + 1) || chain_contains<T>(op->b, x, depth + 1);
}

/// min(chain, x) where x already appears in the chain is the chain (likewise for max). Not for
/// floats, whose min/max are not symmetric in NaN.
template <typename T>
Expr absorb_chain_duplicate(const Expr &a, const Expr &b, const Simplify::ExprInfo &ia,
                            const Simplify::ExprInfo &ib, Simplify::ExprInfo *info) {
    if (a.type().is_float()) return Expr();
    if (a.as<T>() && chain_contains<T>(a, b)) {
        *info = ia;
        return a;
    }
    if (b.as<T>() && chain_contains<T>(b, a)) {
        *info = ib;
        return b;
    }
    return Expr();
}

} // namespace

Expr Simplify::visit(const Min *op, ExprInfo *info) {
    ExprInfo ia, ib;
    Expr a = mutate(op->a, &ia), b = mutate(op->b, &ib);
    Type t = op->type;
    // Float min and max are not symmetric in NaN (min(a, b) = a < b ? a : b).
    if (!t.is_float() && should_commute(a, b)) {
        std::swap(a, b);
        std::swap(ia, ib);
    }
    if (Expr f = fold_binary(IRNodeType::Min, a, b); f.defined()) {
        *info = const_info(f);
        return f;
    }
    if (t.is_int_or_uint()) {
        // One side is never larger than the other.
        const ConstantInterval &x = ia.bounds, &y = ib.bounds;
        if (x.max_defined && y.min_defined && x.max <= y.min) {
            *info = ia;
            return a;
        }
        if (y.max_defined && x.min_defined && y.max <= x.min) {
            *info = ib;
            return b;
        }
    }
    if (Expr r = absorb_chain_duplicate<Min>(a, b, ia, ib, info); r.defined()) return r;
    info->bounds = min(ia.bounds, ib.bounds);
    info->alignment = unify(ia.alignment, ib.alignment);
    return rebuild_and_rewrite(op, a, b, min_rules(), t, info);
}

Expr Simplify::visit(const Max *op, ExprInfo *info) {
    ExprInfo ia, ib;
    Expr a = mutate(op->a, &ia), b = mutate(op->b, &ib);
    Type t = op->type;
    // Float min and max are not symmetric in NaN (min(a, b) = a < b ? a : b).
    if (!t.is_float() && should_commute(a, b)) {
        std::swap(a, b);
        std::swap(ia, ib);
    }
    if (Expr f = fold_binary(IRNodeType::Max, a, b); f.defined()) {
        *info = const_info(f);
        return f;
    }
    if (t.is_int_or_uint()) {
        const ConstantInterval &x = ia.bounds, &y = ib.bounds;
        if (x.min_defined && y.max_defined && x.min >= y.max) {
            *info = ia;
            return a;
        }
        if (y.min_defined && x.max_defined && y.min >= x.max) {
            *info = ib;
            return b;
        }
    }
    if (Expr r = absorb_chain_duplicate<Max>(a, b, ia, ib, info); r.defined()) return r;
    info->bounds = max(ia.bounds, ib.bounds);
    info->alignment = unify(ia.alignment, ib.alignment);
    return rebuild_and_rewrite(op, a, b, max_rules(), t, info);
}

} // namespace internal
} // namespace loom
