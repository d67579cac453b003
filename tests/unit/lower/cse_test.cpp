// Common-subexpression elimination: repeated subexpressions become one Let each, cheap ones
// and side-effecting calls are left alone, and the value is unchanged (reference evaluator).
#include "simplify/cse.h"

#include "common/expr_eval.h"
#include "lower_test_util.h"

namespace loom {
namespace test {
namespace {

int64_t eval_int(const Expr &e, int64_t a, int64_t b) {
    ExprEval ev;
    ev.bind("a", ExprEval::scalar_int(Int(32), a));
    ev.bind("b", ExprEval::scalar_int(Int(32), b));
    return ev.eval(e).as_int();
}

TEST(CSE, RepeatedSumBecomesOneLet) {
    Expr a = ivar("a"), b = ivar("b");
    Expr e = (a + b) * (a + b);
    Expr r = common_subexpression_elimination(e);
    ASSERT_EQ(count_nodes<Let>(r), 1) << r;
    const Let *l = r.as<Let>();
    ASSERT_NE(l, nullptr) << r;
    EXPECT_IR_EQ(l->value, a + b);
    Expr t = Variable::make(Int(32), l->name);
    EXPECT_IR_EQ(l->body, t * t);
    for (int x : {-3, 0, 7})
        for (int y : {2, 11}) EXPECT_EQ(eval_int(r, x, y), eval_int(e, x, y));
}

TEST(CSE, NestedRepeatsGiveNestedLets) {
    Expr a = ivar("a"), b = ivar("b");
    Expr s = a * b;
    Expr u = (s - b) / 3;
    Expr e = max(u, s) + min(u, s) * (s - b);
    Expr r = common_subexpression_elimination(e);
    // a*b, (a*b - b) and its quotient each occur more than once.
    EXPECT_EQ(count_nodes<Let>(r), 3) << r;
    for (int x : {-5, 1, 9})
        for (int y : {-2, 4}) EXPECT_EQ(eval_int(r, x, y), eval_int(e, x, y)) << r;
}

TEST(CSE, TrivialExpressionsStay) {
    Expr a = ivar("a");
    // Variables, constants and x + constant are not worth a name.
    Expr e = (a + 1) * (a + 1) + a * a;
    Expr r = common_subexpression_elimination(e);
    // Only a*a... which occurs once; a + 1 is cheap.
    EXPECT_EQ(count_nodes<Let>(r), 0) << r;
    EXPECT_TRUE(equal(r, e));
}

TEST(CSE, RampIndicesStayRampsWithTheirBaseLifted) {
    Expr a = ivar("a"), b = ivar("b");
    // buf[ramp(a * b, 1, 8)] + other[ramp(a * b, 1, 8)]: code generation loads densely only
    // from a Ramp index, so the ramp stays in both loads; the base a * b is computed once.
    Expr index = Ramp::make(a * b, 1, 8);
    Expr e = Load::make(Float(32, 8), "buf", index, const_true(8)) +
             Load::make(Float(32, 8), "other", index, const_true(8));
    Expr r = common_subexpression_elimination(e);
    ASSERT_EQ(count_nodes<Let>(r), 1) << r;
    const Let *l = r.as<Let>();
    EXPECT_IR_EQ(l->value, a * b);
    EXPECT_EQ(count_nodes<Ramp>(r), 2) << r;
}

TEST(CSE, SideEffectingCallsAreNotMerged) {
    Expr a = ivar("a");
    Expr call = Call::make(Int(32), "side_effect", {a}, Call::Extern);
    Expr e = call * a + call * a;
    Expr r = common_subexpression_elimination(e);
    EXPECT_EQ(count_nodes<Let>(r), 0) << r;
    // A pure extern call is merged.
    Expr pure = Call::make(Int(32), "pure_fn", {a}, Call::PureExtern);
    Expr e2 = (pure * a) + (pure * a);
    EXPECT_EQ(count_nodes<Let>(common_subexpression_elimination(e2)), 1);
}

TEST(CSE, RepeatsInsideALetValueAreEliminated) {
    Expr a = ivar("a"), b = ivar("b");
    Expr t = Variable::make(Int(32), "t");
    Expr e = Let::make("t", (a * b) * (a * b), t + t * b);
    Expr r = common_subexpression_elimination(e);
    const Let *l = r.as<Let>();
    ASSERT_NE(l, nullptr) << r;
    // a * b is computed once, inside the value.
    EXPECT_EQ(count_nodes<Mul>(l->value), 2) << r;
    for (int x : {-3, 0, 7})
        for (int y : {2, 11}) EXPECT_EQ(eval_int(r, x, y), eval_int(e, x, y));
}

TEST(CSE, StmtVersionRewritesEachExpr) {
    Expr a = ivar("a"), b = ivar("b");
    Stmt s = Store::make("buf", (a * b) * (a * b), (a - b) * (a - b), Parameter(), const_true());
    Stmt r = common_subexpression_elimination(s);
    const Store *st = r.as<Store>();
    ASSERT_NE(st, nullptr);
    EXPECT_EQ(count_nodes<Let>(st->value), 1);
    EXPECT_EQ(count_nodes<Let>(st->index), 1);
}

} // namespace
} // namespace test
} // namespace loom
