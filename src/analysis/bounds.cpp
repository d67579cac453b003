#include "analysis/bounds.h"

#include <loom/ir_operator.h>

#include "analysis/interval_arith.h"
#include "ir/ir_equality.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "simplify/simplify.h"
#include "support/error.h"

#include <cmath>
#include <ostream>

namespace loom {
namespace internal {

namespace {

/// Strips wrappers that do not change which values a condition holds for.
Expr strip_condition(const Expr &e) {
    if (const Broadcast *b = e.as<Broadcast>()) return strip_condition(b->value);
    if (const Call *c = e.as<Call>()) {
        if (c->is_intrinsic(Call::likely) || c->is_intrinsic(Call::likely_if_innermost)) {
            return strip_condition(c->args[0]);
        }
    }
    return e;
}

/// Computes the interval of an Expr bottom-up. The bounds of free variables come from `base`
/// (the caller's scope, never copied: lowering calls this once per access with large scopes);
/// let-bound names and variables narrowed by a select condition live in `overlay`, which shadows
/// `base`.
class Bounds : public IRVisitor {
public:
    Bounds(const Scope &s, const FuncValueBounds *func_bounds)
        : base(s), func_bounds(func_bounds) {}

    Interval get(const Expr &e) {
        dispatch(e);
        Interval r = fit_to_type(result, e.type());
        result = Interval::everything();
        return r;
    }

    /// Narrows the variables `cond` compares to where it has the given value (into overlay).
    void refine(const Expr &cond_in, bool value) {
        // Under `if (likely(v <= m))` (a GuardWithIf split's test) v's new bound is
        // min(likely(its old bound), m): partition_loops then finds a steady state where the
        // guard is known to hold, and a Func computed per tile there has a constant size.
        const Call *hint = cond_in.as<Call>();
        const bool was_likely = likely_narrowing;
        if (hint && hint->is_intrinsic(Call::likely) && value) likely_narrowing = true;
        refine_stripped(strip_condition(cond_in), value);
        likely_narrowing = was_likely;
    }

    void refine_stripped(const Expr &cond, bool value) {
        if (const Not *n = cond.as<Not>()) {
            refine(n->a, !value);
        } else if (const And *a = cond.as<And>()) {
            if (value) {
                refine(a->a, true);
                refine(a->b, true);
            }
        } else if (const Or *o = cond.as<Or>()) {
            if (!value) {
                refine(o->a, false);
                refine(o->b, false);
            }
        } else if (const LT *lt = cond.as<LT>()) {
            Expr a = strip_condition(lt->a), b = strip_condition(lt->b);
            value ? narrow(a, Cmp::LT, b) : narrow(b, Cmp::LE, a);
        } else if (const LE *le = cond.as<LE>()) {
            Expr a = strip_condition(le->a), b = strip_condition(le->b);
            value ? narrow(a, Cmp::LE, b) : narrow(b, Cmp::LT, a);
        } else if (const GT *gt = cond.as<GT>()) {
            Expr a = strip_condition(gt->a), b = strip_condition(gt->b);
            value ? narrow(b, Cmp::LT, a) : narrow(a, Cmp::LE, b);
        } else if (const GE *ge = cond.as<GE>()) {
            Expr a = strip_condition(ge->a), b = strip_condition(ge->b);
            value ? narrow(b, Cmp::LE, a) : narrow(a, Cmp::LT, b);
        } else if (const EQ *eq = cond.as<EQ>()) {
            if (value) narrow(strip_condition(eq->a), Cmp::EQ, strip_condition(eq->b));
        } else if (const NE *ne = cond.as<NE>()) {
            if (!value) narrow(strip_condition(ne->a), Cmp::EQ, strip_condition(ne->b));
        }
    }

    /// The base scope with the overlay's bindings applied.
    Scope merged_scope() const {
        Scope s = base;
        for (const auto &kv : overlay) s[kv.first] = kv.second;
        return s;
    }

private:
    const Scope &base;
    const FuncValueBounds *func_bounds;
    Scope overlay;
    Interval result = Interval::everything();
    bool likely_narrowing = false; ///< refine() is narrowing under a likely() condition

