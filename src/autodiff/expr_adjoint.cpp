#include "autodiff/expr_adjoint.h"

#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/substitute.h"
#include "support/error.h"

#include <loom/ir_operator.h>

#include <map>
#include <set>

namespace loom {
namespace internal {

namespace {

/// The operands of the node kinds a Func definition holds (Lets are expanded before).
std::vector<Expr> operands(const Expr &e) {
    if (const Cast *c = e.as<Cast>()) return {c->value};
    if (const Reinterpret *r = e.as<Reinterpret>()) return {r->value};
    if (const Not *n = e.as<Not>()) return {n->a};
    if (const Select *s = e.as<Select>()) return {s->condition, s->true_value, s->false_value};
    if (const Call *c = e.as<Call>()) return c->args;
#define LOOM_BINARY_OPERANDS(N)                                                                    \
    if (const N *b = e.as<N>()) return {b->a, b->b};
    LOOM_BINARY_OPERANDS(Add)
    LOOM_BINARY_OPERANDS(Sub)
    LOOM_BINARY_OPERANDS(Mul)
    LOOM_BINARY_OPERANDS(Div)
    LOOM_BINARY_OPERANDS(Mod)
    LOOM_BINARY_OPERANDS(Min)
    LOOM_BINARY_OPERANDS(Max)
    LOOM_BINARY_OPERANDS(EQ)
    LOOM_BINARY_OPERANDS(NE)
    LOOM_BINARY_OPERANDS(LT)
    LOOM_BINARY_OPERANDS(LE)
    LOOM_BINARY_OPERANDS(GT)
    LOOM_BINARY_OPERANDS(GE)
    LOOM_BINARY_OPERANDS(And)
    LOOM_BINARY_OPERANDS(Or)
#undef LOOM_BINARY_OPERANDS
    return {};
}

/// "sin" for "sin_f32" / "sin_f64" (the math functions of ir_operator.cpp), else the name.
std::string math_function(const std::string &name) {
    size_t n = name.size();
    if (n > 4 && (name.compare(n - 4, 4, "_f32") == 0 || name.compare(n - 4, 4, "_f64") == 0)) {
        return name.substr(0, n - 4);
    }
    return name;
}

class ReverseAccumulator {
public:
    explicit ReverseAccumulator(const std::string &func) : func(func) {}

    ExprAdjoints run(const Expr &root, const Expr &seed) {
        ExprAdjoints result;
        if (!root.type().is_float()) return result;
        sort(root);
        adjoints[root.get()] = cast(root.type(), seed);
        // Every use of a node comes before it in reverse post-order, so its adjoint is complete
        // when it is reached.
        for (size_t i = order.size(); i-- > 0;) {
            const Expr &e = order[i];
            auto it = adjoints.find(e.get());
            if (it == adjoints.end()) continue;
            propagate(e, it->second, &result);
        }
        return result;
    }

private:
    void sort(const Expr &e) {
        if (!visited.insert(e.get()).second) return;
        for (const Expr &o : operands(e)) sort(o);
        order.push_back(e);
    }

    /// Adds d to the adjoint of e (float-typed expressions only).
    void add(const Expr &e, const Expr &d) {
        if (!e.type().is_float()) return;
        Expr v = cast(e.type(), d);
        auto it = adjoints.find(e.get());
        if (it == adjoints.end()) {
            adjoints.emplace(e.get(), v);
        } else {
            it->second = it->second + v;
        }
    }

    void propagate(const Expr &e, const Expr &adj, ExprAdjoints *result) {
        Type t = e.type();
        Expr zero = make_zero(t);
        if (const Add *op = e.as<Add>()) {
            add(op->a, adj);
            add(op->b, adj);
        } else if (const Sub *op = e.as<Sub>()) {
            add(op->a, adj);
            add(op->b, -adj);
        } else if (const Mul *op = e.as<Mul>()) {
            add(op->a, adj * op->b);
            add(op->b, adj * op->a);
        } else if (const Div *op = e.as<Div>()) {
            add(op->a, adj / op->b);
            add(op->b, -adj * e / op->b);
        } else if (const Mod *op = e.as<Mod>()) {
            // a - b * floor(a / b) for floats.
            add(op->a, adj);
            add(op->b, -adj * floor(op->a / op->b));
        } else if (const Min *op = e.as<Min>()) {
            Expr first = op->a <= op->b;
            add(op->a, select(first, adj, zero));
            add(op->b, select(first, zero, adj));
        } else if (const Max *op = e.as<Max>()) {
            Expr first = op->a >= op->b;
            add(op->a, select(first, adj, zero));
            add(op->b, select(first, zero, adj));
        } else if (const Select *op = e.as<Select>()) {
            add(op->true_value, select(op->condition, adj, zero));
            add(op->false_value, select(op->condition, zero, adj));
        } else if (const Cast *op = e.as<Cast>()) {
            // Float-to-float conversions pass the adjoint on; to or from integers it is zero.
            if (t.is_float()) add(op->value, adj);
        } else if (const Variable *op = e.as<Variable>()) {
            if (op->param.defined() && !op->param.is_buffer()) {
                for (ParamAdjoint &p : result->params) {
                    if (p.param.same_as(op->param)) {
                        p.adjoint = p.adjoint + adj;
                        return;
                    }
                }
                result->params.push_back({op->param, adj});
            }
        } else if (const Call *op = e.as<Call>()) {
            call(e, op, adj, result);
        }
        // Constants, and integer or boolean nodes (never float-typed here), end the chain.
    }

