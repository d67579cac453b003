#include "analysis/solve.h"

#include "ir/ir.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "simplify/simplify.h"

#include <vector>

namespace loom {
namespace internal {

namespace {

const Expr &strip_likely(const Expr &e) {
    if (const Call *c = e.as<Call>()) {
        if ((c->is_intrinsic(Call::likely) || c->is_intrinsic(Call::likely_if_innermost)) &&
            c->args.size() == 1) {
            return strip_likely(c->args[0]);
        }
    }
    return e;
}

/// The integer types whose arithmetic the solver may rearrange: Loom assumes Int(32) and Int(64)
/// index arithmetic does not overflow (DESIGN.md §4), so x - 1 <= h is x <= h + 1. Narrow and
/// unsigned types wrap, and moving terms across a comparison is wrong for them.
bool solvable_type(Type t) { return t.is_scalar() && t.is_int() && t.bits() >= 32; }

/// Solves conditions for one variable. Every method returns an inner interval (only values of
/// the variable for which the condition holds), Interval::nothing() when it gives up.
///
/// Infinite ends are the Interval markers, which cannot appear inside an expression; where an
/// invariant condition must be folded into an end (`q ? [a, b] : empty`), an infinite end is
/// replaced by the variable type's limit, which is exact: the variable cannot go beyond it.
class InnerSolver {
public:
    InnerSolver(const std::string &var, Type t) : var(var), t(t) {}

    /// When set, invariant conditions that the whole condition requires (those reached
    /// through && only) are collected here instead of folded into the interval's ends.
    std::vector<Expr> *hoisted = nullptr;

    /// The values of var where `cond` has the value `want`.
    Interval solve(const Expr &cond_in, bool want) {
        const Expr &cond = strip_likely(cond_in);
        if (!uses(cond)) return when(want ? cond : Not::make(cond), Interval::everything());
        if (const Let *l = cond.as<Let>()) {
            return solve(substitute(l->name, l->value, l->body), want);
        }
        if (const Not *n = cond.as<Not>()) return solve(n->a, !want);
        if (const And *a = cond.as<And>()) return logical(a->a, a->b, want, want);
        if (const Or *o = cond.as<Or>()) return logical(o->a, o->b, !want, want);
        if (const LT *op = cond.as<LT>()) return compare(op->a, op->b, want ? LT_ : GE_);
        if (const LE *op = cond.as<LE>()) return compare(op->a, op->b, want ? LE_ : GT_);
        if (const GT *op = cond.as<GT>()) return compare(op->a, op->b, want ? GT_ : LE_);
        if (const GE *op = cond.as<GE>()) return compare(op->a, op->b, want ? GE_ : LT_);
        if (const EQ *op = cond.as<EQ>()) return compare(op->a, op->b, want ? EQ_ : NE_);
        if (const NE *op = cond.as<NE>()) return compare(op->a, op->b, want ? NE_ : EQ_);
        return Interval::nothing();
    }

private:
    enum Op { LT_, LE_, GT_, GE_, EQ_, NE_ };

    const std::string &var;
    Type t;
    /// Whether the node being solved is required by the whole condition (reached through
    /// conjunctions only); only such invariant conditions may be hoisted.
    bool conjunctive = true;

    /// Solves f() in a disjunctive position (one side of an ||).
    template <typename F>
    Interval disjunct(F &&f) {
        bool saved = conjunctive;
        conjunctive = false;
        Interval i = f();
        conjunctive = saved;
        return i;
    }

    bool uses(const Expr &e) const { return expr_uses_var(e, var); }

    Expr lowest() const { return t.min(); }
    Expr highest() const { return t.max(); }
    Expr finite_min(const Interval &i) const { return i.has_lower_bound() ? i.min : lowest(); }
    Expr finite_max(const Interval &i) const { return i.has_upper_bound() ? i.max : highest(); }

    /// The interval with simplified ends; the type's limits become the markers again, and an
    /// interval whose constant ends cross is the empty one.
    Interval tidy(const Expr &mn, const Expr &mx) const {
        if (Interval::is_pos_inf(mn) || Interval::is_neg_inf(mx)) return Interval::nothing();
        Expr a = Interval::is_neg_inf(mn) ? mn : simplify(mn);
        Expr b = Interval::is_pos_inf(mx) ? mx : simplify(mx);
        if (equal_const(a, lowest())) a = Interval::neg_inf();
        if (equal_const(b, highest())) b = Interval::pos_inf();
        const int64_t *ca = as_const_int(a), *cb = as_const_int(b);
        if (ca && cb && *ca > *cb) return Interval::nothing();
        return Interval(a, b);
    }
    static bool equal_const(const Expr &e, const Expr &limit) {
        const int64_t *a = as_const_int(e), *b = as_const_int(limit);
        return a && b && *a == *b;
    }