    const Interval *lookup(const std::string &name) const {
        auto it = overlay.find(name);
        if (it != overlay.end()) return &it->second;
        auto jt = base.find(name);
        return jt != base.end() ? &jt->second : nullptr;
    }

    /// Runs f with `name` bound to `iv`, restoring the previous binding after.
    template <typename F>
    void with_binding(const std::string &name, const Interval &iv, F f) {
        auto it = overlay.find(name);
        bool had = it != overlay.end();
        Interval old = had ? it->second : Interval();
        overlay[name] = iv;
        f();
        if (had)
            overlay[name] = old;
        else
            overlay.erase(name);
    }

    /// Narrows the scope variables among x and y to where `x rel y` holds (rel: <, <= or ==).
    /// A side that is a variable plus or minus a constant narrows that variable too (the
    /// constant moved across): a GuardWithIf split's test reads u + 1 <= extent once the loop's
    /// max is substituted.
    void narrow(const Expr &x, Cmp rel, const Expr &y) {
        narrow_variables(x, rel, y);
        Expr v, offset;
        if (linear_in_variable(x, &v, &offset)) narrow_variables(v, rel, simplify(y - offset));
        if (linear_in_variable(y, &v, &offset)) narrow_variables(simplify(x - offset), rel, v);
    }

    /// Whether e is v + c or v - c for a scope variable v and a constant c of a signed type
    /// (which cannot wrap); sets *v and *offset (e == v + offset).
    bool linear_in_variable(const Expr &e, Expr *v, Expr *offset) const {
        if (!e.type().is_int()) return false;
        const Expr *a = nullptr;
        Expr c;
        if (const Add *add = e.as<Add>()) {
            a = &add->a;
            c = add->b;
        } else if (const Sub *sub = e.as<Sub>()) {
            a = &sub->a;
            c = is_const(sub->b) ? simplify(-sub->b) : Expr();
        }
        if (!a || !c.defined() || !is_const(c)) return false;
        const Variable *var = a->as<Variable>();
        if (!var || !lookup(var->name)) return false;
        *v = *a;
        *offset = c;
        return true;
    }

    void narrow_variables(const Expr &x, Cmp rel, const Expr &y) {
        const Variable *vx = x.as<Variable>(), *vy = y.as<Variable>();
        // Copies: get() below may reassign the overlay, invalidating pointers into it.
        const Interval *px = vx ? lookup(vx->name) : nullptr;
        const Interval *py = vy ? lookup(vy->name) : nullptr;
        bool ix = px != nullptr, iy = py != nullptr;
        if (!ix && !iy) return;
        Interval nx = ix ? *px : Interval(), ny = iy ? *py : Interval();
        // Both sides' bounds come from the scope before either is narrowed.
        Interval xb = iy ? get(x) : Interval();
        Interval yb = ix ? get(y) : Interval();
        bool strict_int = rel == Cmp::LT && x.type().is_int_or_uint();
        if (ix) {
            if (rel == Cmp::EQ) {
                nx.intersect(yb);
            } else if (yb.has_upper_bound()) {
                Expr hi =
                    strict_int ? simplify(Sub::make(yb.max, make_one(yb.max.type()))) : yb.max;
                nx.max = narrowed(nx.max, hi, /*upper=*/true);
            }
            overlay[vx->name] = nx;
        }
        if (iy) {
            if (rel == Cmp::EQ) {
                ny.intersect(xb);
            } else if (xb.has_lower_bound()) {
                Expr lo =
                    strict_int ? simplify(Add::make(xb.min, make_one(xb.min.type()))) : xb.min;
                ny.min = narrowed(ny.min, lo, /*upper=*/false);
            }
            overlay[vy->name] = ny;
        }
    }

