#include "ir/ir_mutator.h"

namespace loom {
namespace internal {

Expr IRMutator::mutate(const Expr &e) {
    if (!e.defined()) return e;
    switch (e.node_type()) {
#define LOOM_IR_EXPR(N)                                                                            \
    case IRNodeType::N:                                                                            \
        return visit(static_cast<const N *>(e.get()));
#define LOOM_IR_STMT(N)
#include "ir/ir_node_list.h"
#undef LOOM_IR_EXPR
#undef LOOM_IR_STMT
    default:
        return e;
    }
}

Stmt IRMutator::mutate(const Stmt &s) {
    if (!s.defined()) return s;
    switch (s.node_type()) {
#define LOOM_IR_EXPR(N)
#define LOOM_IR_STMT(N)                                                                            \
    case IRNodeType::N:                                                                            \
        return visit(static_cast<const N *>(s.get()));
#include "ir/ir_node_list.h"
#undef LOOM_IR_EXPR
#undef LOOM_IR_STMT
    default:
        return s;
    }
}

std::vector<Expr> IRMutator::mutate(const std::vector<Expr> &es) {
    std::vector<Expr> out;
    out.reserve(es.size());
    for (const Expr &e : es) out.push_back(mutate(e));
    return out;
}

namespace {
bool all_same(const std::vector<Expr> &a, const std::vector<Expr> &b) {
    for (size_t i = 0; i < a.size(); i++) {
        if (!a[i].same_as(b[i])) return false;
    }
    return true;
}
} // namespace

Expr IRMutator::visit(const IntImm *op) { return op; }
Expr IRMutator::visit(const UIntImm *op) { return op; }
Expr IRMutator::visit(const FloatImm *op) { return op; }
Expr IRMutator::visit(const StringImm *op) { return op; }
Expr IRMutator::visit(const Variable *op) { return op; }

Expr IRMutator::visit(const Cast *op) {
    Expr v = mutate(op->value);
    return v.same_as(op->value) ? Expr(op) : Cast::make(op->type, v);
}

Expr IRMutator::visit(const Reinterpret *op) {
    Expr v = mutate(op->value);
    return v.same_as(op->value) ? Expr(op) : Reinterpret::make(op->type, v);
}

#define LOOM_BINARY_MUTATE(N)                                                                      \
    Expr IRMutator::visit(const N *op) {                                                           \
        Expr a = mutate(op->a), b = mutate(op->b);                                                 \
        if (a.same_as(op->a) && b.same_as(op->b)) return op;                                       \
        return N::make(a, b);                                                                      \
    }
LOOM_BINARY_MUTATE(Add)
LOOM_BINARY_MUTATE(Sub)
LOOM_BINARY_MUTATE(Mul)
LOOM_BINARY_MUTATE(Div)
LOOM_BINARY_MUTATE(Mod)
LOOM_BINARY_MUTATE(Min)
LOOM_BINARY_MUTATE(Max)
LOOM_BINARY_MUTATE(EQ)
LOOM_BINARY_MUTATE(NE)
LOOM_BINARY_MUTATE(LT)
LOOM_BINARY_MUTATE(LE)
LOOM_BINARY_MUTATE(GT)
LOOM_BINARY_MUTATE(GE)
LOOM_BINARY_MUTATE(And)
LOOM_BINARY_MUTATE(Or)
#undef LOOM_BINARY_MUTATE

Expr IRMutator::visit(const Not *op) {
    Expr a = mutate(op->a);
    return a.same_as(op->a) ? Expr(op) : Not::make(a);
}

Expr IRMutator::visit(const Select *op) {
    Expr c = mutate(op->condition), t = mutate(op->true_value), f = mutate(op->false_value);
    if (c.same_as(op->condition) && t.same_as(op->true_value) && f.same_as(op->false_value)) {
        return op;
    }
    return Select::make(c, t, f);
}

Expr IRMutator::visit(const Load *op) {
    Expr i = mutate(op->index), p = mutate(op->predicate);
    if (i.same_as(op->index) && p.same_as(op->predicate)) return op;
    return Load::make(op->type, op->name, i, p, op->param, op->alignment);
}

Expr IRMutator::visit(const Ramp *op) {
    Expr b = mutate(op->base), s = mutate(op->stride);
    if (b.same_as(op->base) && s.same_as(op->stride)) return op;
    return Ramp::make(b, s, op->lanes);
}

Expr IRMutator::visit(const Broadcast *op) {
    Expr v = mutate(op->value);
    return v.same_as(op->value) ? Expr(op) : Broadcast::make(v, op->lanes);
}

Expr IRMutator::visit(const Let *op) {
    Expr v = mutate(op->value), b = mutate(op->body);
    if (v.same_as(op->value) && b.same_as(op->body)) return op;
    return Let::make(op->name, v, b);
}

Expr IRMutator::visit(const Call *op) {
    std::vector<Expr> args = mutate(op->args);
    if (all_same(args, op->args)) return op;
    return Call::make(op->type, op->name, args, op->call_type, op->func, op->value_index,
                      op->param);
}

Expr IRMutator::visit(const Shuffle *op) {
    std::vector<Expr> vs = mutate(op->vectors);
    if (all_same(vs, op->vectors)) return op;
    return Shuffle::make(vs, op->indices);
}

Expr IRMutator::visit(const VectorReduce *op) {
    Expr v = mutate(op->value);
    return v.same_as(op->value) ? Expr(op) : VectorReduce::make(op->op, v, op->type.lanes());
}

Stmt IRMutator::visit(const LetStmt *op) {
    Expr v = mutate(op->value);
    Stmt b = mutate(op->body);
    if (v.same_as(op->value) && b.same_as(op->body)) return op;
    return LetStmt::make(op->name, v, b);
}

Stmt IRMutator::visit(const AssertStmt *op) {
    Expr c = mutate(op->condition), m = mutate(op->message);
    if (c.same_as(op->condition) && m.same_as(op->message)) return op;
    return AssertStmt::make(c, m);
}

Stmt IRMutator::visit(const ProducerConsumer *op) {
    Stmt b = mutate(op->body);
    return b.same_as(op->body) ? Stmt(op) : ProducerConsumer::make(op->name, op->is_producer, b);
}

Stmt IRMutator::visit(const For *op) {
    Expr mn = mutate(op->min), ex = mutate(op->extent);
    Stmt b = mutate(op->body);
    if (mn.same_as(op->min) && ex.same_as(op->extent) && b.same_as(op->body)) return op;
    return op->with_range(mn, ex, b);
}

Stmt IRMutator::visit(const Store *op) {
    Expr v = mutate(op->value), i = mutate(op->index), p = mutate(op->predicate);
    if (v.same_as(op->value) && i.same_as(op->index) && p.same_as(op->predicate)) return op;
    return Store::make(op->name, v, i, op->param, p, op->alignment);
}

Stmt IRMutator::visit(const Provide *op) {
    std::vector<Expr> vs = mutate(op->values), as = mutate(op->args);
    Expr p = mutate(op->predicate);
    if (all_same(vs, op->values) && all_same(as, op->args) && p.same_as(op->predicate)) return op;
    return Provide::make(op->name, vs, as, p);
}

Stmt IRMutator::visit(const Allocate *op) {
    std::vector<Expr> ex = mutate(op->extents);
    Expr c = mutate(op->condition);
    Stmt b = mutate(op->body);
    if (all_same(ex, op->extents) && c.same_as(op->condition) && b.same_as(op->body)) return op;
    return Allocate::make(op->name, op->type, op->memory_type, ex, c, b);
}

Stmt IRMutator::visit(const Free *op) { return op; }

Stmt IRMutator::visit(const Realize *op) {
    Region bounds;
    bool same = true;
    for (const Range &r : op->bounds) {
        Expr mn = mutate(r.min), ex = mutate(r.extent);
        same = same && mn.same_as(r.min) && ex.same_as(r.extent);
        bounds.emplace_back(mn, ex);
    }
    Expr c = mutate(op->condition);
    Stmt b = mutate(op->body);
    if (same && c.same_as(op->condition) && b.same_as(op->body)) return op;
    return Realize::make(op->name, op->types, op->memory_type, bounds, c, b);
}

Stmt IRMutator::visit(const Block *op) {
    Stmt f = mutate(op->first), r = mutate(op->rest);
    if (f.same_as(op->first) && r.same_as(op->rest)) return op;
    return Block::make(std::vector<Stmt>{f, r});
}

Stmt IRMutator::visit(const IfThenElse *op) {
    Expr c = mutate(op->condition);
    Stmt t = mutate(op->then_case), e = mutate(op->else_case);
    if (c.same_as(op->condition) && t.same_as(op->then_case) && e.same_as(op->else_case)) {
        return op;
    }
    if (!t.defined()) {
        // A removed then-case: keep the else-case under the negated condition.
        return e.defined() ? IfThenElse::make(Not::make(c), e) : Stmt();
    }
    return IfThenElse::make(c, t, e);
}

Stmt IRMutator::visit(const Evaluate *op) {
    Expr v = mutate(op->value);
    return v.same_as(op->value) ? Stmt(op) : Evaluate::make(v);
}

Stmt IRMutator::visit(const Atomic *op) {
    Stmt b = mutate(op->body);
    return b.same_as(op->body) ? Stmt(op) : Atomic::make(op->producer_name, op->mutex_name, b);
}

Stmt IRMutator::visit(const Fork *op) {
    Stmt f = mutate(op->first), r = mutate(op->rest);
    if (f.same_as(op->first) && r.same_as(op->rest)) return op;
    // A side removed by a mutator leaves nothing to run concurrently.
    if (!f.defined()) return r;
    if (!r.defined()) return f;
    return Fork::make(f, r);
}

namespace {
class PostOrderExprRewriter : public IRMutator {
public:
    explicit PostOrderExprRewriter(const std::function<Expr(const Expr &)> &f) : f(f) {}
    Expr mutate(const Expr &e) override {
        Expr m = IRMutator::mutate(e);
        if (!m.defined()) return m;
        Expr r = f(m);
        return r.defined() ? r : m;
    }
    using IRMutator::mutate;

private:
    const std::function<Expr(const Expr &)> &f;
};
} // namespace

Expr mutate_exprs_post(const Expr &root, const std::function<Expr(const Expr &)> &f) {
    PostOrderExprRewriter r(f);
    return r.mutate(root);
}

Stmt mutate_exprs_post(const Stmt &root, const std::function<Expr(const Expr &)> &f) {
    PostOrderExprRewriter r(f);
    return r.mutate(root);
}

} // namespace internal
} // namespace loom
