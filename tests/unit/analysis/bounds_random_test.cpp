// bounds_of_expr_in_scope against brute force: random expressions of every integer width and
// float32, scalar and vector, are evaluated at every point of small variable ranges; the
// computed interval must contain every value. Expressions in which each variable occurs once
// and every operator is monotone (or takes its extremes at the corners) must get the exact
// range. Fixed seeds; a failure prints the expression, the ranges and the interval.

#include "unit/analysis/analysis_test_util.h"

#include "common/expr_eval.h"
#include "ir/ir_equality.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>

using namespace loom;
using namespace loom::analysis_test;
using test::ExprEval;
using test::Value;

namespace {

const Type int_types[] = {Int(8), Int(16), Int(32), UInt(8), UInt(16), UInt(32)};

/// An interval end as a number: false when the end is neither a constant nor infinite.
bool end_number(const Expr &e, double *v, __int128 *iv, bool *inf) {
    *inf = false;
    if (Interval::is_neg_inf(e) || Interval::is_pos_inf(e)) {
        *inf = true;
        return true;
    }
    if (const int64_t *i = as_const_int(e)) {
        *iv = *i;
        *v = (double)*i;
        return true;
    }
    if (const uint64_t *u = as_const_uint(e)) {
        *iv = *u;
        *v = (double)*u;
        return true;
    }
    if (const double *f = as_const_float(e)) {
        *v = *f;
        *iv = 0;
        return true;
    }
    return false;
}

class Generator {
public:
    Generator(uint32_t seed, Type var_type) : rng(seed), vt(var_type) {}

    /// When set, each variable is used at most once and only operators whose extremes are at
    /// the extremes of their operands are generated (so interval arithmetic is exact).
    bool exact_mode = false;
    /// When set, no type-limit constants: symbolic int32 ends like (c + INT_MAX) would overflow,
    /// which Loom assumes never happens in index arithmetic.
    bool small_constants = false;

    Expr gen(Type t, int depth) {
        if (depth <= 0 || pick(5) == 0) return leaf(t);
        return exact_mode ? gen_exact(t, depth) : gen_any(t, depth);
    }

    Expr gen_vector(Type t, int depth) {
        int lanes = 4;
        if (depth <= 1) return Ramp::make(gen(t, 1), constant(t), lanes);
        switch (pick(5)) {
        case 0:
            return Ramp::make(gen(t, depth - 1), constant(t), lanes);
        case 1:
            return Broadcast::make(gen(t, depth - 1), lanes);
        case 2:
            return Add::make(gen_vector(t, depth - 1), Broadcast::make(gen(t, depth - 1), lanes));
        case 3:
            return Select::make(
                LT::make(gen_vector(t, depth - 1), Broadcast::make(constant(t), lanes)),
                gen_vector(t, depth - 1), gen_vector(t, depth - 1));
        default:
            return Max::make(gen_vector(t, depth - 1), gen_vector(t, depth - 1));
        }
    }

    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
    int64_t range(int64_t lo, int64_t hi) {
        return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    }

    void reset_uses() { used_x = used_y = false; }

private:
    std::mt19937 rng;
    Type vt;
    bool used_x = false, used_y = false;
    std::vector<std::pair<std::string, Type>> lets;
    int let_counter = 0;

    Expr constant(Type t) {
        if (t.is_float()) return make_const(t, (double)range(-8, 8) / (pick(2) ? 1 : 4));
        if (!exact_mode && !small_constants && pick(10) == 0) return pick(2) ? t.max() : t.min();
        int64_t v = range(-6, 6);
        if (t.is_uint()) v = std::abs(v);
        return make_const(t, v);
    }

    Expr leaf(Type t) {
        int n = pick(exact_mode ? 3 : 4);
        if (n == 3 && !lets.empty()) {
            auto &l = lets[pick((int)lets.size())];
            if (l.second == t) return Variable::make(t, l.first);
        }
        bool want_x = n == 0, want_y = n == 1;
        if (exact_mode && ((want_x && used_x) || (want_y && used_y))) return constant(t);
        if (want_x || want_y) {
            (want_x ? used_x : used_y) = true;
            Expr v = Variable::make(vt, want_x ? "x" : "y");
            return t == vt ? v : Cast::make(t, v);
        }
        return constant(t);
    }

