#include "lower/mark_clamped_ramps.h"

#include "ir/ir_mutator.h"

#include <loom/ir_operator.h>

namespace loom {
namespace internal {

namespace {

class MarkClampedRamps : public IRMutator {
    using IRMutator::visit;

    /// Whether the expression being mutated computes a vector index.
    bool in_index = false;

    Expr mutate_index(const Expr &e) {
        bool old = in_index;
        in_index = true;
        Expr r = mutate(e);
        in_index = old;
        return r;
    }

    static bool is_vector_index(const Expr &e) {
        return e.type().is_vector() && e.type().is_int_or_uint();
    }

    /// A ramp, or a ramp clamped or offset by a broadcast: max(min(ramp, w) + -1, 0), the
    /// phase of an upsampling's clamp(x / 2 - 1, 0, w - 1) once deinterleave_vector_phases split x.
    static bool ramp_like(const Expr &e) {
        if (e.as<Ramp>()) return true;
        if (const Add *a = e.as<Add>()) {
            return (ramp_like(a->a) && a->b.as<Broadcast>()) ||
                   (a->a.as<Broadcast>() && ramp_like(a->b));
        }
        if (const Sub *s = e.as<Sub>()) return ramp_like(s->a) && s->b.as<Broadcast>();
        if (const Min *m = e.as<Min>()) return ramp_like(m->a) || ramp_like(m->b);
        if (const Max *m = e.as<Max>()) return ramp_like(m->a) || ramp_like(m->b);
        return false;
    }

    /// min/max(ramp, b) or min/max(a, ramp) with the ramp (or ramp-like operand, whose own
    /// clamps are tagged too) tagged: the steady state is where the clamp does not bite.
    template <typename T>
    Expr mark(const T *op) {
        if (in_index && op->type.is_vector()) {
            if (ramp_like(op->a)) return T::make(likely(mutate(op->a)), mutate(op->b));
            if (ramp_like(op->b)) return T::make(mutate(op->a), likely(mutate(op->b)));
        }
        return IRMutator::visit(op);
    }

    Expr visit(const Min *op) override { return mark(op); }
    Expr visit(const Max *op) override { return mark(op); }

    Expr visit(const Load *op) override {
        Expr index = mutate_index(op->index);
        Expr predicate = mutate(op->predicate);
        if (index.same_as(op->index) && predicate.same_as(op->predicate)) return op;
        return Load::make(op->type, op->name, index, predicate, op->param, op->alignment);
    }

    Stmt visit(const Store *op) override {
        Expr value = mutate(op->value);
        Expr index = mutate_index(op->index);
        Expr predicate = mutate(op->predicate);
        if (value.same_as(op->value) && index.same_as(op->index) &&
            predicate.same_as(op->predicate)) {
            return op;
        }
        return Store::make(op->name, value, index, op->param, predicate, op->alignment);
    }

    /// A vector integer let is a widened index: its value is looked at as one. R is Expr for a
    /// Let, Stmt for a LetStmt.
    template <typename R, typename T>
    R visit_let(const T *op) {
        Expr value = is_vector_index(op->value) ? mutate_index(op->value) : mutate(op->value);
        R body = mutate(op->body);
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return T::make(op->name, value, body);
    }

    Expr visit(const Let *op) override { return visit_let<Expr>(op); }
    Stmt visit(const LetStmt *op) override { return visit_let<Stmt>(op); }
};

} // namespace

Stmt mark_clamped_ramps(const Stmt &s) { return MarkClampedRamps().mutate(s); }

} // namespace internal
} // namespace loom
