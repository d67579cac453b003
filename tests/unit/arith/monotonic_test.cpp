// Monotonicity of integer expressions in one variable: hand cases, and a brute-force check
// that every Increasing / Decreasing / Constant answer holds on random expressions.

#include "common/expr_eval.h"

#include "arith/monotonic.h"
#include "ir/ir_printer.h"

#include <loom/ir_operator.h>

#include <gtest/gtest.h>

#include <random>

using namespace loom;
using namespace loom::internal;
using loom::test::ExprEval;

namespace {

Expr x() { return Variable::make(Int(32), "x"); }
Expr y() { return Variable::make(Int(32), "y"); }

/// A random expression in x and y of at most `depth` levels, of the forms the analysis knows
/// and some it does not.
Expr random_expr(std::mt19937 &rng, int depth) {
    std::uniform_int_distribution<int> pick(0, depth <= 0 ? 2 : 11), small(-3, 3);
    switch (pick(rng)) {
    case 0:
        return x();
    case 1:
        return y();
    case 2:
        return Expr(small(rng));
    case 3:
        return random_expr(rng, depth - 1) + random_expr(rng, depth - 1);
    case 4:
        return random_expr(rng, depth - 1) - random_expr(rng, depth - 1);
    case 5:
        return random_expr(rng, depth - 1) * Expr(small(rng));
    case 6:
        return random_expr(rng, depth - 1) / Expr(small(rng) | 1);
    case 7:
        return min(random_expr(rng, depth - 1), random_expr(rng, depth - 1));
    case 8:
        return max(random_expr(rng, depth - 1), random_expr(rng, depth - 1));
    case 9:
        return select(y() > small(rng), random_expr(rng, depth - 1), random_expr(rng, depth - 1));
    case 10:
        return random_expr(rng, depth - 1) * random_expr(rng, depth - 1);
    default:
        return select(x() > y(), random_expr(rng, depth - 1), Expr(0));
    }
}

int64_t eval_at(const Expr &e, int64_t xv, int64_t yv) {
    ExprEval ev;
    ev.bind("x", ExprEval::scalar_int(Int(32), xv));
    ev.bind("y", ExprEval::scalar_int(Int(32), yv));
    return ev.eval(e).as_int();
}

} // namespace

TEST(Monotonic, HandCases) {
    EXPECT_EQ(is_monotonic(Expr(3) + y(), "x"), Monotonic::Constant);
    EXPECT_EQ(is_monotonic(min(x() * 2, 10) - y(), "x"), Monotonic::Increasing);
    EXPECT_EQ(is_monotonic(min(x() * 2, 10) - y(), "y"), Monotonic::Decreasing);
    EXPECT_EQ(is_monotonic(x() * -3 + 1, "x"), Monotonic::Decreasing);
    EXPECT_EQ(is_monotonic(x() / 4, "x"), Monotonic::Increasing);
    EXPECT_EQ(is_monotonic(x() * 0, "x"), Monotonic::Constant);
    EXPECT_EQ(is_monotonic(x() - x() * 2 + x() * x(), "x"), Monotonic::Unknown);
    EXPECT_EQ(is_monotonic(select(x() > 0, x(), -x()), "x"), Monotonic::Unknown);
    EXPECT_EQ(is_monotonic(Let::make("t", x() + 1, Variable::make(Int(32), "t") * 2), "x"),
              Monotonic::Increasing);
    EXPECT_EQ(is_monotonic(likely(x() - 1), "x"), Monotonic::Increasing);
}

TEST(Monotonic, AnswersHoldOnRandomExpressions) {
    std::mt19937 rng(20261128);
    int decided = 0;
    for (int i = 0; i < 400; i++) {
        Expr e = random_expr(rng, 3);
        Monotonic m = is_monotonic(e, "x");
        if (m == Monotonic::Unknown) continue;
        decided++;
        for (int64_t yv : {-5, 0, 7}) {
            for (int64_t xv = -20; xv < 20; xv++) {
                int64_t a = eval_at(e, xv, yv), b = eval_at(e, xv + 1, yv);
                if (m == Monotonic::Constant) ASSERT_EQ(a, b) << e;
                if (m == Monotonic::Increasing) ASSERT_LE(a, b) << e;
                if (m == Monotonic::Decreasing) ASSERT_GE(a, b) << e;
            }
        }
    }
    EXPECT_GT(decided, 100);
}