    Type other_int_type() { return int_types[pick(6)]; }

    Expr gen_exact(Type t, int depth) {
        Expr a = gen(t, depth - 1);
        switch (pick(7)) {
        case 0:
            return Add::make(a, gen(t, depth - 1));
        case 1:
            return Sub::make(a, gen(t, depth - 1));
        case 2:
            return Mul::make(a, gen(t, depth - 1));
        case 3: {
            int64_t d = range(1, 5) * (pick(2) ? 1 : -1);
            return Div::make(a, make_const(t, d));
        }
        case 4:
            return Min::make(a, gen(t, depth - 1));
        case 5:
            return Max::make(a, gen(t, depth - 1));
        default:
            return Max::make(Min::make(a, constant(t)), constant(t));
        }
    }

    Expr gen_any(Type t, int depth) {
        Expr a = gen(t, depth - 1);
        auto b = [&]() { return gen(t, depth - 1); };
        if (t.is_float()) {
            switch (pick(9)) {
            case 0:
                return Add::make(a, b());
            case 1:
                return Sub::make(a, b());
            case 2:
                return Mul::make(a, b());
            // Floats divide only by nonzero constants: a NaN (0 / 0) has no order, so no
            // interval describes what min/max/select make of it (Halide ignores NaN too).
            case 3:
                return Div::make(a, make_const(t, (double)range(1, 4) * (pick(2) ? 1 : -1) / 2));
            case 4:
                return Min::make(a, b());
            case 5:
                return Max::make(a, b());
            case 6:
                return Select::make(LT::make(a, b()), b(), b());
            case 7:
                return Cast::make(t, gen(other_int_type(), depth - 1));
            default:
                return intrin(t, Call::abs, {a});
            }
        }
        switch (pick(22)) {
        case 0:
            return Add::make(a, b());
        case 1:
            return Sub::make(a, b());
        case 2:
            return Mul::make(a, b());
        case 3:
            return Div::make(a, b());
        case 4:
            return Mod::make(a, b());
        case 5:
            return Div::make(a, constant(t));
        case 6:
            return Mod::make(a, constant(t));
        case 7:
            return Min::make(a, b());
        case 8:
            return Max::make(a, b());
        case 9:
            return Max::make(Min::make(a, constant(t)), constant(t));
        case 10: {
            Expr c = pick(2) ? LT::make(a, b()) : EQ::make(a, b());
            return Select::make(c, b(), b());
        }
        case 11: {
            Type o = pick(4) ? other_int_type() : Float(32);
            return Cast::make(t, gen(o, depth - 1));
        }
        case 12: {
            Type u = t.with_code(Type::UInt);
            Expr r = intrin(t.is_int() ? u : t, Call::abs, {a});
            return r.type() == t ? r : Cast::make(t, r);
        }
        case 13: {
            Type u = t.with_code(Type::UInt);
            Expr r = intrin(u, Call::absd, {a, b()});
            return r.type() == t ? r : Cast::make(t, r);
        }
        case 14:
            return intrin(t, Call::bitwise_and, {a, pick(2) ? constant(t) : b()});
        case 15:
            return intrin(t, Call::bitwise_or, {a, pick(2) ? constant(t) : b()});
        case 16:
            return intrin(t, Call::bitwise_xor, {a, b()});
        case 17:
            return intrin(t, Call::bitwise_not, {a});
        case 18: {
            Expr k = make_const(t, range(0, t.bits() - 1 < 6 ? t.bits() - 1 : 6));
            // An int32 left shift that overflows is undefined like int32 multiplication (which
            // the evaluator flags, but not for shifts): only shift right there.
            bool left = pick(2) && !(t.is_int() && t.bits() == 32);
            return intrin(t, left ? Call::shift_left : Call::shift_right, {a, k});
        }
        case 19:
            return intrin(t, Call::likely, {a});
        case 20: {
            std::string name = "t" + std::to_string(let_counter++);
            lets.push_back({name, t});
            Expr body = gen(t, depth - 1);
            lets.pop_back();
            return Let::make(name, a, body);
        }
        default: {
            Expr c = Cast::make(t, gen(Float(32), depth - 1));
            return Select::make(LT::make(a, b()), c, b());
        }
        }
    }
};

struct Ranges {
    int64_t xlo, xhi, ylo, yhi;
};

/// Checks bounds of e against its values over the ranges; with `exact`, also that the bounds are
/// the observed extremes. Returns a failure description, or "" when fine.
std::string check(const Expr &e, Type vt, const Ranges &r, bool exact) {
    Scope scope = {{"x", Interval(make_const(vt, r.xlo), make_const(vt, r.xhi))},
                   {"y", Interval(make_const(vt, r.ylo), make_const(vt, r.yhi))}};
    Interval b = bounds_of_expr_in_scope(e, scope);
    std::ostringstream why;
    why << e << " with x in [" << r.xlo << ", " << r.xhi << "], y in [" << r.ylo << ", " << r.yhi
        << "] has bounds " << b;
    double lo = 0, hi = 0;
    __int128 ilo = 0, ihi = 0;
    bool lo_inf, hi_inf;
    if (!end_number(b.min, &lo, &ilo, &lo_inf) || !end_number(b.max, &hi, &ihi, &hi_inf)) {
        return why.str() + ": an end is not a constant";
    }
    Type et = e.type().element_of();
    bool is_float = et.is_float();
    bool seen = false, overflowed = false;
    __int128 mn = 0, mx = 0;
    double fmn = 0, fmx = 0;
    ExprEval ev;
    for (int64_t x = r.xlo; x <= r.xhi; x++) {
        for (int64_t y = r.ylo; y <= r.yhi; y++) {
            ev.bind("x", vt.is_int() ? ExprEval::scalar_int(vt, x)
                                     : ExprEval::scalar_uint(vt, (uint64_t)x));
            ev.bind("y", vt.is_int() ? ExprEval::scalar_int(vt, y)
                                     : ExprEval::scalar_uint(vt, (uint64_t)y));
            ev.clear_flags();
            Value v = ev.eval(e);
            if (ev.int32_overflow || ev.undefined) {
                overflowed = true;
                continue;
            }
            for (const test::Lane &l : v.lanes) {
                if (is_float) {
                    if (std::isnan(l.f)) continue;
                    if ((!lo_inf && l.f < lo) || (!hi_inf && l.f > hi)) {
                        why << ": value " << l.f << " at x = " << x << ", y = " << y
                            << " is outside";
                        return why.str();
                    }
                    fmn = seen ? std::min(fmn, l.f) : l.f;
                    fmx = seen ? std::max(fmx, l.f) : l.f;
                } else {
                    __int128 w = et.is_int() ? (__int128)l.i : (__int128)l.u;
                    if ((!lo_inf && w < ilo) || (!hi_inf && w > ihi)) {
                        why << ": value " << (long long)w << " at x = " << x << ", y = " << y
                            << " is outside";
                        return why.str();
                    }
                    mn = seen ? std::min(mn, w) : w;
                    mx = seen ? std::max(mx, w) : w;
                }
                seen = true;
            }
        }
    }
    if (exact && seen && !overflowed && !is_float) {
        if (lo_inf || hi_inf || ilo != mn || ihi != mx) {
            why << ": not tight, values are in [" << (long long)mn << ", " << (long long)mx << "]";
            return why.str();
        }
    }
    (void)fmn;
    (void)fmx;
    return "";
}

Ranges random_ranges(Generator &g, Type vt) {
    int64_t lo = vt.is_uint() ? 0 : -8, hi = 8;
    Ranges r;
    r.xlo = g.range(lo, hi);
    r.xhi = r.xlo + g.range(0, 8);
    r.ylo = g.range(lo, hi);
    r.yhi = r.ylo + g.range(0, 8);
    return r;
}

} // namespace