    /// The bound `old` narrowed by `limit` (min for an upper bound, max for a lower one). Under
    /// a likely() condition, when neither side is known to win, `old` is tagged as the likely
    /// side (see refine()).
    Expr narrowed(const Expr &old, const Expr &limit, bool upper) const {
        const Expr plain = upper ? Interval::make_min(old, limit) : Interval::make_max(old, limit);
        const bool unbounded = upper ? Interval::is_pos_inf(old) : Interval::is_neg_inf(old);
        if (!likely_narrowing || unbounded || equal(plain, old) || equal(plain, limit))
            return plain;
        Expr tagged = Call::make(old.type(), Call::likely, {old}, Call::PureIntrinsic);
        return upper ? Min::make(tagged, limit) : Max::make(tagged, limit);
    }

    void visit(const IntImm *op) override { result = Interval::single_point(op); }
    void visit(const UIntImm *op) override { result = Interval::single_point(op); }
    void visit(const FloatImm *op) override { result = Interval::single_point(op); }
    void visit(const StringImm *) override { result = Interval::everything(); }

    void visit(const Variable *op) override {
        if (const Interval *iv = lookup(op->name)) {
            result = *iv;
        } else if (op->type.is_scalar()) {
            result = Interval::single_point(op);
        } else {
            // A vector variable has no scalar value to stand for its lanes.
            result = bounds_of_type(op->type);
        }
    }

    void visit(const Cast *op) override {
        result =
            cast_interval(get(op->value), op->value.type().element_of(), op->type.element_of());
    }
    void visit(const Reinterpret *op) override { result = bounds_of_type(op->type); }

    void visit(const Add *op) override {
        result = add_intervals(get(op->a), get(op->b), op->type.element_of());
    }
    void visit(const Sub *op) override {
        result = sub_intervals(get(op->a), get(op->b), op->type.element_of());
    }
    void visit(const Mul *op) override {
        result = mul_intervals(get(op->a), get(op->b), op->type.element_of());
    }
    void visit(const Div *op) override {
        result = div_intervals(get(op->a), get(op->b), op->type.element_of());
    }
    void visit(const Mod *op) override {
        result = mod_intervals(get(op->a), get(op->b), op->type.element_of());
    }
    void visit(const Min *op) override {
        result = min_intervals(get(op->a), get(op->b), op->type.element_of());
    }
    void visit(const Max *op) override {
        result = max_intervals(get(op->a), get(op->b), op->type.element_of());
    }

    void visit(const LT *op) override {
        result = compare_intervals(get(op->a), get(op->b), Cmp::LT);
    }
    void visit(const LE *op) override {
        result = compare_intervals(get(op->a), get(op->b), Cmp::LE);
    }
    void visit(const GT *op) override {
        result = compare_intervals(get(op->b), get(op->a), Cmp::LT);
    }
    void visit(const GE *op) override {
        result = compare_intervals(get(op->b), get(op->a), Cmp::LE);
    }
    void visit(const EQ *op) override {
        result = compare_intervals(get(op->a), get(op->b), Cmp::EQ);
    }
    void visit(const NE *op) override {
        result = not_interval(compare_intervals(get(op->a), get(op->b), Cmp::EQ));
    }
    void visit(const And *op) override { result = and_intervals(get(op->a), get(op->b)); }
    void visit(const Or *op) override { result = or_intervals(get(op->a), get(op->b)); }
    void visit(const Not *op) override { result = not_interval(get(op->a)); }

    /// The union of both branches, each computed with the condition (or its negation) narrowing
    /// the variables it compares, and just one branch when the condition is decided.
    Interval select_bounds(const Expr &cond, const Expr &t, const Expr &f) {
        Interval c = get(cond);
        if (is_const_true(c.min)) return get(t);
        if (is_const_false(c.max)) return get(f);
        Scope saved = overlay;
        refine(cond, true);
        Interval a = get(t);
        overlay = saved;
        refine(cond, false);
        Interval b = get(f);
        overlay = saved;
        return Interval::make_union(a, b);
    }

    void visit(const Select *op) override {
        result = select_bounds(op->condition, op->true_value, op->false_value);
    }

    void visit(const Load *op) override { result = bounds_of_type(op->type); }

