#ifndef LOOM_LOWER_CONSTANT_LETS_H
#define LOOM_LOWER_CONSTANT_LETS_H

/// \file A mutator base that remembers the LetStmts in scope, so the passes that need a loop's
/// constant extent (unroll_loops, vectorize_loops) see through `let f.s0.x.xi.loop_extent = 8`
/// and through chains of lets whose difference is constant (a Func computed per register block:
/// `f.s0.y.loop_extent = (f.s1.required.1.max - f.s1.required.1.min) + 1`, both ends lets of
/// the same block origin), and that knows, inside `if (v == c)`, that v is c.

#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/substitute.h"
#include "simplify/simplify.h"

#include <limits>
#include <map>
#include <string>

namespace loom {
namespace internal {

class ConstantLetMutator : public IRMutator {
protected:
    using IRMutator::visit;

    Stmt visit(const LetStmt *op) override {
        Expr value = mutate(op->value);
        bool known = is_const(value);
        Expr saved, saved_value;
        auto it = constants.find(op->name);
        if (known && it != constants.end()) saved = it->second;
        auto lt = lets.find(op->name);
        if (lt != lets.end()) saved_value = lt->second;
        if (known) constants[op->name] = value;
        lets[op->name] = value;
        Stmt body = mutate(op->body);
        if (known) {
            if (saved.defined()) {
                constants[op->name] = saved;
            } else {
                constants.erase(op->name);
            }
        }
        if (saved_value.defined()) {
            lets[op->name] = saved_value;
        } else {
            lets.erase(op->name);
        }
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return LetStmt::make(op->name, value, body);
    }

    /// In the then-branch of `if (v == c)` (a specialization such as
    /// `specialize(out.width() == 4)`, possibly and-ed with others), v is the constant c.
    Stmt visit(const IfThenElse *op) override {
        Expr condition = mutate(op->condition);
        std::map<std::string, Expr> facts;
        learn_equalities(condition, facts);
        std::map<std::string, Expr> saved_constants = constants, saved_lets = lets;
        for (const auto &[name, value] : facts) {
            constants[name] = value;
            lets[name] = value;
        }
        Stmt then_case = mutate(op->then_case);
        constants = std::move(saved_constants);
        lets = std::move(saved_lets);
        Stmt else_case = op->else_case.defined() ? mutate(op->else_case) : Stmt();
        if (condition.same_as(op->condition) && then_case.same_as(op->then_case) &&
            else_case.same_as(op->else_case)) {
            return op;
        }
        return IfThenElse::make(condition, then_case, else_case);
    }

    /// e simplified with the constant lets in scope substituted; if that is not a constant, with
    /// every let in scope substituted (innermost first, as deep as the chain goes) and simplified
    /// again, which is constant when e is a difference of two lets that differ by a constant.
    /// Returns the first form when neither is constant.
    Expr constant_in_scope(const Expr &e) const {
        Expr simple = simplify(substitute(constants, e));
        if (is_const(simple)) return simple;
        Expr full = in_scope(simple);
        return is_const(full) ? full : simple;
    }

    /// e with every let in scope substituted (as deep as the chain goes) and simplified: what
    /// constant bounds of e can be derived from. Undefined when the expansion passes
    /// `max_nodes` nodes (expand_lets).
    Expr in_scope(const Expr &e, int max_nodes = std::numeric_limits<int>::max()) const {
        Expr full = expand_lets(lets, e, max_nodes);
        return full.defined() ? simplify(full) : full;
    }

    /// Adds to `facts` each `variable == constant` that `condition` (a conjunction) implies.
    static void learn_equalities(const Expr &condition, std::map<std::string, Expr> &facts) {
        if (const And *a = condition.as<And>()) {
            learn_equalities(a->a, facts);
            learn_equalities(a->b, facts);
        } else if (const EQ *eq = condition.as<EQ>()) {
            const Variable *v = eq->a.as<Variable>();
            Expr c = eq->b;
            if (!v) {
                v = eq->b.as<Variable>();
                c = eq->a;
            }
            if (v && v->type.is_scalar() && is_const(c)) facts[v->name] = c;
        }
    }

    /// The constant value of every constant LetStmt in scope, by name.
    std::map<std::string, Expr> constants;
    /// The value of every LetStmt in scope, by name.
    std::map<std::string, Expr> lets;
};

} // namespace internal
} // namespace loom

#endif