TEST(BoundsRandom, ContainsEveryValue) {
    int failures = 0, count = 0;
    for (Type vt : int_types) {
        Generator g(31337 + vt.bits() * 7 + vt.code(), vt);
        for (int i = 0; i < 500; i++) {
            Type t = g.pick(5) == 0 ? Float(32) : (g.pick(3) == 0 ? int_types[g.pick(6)] : vt);
            Expr e = g.pick(6) == 0 ? g.gen_vector(t, 3) : g.gen(t, 4);
            std::string f = check(e, vt, random_ranges(g, vt), false);
            count++;
            if (!f.empty() && failures++ < 20) ADD_FAILURE() << f;
        }
    }
    EXPECT_EQ(failures, 0) << "of " << count << " expressions";
}

TEST(BoundsRandom, ExactForSingleUseMonotone) {
    int failures = 0, count = 0;
    Type vt = Int(32);
    Generator g(98, vt);
    g.exact_mode = true;
    for (int i = 0; i < 2000; i++) {
        g.reset_uses();
        Expr e = g.gen(vt, 4);
        switch (g.pick(6)) {
        case 0:
            // The remainder by a constant is exact at the top (its input is contiguous there
            // only when the input is x itself, so only check containment otherwise).
            e = Mod::make(Add::make(Variable::make(vt, "x"), make_const(vt, g.range(-3, 3))),
                          make_const(vt, g.range(1, 6) * (g.pick(2) ? 1 : -1)));
            break;
        case 1: {
            g.reset_uses();
            Expr a = g.gen(vt, 2);
            Expr b = g.gen(vt, 2);
            e = Cast::make(Int(32), LT::make(a, b));
            break;
        }
        default:
            break;
        }
        std::string f = check(e, vt, random_ranges(g, vt), true);
        count++;
        if (!f.empty() && failures++ < 20) ADD_FAILURE() << f;
    }
    EXPECT_EQ(failures, 0) << "of " << count << " expressions";
}