    void visit(const Ramp *op) override {
        // base + stride * k for k in [0, lanes - 1].
        Type t = op->type.element_of();
        Interval k(make_zero(t), make_const(t, (int64_t)op->lanes - 1));
        if (t.is_uint() && t.bits() == 1) {
            result = bounds_of_type(t);
            return;
        }
        result = add_intervals(get(op->base), mul_intervals(get(op->stride), k, t), t);
    }

    void visit(const Broadcast *op) override { result = get(op->value); }

    void visit(const Let *op) override {
        // A large end of the value's bounds goes into the body's bounds under a name, bound by
        // a Let around them (as Halide's bounds do): substituted, it is copied at each use, and
        // a chain of lets that each use the one before twice (select(t > 0, t, -t) inlined
        // along a chain of Funcs) gave bounds exponential in the chain's length. The names are
        // derived from the Let's, not numbered, so the same pipeline lowers to the same text
        // (the JIT's cache key); a Let of the same name inside rebinds them lexically.
        const Interval value_bounds = get(op->value);
        Interval v = value_bounds;
        std::string min_name, max_name;
        if (v.has_lower_bound() && expr_larger_than(v.min, kMaxCopiedNodes)) {
            min_name = op->name + ".let_min";
            v.min = Variable::make(v.min.type(), min_name);
        }
        if (v.has_upper_bound() && expr_larger_than(v.max, kMaxCopiedNodes)) {
            max_name = op->name + ".let_max";
            v.max = Variable::make(v.max.type(), max_name);
        }
        Interval r;
        with_binding(op->name, v, [&] { r = get(op->body); });
        auto rebind = [&](Expr &e) {
            if (!e.defined()) return;
            if (!max_name.empty() && expr_uses_var(e, max_name)) {
                e = Let::make(max_name, value_bounds.max, e);
            }
            if (!min_name.empty() && expr_uses_var(e, min_name)) {
                e = Let::make(min_name, value_bounds.min, e);
            }
        };
        if (r.has_lower_bound()) rebind(r.min);
        if (r.has_upper_bound()) rebind(r.max);
        result = r;
    }

    /// An end of an interval larger than this is worth a name rather than a copy at each use.
    static constexpr int kMaxCopiedNodes = 100;

    void visit(const Shuffle *op) override {
        Interval r = Interval::nothing();
        for (const Expr &v : op->vectors) r.include(get(v));
        result = r;
    }

    void visit(const VectorReduce *op) override {
        Type t = op->type.element_of();
        Interval v = get(op->value);
        int factor = op->value.type().lanes() / op->type.lanes();
        switch (op->op) {
        case VectorReduce::Add:
            result = mul_intervals(v, Interval::single_point(make_const(t, (int64_t)factor)), t);
            break;
        case VectorReduce::Mul:
            result = bounds_of_type(t);
            break;
        default:
            // Min, Max, And and Or of lanes stay within the lanes' range.
            result = v;
            break;
        }
    }

