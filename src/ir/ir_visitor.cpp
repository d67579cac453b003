#include "ir/ir_visitor.h"

namespace loom {
namespace internal {

void IRVisitor::dispatch(const Expr &e) {
    if (!e.defined()) return;
    switch (e.node_type()) {
#define LOOM_IR_EXPR(N)                                                                            \
    case IRNodeType::N:                                                                            \
        visit(static_cast<const N *>(e.get()));                                                    \
        return;
#define LOOM_IR_STMT(N)
#include "ir/ir_node_list.h"
#undef LOOM_IR_EXPR
#undef LOOM_IR_STMT
    default:
        return;
    }
}

void IRVisitor::dispatch(const Stmt &s) {
    if (!s.defined()) return;
    switch (s.node_type()) {
#define LOOM_IR_EXPR(N)
#define LOOM_IR_STMT(N)                                                                            \
    case IRNodeType::N:                                                                            \
        visit(static_cast<const N *>(s.get()));                                                    \
        return;
#include "ir/ir_node_list.h"
#undef LOOM_IR_EXPR
#undef LOOM_IR_STMT
    default:
        return;
    }
}

void IRVisitor::visit(const IntImm *) {}
void IRVisitor::visit(const UIntImm *) {}
void IRVisitor::visit(const FloatImm *) {}
void IRVisitor::visit(const StringImm *) {}
void IRVisitor::visit(const Cast *op) { dispatch(op->value); }
void IRVisitor::visit(const Reinterpret *op) { dispatch(op->value); }
void IRVisitor::visit(const Variable *) {}
#define LOOM_BINARY_VISIT(N)                                                                       \
    void IRVisitor::visit(const N *op) {                                                           \
        dispatch(op->a);                                                                           \
        dispatch(op->b);                                                                           \
    }
LOOM_BINARY_VISIT(Add)
LOOM_BINARY_VISIT(Sub)
LOOM_BINARY_VISIT(Mul)
LOOM_BINARY_VISIT(Div)
LOOM_BINARY_VISIT(Mod)
LOOM_BINARY_VISIT(Min)
LOOM_BINARY_VISIT(Max)
LOOM_BINARY_VISIT(EQ)
LOOM_BINARY_VISIT(NE)
LOOM_BINARY_VISIT(LT)
LOOM_BINARY_VISIT(LE)
LOOM_BINARY_VISIT(GT)
LOOM_BINARY_VISIT(GE)
LOOM_BINARY_VISIT(And)
LOOM_BINARY_VISIT(Or)
#undef LOOM_BINARY_VISIT
void IRVisitor::visit(const Not *op) { dispatch(op->a); }
void IRVisitor::visit(const Select *op) {
    dispatch(op->condition);
    dispatch(op->true_value);
    dispatch(op->false_value);
}
void IRVisitor::visit(const Load *op) {
    dispatch(op->index);
    dispatch(op->predicate);
}
void IRVisitor::visit(const Ramp *op) {
    dispatch(op->base);
    dispatch(op->stride);
}
void IRVisitor::visit(const Broadcast *op) { dispatch(op->value); }
void IRVisitor::visit(const Let *op) {
    dispatch(op->value);
    dispatch(op->body);
}
void IRVisitor::visit(const Call *op) {
    for (const Expr &a : op->args) dispatch(a);
}
void IRVisitor::visit(const Shuffle *op) {
    for (const Expr &v : op->vectors) dispatch(v);
}
void IRVisitor::visit(const VectorReduce *op) { dispatch(op->value); }
void IRVisitor::visit(const LetStmt *op) {
    dispatch(op->value);
    dispatch(op->body);
}
void IRVisitor::visit(const AssertStmt *op) {
    dispatch(op->condition);
    dispatch(op->message);
}
void IRVisitor::visit(const ProducerConsumer *op) { dispatch(op->body); }
void IRVisitor::visit(const For *op) {
    dispatch(op->min);
    dispatch(op->extent);
    dispatch(op->body);
}
void IRVisitor::visit(const Store *op) {
    dispatch(op->value);
    dispatch(op->index);
    dispatch(op->predicate);
}
void IRVisitor::visit(const Provide *op) {
    for (const Expr &v : op->values) dispatch(v);
    for (const Expr &a : op->args) dispatch(a);
    dispatch(op->predicate);
}
void IRVisitor::visit(const Allocate *op) {
    for (const Expr &e : op->extents) dispatch(e);
    dispatch(op->condition);
    dispatch(op->body);
}
void IRVisitor::visit(const Free *) {}
void IRVisitor::visit(const Realize *op) {
    for (const Range &r : op->bounds) {
        dispatch(r.min);
        dispatch(r.extent);
    }
    dispatch(op->condition);
    dispatch(op->body);
}
void IRVisitor::visit(const Block *op) {
    dispatch(op->first);
    dispatch(op->rest);
}
void IRVisitor::visit(const IfThenElse *op) {
    dispatch(op->condition);
    dispatch(op->then_case);
    dispatch(op->else_case);
}
void IRVisitor::visit(const Evaluate *op) { dispatch(op->value); }
void IRVisitor::visit(const Atomic *op) { dispatch(op->body); }
void IRVisitor::visit(const Fork *op) {
    dispatch(op->first);
    dispatch(op->rest);
}

namespace {
// Pre-order walk that offers each Expr to f before descending.
class PreorderVisitor : public IRVisitor {
public:
    explicit PreorderVisitor(const std::function<bool(const Expr &)> &f) : f(f) {}
    void start(const Expr &e) { child(e); }
    void start(const Stmt &s) { IRVisitor::dispatch(s); }

protected:
    void child(const Expr &e) {
        if (e.defined() && f(e)) IRVisitor::dispatch(e);
    }
    // Every child Expr goes through child(), so f sees it before its subtree.
    void visit(const Cast *op) override { child(op->value); }
    void visit(const Reinterpret *op) override { child(op->value); }
#define LOOM_BIN(N)                                                                                \
    void visit(const N *op) override {                                                             \
        child(op->a);                                                                              \
        child(op->b);                                                                              \
    }
    LOOM_BIN(Add)
    LOOM_BIN(Sub)
    LOOM_BIN(Mul)
    LOOM_BIN(Div)
    LOOM_BIN(Mod)
    LOOM_BIN(Min)
    LOOM_BIN(Max)
    LOOM_BIN(EQ)
    LOOM_BIN(NE)
    LOOM_BIN(LT)
    LOOM_BIN(LE)
    LOOM_BIN(GT)
    LOOM_BIN(GE)
    LOOM_BIN(And)
    LOOM_BIN(Or)
#undef LOOM_BIN
    void visit(const Not *op) override { child(op->a); }
    void visit(const Select *op) override {
        child(op->condition);
        child(op->true_value);
        child(op->false_value);
    }
    void visit(const Load *op) override {
        child(op->index);
        child(op->predicate);
    }
    void visit(const Ramp *op) override {
        child(op->base);
        child(op->stride);
    }
    void visit(const Broadcast *op) override { child(op->value); }
    void visit(const Let *op) override {
        child(op->value);
        child(op->body);
    }
    void visit(const Call *op) override {
        for (const Expr &a : op->args) child(a);
    }
    void visit(const Shuffle *op) override {
        for (const Expr &v : op->vectors) child(v);
    }
    void visit(const VectorReduce *op) override { child(op->value); }
    void visit(const LetStmt *op) override {
        child(op->value);
        IRVisitor::dispatch(op->body);
    }
    void visit(const AssertStmt *op) override {
        child(op->condition);
        child(op->message);
    }
    void visit(const For *op) override {
        child(op->min);
        child(op->extent);
        IRVisitor::dispatch(op->body);
    }
    void visit(const Store *op) override {
        child(op->value);
        child(op->index);
        child(op->predicate);
    }
    void visit(const Provide *op) override {
        for (const Expr &v : op->values) child(v);
        for (const Expr &a : op->args) child(a);
        child(op->predicate);
    }
    void visit(const Allocate *op) override {
        for (const Expr &e : op->extents) child(e);
        child(op->condition);
        IRVisitor::dispatch(op->body);
    }
    void visit(const Realize *op) override {
        for (const Range &r : op->bounds) {
            child(r.min);
            child(r.extent);
        }
        child(op->condition);
        IRVisitor::dispatch(op->body);
    }
    void visit(const IfThenElse *op) override {
        child(op->condition);
        IRVisitor::dispatch(op->then_case);
        IRVisitor::dispatch(op->else_case);
    }
    void visit(const Evaluate *op) override { child(op->value); }

private:
    const std::function<bool(const Expr &)> &f;
};
} // namespace

void visit_exprs(const Stmt &root, const std::function<bool(const Expr &)> &f) {
    PreorderVisitor v(f);
    v.start(root);
}

void visit_exprs(const Expr &root, const std::function<bool(const Expr &)> &f) {
    PreorderVisitor v(f);
    v.start(root);
}

} // namespace internal
} // namespace loom
