#include "analysis/associativity.h"

#include "ir/ir.h"
#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "support/error.h"

#include <cmath>

namespace loom {
namespace internal {

namespace {

/// A binary operation split into its operands and kind.
struct BinaryMatch {
    AssociativeOpKind kind;
    Expr a, b;
};

bool match_binary(const Expr &e, BinaryMatch *m) {
    if (const Add *op = e.as<Add>()) {
        *m = {AssociativeOpKind::Add, op->a, op->b};
    } else if (const Mul *op = e.as<Mul>()) {
        *m = {AssociativeOpKind::Mul, op->a, op->b};
    } else if (const Min *op = e.as<Min>()) {
        *m = {AssociativeOpKind::Min, op->a, op->b};
    } else if (const Max *op = e.as<Max>()) {
        *m = {AssociativeOpKind::Max, op->a, op->b};
    } else if (const And *op = e.as<And>()) {
        *m = {AssociativeOpKind::And, op->a, op->b};
    } else if (const Or *op = e.as<Or>()) {
        *m = {AssociativeOpKind::Or, op->a, op->b};
    } else if (const Call *c = e.as<Call>()) {
        if (c->call_type != Call::PureIntrinsic || c->args.size() != 2) return false;
        if (c->name == Call::bitwise_and) {
            *m = {AssociativeOpKind::BitAnd, c->args[0], c->args[1]};
        } else if (c->name == Call::bitwise_or) {
            *m = {AssociativeOpKind::BitOr, c->args[0], c->args[1]};
        } else if (c->name == Call::bitwise_xor) {
            *m = {AssociativeOpKind::BitXor, c->args[0], c->args[1]};
        } else {
            return false;
        }
    } else {
        return false;
    }
    return true;
}

Expr make_binary(AssociativeOpKind k, const Expr &a, const Expr &b) {
    switch (k) {
    case AssociativeOpKind::Add:
        return Add::make(a, b);
    case AssociativeOpKind::Mul:
        return Mul::make(a, b);
    case AssociativeOpKind::Min:
        return Min::make(a, b);
    case AssociativeOpKind::Max:
        return Max::make(a, b);
    case AssociativeOpKind::And:
        return And::make(a, b);
    case AssociativeOpKind::Or:
        return Or::make(a, b);
    case AssociativeOpKind::BitAnd:
        return Call::make(a.type(), Call::bitwise_and, {a, b}, Call::PureIntrinsic);
    case AssociativeOpKind::BitOr:
        return Call::make(a.type(), Call::bitwise_or, {a, b}, Call::PureIntrinsic);
    case AssociativeOpKind::BitXor:
        return Call::make(a.type(), Call::bitwise_xor, {a, b}, Call::PureIntrinsic);
    default:
        internal_error << "make_binary: not a binary kind\n";
        return Expr();
    }
}

Expr identity_of(AssociativeOpKind k, Type t) {
    switch (k) {
    case AssociativeOpKind::Add:
    case AssociativeOpKind::BitOr:
    case AssociativeOpKind::BitXor:
    case AssociativeOpKind::Or:
        return make_zero(t);
    case AssociativeOpKind::Mul:
    case AssociativeOpKind::And:
        return make_one(t);
    case AssociativeOpKind::BitAnd:
        return t.is_uint() ? t.max() : make_const(t, (int64_t)-1);
    case AssociativeOpKind::Min:
        return t.is_float() ? make_const(t, (double)INFINITY) : t.max();
    case AssociativeOpKind::Max:
        return t.is_float() ? make_const(t, -(double)INFINITY) : t.min();
    default:
        return make_zero(t);
    }
}

/// Whether e reads any of the x Variables.
bool uses_any(const Expr &e, const std::vector<std::string> &names) {
    for (const std::string &n : names) {
        if (expr_uses_var(e, n)) return true;
    }
    return false;
}

/// cast<T>(cast<W>(x) op g) with integer T, W of at least T's bits, op wrap-around
/// compatible: rewritten to x op cast<T>(g). Anything else is returned as is.
Expr strip_widening(const Expr &e, const std::string &x) {
    const Cast *outer = e.as<Cast>();
    if (!outer || !(outer->type.is_int() || outer->type.is_uint())) return e;
    BinaryMatch m;
    if (!match_binary(outer->value, &m)) return e;
    if (m.kind != AssociativeOpKind::Add && m.kind != AssociativeOpKind::Mul &&
        m.kind != AssociativeOpKind::BitAnd && m.kind != AssociativeOpKind::BitOr &&
        m.kind != AssociativeOpKind::BitXor) {
        return e;
    }
    Type w = outer->value.type();
    if (!(w.is_int() || w.is_uint()) || w.bits() < outer->type.bits()) return e;
    auto is_widened_x = [&](const Expr &v) {
        const Cast *c = v.as<Cast>();
        const Variable *var = c ? c->value.as<Variable>() : nullptr;
        return var && var->name == x && var->type == outer->type;
    };
    Expr x_expr = Variable::make(outer->type, x);
    if (is_widened_x(m.a)) return make_binary(m.kind, x_expr, Cast::make(outer->type, m.b));
    if (is_widened_x(m.b)) return make_binary(m.kind, x_expr, Cast::make(outer->type, m.a));
    return e;
}

/// Matches the argmin/argmax pair {e0, e1} over x0, x1. On success fills the result.
bool match_arg_extreme(const std::vector<Expr> &e, const std::vector<std::string> &xn,
                       const std::vector<Expr> &xv, const std::vector<Expr> &yv, AssociativeOp *r) {
    BinaryMatch m;
    if (!match_binary(e[0], &m)) return false;
    if (m.kind != AssociativeOpKind::Min && m.kind != AssociativeOpKind::Max) return false;
    const bool is_min = m.kind == AssociativeOpKind::Min;
    Expr g;
    if (equal(m.a, xv[0]) && !uses_any(m.b, xn)) {
        g = m.b;
    } else if (equal(m.b, xv[0]) && !uses_any(m.a, xn)) {
        g = m.a;
    } else {
        return false;
    }
    const Select *sel = e[1].as<Select>();
    if (!sel) return false;
    Expr h;
    bool take_new_when_true;
    if (equal(sel->false_value, xv[1]) && !uses_any(sel->true_value, xn)) {
        h = sel->true_value;
        take_new_when_true = true;
    } else if (equal(sel->true_value, xv[1]) && !uses_any(sel->false_value, xn)) {
        h = sel->false_value;
        take_new_when_true = false;
    } else {
        return false;
    }
    // Normalize the condition to "new OP old" (new is g, old is x0) with OP < or <=.
    Expr a, b;
    bool strict;
    if (const LT *c = sel->condition.as<LT>()) {
        a = c->a, b = c->b, strict = true;
    } else if (const LE *c = sel->condition.as<LE>()) {
        a = c->a, b = c->b, strict = false;
    } else if (const GT *c = sel->condition.as<GT>()) {
        a = c->b, b = c->a, strict = true;
    } else if (const GE *c = sel->condition.as<GE>()) {
        a = c->b, b = c->a, strict = false;
    } else {
        return false;
    }
    // a < b (or <=). "g is better than x0" is g < x0 for argmin and x0 < g for argmax.
    bool new_less_old;
    if (equal(a, g) && equal(b, xv[0])) {
        new_less_old = true;
    } else if (equal(a, xv[0]) && equal(b, g)) {
        new_less_old = false;
    } else {
        return false;
    }
    // Taking the new index when "a < b" is true; when the select takes the old one on true,
    // the new one is taken on !(a < b), i.e. b <= a, flipping both direction and strictness.
    if (!take_new_when_true) {
        new_less_old = !new_less_old;
        strict = !strict;
    }
    if (new_less_old != is_min) return false;
    Expr x0 = xv[0], x1 = xv[1], y0 = yv[0], y1 = yv[1];
    Expr better = is_min ? (strict ? LT::make(y0, x0) : LE::make(y0, x0))
                         : (strict ? LT::make(x0, y0) : LE::make(x0, y0));
    r->pattern = {is_min ? Min::make(x0, y0) : Max::make(x0, y0), Select::make(better, y1, x1)};
    r->ys = {g, h};
    r->identities = {identity_of(m.kind, x0.type()), make_zero(x1.type())};
    r->kinds = {m.kind, is_min ? AssociativeOpKind::ArgMinIndex : AssociativeOpKind::ArgMaxIndex};
    r->associative = true;
    return true;
}

} // namespace

const char *associative_op_kind_name(AssociativeOpKind k) {
    switch (k) {
    case AssociativeOpKind::Add:
        return "+";
    case AssociativeOpKind::Mul:
        return "*";
    case AssociativeOpKind::Min:
        return "min";
    case AssociativeOpKind::Max:
        return "max";
    case AssociativeOpKind::And:
        return "&&";
    case AssociativeOpKind::Or:
        return "||";
    case AssociativeOpKind::BitAnd:
        return "&";
    case AssociativeOpKind::BitOr:
        return "|";
    case AssociativeOpKind::BitXor:
        return "^";
    case AssociativeOpKind::Unchanged:
        return "unchanged";
    case AssociativeOpKind::ArgMinIndex:
        return "argmin index";
    case AssociativeOpKind::ArgMaxIndex:
        return "argmax index";
    }
    return "?";
}

AssociativeOp prove_associativity(const std::string &func, const std::vector<Expr> &args,
                                  const std::vector<Expr> &values) {
    AssociativeOp r;
    const size_t n = values.size();
    std::vector<std::string> xn, yn;
    std::vector<Expr> xv, yv;
    for (size_t i = 0; i < n; i++) {
        xn.push_back("x_" + std::to_string(i) + ".assoc");
        yn.push_back("y_" + std::to_string(i) + ".assoc");
        xv.push_back(Variable::make(values[i].type(), xn.back()));
        yv.push_back(Variable::make(values[i].type(), yn.back()));
    }
    r.x_names = xn;
    r.y_names = yn;

    // Replace the reads of func(args)[j] by x_j; any other read of func defeats the proof.
    std::string bad_read;
    std::vector<Expr> e(n);
    for (size_t i = 0; i < n; i++) {
        e[i] = mutate_exprs_post(values[i], [&](const Expr &x) -> Expr {
            const Call *c = x.as<Call>();
            if (!c || c->call_type != Call::Halide || c->name != func) return x;
            bool same = c->args.size() == args.size();
            for (size_t k = 0; same && k < args.size(); k++) same = equal(c->args[k], args[k]);
            if (!same || c->value_index < 0 || c->value_index >= (int)n) {
                bad_read = "it reads " + func + " at a point other than the one it updates";
                return x;
            }
            return xv[c->value_index];
        });
    }
    if (!bad_read.empty()) {
        r.reason = bad_read;
        return r;
    }

    // The argmin/argmax pair reads x_0 in both elements, so try it before the per-element form.
    if (n == 2 && match_arg_extreme(e, xn, xv, yv, &r)) return r;

    r.pattern.resize(n);
    r.ys.resize(n);
    r.identities.resize(n);
    r.kinds.resize(n);
    for (size_t i = 0; i < n; i++) {
        std::vector<std::string> others;
        for (size_t j = 0; j < n; j++) {
            if (j != i) others.push_back(xn[j]);
        }
        std::string which = n > 1 ? " (element " + std::to_string(i) + " of its Tuple)" : "";
        if (uses_any(e[i], others)) {
            r.reason = "the new value" + which + " depends on other elements of the Tuple in a " +
                       "way that is not a recognized associative pattern (argmin/argmax)";
            return r;
        }
        Expr ei = strip_widening(e[i], xn[i]);
        if (equal(ei, xv[i])) {
            r.pattern[i] = xv[i];
            r.ys[i] = make_zero(xv[i].type());
            r.identities[i] = make_zero(xv[i].type());
            r.kinds[i] = AssociativeOpKind::Unchanged;
            continue;
        }
        if (!expr_uses_var(ei, xn[i])) {
            r.reason = "the new value" + which + " does not depend on the old value of " + func +
                       ", so the last update wins and the order of the updates matters";
            return r;
        }
        BinaryMatch m;
        Expr g;
        if (match_binary(ei, &m)) {
            if (equal(m.a, xv[i]) && !expr_uses_var(m.b, xn[i])) {
                g = m.b;
            } else if (equal(m.b, xv[i]) && !expr_uses_var(m.a, xn[i])) {
                g = m.a;
            }
        }
        if (!g.defined()) {
            r.reason = "the new value" + which + " is not of the form " + func +
                       "(...) op g with an associative op (+, *, min, max, &&, ||, &, |, ^) and "
                       "g not reading " +
                       func;
            return r;
        }
        r.pattern[i] = make_binary(m.kind, xv[i], yv[i]);
        r.ys[i] = g;
        r.identities[i] = identity_of(m.kind, xv[i].type());
        r.kinds[i] = m.kind;
    }
    r.associative = true;
    return r;
}

} // namespace internal
} // namespace loom
