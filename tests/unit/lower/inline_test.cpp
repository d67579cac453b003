// Inlining of pure Funcs and the lowering of random(): IR before -> IR expected.
#include "lower_test_util.h"

#include "common/expr_eval.h"
#include "lower/inline.h"

#include <set>

using namespace loom;
using namespace loom::test;

TEST(Inline, SubstitutesCheapArguments) {
    Function f = make_func("f", {"x"}, {ivar("x") * 2});
    Expr ox = ivar("out.s0.x");
    Stmt before =
        Provide::make("out", {f.make_call({ox + 1}) + f.make_call({ox})}, {ox}, const_true());
    Stmt expected = Provide::make("out", {(ox + 1) * 2 + ox * 2}, {ox}, const_true());
    EXPECT_IR_EQ(inline_function(before, f), expected);
}

TEST(Inline, NestedCallsInArguments) {
    // f(f(x)) -> the inner call is inlined too.
    Function f = make_func("f", {"x"}, {ivar("x") + 3});
    Expr ox = ivar("o");
    Expr before = f.make_call({f.make_call({ox})});
    Expr after = inline_function(before, f);
    // The argument (o + 3) is cheap (variable plus constant): substituted.
    EXPECT_IR_EQ(after, (ox + 3) + 3);
}

TEST(Inline, BindsExpensiveArgumentsOnce) {
    Function f = make_func("f", {"x"}, {ivar("x") * ivar("x")});
    Expr o = ivar("o");
    Expr after = inline_function(f.make_call({o * o}), f);
    const Let *let = after.as<Let>();
    ASSERT_TRUE(let) << after;
    EXPECT_IR_EQ(let->value, o * o);
    Expr v = Variable::make(Int(32), let->name);
    EXPECT_IR_EQ(let->body, v * v);
}

TEST(Inline, TupleElementsAndTwoDimensions) {
    Function f = make_func("f", {"x", "y"}, {ivar("x") - ivar("y"), cast<float>(ivar("y"))});
    Expr a = ivar("a"), b = ivar("b");
    EXPECT_IR_EQ(inline_function(f.make_call({a, b}, 0), f), a - b);
    EXPECT_IR_EQ(inline_function(f.make_call({a, b + 1}, 1), f), cast<float>(b + 1));
}

TEST(Inline, OtherFuncsUntouched) {
    Function f = make_func("f", {"x"}, {ivar("x") * 2});
    Function g = make_func("g", {"x"}, {ivar("x") + 1});
    Expr call_g = g.make_call({ivar("o")});
    Expr after = inline_function(call_g + f.make_call({ivar("o")}), f);
    EXPECT_IR_EQ(after, call_g + ivar("o") * 2);
}

TEST(Inline, FoldsOffsetsInCoordinatesOfCalls) {
    // f(x) = g(x + 1): inlined at o - 1, the call is g(o), not g((o - 1) + 1).
    Function g = make_func("g", {"x"}, {ivar("x")});
    Function f = make_func("f", {"x"}, {g.make_call({ivar("x") + 1})});
    Expr o = ivar("o");
    EXPECT_IR_EQ(inline_function(f.make_call({o - 1}), f), g.make_call({o}));
}

TEST(Inline, RepeatedPointsAreNamedOnce) {
    // f(x) = g(x) * g(x) read twice at one point: g(o) and f's body appear once each.
    Function g = make_func("g", {"x"}, {ivar("x")});
    Function f = make_func("f", {"x"}, {g.make_call({ivar("x")}) * g.make_call({ivar("x")})});
    Expr o = ivar("o");
    Expr fo = f.make_call({o});
    Stmt before = Provide::make("out", {select(fo > 0, fo, 0 - fo)}, {o}, const_true());
    Stmt after = inline_function(before, f);
    EXPECT_EQ(count_nodes<Call>(after), 1) << after;
    EXPECT_EQ(count_nodes<Mul>(after), 1) << after;
    // Calls at distinct points are left as they are.
    Stmt distinct =
        Provide::make("out", {f.make_call({o}) + f.make_call({o + 1})}, {o}, const_true());
    EXPECT_EQ(count_nodes<Let>(inline_function(distinct, f)), 0);
}

namespace {

double eval_random(const Expr &lowered, int x, int y) {
    ExprEval ev;
    ev.bind("x", ExprEval::scalar_int(Int(32), x));
    ev.bind("y", ExprEval::scalar_int(Int(32), y));
    Value v = ev.eval(lowered);
    return v.lanes[0].f;
}

} // namespace

TEST(LowerRandom, DeterministicUniformAndCoordinateDependent) {
    Expr r = random_float();
    Expr x = ivar("x"), y = ivar("y");
    Expr lowered = lower_random(r, {x, y});
    // No random intrinsic is left.
    bool has_random = false;
    visit_exprs(lowered, [&](const Expr &e) {
        const Call *c = e.as<Call>();
        if (c && c->is_intrinsic(Call::random)) has_random = true;
        return true;
    });
    EXPECT_FALSE(has_random);
    double sum = 0;
    std::set<double> distinct;
    const int n = 40;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double v = eval_random(lowered, i, j);
            ASSERT_GE(v, 0.0);
            ASSERT_LT(v, 1.0);
            sum += v;
            distinct.insert(v);
            // Same point, same value.
            ASSERT_EQ(v, eval_random(lowered, i, j));
        }
    EXPECT_NEAR(sum / (n * n), 0.5, 0.05);
    EXPECT_GT(distinct.size(), (size_t)(n * n * 0.99));
    // A different call site (a different id) gives a different stream.
    Expr other = lower_random(random_float(), {x, y});
    int same = 0;
    for (int i = 0; i < 50; i++) same += eval_random(lowered, i, 0) == eval_random(other, i, 0);
    EXPECT_LT(same, 3);
}
