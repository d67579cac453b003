#include "lower/remove_dead_allocations.h"

#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"

namespace loom {
namespace internal {

namespace {

/// Whether buffer `name` is read in s: a Load of it, or its host pointer used as a value.
bool buffer_is_read(const Stmt &s, const std::string &name) {
    bool read = false;
    visit_exprs(s, [&](const Expr &e) {
        if (read) return false;
        if (const Load *l = e.as<Load>()) {
            read = l->name == name;
        } else if (const Variable *v = e.as<Variable>()) {
            read = v->name == name;
        }
        return !read;
    });
    return read;
}

/// Removes the Stores into and Frees of one buffer.
class RemoveStores : public IRMutator {
public:
    explicit RemoveStores(const std::string &name) : name(name) {}

protected:
    using IRMutator::visit;

    Stmt visit(const Store *op) override {
        if (op->name != name) return IRMutator::visit(op);
        // The value's side effects, if any, still happen.
        if (!is_pure_value(op->value)) return Evaluate::make(op->value);
        if (!is_pure_value(op->index)) return Evaluate::make(op->index);
        return Evaluate::make(0);
    }
    Stmt visit(const Free *op) override { return op->name == name ? Evaluate::make(0) : Stmt(op); }

private:
    /// No Call with side effects (Loads are fine: nothing is stored by reading).
    static bool is_pure_value(const Expr &e) {
        bool pure = true;
        visit_exprs(e, [&](const Expr &x) {
            if (const Call *c = x.as<Call>()) pure = pure && c->is_pure();
            return pure;
        });
        return pure;
    }
    std::string name;
};

class RemoveDeadAllocations : public IRMutator {
protected:
    using IRMutator::visit;

    Stmt visit(const Allocate *op) override {
        Stmt body = mutate(op->body);
        if (!buffer_is_read(body, op->name)) return RemoveStores(op->name).mutate(body);
        if (body.same_as(op->body)) return op;
        return Allocate::make(op->name, op->type, op->memory_type, op->extents, op->condition,
                              body);
    }
};

} // namespace

Stmt remove_dead_allocations(const Stmt &s) { return RemoveDeadAllocations().mutate(s); }

} // namespace internal
} // namespace loom
