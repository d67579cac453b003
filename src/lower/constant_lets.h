#ifndef LOOM_LOWER_CONSTANT_LETS_H
#define LOOM_LOWER_CONSTANT_LETS_H

/// \file A mutator base that remembers the LetStmts in scope, so the passes that need a loop's
/// constant extent (unroll_loops, vectorize_loops) see through `let f.s0.x.xi.loop_extent = 8`
/// and through chains of lets whose difference is constant (a Func computed per register block:
/// `f.s0.y.loop_extent = (f.s1.required.1.max - f.s1.required.1.min) + 1`, both ends lets of
/// the same block origin).

#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/substitute.h"
#include "simplify/simplify.h"

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

    /// e simplified with the constant lets in scope substituted; if that is not a constant, with
    /// every let in scope substituted (innermost first, as deep as the chain goes) and simplified
    /// again, which is constant when e is a difference of two lets that differ by a constant.
    /// Returns the first form when neither is constant.
    Expr constant_in_scope(const Expr &e) const {
        Expr simple = simplify(substitute(constants, e));
        if (is_const(simple)) return simple;
        Expr full = simple;
        // Each round replaces the lets the expression names by their values, which may name
        // outer lets; a let chain in a loop nest is a few dozen deep at most.
        for (int round = 0; round < 64; round++) {
            Expr next = substitute(lets, full);
            if (next.same_as(full)) break;
            full = next;
        }
        full = simplify(full);
        return is_const(full) ? full : simple;
    }

    /// The constant value of every constant LetStmt in scope, by name.
    std::map<std::string, Expr> constants;
    /// The value of every LetStmt in scope, by name.
    std::map<std::string, Expr> lets;
};

} // namespace internal
} // namespace loom

#endif
