// The solver for one variable: exact answers on the forms loop partitioning meets (clamps,
// boundary-condition selects), give-ups on what it does not handle, and a randomized check
// that every value in a solved interval satisfies the condition (the reference evaluator,
// tests/common/expr_eval.h, shares no code with the solver).
#include "analysis/solve.h"

#include "analysis_test_util.h"
#include "common/expr_eval.h"
#include "ir/ir_printer.h"

#include <gtest/gtest.h>

#include <climits>
#include <iostream>
#include <map>
#include <random>
#include <sstream>

using namespace loom;
using namespace loom::analysis_test;
using loom::test::ExprEval;

namespace {

Expr x = var("x"), a = var("a"), b = var("b");

Expr likely_(Expr e) { return intrin(e.type(), Call::likely, {e}); }
Expr land(Expr p, Expr q) { return And::make(p, q); }
Expr lor(Expr p, Expr q) { return Or::make(p, q); }
Expr lnot(Expr p) { return Not::make(p); }

std::string str(const Interval &i) {
    std::ostringstream os;
    os << i;
    return os.str();
}

/// The ends of i (INT64_MIN / INT64_MAX for no bound) with the invariant variables bound.
struct Ends {
    int64_t lo, hi;
};
Ends eval_ends(const Interval &i, const std::map<std::string, int64_t> &env) {
    ExprEval ev;
    for (const auto &kv : env) ev.bind(kv.first, ExprEval::scalar_int(Int(32), kv.second));
    auto end = [&](const Expr &e, int64_t inf) {
        if (Interval::is_neg_inf(e) || Interval::is_pos_inf(e)) return inf;
        EXPECT_FALSE(expr_uses_var(e, "x")) << e;
        return ev.eval(e).as_int();
    };
    return {end(i.min, INT64_MIN), end(i.max, INT64_MAX)};
}

bool holds(const Expr &cond, int64_t xv, const std::map<std::string, int64_t> &env) {
    ExprEval ev;
    for (const auto &kv : env) ev.bind(kv.first, ExprEval::scalar_int(Int(32), kv.second));
    ev.bind("x", ExprEval::scalar_int(Int(32), xv));
    return ev.eval(cond).as_int() != 0;
}

/// Checks that for every binding of a and b in [-5, 5], the solved interval is exactly the set
/// of x in [-35, 35] where cond holds (when `exact`), or inside it (always).
void check_against_reference(const Expr &cond, bool exact) {
    Interval i = solve_for_inner_interval(cond, "x");
    ASSERT_FALSE(i.is_empty()) << "gave up on " << cond;
    for (int av = -5; av <= 5; av++) {
        for (int bv = -5; bv <= 5; bv++) {
            std::map<std::string, int64_t> env{{"a", av}, {"b", bv}};
            Ends e = eval_ends(i, env);
            for (int xv = -35; xv <= 35; xv++) {
                bool in = xv >= e.lo && xv <= e.hi;
                bool h = holds(cond, xv, env);
                if (in) {
                    ASSERT_TRUE(h) << cond << " solved to " << i << " is false at x = " << xv
                                   << ", a = " << av << ", b = " << bv;
                } else if (exact) {
                    ASSERT_FALSE(h) << cond << " solved to " << i << " misses x = " << xv
                                    << ", a = " << av << ", b = " << bv;
                }
            }
        }
    }
}

} // namespace

TEST(Solve, SimpleBounds) {
    // x - 1 >= a: [a + 1, +inf]
    Interval i = solve_for_inner_interval(ge(sub(x, i32(1)), a), "x");
    EXPECT_TRUE(i.has_lower_bound() && !i.has_upper_bound()) << str(i);
    EXPECT_EQ(eval_ends(i, {{"a", 7}}).lo, 8);

    // 2 * x < 7 && 0 <= x: [0, 3]
    i = solve_for_inner_interval(land(lt(mul(i32(2), x), i32(7)), le(i32(0), x)), "x");
    int64_t lo, hi;
    ASSERT_TRUE(end_value(i.min, &lo) && end_value(i.max, &hi)) << str(i);
    EXPECT_EQ(lo, 0);
    EXPECT_EQ(hi, 3);

    // 3 * x == 9 is x == 3; 3 * x == 10 never holds (constant ends cross: nothing).
    i = solve_for_inner_interval(eq(mul(x, i32(3)), i32(9)), "x");
    ASSERT_TRUE(end_value(i.min, &lo) && end_value(i.max, &hi)) << str(i);
    EXPECT_EQ(lo, 3);
    EXPECT_EQ(hi, 3);
    EXPECT_TRUE(solve_for_inner_interval(eq(mul(x, i32(3)), i32(10)), "x").is_empty());

    // likely() and Let are looked through; !(x >= 3) is x <= 2.
    i = solve_for_inner_interval(Let::make("t", add(x, i32(1)), lt(likely_(var("t")), i32(5))),
                                 "x");
    ASSERT_TRUE(end_value(i.max, &hi) && !i.has_lower_bound()) << str(i);
    EXPECT_EQ(hi, 3);
    i = solve_for_inner_interval(lnot(ge(x, i32(3))), "x");
    ASSERT_TRUE(end_value(i.max, &hi) && !i.has_lower_bound()) << str(i);
    EXPECT_EQ(hi, 2);
}

