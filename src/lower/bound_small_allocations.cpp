#include "lower/bound_small_allocations.h"

#include "lower/allocation_bounds.h"

#include <loom/ir_operator.h>

#include "ir/ir_mutator.h"
#include "ir/ir_printer.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "support/error.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace loom {
namespace internal {

namespace {

using Scope = ConstantScope;

const int64_t kMaxBytes = int64_t(1) << 31;

/// Whether index `e` is the same for every execution: a constant scalar, or a Ramp / Broadcast
/// of constants (after the lets in scope).
bool is_constant_index(const Expr &e, const Scope &scope) {
    if (const Ramp *r = e.as<Ramp>()) {
        return is_constant_index(r->base, scope) && is_constant_index(r->stride, scope);
    }
    if (const Broadcast *b = e.as<Broadcast>()) return is_constant_index(b->value, scope);
    return e.type().is_scalar() && constant_integer_bounds(e, scope).is_single_point();
}

/// CompileError unless every Load and Store of buffer `buf` in the visited code is at a
/// constant index (MemoryType::Register).
class CheckRegisterIndices : public IRVisitor {
public:
    CheckRegisterIndices(const std::string &buf, Scope scope) : buf(buf), scope(std::move(scope)) {}

protected:
    using IRVisitor::visit;

    void visit(const Load *op) override {
        if (op->name == buf) check(op->index);
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        if (op->name == buf) check(op->index);
        IRVisitor::visit(op);
    }
    void visit(const LetStmt *op) override {
        dispatch(op->value);
        ScopedBinding b(scope, op->name, constant_integer_bounds(op->value, scope));
        dispatch(op->body);
    }
    void visit(const Let *op) override {
        dispatch(op->value);
        ScopedBinding b(scope, op->name, constant_integer_bounds(op->value, scope));
        dispatch(op->body);
    }
    void visit(const For *op) override {
        dispatch(op->min);
        dispatch(op->extent);
        ScopedBinding b(scope, op->name, loop_var_bounds(op, scope));
        dispatch(op->body);
    }
    void visit(const Variable *op) override {
        user_assert(op->name != buf)
            << "Allocation " << buf << " is stored in registers, but its address is taken "
            << "(it is passed to an extern stage). Try storing it on the stack or the heap "
            << "instead.\n";
    }

private:
    void check(const Expr &index) {
        user_assert(is_constant_index(index, scope))
            << "Allocation " << buf << " is stored in registers, but it is accessed at the "
            << "non-constant index " << index << ". Only allocations whose every access has a "
            << "constant index (after unrolling) can be stored in registers: unroll the loops "
            << "over it, or store it on the stack or the heap instead.\n";
    }
    std::string buf;
    Scope scope;
};

class BoundSmallAllocations : public AllocationBoundsMutator {
protected:
    using AllocationBoundsMutator::visit;

    Stmt visit(const Allocate *op) override {
        MemoryType mt = op->memory_type;
        bool on_stack = mt == MemoryType::Stack || mt == MemoryType::Register;
        if (!on_stack && mt != MemoryType::Auto) return IRMutator::visit(op);

        // A constant upper bound on the number of elements, if there is one.
        int64_t elements = 1;
        bool bounded = true;
        for (const Expr &e : op->extents) {
            int64_t hi;
            if (!extent_upper_bound(e, &hi)) {
                bounded = false;
                break;
            }
            hi = std::max<int64_t>(hi, 0);
            // Sizes past 2^31 bytes are not worth bounding (and must not overflow below).
            if (hi > kMaxBytes || (hi > 0 && elements > kMaxBytes / hi)) {
                bounded = false;
                break;
            }
            elements *= hi;
        }
        int64_t bytes = elements * op->type.bytes();
        bounded = bounded && bytes <= kMaxBytes;

        if (mt == MemoryType::Stack) {
            // A dynamic size stays dynamic: codegen allocas it for the allocation's scope.
            if (!bounded) return IRMutator::visit(op);
        } else if (mt == MemoryType::Register) {
            user_assert(bounded)
                << "Allocation " << op->name << " has a dynamic size. Only fixed-size "
                << "allocations can be stored in registers. Try storing on the heap or stack "
                << "instead.\n";
            CheckRegisterIndices check(op->name, scope);
            check.dispatch(op->body);
        } else if (!bounded || bytes > kMaxAutoStackBytes) {
            return IRMutator::visit(op);
        }

        Stmt body = mutate(op->body);
        MemoryType new_type = mt == MemoryType::Auto ? MemoryType::Stack : mt;
        // Already of constant size and placed: nothing to change.
        bool same = new_type == mt && op->extents.size() == 1 && is_const(op->extents[0], elements);
        if (same && body.same_as(op->body)) return op;
        return Allocate::make(op->name, op->type, new_type, {make_const(Int(32), elements)},
                              op->condition, body);
    }
};

} // namespace

Stmt bound_small_allocations(const Stmt &s) { return BoundSmallAllocations().mutate(s); }

} // namespace internal
} // namespace loom
