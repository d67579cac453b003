#include "arith/monotonic.h"

#include "ir/ir_utils.h"
#include "ir/substitute.h"

namespace loom {
namespace internal {

namespace {

Monotonic flip(Monotonic m) {
    if (m == Monotonic::Increasing) return Monotonic::Decreasing;
    if (m == Monotonic::Decreasing) return Monotonic::Increasing;
    return m;
}

/// The sign of a constant integer (0 when e is not one).
int const_sign(const Expr &e) {
    const int64_t *c = as_const_int(e);
    if (!c) return 0;
    return *c > 0 ? 1 : (*c < 0 ? -1 : 2);
}

Monotonic scale(Monotonic m, int sign) {
    if (sign == 2) return Monotonic::Constant;
    if (sign == 1) return m;
    if (sign == -1) return flip(m);
    return Monotonic::Unknown;
}

} // namespace

Monotonic combine(Monotonic a, Monotonic b) {
    if (a == Monotonic::Constant) return b;
    if (b == Monotonic::Constant) return a;
    if (a == b) return a;
    return Monotonic::Unknown;
}

Monotonic is_monotonic(const Expr &e, const std::string &v) {
    if (!expr_uses_var(e, v)) return Monotonic::Constant;
    if (const Variable *x = e.as<Variable>()) {
        return x->name == v ? Monotonic::Increasing : Monotonic::Constant;
    }
    if (const Add *op = e.as<Add>()) {
        return combine(is_monotonic(op->a, v), is_monotonic(op->b, v));
    }
    if (const Sub *op = e.as<Sub>()) {
        return combine(is_monotonic(op->a, v), flip(is_monotonic(op->b, v)));
    }
    if (const Min *op = e.as<Min>()) {
        return combine(is_monotonic(op->a, v), is_monotonic(op->b, v));
    }
    if (const Max *op = e.as<Max>()) {
        return combine(is_monotonic(op->a, v), is_monotonic(op->b, v));
    }
    if (const Mul *op = e.as<Mul>()) {
        if (!expr_uses_var(op->b, v)) return scale(is_monotonic(op->a, v), const_sign(op->b));
        if (!expr_uses_var(op->a, v)) return scale(is_monotonic(op->b, v), const_sign(op->a));
        return Monotonic::Unknown;
    }
    if (const Div *op = e.as<Div>()) {
        if (expr_uses_var(op->b, v)) return Monotonic::Unknown;
        return scale(is_monotonic(op->a, v), const_sign(op->b));
    }
    if (const Select *op = e.as<Select>()) {
        if (expr_uses_var(op->condition, v)) return Monotonic::Unknown;
        return combine(is_monotonic(op->true_value, v), is_monotonic(op->false_value, v));
    }
    if (const Cast *op = e.as<Cast>()) {
        Type from = op->value.type();
        if ((op->type.is_int() || op->type.is_uint()) && from.is_int() &&
            op->type.bits() >= from.bits() && op->type.is_int()) {
            return is_monotonic(op->value, v);
        }
        return Monotonic::Unknown;
    }
    if (const Let *op = e.as<Let>()) {
        return is_monotonic(substitute(op->name, op->value, op->body), v);
    }
    if (const Call *op = e.as<Call>()) {
        if ((op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost) ||
             op->is_intrinsic(Call::promise_clamped)) &&
            !op->args.empty()) {
            for (size_t i = 1; i < op->args.size(); i++) {
                if (expr_uses_var(op->args[i], v)) return Monotonic::Unknown;
            }
            return is_monotonic(op->args[0], v);
        }
    }
    return Monotonic::Unknown;
}

} // namespace internal
} // namespace loom