TEST(Solve, ExactForms) {
    // Affine comparisons, divisions and conjunctions: the interval is the exact solution set.
    check_against_reference(lt(add(mul(x, i32(3)), a), b), true);
    check_against_reference(ge(sub(a, mul(x, i32(2))), b), true);
    check_against_reference(le(mul(x, i32(-3)), add(a, i32(4))), true);
    check_against_reference(gt(mul(i32(-2), x), a), true);
    check_against_reference(le(div(x, i32(3)), a), true);
    check_against_reference(ge(div(add(x, i32(1)), i32(4)), a), true);
    check_against_reference(le(div(x, i32(-3)), a), true);
    check_against_reference(gt(div(x, i32(-2)), a), true);
    check_against_reference(eq(mul(x, i32(2)), a), true);
    check_against_reference(land(ge(x, a), lt(x, b)), true);
    // x on both sides: 3x - 1 <= x + a is 2x <= a + 1.
    check_against_reference(le(sub(mul(x, i32(3)), i32(1)), add(x, a)), true);
    check_against_reference(lt(add(x, x), sub(a, x)), true);
    // Overlapping unions are exact; disjoint ones give one side.
    check_against_reference(lor(lt(x, a), gt(x, b)), false);
    check_against_reference(lor(lt(x, i32(5)), gt(x, i32(2))), true);
    check_against_reference(ne(x, a), false);
}

TEST(Solve, BoundaryConditionForms) {
    // repeat_edge: max(min(likely(x - 1), a), b). The min's side holds where x - 1 <= a,
    // the max's where min(x - 1, a) >= b (never, when a < b).
    Expr m = min(likely_(sub(x, i32(1))), a);
    check_against_reference(le(likely_(sub(x, i32(1))), a), true);
    check_against_reference(ge(m, b), true);
    Interval i = solve_for_inner_interval(ge(m, b), "x");
    Ends e = eval_ends(i, {{"a", 2}, {"b", 5}});
    EXPECT_GT(e.lo, e.hi) << "expected empty for a < b: " << i;
    // The select of constant_exterior / repeat_image: !(x < a || x >= a + b) is [a, a + b - 1].
    Expr outside = lor(lt(x, a), ge(x, add(a, b)));
    check_against_reference(lnot(outside), true);
    i = solve_for_inner_interval(lnot(outside), "x");
    e = eval_ends(i, {{"a", -3}, {"b", 4}});
    EXPECT_EQ(e.lo, -3);
    EXPECT_EQ(e.hi, 0);
    // Clamps of both sides: clamp(x * 2 + 1, a, b) <= 7 and >= a.
    check_against_reference(le(clamp(add(mul(x, i32(2)), i32(1)), a, b), i32(7)), false);
    check_against_reference(ge(clamp(add(x, i32(1)), a, b), a), false);
    check_against_reference(le(max(x, a), b), true);
    check_against_reference(ge(max(sub(i32(3), x), a), b), false);
    // An invariant conjunct empties the interval where it is false.
    check_against_reference(land(ge(x, a), lt(a, b)), true);
    check_against_reference(lor(ge(x, a), lt(a, b)), true);
}

TEST(Solve, GivesUp) {
    // Non-linear in x, selects, narrow types, products with unknown signs.
    EXPECT_TRUE(solve_for_inner_interval(lt(mul(x, x), i32(5)), "x").is_empty());
    EXPECT_TRUE(solve_for_inner_interval(lt(select(lt(x, a), x, b), i32(2)), "x").is_empty());
    EXPECT_TRUE(solve_for_inner_interval(lt(mul(x, a), i32(3)), "x").is_empty());
    EXPECT_TRUE(solve_for_inner_interval(lt(mod(x, i32(4)), i32(3)), "x").is_empty());
    Expr narrow = cast(UInt(16), x);
    EXPECT_TRUE(solve_for_inner_interval(lt(narrow, cst(UInt(16), 5)), "x").is_empty());
    Expr x8 = var("x", Int(8));
    EXPECT_TRUE(
        solve_for_inner_interval(lt(add(x8, cst(Int(8), 1)), cst(Int(8), 5)), "x").is_empty());
    // Not a condition at all.
    EXPECT_TRUE(solve_for_inner_interval(add(x, i32(1)), "x").is_empty());
    // Never true.
    EXPECT_TRUE(solve_for_inner_interval(land(lt(x, i32(0)), gt(x, i32(3))), "x").is_empty());
}