TEST(BoundsRandom, ExactCastsAndSelects) {
    // Narrowing casts of ranges that fit are exact; those that do not give the type's range.
    Expr x = var("x");
    for (Type t : int_types) {
        for (int64_t lo : {-300, -129, -128, -1, 0, 1, 100, 255, 256, 65535}) {
            for (int64_t len : {0, 1, 5, 200}) {
                int64_t hi = lo + len;
                Interval b = bounds_of_expr_in_scope(Cast::make(t, x),
                                                     Scope({{"x", Interval(i32(lo), i32(hi))}}));
                bool fits = t.can_represent(lo) && t.can_represent(hi);
                if (len == 0) {
                    // A constant converts exactly, wrapping or not.
                    EXPECT_TRUE(b.is_single_point() && is_const(b.min)) << b;
                } else if (fits) {
                    EXPECT_TRUE(is_interval(b, lo, hi))
                        << t << " cast of [" << lo << ", " << hi << "]: " << b;
                } else {
                    EXPECT_TRUE(equal(b.min, t.min()) && equal(b.max, t.max()))
                        << t << " cast of [" << lo << ", " << hi << "]: " << b;
                }
            }
        }
    }
    // select(x < c, x, c) and friends narrow x in each branch: exact.
    for (int64_t c = -3; c <= 12; c++) {
        Scope s = {{"x", Interval(i32(0), i32(9))}};
        int64_t mn = 1000, mx = -1000;
        for (int64_t v = 0; v <= 9; v++) {
            int64_t r = v < c ? v : c;
            mn = std::min(mn, r);
            mx = std::max(mx, r);
        }
        Interval b = bounds_of_expr_in_scope(select(lt(x, i32(c)), x, i32(c)), s);
        EXPECT_TRUE(is_interval(b, mn, mx)) << "c = " << c << ": " << b;
        mn = 1000, mx = -1000;
        for (int64_t v = 0; v <= 9; v++) {
            int64_t r = v >= c ? v - c : c - v;
            mn = std::min(mn, r);
            mx = std::max(mx, r);
        }
        b = bounds_of_expr_in_scope(select(ge(x, i32(c)), sub(x, i32(c)), sub(i32(c), x)), s);
        EXPECT_TRUE(is_interval(b, mn, mx)) << "c = " << c << ": " << b;
    }
}

