// The regions of Funcs and buffers that a Stmt reads and writes (boxes_required,
// boxes_provided, boxes_touched in bounds.h).

#include "analysis/bounds.h"

#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "simplify/simplify.h"
#include "support/error.h"

namespace loom {
namespace internal {

namespace {

/// Walks a Stmt or Expr keeping the bounds of every loop variable and let-bound name in scope,
/// and unions the bounds of each Func/buffer access into its Box.
class BoxesTouched : public IRVisitor {
public:
    BoxesTouched(const Scope &s, bool calls, bool provides, const std::string &only)
        : scope(s), consider_calls(calls), consider_provides(provides), only(only) {}

    std::map<std::string, Box> boxes;

private:
    Scope scope;
    /// The values of the LetStmts in scope, so a loop extent defined as `max - min + 1` can be
    /// expanded in `min + extent - 1`: bounding the two terms separately would decorrelate
    /// them and give max(max) + max(min) - min(min) instead of max(max).
    std::map<std::string, Expr> let_values;
    bool consider_calls, consider_provides;
    /// When nonempty, the one name whose box is wanted (skips the work for the others).
    std::string only;

    using IRVisitor::visit;

    void add(const std::string &name, const std::vector<Expr> &args) {
        if (!only.empty() && name != only) return;
        Box b;
        b.reserve(args.size());
        for (const Expr &a : args) b.push_back(bounds_of_expr_in_scope(a, scope));
        auto it = boxes.find(name);
        if (it == boxes.end()) {
            boxes.emplace(name, std::move(b));
        } else {
            internal_assert(it->second.size() == b.size())
                << name << " is accessed with " << it->second.size() << " and " << b.size()
                << " coordinates\n";
            it->second = box_union(it->second, b);
        }
    }

    template <typename F>
    void with_binding(const std::string &name, const Interval &iv, F f) {
        auto it = scope.find(name);
        bool had = it != scope.end();
        Interval old = had ? it->second : Interval();
        scope[name] = iv;
        f();
        if (had)
            scope[name] = old;
        else
            scope.erase(name);
    }

    /// Visits `yes` where cond holds and `no` where it does not, each with the variables that
    /// cond compares narrowed accordingly.
    template <typename Node>
    void visit_branches(const Expr &cond, const Node &yes, const Node &no) {
        dispatch(cond);
        Scope saved = scope;
        scope = scope_with_condition(saved, cond, true);
        dispatch(yes);
        scope = scope_with_condition(saved, cond, false);
        dispatch(no);
        scope = saved;
    }

    void visit(const Call *op) override {
        if (op->is_intrinsic(Call::if_then_else) && op->args.size() == 3) {
            visit_branches(op->args[0], op->args[1], op->args[2]);
            return;
        }
        IRVisitor::visit(op);
        if (consider_calls && (op->call_type == Call::Halide || op->call_type == Call::Image)) {
            add(op->name, op->args);
        }
    }

    void visit(const Provide *op) override {
        IRVisitor::visit(op);
        if (consider_provides) add(op->name, op->args);
    }

    void visit(const Let *op) override {
        dispatch(op->value);
        Interval v = bounds_of_expr_in_scope(op->value, scope);
        with_binding(op->name, v, [&] { dispatch(op->body); });
    }

    void visit(const LetStmt *op) override {
        dispatch(op->value);
        Interval v = bounds_of_expr_in_scope(op->value, scope);
        auto it = let_values.find(op->name);
        bool had = it != let_values.end();
        Expr old = had ? it->second : Expr();
        let_values[op->name] = op->value;
        with_binding(op->name, v, [&] { dispatch(op->body); });
        if (had)
            let_values[op->name] = old;
        else
            let_values.erase(op->name);
    }

