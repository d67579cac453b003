// Simplification of Cast and Reinterpret: folding with wrap-around/truncation semantics, no-op
// casts, casts of casts that lose nothing in between, and casts pushed into broadcasts and
// ramps where that is exact.

#include "simplify/const_fold.h"
#include "simplify/simplifier.h"

namespace loom {
namespace internal {

Expr Simplify::visit(const Cast *op, ExprInfo *info) {
    ExprInfo vi;
    Expr v = mutate(op->value, &vi);
    Type t = op->type, from = v.type();
    if (t == from) {
        *info = vi;
        return v;
    }
    if (Expr f = fold_cast(t, v); f.defined()) {
        *info = const_info(f);
        return f;
    }
    if (t.is_int_or_uint()) {
        info->bounds =
            from.is_int_or_uint() ? vi.bounds.cast_to(t) : ConstantInterval::bounds_of_type(t);
        // A conversion that keeps every value keeps the alignment.
        if (from.is_int_or_uint() && !t.is_bool() && t.can_represent(from)) {
            info->alignment = vi.alignment;
        }
    }
    Type te = t.element_of(), fe = from.element_of();
    if (const Broadcast *b = v.as<Broadcast>()) {
        return mutate(
            Broadcast::make(Cast::make(te.with_lanes(b->value.type().lanes()), b->value), b->lanes),
            info);
    }
    if (const Ramp *r = v.as<Ramp>()) {
        // Integer casts are ring homomorphisms modulo 2^bits: narrowing (or same-width) casts
        // commute with the ramp's arithmetic, except into Int(32), whose arithmetic the
        // simplifier assumes never wraps; widening ones only if the source cannot wrap.
        bool ints = te.is_int_or_uint() && fe.is_int_or_uint() && !te.is_bool() && !fe.is_bool();
        bool narrowing = te.bits() <= fe.bits() && !no_overflow(te);
        bool widening = te.bits() >= fe.bits() && no_overflow(fe);
        if (ints && (narrowing || widening)) {
            Type bt = te.with_lanes(r->base.type().lanes());
            return mutate(Ramp::make(Cast::make(bt, r->base), Cast::make(bt, r->stride), r->lanes),
                          info);
        }
    }
    if (const Cast *inner = v.as<Cast>()) {
        Type xe = inner->value.type().element_of();
        Type me = fe; // the intermediate type
        bool all_int = te.is_int_or_uint() && me.is_int_or_uint() && xe.is_int_or_uint() &&
                       !te.is_bool() && !me.is_bool() && !xe.is_bool();
        // Truncating to t after going through a type at least as wide as t gives the same low
        // bits; and an intermediate type that holds every value changes nothing.
        if ((all_int && te.bits() <= me.bits()) || me.can_represent(xe)) {
            return mutate(Cast::make(t, inner->value), info);
        }
    }
    if (v.same_as(op->value)) return op;
    return Cast::make(t, v);
}

Expr Simplify::visit(const Reinterpret *op, ExprInfo *info) {
    Expr v = mutate(op->value);
    if (v.type() == op->type) return v;
    if (Expr f = fold_reinterpret(op->type, v); f.defined()) {
        *info = const_info(f);
        return f;
    }
    if (const Reinterpret *inner = v.as<Reinterpret>()) {
        if (inner->value.type() == op->type) return inner->value;
        return mutate(Reinterpret::make(op->type, inner->value), info);
    }
    if (v.same_as(op->value)) return op;
    return Reinterpret::make(op->type, v);
}

} // namespace internal
} // namespace loom
