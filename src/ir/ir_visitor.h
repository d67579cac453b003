#ifndef LOOM_IR_IR_VISITOR_H
#define LOOM_IR_IR_VISITOR_H

/// \file IRVisitor: a read-only recursive walk over the IR. Override visit() for the node kinds
/// of interest and call the base version to keep recursing into children.

#include "ir/ir.h"

#include <functional>

namespace loom {
namespace internal {

class IRVisitor {
public:
    virtual ~IRVisitor() = default;
    /// Dispatch on the node kind (no-op for undefined handles).
    void dispatch(const Expr &e);
    void dispatch(const Stmt &s);

protected:
#define LOOM_IR_EXPR(N) virtual void visit(const N *);
#define LOOM_IR_STMT(N) virtual void visit(const N *);
#include "ir/ir_node_list.h"
#undef LOOM_IR_EXPR
#undef LOOM_IR_STMT
};

/// Calls `f` on every Expr node (pre-order) under `root`, including those inside Stmts.
/// `f` returns true to descend into the node's children.
void visit_exprs(const Stmt &root, const std::function<bool(const Expr &)> &f);
void visit_exprs(const Expr &root, const std::function<bool(const Expr &)> &f);

} // namespace internal
} // namespace loom

#endif
