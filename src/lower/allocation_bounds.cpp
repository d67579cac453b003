#include "lower/allocation_bounds.h"

#include <loom/ir_operator.h>

#include "ir/ir_utils.h"
#include "ir/substitute.h"
#include "simplify/simplify.h"

#include <algorithm>
#include <set>

namespace loom {
namespace internal {

ConstantInterval loop_var_bounds(const For *op, const ConstantScope &scope) {
    ConstantInterval mn = constant_integer_bounds(op->min, scope);
    ConstantInterval ex = constant_integer_bounds(op->extent, scope);
    ConstantInterval r = ConstantInterval::everything();
    if (mn.min_defined) {
        r.min_defined = true;
        r.min = mn.min;
    }
    if (mn.max_defined && ex.max_defined) {
        ConstantInterval hi =
            ConstantInterval::single_point(mn.max) + ConstantInterval::single_point(ex.max - 1);
        r.max_defined = hi.max_defined;
        r.max = hi.max;
    }
    return r;
}

ScopedBinding::ScopedBinding(ConstantScope &scope, const std::string &name,
                             const ConstantInterval &value)
    : scope(scope), name(name) {
    auto it = scope.find(name);
    if (it != scope.end()) {
        had_old = true;
        old = it->second;
    }
    scope[name] = value;
}

ScopedBinding::~ScopedBinding() {
    if (had_old) {
        scope[name] = old;
    } else {
        scope.erase(name);
    }
}

bool constant_bound(const Expr &e, bool upper, const ConstantScope &scope, int64_t *result,
                    int depth) {
    if (depth > 12) return false;
    auto from_interval = [&](const ConstantInterval &i) {
        if (upper ? !i.max_defined : !i.min_defined) return false;
        *result = upper ? i.max : i.min;
        return true;
    };
    if (const int64_t *c = as_const_int(e)) {
        *result = *c;
        return true;
    }
    auto bound2 = [&](const Expr &a, bool ua, const Expr &b, bool ub, int64_t *ra, int64_t *rb) {
        return constant_bound(a, ua, scope, ra, depth + 1) &&
               constant_bound(b, ub, scope, rb, depth + 1);
    };
    // Overflow-checked combination through ConstantInterval arithmetic.
    auto point = [](int64_t v) { return ConstantInterval::single_point(v); };
    auto take = [&](const ConstantInterval &i) { return from_interval(i); };
    if (const Add *op = e.as<Add>()) {
        int64_t a, b;
        if (!bound2(op->a, upper, op->b, upper, &a, &b)) return false;
        return take((point(a) + point(b)).fit_to(Int(64)));
    }
    if (const Sub *op = e.as<Sub>()) {
        Expr a = op->a, b = op->b;
        // Distribute over a min/max subtrahend first, then the minuend (see above).
        const Min *bmin = b.as<Min>();
        const Max *bmax = b.as<Max>();
        const Min *amin = a.as<Min>();
        const Max *amax = a.as<Max>();
        if (bmin || bmax || amin || amax) {
            Expr x, y;
            bool is_min;
            if (bmin || bmax) {
                // a - min(z, w) = max(a - z, a - w); a - max(z, w) = min(a - z, a - w).
                Expr z = bmin ? bmin->a : bmax->a, w = bmin ? bmin->b : bmax->b;
                x = simplify(a - z);
                y = simplify(a - w);
                is_min = bmax != nullptr;
            } else {
                Expr p = amin ? amin->a : amax->a, q = amin ? amin->b : amax->b;
                x = simplify(p - b);
                y = simplify(q - b);
                is_min = amin != nullptr;
            }
            Expr combined = is_min ? Min::make(x, y) : Max::make(x, y);
            return constant_bound(combined, upper, scope, result, depth + 1);
        }
        int64_t ra, rb;
        if (!bound2(a, upper, b, !upper, &ra, &rb)) return false;
        return take((point(ra) - point(rb)).fit_to(Int(64)));
    }
    if (const Min *op = e.as<Min>()) {
        int64_t a, b;
        bool ha = constant_bound(op->a, upper, scope, &a, depth + 1);
        bool hb = constant_bound(op->b, upper, scope, &b, depth + 1);
        if (upper) {
            // The min is at most either side's upper bound.
            if (!ha && !hb) return false;
            *result = ha && hb ? std::min(a, b) : (ha ? a : b);
            return true;
        }
        if (!ha || !hb) return false;
        *result = std::min(a, b);
        return true;
    }
    if (const Max *op = e.as<Max>()) {
        int64_t a, b;
        bool ha = constant_bound(op->a, upper, scope, &a, depth + 1);
        bool hb = constant_bound(op->b, upper, scope, &b, depth + 1);
        if (!upper) {
            if (!ha && !hb) return false;
            *result = ha && hb ? std::max(a, b) : (ha ? a : b);
            return true;
        }
        if (!ha || !hb) return false;
        *result = std::max(a, b);
        return true;
    }
    if (const Mul *op = e.as<Mul>()) {
        const int64_t *c = as_const_int(op->b);
        if (c) {
            int64_t r;
            bool flip = *c < 0;
            if (!constant_bound(op->a, flip ? !upper : upper, scope, &r, depth + 1)) return false;
            return take((point(r) * point(*c)).fit_to(Int(64)));
        }
    }
    if (const Div *op = e.as<Div>()) {
        const int64_t *c = as_const_int(op->b);
        if (c && *c > 0) {
            int64_t r;
            if (!constant_bound(op->a, upper, scope, &r, depth + 1)) return false;
            return take(point(r) / point(*c));
        }
    }
    if (const Select *op = e.as<Select>()) {
        int64_t a, b;
        if (!bound2(op->true_value, upper, op->false_value, upper, &a, &b)) return false;
        *result = upper ? std::max(a, b) : std::min(a, b);
        return true;
    }
    return from_interval(constant_integer_bounds(e, scope));
}

Stmt AllocationBoundsMutator::visit(const LetStmt *op) {
    ScopedBinding b(scope, op->name, constant_integer_bounds(op->value, scope));
    lets.emplace_back(op->name, op->value);
    Stmt s = IRMutator::visit(op);
    lets.pop_back();
    return s;
}

Stmt AllocationBoundsMutator::visit(const For *op) {
    ScopedBinding b(scope, op->name, loop_var_bounds(op, scope));
    // The loop variable shadows any let of the same name.
    lets.emplace_back(op->name, Expr());
    Stmt s = IRMutator::visit(op);
    lets.pop_back();
    return s;
}

/// A constant upper bound of extent e: e with the enclosing lets substituted (so that
/// the symbolic parts of the bounds of a region cancel), simplified, then bounded. A let
/// whose substitution would make e larger than kMaxSubstitutedNodes stays a name (bounded
/// through the scope): the region of a root stage read through clamps is defined by its
/// consumer's lets several times over, and substituting the whole chain of root stages
/// grew e exponentially (a 4-stage chain of clamped stencils took a minute here).
bool AllocationBoundsMutator::extent_upper_bound(const Expr &e, int64_t *result) {
    const int kMaxSubstitutedNodes = 2000;
    Expr x = e;
    std::set<std::string> loop_vars;
    for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
        if (loop_vars.count(it->first) || !expr_uses_var(x, it->first)) continue;
        if (!it->second.defined()) {
            // A loop variable (bounded through the scope); outer lets of that name are
            // hidden.
            loop_vars.insert(it->first);
            continue;
        }
        Expr next = substitute(it->first, it->second, x);
        if (!expr_larger_than(next, kMaxSubstitutedNodes)) {
            x = next;
        } else {
            // Kept as a name, a let hides any outer let of the same name as a loop does.
            loop_vars.insert(it->first);
        }
    }
    x = simplify(x);
    return constant_bound(x, true, scope, result);
}

} // namespace internal
} // namespace loom