    void visit(const For *op) override {
        dispatch(op->min);
        dispatch(op->extent);
        // The loop variable runs over [min, min + extent - 1] for every value of min/extent.
        Interval lo = bounds_of_expr_in_scope(op->min, scope);
        Expr extent = op->extent;
        if (const Variable *v = extent.as<Variable>()) {
            auto it = let_values.find(v->name);
            if (it != let_values.end()) extent = it->second;
        }
        if (!is_const(extent)) {
            // A loop over a block of constant size whose ends are lets of the same origin (the
            // outer loop of a RoundUp split of a Func computed per register block:
            // `(f.s1.x.loop_extent + 15) / 16`, with loop_extent = max - min + 1 and max = min
            // + 31 through lets) is constant once the lets are expanded; bounding the ends
            // separately would take the difference over the whole image instead.
            Expr full = constant_with_lets(extent);
            if (full.defined()) extent = full;
        }
        Expr last = simplify(Sub::make(Add::make(op->min, extent), make_one(op->min.type())));
        Interval hi = bounds_of_expr_in_scope(last, scope);
        with_binding(op->name, Interval(lo.min, hi.max), [&] { dispatch(op->body); });
    }

    /// e with the lets in scope expanded (as deep as their chain goes) and simplified, if that
    /// is a constant; an undefined Expr otherwise, or when the expansion grows past a size that
    /// could only come from a long chain of non-block lets.
    Expr constant_with_lets(const Expr &e) const {
        Expr full = e;
        for (int round = 0; round < 32; round++) {
            Expr next = substitute(let_values, full);
            if (next.same_as(full)) break;
            full = next;
            int nodes = 0;
            visit_exprs(full, [&](const Expr &) {
                nodes++;
                return true;
            });
            if (nodes > 4000) return Expr();
        }
        full = simplify(full);
        return is_const(full) ? full : Expr();
    }

    void visit(const Select *op) override {
        visit_branches(op->condition, op->true_value, op->false_value);
    }

    void visit(const IfThenElse *op) override {
        visit_branches(op->condition, op->then_case, op->else_case);
    }
};

template <typename Node>
std::map<std::string, Box> boxes_of(const Node &n, const Scope &scope, bool calls, bool provides,
                                    const std::string &only = "") {
    BoxesTouched v(scope, calls, provides, only);
    v.dispatch(n);
    return std::move(v.boxes);
}

Box box_of(const std::map<std::string, Box> &boxes, const std::string &name) {
    auto it = boxes.find(name);
    return it == boxes.end() ? Box() : it->second;
}

} // namespace

std::map<std::string, Box> boxes_required(const Expr &e, const Scope &scope) {
    return boxes_of(e, scope, true, false);
}

std::map<std::string, Box> boxes_required(const Stmt &s, const Scope &scope) {
    return boxes_of(s, scope, true, false);
}

std::map<std::string, Box> boxes_provided(const Stmt &s, const Scope &scope) {
    return boxes_of(s, scope, false, true);
}

std::map<std::string, Box> boxes_touched(const Stmt &s, const Scope &scope) {
    return boxes_of(s, scope, true, true);
}

Box box_required(const Stmt &s, const std::string &name, const Scope &scope) {
    return box_of(boxes_of(s, scope, true, false, name), name);
}

Box box_provided(const Stmt &s, const std::string &name, const Scope &scope) {
    return box_of(boxes_of(s, scope, false, true, name), name);
}

Box box_touched(const Stmt &s, const std::string &name, const Scope &scope) {
    return box_of(boxes_of(s, scope, true, true, name), name);
}

Box box_union(const Box &a, const Box &b) {
    if (a.empty()) return b;
    if (b.empty()) return a;
    internal_assert(a.size() == b.size())
        << "box_union of boxes with " << a.size() << " and " << b.size() << " dimensions\n";
    Box r(a.size());
    for (size_t i = 0; i < a.size(); i++) r[i] = Interval::make_union(a[i], b[i]);
    return r;
}

Box box_intersection(const Box &a, const Box &b) {
    internal_assert(a.size() == b.size())
        << "box_intersection of boxes with " << a.size() << " and " << b.size() << " dimensions\n";
    Box r(a.size());
    for (size_t i = 0; i < a.size(); i++) r[i] = Interval::make_intersection(a[i], b[i]);
    return r;
}

bool box_is_bounded(const Box &b) {
    for (const Interval &i : b) {
        if (!i.is_bounded()) return false;
    }
    return true;
}

} // namespace internal
} // namespace loom
