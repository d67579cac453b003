#ifndef LOOM_LOWER_CONSTANT_LETS_H
#define LOOM_LOWER_CONSTANT_LETS_H

/// \file A mutator base that remembers the LetStmts with constant values in scope, so the
/// passes that need a loop's constant extent (unroll_loops, vectorize_loops) see through
/// `let f.s0.x.xi.loop_extent = 8`.

#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"

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
        Expr saved;
        if (known) {
            auto it = constants.find(op->name);
            if (it != constants.end()) saved = it->second;
            constants[op->name] = value;
        }
        Stmt body = mutate(op->body);
        if (known) {
            if (saved.defined()) {
                constants[op->name] = saved;
            } else {
                constants.erase(op->name);
            }
        }
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return LetStmt::make(op->name, value, body);
    }

    /// The constant value of every constant LetStmt in scope, by name.
    std::map<std::string, Expr> constants;
};

} // namespace internal
} // namespace loom

#endif
