#ifndef LOOM_IR_IR_MUTATOR_H
#define LOOM_IR_IR_MUTATOR_H

/// \file IRMutator: rebuilds the IR bottom-up. Each visit() returns the replacement; the default
/// versions mutate the children and return the original node unchanged (same handle) when no
/// child changed.

#include "ir/ir.h"

#include <functional>

namespace loom {
namespace internal {

class IRMutator {
public:
    virtual ~IRMutator() = default;
    /// Dispatch on the node kind (undefined handles come back undefined).
    virtual Expr mutate(const Expr &e);
    virtual Stmt mutate(const Stmt &s);
    std::vector<Expr> mutate(const std::vector<Expr> &es);

protected:
#define LOOM_IR_EXPR(N) virtual Expr visit(const N *);
#define LOOM_IR_STMT(N) virtual Stmt visit(const N *);
#include "ir/ir_node_list.h"
#undef LOOM_IR_EXPR
#undef LOOM_IR_STMT
};

/// Rebuilds `root` bottom-up, replacing each Expr e with f(e) when f returns a defined Expr
/// (children are rewritten first; f sees the rewritten node).
Expr mutate_exprs_post(const Expr &root, const std::function<Expr(const Expr &)> &f);
Stmt mutate_exprs_post(const Stmt &root, const std::function<Expr(const Expr &)> &f);

} // namespace internal
} // namespace loom

#endif
