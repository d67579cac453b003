#include "lower/trim_no_ops.h"

#include <loom/ir_operator.h>

#include "analysis/solve.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "simplify/simplify.h"

#include <set>
#include <utility>
#include <vector>

namespace loom {
namespace internal {

namespace {

class HasSideEffects : public IRVisitor {
public:
    bool result = false;

protected:
    using IRVisitor::visit;
    void visit(const Store *) override { result = true; }
    void visit(const Provide *) override { result = true; }
    void visit(const AssertStmt *) override { result = true; }
    void visit(const Atomic *) override { result = true; }
    void visit(const Call *op) override {
        if (!op->is_pure()) {
            result = true;
            return;
        }
        IRVisitor::visit(op);
    }
};

class TrimNoOps : public IRMutator {
protected:
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        Stmt body = mutate(op->body);
        if (!has_side_effects(body)) return Evaluate::make(0);
        Stmt loop = body.same_as(op->body) ? Stmt(op) : op->with_body(body);
        if (op->for_type != ForType::Serial && op->for_type != ForType::Parallel) return loop;
        return trim(loop.as<For>());
    }

    Stmt visit(const IfThenElse *op) override {
        Stmt s = IRMutator::visit(op);
        return has_side_effects(s) ? s : Evaluate::make(0);
    }

    Stmt visit(const LetStmt *op) override {
        Stmt s = IRMutator::visit(op);
        return has_side_effects(s) ? s : Evaluate::make(0);
    }

private:
    /// `for (x) { lets; if (c(x)) S }` with c solvable for x -> the loop over the range where c
    /// holds, without the if.
    Stmt trim(const For *op) {
        std::vector<std::pair<std::string, Expr>> lets;
        Stmt s = op->body;
        while (const LetStmt *l = s.as<LetStmt>()) {
            lets.emplace_back(l->name, l->value);
            s = l->body;
        }
        const IfThenElse *ite = s.as<IfThenElse>();
        if (!ite || ite->else_case.defined()) return op;
        std::set<std::string> let_names;
        for (const auto &l : lets) let_names.insert(l.first);
        if (expr_uses_vars(ite->condition, let_names)) return op;
        if (!is_pure(ite->condition)) return op;

        Expr invariant;
        Interval range = solve_for_inner_interval(ite->condition, op->name, &invariant);
        if (range.is_empty()) return op;
        bool has_min = !Interval::is_neg_inf(range.min);
        bool has_max = !Interval::is_pos_inf(range.max);
        if (!has_min && !has_max) return op;
        // The solved ends are in terms of variables defined outside the loop, never x.
        if ((has_min && expr_uses_var(range.min, op->name)) ||
            (has_max && expr_uses_var(range.max, op->name))) {
            return op;
        }

        Expr old_max = op->min + op->extent - 1;
        Expr new_min = has_min ? max(op->min, range.min) : op->min;
        Expr new_max = has_max ? min(old_max, range.max) : old_max;
        Expr new_extent = simplify(max(new_max - new_min + 1, 0));
        new_min = simplify(new_min);

        Stmt body = ite->then_case;
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
            body = LetStmt::make(it->first, it->second, body);
        }
        Stmt loop = op->with_range(new_min, new_extent, body);
        if (invariant.defined() && !is_const_true(invariant)) {
            loop = IfThenElse::make(invariant, loop);
        }
        return loop;
    }
};

} // namespace

bool has_side_effects(const Stmt &s) {
    HasSideEffects v;
    v.dispatch(s);
    return v.result;
}

Stmt trim_no_ops(const Stmt &s) { return TrimNoOps().mutate(s); }

} // namespace internal
} // namespace loom
