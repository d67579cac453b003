// Simplification of the vector nodes: Ramp (a zero stride is a broadcast), Broadcast, Shuffle
// (identity shuffles, elements and slices of ramps and broadcasts) and VectorReduce of
// broadcasts. The ramp/broadcast algebra of the arithmetic operators is in their own families.

#include "simplify/const_fold.h"
#include "simplify/simplifier.h"

#include "ir/ir_equality.h"
#include "ir/ir_utils.h"

namespace loom {
namespace internal {

Expr Simplify::visit(const Ramp *op, ExprInfo *info) {
    ExprInfo ib, is;
    Expr base = mutate(op->base, &ib), stride = mutate(op->stride, &is);
    // (Not for floats: lane i is base + i * stride, and -0.0 + 0.0 is 0.0.)
    if (is_const_zero(stride) && !op->type.is_float()) {
        *info = ib;
        return Broadcast::make(base, op->lanes);
    }
    Type t = op->type;
    if (t.is_int_or_uint()) {
        info->bounds =
            (ib.bounds + is.bounds * ConstantInterval::bounded(0, op->lanes - 1)).fit_to(t);
        info->alignment = ib.alignment + is.alignment * ModulusRemainder(1, 0);
    }
    if (base.same_as(op->base) && stride.same_as(op->stride)) return op;
    return Ramp::make(base, stride, op->lanes);
}

Expr Simplify::visit(const Broadcast *op, ExprInfo *info) {
    Expr v = mutate(op->value, info);
    if (v.same_as(op->value)) return op;
    return Broadcast::make(v, op->lanes);
}

Expr Simplify::visit(const Shuffle *op, ExprInfo *info) {
    std::vector<Expr> vecs;
    bool changed = false;
    for (size_t i = 0; i < op->vectors.size(); i++) {
        ExprInfo vi;
        vecs.push_back(mutate(op->vectors[i], &vi));
        changed = changed || !vecs.back().same_as(op->vectors[i]);
        if (i == 0)
            *info = vi;
        else
            info->bounds.include(vi.bounds), info->alignment = unify(info->alignment, vi.alignment);
    }
    const std::vector<int> &idx = op->indices;
    int n = (int)idx.size();

    // The identity shuffle of one vector.
    if (vecs.size() == 1 && n == vecs[0].type().lanes()) {
        bool identity = true;
        for (int i = 0; i < n; i++) identity = identity && idx[i] == i;
        if (identity) return vecs[0];
    }
    // Shuffles of one broadcast scalar.
    const Broadcast *b0 = vecs[0].as<Broadcast>();
    if (b0 && b0->value.type().is_scalar()) {
        bool same = true;
        for (const Expr &v : vecs) {
            const Broadcast *b = v.as<Broadcast>();
            same = same && b && equal(b->value, b0->value);
        }
        if (same) return n == 1 ? b0->value : Broadcast::make(b0->value, n);
    }
    // Elements and evenly spaced slices of a scalar ramp.
    if (vecs.size() == 1) {
        if (const Ramp *r = vecs[0].as<Ramp>()) {
            // (Only integer ramps: a float ramp's lanes are rounded base + i * stride.)
            if (r->base.type().is_scalar() && r->base.type().is_int_or_uint()) {
                int step = n > 1 ? idx[1] - idx[0] : 1;
                bool even = true;
                for (int i = 1; i < n; i++) even = even && idx[i] - idx[i - 1] == step;
                if (even) {
                    Type st = r->base.type();
                    Expr base = Add::make(r->base, Mul::make(r->stride, make_const(st, idx[0])));
                    if (n == 1) return mutate(base, info);
                    Expr stride = Mul::make(r->stride, make_const(st, step));
                    return mutate(Ramp::make(base, stride, n), info);
                }
            }
        }
    }
    if (!changed) return op;
    return Shuffle::make(vecs, idx);
}

Expr Simplify::visit(const VectorReduce *op, ExprInfo *info) {
    ExprInfo vi;
    Expr v = mutate(op->value, &vi);
    Type t = op->type;
    int in_lanes = v.type().lanes(), out_lanes = t.lanes();
    int factor = in_lanes / out_lanes;
    if (factor == 1) {
        *info = vi;
        return v;
    }
    switch (op->op) {
    case VectorReduce::Add:
        info->bounds = vi.bounds * ConstantInterval::single_point(factor);
        break;
    case VectorReduce::Min:
    case VectorReduce::Max:
        *info = vi;
        break;
    default:
        break;
    }
    if (const Broadcast *b = v.as<Broadcast>()) {
        if (b->value.type().is_scalar()) {
            Expr s;
            switch (op->op) {
            case VectorReduce::Min:
            case VectorReduce::Max:
            case VectorReduce::And:
            case VectorReduce::Or:
                s = b->value;
                break;
            case VectorReduce::Add:
                // Summing n copies is multiplying by n, exactly, only for integers.
                if (t.is_int_or_uint() && !t.is_bool()) {
                    s = Mul::make(b->value, make_const(b->value.type(), factor));
                }
                break;
            default:
                break;
            }
            if (s.defined()) {
                return mutate(out_lanes == 1 ? s : Broadcast::make(s, out_lanes), info);
            }
        }
    }
    if (v.same_as(op->value)) return op;
    return VectorReduce::make(op->op, v, out_lanes);
}

} // namespace internal
} // namespace loom