    /// q && (var in i).
    Interval when(const Expr &q_in, const Interval &i) {
        Expr q = simplify(q_in);
        if (is_const_true(q)) return i;
        if (is_const_false(q) || i.is_empty()) return Interval::nothing();
        if (hoisted && conjunctive) {
            // The caller takes q apart: the interval stays free of selects.
            hoisted->push_back(q);
            return i;
        }
        // When q is false the ends become [highest, lowest]: empty.
        return tidy(Select::make(q, finite_min(i), highest()),
                    Select::make(q, finite_max(i), lowest()));
    }

    /// q || (var in i).
    Interval unless(const Expr &q_in, const Interval &i) {
        Expr q = simplify(q_in);
        if (is_const_true(q)) return Interval::everything();
        if (is_const_false(q)) return i;
        if (i.is_empty()) {
            return tidy(Select::make(q, lowest(), highest()), Select::make(q, highest(), lowest()));
        }
        return tidy(Select::make(q, lowest(), finite_min(i)),
                    Select::make(q, highest(), finite_max(i)));
    }

    Interval both(const Interval &a, const Interval &b) const {
        if (a.is_empty() || b.is_empty()) return Interval::nothing();
        Interval i = Interval::make_intersection(a, b);
        return tidy(i.min, i.max);
    }

    /// An interval inside the union of a and b: the union when they overlap, otherwise a (the
    /// union of disjoint intervals is not an interval; either one is a correct answer).
    Interval either(const Interval &a, const Interval &b) const {
        if (a.is_empty()) return b;
        if (b.is_empty()) return a;
        if (a.is_everything() || b.is_everything()) return Interval::everything();
        Expr amin = finite_min(a), amax = finite_max(a), bmin = finite_min(b), bmax = finite_max(b);
        Expr overlap = simplify(And::make(LE::make(bmin, amax), LE::make(amin, bmax)));
        if (is_const_true(overlap)) {
            return Interval(Interval::make_min(a.min, b.min), Interval::make_max(a.max, b.max));
        }
        if (is_const_false(overlap)) return a;
        return tidy(Select::make(overlap, Min::make(amin, bmin), amin),
                    Select::make(overlap, Max::make(amax, bmax), amax));
    }

    /// (a op b) where `conj` says whether op is && (else ||), each side wanted `want`.
    Interval logical(const Expr &a, const Expr &b, bool conj, bool want) {
        auto invariant = [&](const Expr &e) { return want ? e : Not::make(e); };
        if (!uses(a) || !uses(b)) {
            const Expr &q = uses(a) ? b : a, &v = uses(a) ? a : b;
            if (conj) return when(invariant(q), solve(v, want));
            return unless(invariant(q), disjunct([&] { return solve(v, want); }));
        }
        if (conj) return both(solve(a, want), solve(b, want));
        return disjunct([&] { return either(solve(a, want), solve(b, want)); });
    }

    /// The values of var where `a op b`.
    Interval compare(const Expr &a_in, const Expr &b_in, Op op) {
        Expr a = strip_likely(a_in), b = strip_likely(b_in);
        if (!uses(a) && !uses(b)) {
            Expr q;
            switch (op) {
            case LT_:
                q = LT::make(a, b);
                break;
            case LE_:
                q = LE::make(a, b);
                break;
            case GT_:
                q = GT::make(a, b);
                break;
            case GE_:
                q = GE::make(a, b);
                break;
            case EQ_:
                q = EQ::make(a, b);
                break;
            case NE_:
                q = NE::make(a, b);
                break;
            }
            return when(q, Interval::everything());
        }
        if (!solvable_type(a.type()) || a.type() != t) return Interval::nothing();
        switch (op) {
        case EQ_:
            return both(compare(a, b, LE_), compare(a, b, GE_));
        case NE_:
            return disjunct([&] { return either(compare(a, b, LT_), compare(a, b, GT_)); });
        case GT_:
            return compare(b, a, LT_);
        case GE_:
            return compare(b, a, LE_);
        default:
            break;
        }
        // a < b is a <= b - 1 for integers.
        Expr one = make_one(a.type());
        bool strict = op == LT_;
        if (!uses(b)) return bound(a, strict ? Sub::make(b, one) : b, true);
        if (!uses(a)) return bound(b, strict ? Add::make(a, one) : a, false);
        // Both sides use var: a - b <= 0 (or <= -1).
        return bound(Sub::make(a, b), strict ? make_const(a.type(), -1) : make_zero(a.type()),
                     true);
    }

