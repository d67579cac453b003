#include "lower/inject_early_frees.h"

#include "ir/ir_mutator.h"
#include "ir/ir_visitor.h"
#include "support/util.h"

namespace loom {
namespace internal {

namespace {

/// Whether a Stmt refers to buffer `name`: loads, stores, calls, or any variable named after it
/// ("name", "name.buffer", "name.stride.1", ...: an extern stage or a buffer_t built on it).
class UsesBuffer : public IRVisitor {
public:
    explicit UsesBuffer(const std::string &n) : name(n), prefix(n + ".") {}
    bool found = false;

protected:
    using IRVisitor::visit;
    bool matches(const std::string &n) const { return n == name || starts_with(n, prefix); }
    void visit(const Variable *op) override { found = found || matches(op->name); }
    void visit(const Load *op) override {
        found = found || op->name == name;
        if (!found) IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        found = found || op->name == name;
        if (!found) IRVisitor::visit(op);
    }
    void visit(const Call *op) override {
        found = found || op->name == name;
        if (!found) IRVisitor::visit(op);
    }
    void visit(const Free *op) override { found = found || op->name == name; }

private:
    std::string name, prefix;
};

bool uses(const Stmt &s, const std::string &name) {
    if (!s.defined()) return false;
    UsesBuffer u(name);
    u.dispatch(s);
    return u.found;
}

bool uses(const Expr &e, const std::string &name) {
    if (!e.defined()) return false;
    UsesBuffer u(name);
    u.dispatch(e);
    return u.found;
}

/// s with `Free name` right after its last statement that uses `name`, looking into the
/// sequential structure only; `at_end` says whether s ends its Allocate's body (a Free there
/// would be redundant: the end of the scope frees). Sets `placed` when it added the Free.
Stmt place_free(const Stmt &s, const std::string &name, bool at_end, bool &placed) {
    if (const Block *b = s.as<Block>()) {
        if (uses(b->rest, name)) {
            Stmt rest = place_free(b->rest, name, at_end, placed);
            return placed ? Block::make(b->first, rest) : s;
        }
        Stmt first = place_free(b->first, name, false, placed);
        return placed ? Block::make(first, b->rest) : s;
    }
    if (const LetStmt *l = s.as<LetStmt>()) {
        if (!uses(l->value, name)) {
            Stmt body = place_free(l->body, name, at_end, placed);
            return placed ? LetStmt::make(l->name, l->value, body) : s;
        }
    } else if (const ProducerConsumer *p = s.as<ProducerConsumer>()) {
        Stmt body = place_free(p->body, name, at_end, placed);
        return placed ? ProducerConsumer::make(p->name, p->is_producer, body) : s;
    } else if (const Allocate *a = s.as<Allocate>()) {
        bool in_extents = !a->condition.defined() ? false : uses(a->condition, name);
        for (const Expr &e : a->extents) in_extents = in_extents || uses(e, name);
        if (!in_extents) {
            Stmt body = place_free(a->body, name, at_end, placed);
            return placed ? Allocate::make(a->name, a->type, a->memory_type, a->extents,
                                           a->condition, body)
                          : s;
        }
    }
    // A leaf, a loop, an if: the last use as a whole.
    if (at_end) return s;
    placed = true;
    return Block::make(s, Free::make(name));
}

class InjectEarlyFrees : public IRMutator {
protected:
    using IRMutator::visit;
    Stmt visit(const Allocate *op) override {
        Stmt body = mutate(op->body);
        if (op->memory_type != MemoryType::Stack && op->memory_type != MemoryType::Register) {
            bool placed = false;
            body = place_free(body, op->name, true, placed);
        }
        if (body.same_as(op->body)) return op;
        return Allocate::make(op->name, op->type, op->memory_type, op->extents, op->condition,
                              body);
    }
};

} // namespace

Stmt inject_early_frees(const Stmt &s) { return InjectEarlyFrees().mutate(s); }

} // namespace internal
} // namespace loom