TEST(Solve, InvariantConditions) {
    // A condition without x holds everywhere or nowhere.
    EXPECT_TRUE(solve_for_inner_interval(lt(i32(1), i32(2)), "x").is_everything());
    EXPECT_TRUE(solve_for_inner_interval(lt(i32(2), i32(1)), "x").is_empty());
    Interval i = solve_for_inner_interval(lt(a, b), "x");
    Ends t = eval_ends(i, {{"a", 1}, {"b", 2}}), f = eval_ends(i, {{"a", 2}, {"b", 1}});
    EXPECT_LE(t.lo, INT32_MIN);
    EXPECT_GE(t.hi, INT32_MAX);
    EXPECT_GT(f.lo, f.hi);
}

TEST(Solve, Int64Variable) {
    Expr y = var("y", Int(64));
    Interval i = solve_for_inner_interval(lt(add(y, cst(Int(64), 3)), cst(Int(64), 10)), "y");
    int64_t hi;
    ASSERT_TRUE(end_value(i.max, &hi)) << str(i);
    EXPECT_EQ(hi, 6);
    EXPECT_EQ(i.max.type(), Int(64));
}

namespace {

/// Random integer expressions in x, a, b and small constants, of the forms the solver handles
/// plus some it does not (mod, select), so both paths are exercised.
struct Gen {
    std::mt19937 rng;
    explicit Gen(unsigned seed) : rng(seed) {}
    int pick(int n) { return (int)(rng() % n); }
    int small() { return pick(11) - 5; }
    Expr leaf() {
        switch (pick(4)) {
        case 0:
        case 1:
            return x;
        case 2:
            return pick(2) ? a : b;
        default:
            return i32(small());
        }
    }
    Expr value(int depth) {
        if (depth == 0) return leaf();
        switch (pick(16)) {
        case 0:
            return add(value(depth - 1), value(depth - 1));
        case 1:
            return sub(value(depth - 1), value(depth - 1));
        case 2:
            return mul(value(depth - 1), i32(small()));
        case 3: {
            int k = small();
            return div(value(depth - 1), i32(k == 0 ? 2 : k));
        }
        case 4:
            return min(value(depth - 1), value(depth - 1));
        case 5:
            return max(value(depth - 1), value(depth - 1));
        case 6:
            return likely_(value(depth - 1));
        case 7:
            return mod(value(depth - 1), i32(3));
        case 8:
            return select(lt(value(0), value(0)), value(depth - 1), value(depth - 1));
        case 9:
        case 10:
            return add(value(depth - 1), leaf());
        case 11:
            return sub(leaf(), value(depth - 1));
        default:
            return leaf();
        }
    }
    Expr cond(int depth) {
        if (depth > 0) {
            switch (pick(6)) {
            case 0:
                return land(cond(depth - 1), cond(depth - 1));
            case 1:
                return lor(cond(depth - 1), cond(depth - 1));
            case 2:
                return lnot(cond(depth - 1));
            default:
                break;
            }
        }
        Expr p = value(2), q = value(2);
        switch (pick(6)) {
        case 0:
            return lt(p, q);
        case 1:
            return le(p, q);
        case 2:
            return gt(p, q);
        case 3:
            return ge(p, q);
        case 4:
            return eq(p, q);
        default:
            return ne(p, q);
        }
    }
};

} // namespace

TEST(Solve, RandomConditionsAreSound) {
    Gen g(1234);
    int solved = 0, total = 400, nonempty_points = 0;
    for (int n = 0; n < total; n++) {
        Expr cond = g.cond(2);
        Interval i = solve_for_inner_interval(cond, "x");
        if (i.is_empty()) continue;
        solved++;
        for (int av = -4; av <= 4; av += 2) {
            for (int bv = -5; bv <= 5; bv += 5) {
                std::map<std::string, int64_t> env{{"a", av}, {"b", bv}};
                Ends e = eval_ends(i, env);
                for (int xv = -25; xv <= 25; xv++) {
                    if (xv < e.lo || xv > e.hi) continue;
                    nonempty_points++;
                    ASSERT_TRUE(holds(cond, xv, env))
                        << cond << " solved to " << i << " is false at x = " << xv << ", a = " << av
                        << ", b = " << bv;
                }
            }
        }
    }
    // The generator mostly builds forms the solver handles: it must answer most of them, and
    // its answers must contain points (an always-empty answer would be trivially sound).
    EXPECT_GT(solved, total / 2) << solved << " of " << total;
    std::cout << "solved " << solved << " of " << total << ", " << nonempty_points
              << " points checked\n";
    EXPECT_GT(nonempty_points, total * 60) << nonempty_points;
}