    void visit(const Call *op) override;
    Interval intrinsic_bounds(const Call *op);
    Interval math_bounds(const Call *op);
};

Interval Bounds::intrinsic_bounds(const Call *op) {
    Type t = op->type.element_of();
    const std::vector<Expr> &args = op->args;
    if (op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost) ||
        op->is_intrinsic(Call::strict_float)) {
        return get(args[0]);
    }
    if (op->is_intrinsic(Call::return_second)) return get(args[1]);
    if (op->is_intrinsic(Call::promise_clamped) || op->is_intrinsic(Call::unsafe_promise_clamped)) {
        // The value is promised to lie in [lo, hi]; it also lies in its own bounds.
        Interval v = get(args[0]);
        Interval lo = get(args[1]), hi = get(args[2]);
        return promise_interval(v, Interval(lo.min, hi.max));
    }
    if (op->is_intrinsic(Call::if_then_else)) {
        if (args.size() == 3) return select_bounds(args[0], args[1], args[2]);
        return get(args[1]);
    }
    if (op->is_intrinsic(Call::abs)) return abs_interval(get(args[0]), args[0].type(), t);
    if (op->is_intrinsic(Call::absd)) {
        return absd_interval(get(args[0]), get(args[1]), args[0].type(), t);
    }
    if (op->is_intrinsic(Call::bitwise_and)) return bitand_interval(get(args[0]), get(args[1]), t);
    if (op->is_intrinsic(Call::bitwise_or)) return bitor_interval(get(args[0]), get(args[1]), t);
    if (op->is_intrinsic(Call::bitwise_xor)) return bitxor_interval(get(args[0]), get(args[1]), t);
    if (op->is_intrinsic(Call::bitwise_not)) return bitnot_interval(get(args[0]), t);
    if (op->is_intrinsic(Call::shift_left)) {
        return shift_interval(get(args[0]), get(args[1]), t, /*left=*/true);
    }
    if (op->is_intrinsic(Call::shift_right)) {
        return shift_interval(get(args[0]), get(args[1]), t, /*left=*/false);
    }
    if (op->is_intrinsic(Call::count_leading_zeros) ||
        op->is_intrinsic(Call::count_trailing_zeros) || op->is_intrinsic(Call::popcount)) {
        return Interval(make_zero(t), make_const(t, (int64_t)args[0].type().bits()));
    }
    if (op->is_intrinsic(Call::lerp)) {
        // A weighted average of the two values lies between them.
        return Interval::make_union(get(args[0]), get(args[1]));
    }
    if (op->is_intrinsic(Call::saturating_cast)) {
        return saturating_cast_interval(get(args[0]), args[0].type().element_of(), t);
    }
    if (op->is_intrinsic(Call::widening_add) || op->is_intrinsic(Call::widening_mul)) {
        Type at = args[0].type().element_of();
        Interval a = cast_interval(get(args[0]), at, t);
        Interval b = cast_interval(get(args[1]), args[1].type().element_of(), t);
        return op->is_intrinsic(Call::widening_add) ? add_intervals(a, b, t)
                                                    : mul_intervals(a, b, t);
    }
    if (op->is_intrinsic(Call::saturating_add) || op->is_intrinsic(Call::saturating_sub) ||
        op->is_intrinsic(Call::halving_add) || op->is_intrinsic(Call::rounding_halving_add)) {
        return exact_wide_interval(op->name, get(args[0]), get(args[1]), t);
    }
    if (op->is_intrinsic(Call::random)) {
        if (t.is_float()) return Interval(make_zero(t), make_one(t));
        return bounds_of_type(t);
    }
    return bounds_of_type(t);
}

void Bounds::visit(const Call *op) {
    Type t = op->type.element_of();
    if (op->call_type == Call::Intrinsic || op->call_type == Call::PureIntrinsic) {
        result = intrinsic_bounds(op);
    } else if (op->call_type == Call::PureExtern && op->args.size() == 1 && t.is_float()) {
        result = monotone_math_interval(op->name, get(op->args[0]), t);
    } else {
        // Buffer values, extern results: only their type says anything; a Func's values may
        // be bounded by its definition as well.
        result = bounds_of_type(t);
        if (op->call_type == Call::Halide && func_bounds) {
            auto it = func_bounds->find({op->name, op->value_index});
            if (it != func_bounds->end()) {
                result = Interval::make_intersection(result, it->second);
            }
        }
    }
}

} // namespace

Interval bounds_of_type(Type t) {
    t = t.element_of();
    if (!t.is_int_or_uint() || (t.is_int() && t.bits() >= 32)) return Interval::everything();
    return Interval(t.min(), t.max());
}

Interval bounds_of_expr_in_scope(const Expr &e, const Scope &scope,
                                 const FuncValueBounds *func_bounds) {
    internal_assert(e.defined()) << "bounds_of_expr_in_scope of an undefined Expr\n";
    Bounds b(scope, func_bounds);
    return b.get(e);
}

Scope scope_with_condition(const Scope &scope, const Expr &cond, bool value) {
    Bounds b(scope, nullptr);
    b.refine(cond, value);
    return b.merged_scope();
}

std::ostream &operator<<(std::ostream &os, const Box &b) {
    os << "{";
    for (size_t i = 0; i < b.size(); i++) os << (i ? ", " : "") << b[i];
    return os << "}";
}

} // namespace internal
} // namespace loom