    void call(const Expr &e, const Call *op, const Expr &adj, ExprAdjoints *result) {
        Type t = e.type();
        if (op->call_type == Call::Halide || op->call_type == Call::Image) {
            for (CallAdjoint &c : result->calls) {
                if (c.call->name == op->name && c.call->value_index == op->value_index &&
                    equal(Expr(c.call), e)) {
                    c.adjoint = c.adjoint + adj;
                    return;
                }
            }
            result->calls.push_back({e, op, adj});
            return;
        }
        const std::vector<Expr> &args = op->args;
        if (op->call_type == Call::PureIntrinsic || op->call_type == Call::Intrinsic) {
            intrinsic(e, op, adj);
            return;
        }
        user_assert(op->call_type == Call::PureExtern)
            << "propagate_adjoints: the Func \"" << func << "\" calls the extern function \""
            << op->name
            << "\", which has no derivative; compute it outside the differentiated pipeline "
               "or write its derivative with differentiable operations.\n";
        const std::string fn = math_function(op->name);
        Expr x = args.empty() ? Expr() : args[0];
        auto one = [&](const Expr &like) { return make_one(like.type()); };
        if (fn == "floor" || fn == "ceil" || fn == "round" || fn == "trunc") return;
        if (fn == "sqrt") {
            add(x, adj / (2 * e));
        } else if (fn == "exp" || fn == "fast_exp") {
            add(x, adj * e);
        } else if (fn == "log" || fn == "fast_log") {
            add(x, adj / x);
        } else if (fn == "sin" || fn == "fast_sin") {
            add(x, adj * cos(x));
        } else if (fn == "cos" || fn == "fast_cos") {
            add(x, -adj * sin(x));
        } else if (fn == "tan") {
            add(x, adj * (one(e) + e * e));
        } else if (fn == "asin") {
            add(x, adj / sqrt(one(x) - x * x));
        } else if (fn == "acos") {
            add(x, -adj / sqrt(one(x) - x * x));
        } else if (fn == "atan") {
            add(x, adj / (one(x) + x * x));
        } else if (fn == "sinh") {
            add(x, adj * cosh(x));
        } else if (fn == "cosh") {
            add(x, adj * sinh(x));
        } else if (fn == "tanh") {
            add(x, adj * (one(e) - e * e));
        } else if (fn == "asinh") {
            add(x, adj / sqrt(x * x + one(x)));
        } else if (fn == "acosh") {
            add(x, adj / sqrt(x * x - one(x)));
        } else if (fn == "atanh") {
            add(x, adj / (one(x) - x * x));
        } else if (fn == "erf") {
            add(x, adj * make_const(x.type(), 1.1283791670955126) * exp(-x * x));
        } else if (fn == "fast_inverse") {
            add(x, -adj * e * e);
        } else if (fn == "fast_inverse_sqrt") {
            add(x, make_const(t, -0.5) * adj * e / x);
        } else if (fn == "atan2") {
            // atan2(y, x)
            Expr y = args[0], xx = args[1];
            Expr r2 = xx * xx + y * y;
            add(y, adj * xx / r2);
            add(xx, -adj * y / r2);
        } else if (fn == "hypot") {
            add(args[0], adj * args[0] / e);
            add(args[1], adj * args[1] / e);
        } else if (fn == "pow" || fn == "fast_pow") {
            Expr y = args[1];
            add(x, adj * y * pow(x, y - one(y)));
            add(y, adj * e * log(x));
        } else {
            user_error << "propagate_adjoints: the Func \"" << func << "\" calls \"" << op->name
                       << "\", which has no derivative in Loom; write it with differentiable "
                          "operations.\n";
        }
    }

    void intrinsic(const Expr &e, const Call *op, const Expr &adj) {
        const std::vector<Expr> &args = op->args;
        Expr zero = make_zero(e.type());
        if (op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost) ||
            op->is_intrinsic(Call::promise_clamped) ||
            op->is_intrinsic(Call::unsafe_promise_clamped) ||
            op->is_intrinsic(Call::strict_float)) {
            add(args[0], adj);
        } else if (op->is_intrinsic(Call::return_second)) {
            add(args[1], adj);
        } else if (op->is_intrinsic(Call::require)) {
            add(args[1], adj);
        } else if (op->is_intrinsic(Call::if_then_else)) {
            add(args[1], select(args[0], adj, zero));
            if (args.size() > 2) add(args[2], select(args[0], zero, adj));
        } else if (op->is_intrinsic(Call::abs)) {
            add(args[0], select(args[0] >= make_zero(args[0].type()), adj, -adj));
        } else if (op->is_intrinsic(Call::lerp)) {
            Expr a = args[0], b = args[1], w = args[2];
            Expr wf = w;
            if (!w.type().is_float()) {
                // An integer weight is a fraction of its type's largest value (Halide's lerp).
                wf = cast(e.type(), w) / cast(e.type(), w.type().max());
            }
            add(a, adj * (make_one(e.type()) - wf));
            add(b, adj * wf);
            add(w, adj * (b - a));
        } else if (op->is_intrinsic(Call::undef) || op->is_intrinsic(Call::random)) {
            // No value flows through these.
        } else {
            user_error << "propagate_adjoints: the Func \"" << func << "\" uses the intrinsic \""
                       << op->name << "\" on floating-point values, which has no derivative in "
                       << "Loom.\n";
        }
    }

    std::string func;
    std::set<const IRNode *> visited;
    std::vector<Expr> order;
    std::map<const IRNode *, Expr> adjoints;
};

} // namespace

ExprAdjoints reverse_accumulate(const Expr &e, const Expr &seed, const std::string &func) {
    Expr expanded = mutate_exprs_post(e, [](const Expr &n) -> Expr {
        if (const Let *l = n.as<Let>()) return substitute(l->name, l->value, l->body);
        return Expr();
    });
    return ReverseAccumulator(func).run(expanded, seed);
}

} // namespace internal
} // namespace loom