    /// The values of var where e <= r (upper) or e >= r (!upper); e may use var, r does not.
    Interval bound(const Expr &e_in, const Expr &r, bool upper) {
        const Expr &e = strip_likely(e_in);
        Type et = e.type();
        if (!uses(e)) return when(upper ? LE::make(e, r) : GE::make(e, r), Interval::everything());
        if (const Variable *v = e.as<Variable>()) {
            if (v->name != var) return Interval::nothing();
            Expr end = simplify(r);
            return upper ? tidy(Interval::neg_inf(), end) : tidy(end, Interval::pos_inf());
        }
        if (const Let *l = e.as<Let>()) {
            return bound(substitute(l->name, l->value, l->body), r, upper);
        }
        if (const Add *op = e.as<Add>()) {
            if (!uses(op->b)) return bound(op->a, Sub::make(r, op->b), upper);
            if (!uses(op->a)) return bound(op->b, Sub::make(r, op->a), upper);
            return linear_bound(e, r, upper);
        }
        if (const Sub *op = e.as<Sub>()) {
            if (!uses(op->b)) return bound(op->a, Add::make(r, op->b), upper);
            // a - b <= r is b >= a - r.
            if (!uses(op->a)) return bound(op->b, Sub::make(op->a, r), !upper);
            return linear_bound(e, r, upper);
        }
        if (const Mul *op = e.as<Mul>()) {
            const int64_t *k = as_const_int(op->b);
            Expr x = op->a;
            if (!k) {
                k = as_const_int(op->a);
                x = op->b;
            }
            if (!k) return linear_bound(e, r, upper);
            if (*k == 0) return bound(make_zero(et), r, upper);
            // x * k <= r with k > 0 is x <= floor(r / k); with k < 0 it is x >= ceil(-r / |k|).
            Expr kk = make_const(et, *k > 0 ? *k : -*k);
            Expr s = *k > 0 ? r : Sub::make(make_zero(et), r);
            bool x_upper = (*k > 0) == upper;
            return bound(x, x_upper ? floor_div(s, kk) : ceil_div(s, kk), x_upper);
        }
        if (const Div *op = e.as<Div>()) {
            const int64_t *k = as_const_int(op->b);
            if (!k || uses(op->b)) return Interval::nothing();
            if (*k == 0) return bound(make_zero(et), r, upper);
            // Euclidean: a / k == floor(a / |k|) for k > 0 and -floor(a / |k|) for k < 0; and
            // floor(a / K) <= r is a <= r * K + K - 1, floor(a / K) >= r is a >= r * K.
            Expr kk = make_const(et, *k > 0 ? *k : -*k);
            Expr s = *k > 0 ? r : Sub::make(make_zero(et), r);
            bool a_upper = (*k > 0) == upper;
            Expr limit = a_upper ? Add::make(Mul::make(s, kk), Sub::make(kk, make_one(et)))
                                 : Mul::make(s, kk);
            return bound(op->a, limit, a_upper);
        }
        if (const Min *op = e.as<Min>()) {
            // min(a, b) <= r is a <= r || b <= r; min(a, b) >= r is a >= r && b >= r.
            return bound_pair(op->a, op->b, r, upper, /*conj=*/!upper);
        }
        if (const Max *op = e.as<Max>()) {
            return bound_pair(op->a, op->b, r, upper, /*conj=*/upper);
        }
        return Interval::nothing();
    }

    /// a <= r and/or b <= r (or >=), with an invariant side folded in as a condition.
    Interval bound_pair(const Expr &a, const Expr &b, const Expr &r, bool upper, bool conj) {
        auto cmp = [&](const Expr &e) { return upper ? LE::make(e, r) : GE::make(e, r); };
        if (!uses(a) || !uses(b)) {
            const Expr &q = uses(a) ? b : a, &v = uses(a) ? a : b;
            if (conj) return when(cmp(q), bound(v, r, upper));
            return unless(cmp(q), disjunct([&] { return bound(v, r, upper); }));
        }
        if (conj) return both(bound(a, r, upper), bound(b, r, upper));
        return disjunct([&] { return either(bound(a, r, upper), bound(b, r, upper)); });
    }