TEST(BoundsRandom, SymbolicScopes) {
    // x in [a, b] and y in [c, c + 3] with a, b, c free: the bounds are expressions in a, b, c
    // that must contain every value once a, b and c are given values (with a <= b).
    Type vt = Int(32);
    Expr a = var("a"), b = var("b"), c = var("c");
    Scope scope = {{"x", Interval(a, b)}, {"y", Interval(c, add(c, i32(3)))}};
    Generator g(2468, vt);
    g.small_constants = true;
    int failures = 0, count = 0, bounded = 0;
    for (int i = 0; i < 800; i++) {
        Type t = g.pick(4) == 0 ? int_types[g.pick(6)] : vt;
        Expr e = g.pick(5) == 0 ? g.gen_vector(t, 2) : g.gen(t, 3);
        Interval bi = bounds_of_expr_in_scope(e, scope);
        count++;
        bounded += bi.is_bounded();
        std::ostringstream why;
        why << e << " with x in [a, b], y in [c, c + 3] has bounds " << bi;
        for (int trial = 0; trial < 6 && failures < 20; trial++) {
            int64_t av = g.range(-6, 6), bv = av + g.range(0, 5), cv = g.range(-6, 6);
            ExprEval ev;
            ev.bind("a", ExprEval::scalar_int(vt, av));
            ev.bind("b", ExprEval::scalar_int(vt, bv));
            ev.bind("c", ExprEval::scalar_int(vt, cv));
            Type et = e.type().element_of();
            auto end_at = [&](const Expr &end, bool *inf, bool *ok) -> __int128 {
                *inf = Interval::is_neg_inf(end) || Interval::is_pos_inf(end);
                *ok = true;
                if (*inf) return 0;
                ev.clear_flags();
                Value v = ev.eval(end);
                *ok = !ev.int32_overflow && !ev.undefined;
                return et.is_int() ? (__int128)v.lanes[0].i : (__int128)v.lanes[0].u;
            };
            bool lo_inf, hi_inf, lo_ok, hi_ok;
            __int128 lo = 0, hi = 0;
            try {
                lo = end_at(bi.min, &lo_inf, &lo_ok);
                hi = end_at(bi.max, &hi_inf, &hi_ok);
            } catch (const std::exception &ex) {
                ADD_FAILURE() << why.str() << ": cannot evaluate an end: " << ex.what();
                failures++;
                break;
            }
            if (!lo_ok || !hi_ok || et.is_float()) continue;
            for (int64_t x = av; x <= bv; x++) {
                for (int64_t y = cv; y <= cv + 3; y++) {
                    ev.bind("x", ExprEval::scalar_int(vt, x));
                    ev.bind("y", ExprEval::scalar_int(vt, y));
                    ev.clear_flags();
                    Value v = ev.eval(e);
                    if (ev.int32_overflow || ev.undefined) continue;
                    for (const test::Lane &l : v.lanes) {
                        __int128 w = et.is_int() ? (__int128)l.i : (__int128)l.u;
                        if ((!lo_inf && w < lo) || (!hi_inf && w > hi)) {
                            if (failures++ < 20) {
                                ADD_FAILURE()
                                    << why.str() << ": value " << (long long)w << " at a = " << av
                                    << ", b = " << bv << ", c = " << cv << ", x = " << x
                                    << ", y = " << y << " is outside [" << (long long)lo << ", "
                                    << (long long)hi << "]";
                            }
                            x = bv + 1;
                            break;
                        }
                    }
                    if (x > bv) break;
                }
            }
        }
    }
    EXPECT_EQ(failures, 0) << "of " << count << " expressions";
    // Most of these are bounded: a regression to everything() would pass containment.
    EXPECT_GT(bounded, count / 2);
}