    /// e <= r where var appears on both sides of an addition: collect e as k * var + rest.
    Interval linear_bound(const Expr &e, const Expr &r, bool upper) {
        int64_t k = 0;
        Expr rest = make_zero(e.type());
        if (!linear(e, 1, &k, &rest)) return Interval::nothing();
        Expr scaled = Mul::make(Variable::make(t, var), make_const(t, k));
        return bound(scaled, Sub::make(r, rest), upper);
    }

    /// Adds sign * e to k * var + rest; false when e is not linear in var.
    bool linear(const Expr &e_in, int64_t sign, int64_t *k, Expr *rest) {
        const Expr &e = strip_likely(e_in);
        if (!uses(e)) {
            // sign is 1 or -1: a Mul scales its operand's own collection (below).
            *rest = sign > 0 ? Add::make(*rest, e) : Sub::make(*rest, e);
            return true;
        }
        if (const Variable *v = e.as<Variable>()) {
            if (v->name != var) return false;
            *k += sign;
            return true;
        }
        if (const Let *l = e.as<Let>()) {
            return linear(substitute(l->name, l->value, l->body), sign, k, rest);
        }
        if (const Add *op = e.as<Add>()) {
            return linear(op->a, sign, k, rest) && linear(op->b, sign, k, rest);
        }
        if (const Sub *op = e.as<Sub>()) {
            return linear(op->a, sign, k, rest) && linear(op->b, -sign, k, rest);
        }
        if (const Mul *op = e.as<Mul>()) {
            const int64_t *c = as_const_int(op->b);
            Expr x = op->a;
            if (!c) {
                c = as_const_int(op->a);
                x = op->b;
            }
            if (!c) return false;
            // Scale x's own collection, then add it in.
            int64_t xk = 0;
            Expr xrest = make_zero(e.type());
            if (!linear(x, 1, &xk, &xrest)) return false;
            *k += sign * *c * xk;
            Expr scaled = Mul::make(xrest, make_const(e.type(), sign * *c));
            *rest = Add::make(*rest, scaled);
            return true;
        }
        return false;
    }

    static Expr floor_div(const Expr &s, const Expr &k) { return Div::make(s, k); }
    static Expr ceil_div(const Expr &s, const Expr &k) {
        return Div::make(Add::make(s, Sub::make(k, make_one(k.type()))), k);
    }
};

/// The type of the Variable `var` in e (Int(32) when e does not use it).
Type var_type(const Expr &e, const std::string &var) {
    Type t = Int(32);
    bool found = false;
    visit_exprs(e, [&](const Expr &x) {
        if (found) return false;
        if (const Variable *v = x.as<Variable>()) {
            if (v->name == var) {
                t = v->type;
                found = true;
            }
        }
        return true;
    });
    return t;
}

} // namespace

Interval solve_for_inner_interval(const Expr &cond, const std::string &var, Expr *invariant) {
    if (invariant) *invariant = const_true();
    if (!cond.defined() || !cond.type().is_bool() || !cond.type().is_scalar()) {
        return Interval::nothing();
    }
    Type t = var_type(cond, var);
    if (!solvable_type(t)) return Interval::nothing();
    // The simplifier's canonical forms (x + x is x * 2, constants folded, selects on constant
    // conditions gone) often turn a condition into one the solver handles; the condition as
    // written is the fallback.
    InnerSolver solver(var, t);
    std::vector<Expr> hoisted;
    if (invariant) solver.hoisted = &hoisted;
    Interval i = solver.solve(simplify(cond), true);
    if (i.is_empty()) {
        hoisted.clear();
        i = solver.solve(cond, true);
    }
    if (invariant && !i.is_empty()) {
        for (const Expr &q : hoisted) *invariant = And::make(*invariant, q);
        *invariant = simplify(*invariant);
    }
    return i;
}

Interval solve_for_inner_interval(const Expr &cond, const std::string &var) {
    return solve_for_inner_interval(cond, var, nullptr);
}

} // namespace internal
} // namespace loom
