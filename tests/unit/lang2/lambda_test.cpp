// lambda: the Funcs it defines; evaluate: its type check (the JIT run itself is covered by the
// correctness suite).
#include <loom/func.h>
#include <loom/ir_operator.h>
#include <loom/lambda.h>
#include <loom/var.h>

#include "test_eval.h"

#include <gtest/gtest.h>

using namespace loom;
using lang2_test::Evaluator;

namespace {

int64_t value_at(const Func &f, const std::vector<int> &coords) {
    internal::Function fn = f.function();
    Evaluator ev;
    for (size_t i = 0; i < coords.size(); i++) ev.env[fn.args()[i]] = coords[i];
    return ev.eval(fn.definition().values[0]);
}

} // namespace

TEST(Lambda, DefinesAFuncOverTheGivenVars) {
    Var x("x"), y("y"), z("z"), w("w"), v("v");
    Func f1 = lambda(x, x * 3);
    Func f2 = lambda(x, y, x * y + 1);
    Func f3 = lambda(x, y, z, x + y + z);
    Func f4 = lambda(x, y, z, w, x - w);
    Func f5 = lambda(x, y, z, w, v, v * 2);
    EXPECT_EQ(f1.dimensions(), 1);
    EXPECT_EQ(f2.dimensions(), 2);
    EXPECT_EQ(f3.dimensions(), 3);
    EXPECT_EQ(f4.dimensions(), 4);
    EXPECT_EQ(f5.dimensions(), 5);
    EXPECT_EQ(f2.args()[0].name(), "x");
    EXPECT_EQ(f2.args()[1].name(), "y");
    EXPECT_EQ(value_at(f1, {5}), 15);
    EXPECT_EQ(value_at(f2, {3, 4}), 13);
    EXPECT_EQ(value_at(f3, {1, 2, 3}), 6);
    EXPECT_EQ(value_at(f4, {9, 0, 0, 4}), 5);
    EXPECT_EQ(value_at(f5, {0, 0, 0, 0, 21}), 42);
    // Names are "lambda_<n>" and distinct.
    EXPECT_EQ(f1.name().substr(0, 7), "lambda_");
    EXPECT_NE(f1.name(), f2.name());
    // Argument order is the order given, not the order of use.
    Func swapped = lambda(y, x, x * 10 + y);
    EXPECT_EQ(value_at(swapped, {1, 2}), 21);
}

TEST(Lambda, ExprOnlyFormsUseImplicitVars) {
    Func zero_d = lambda(Expr(7));
    EXPECT_EQ(zero_d.dimensions(), 0);
    EXPECT_EQ(value_at(zero_d, {}), 7);
    Func two_d = lambda(_0 * 5 + _1);
    EXPECT_EQ(two_d.dimensions(), 2);
    EXPECT_EQ(value_at(two_d, {3, 4}), 19);
}

TEST(Evaluate, TypeMismatchIsACompileError) {
    Var x("x");
    try {
        evaluate<float>(Expr(3) * 7);
        FAIL() << "no error";
    } catch (const CompileError &e) {
        std::string msg = e.what();
        EXPECT_NE(msg.find("int32"), std::string::npos) << msg;
        EXPECT_NE(msg.find("float32"), std::string::npos) << msg;
    }
    EXPECT_THROW(evaluate<int>(Expr()), CompileError);
    EXPECT_THROW(evaluate<uint8_t>(Expr(3)), CompileError);
    int a = 0;
    float b = 0;
    EXPECT_THROW(evaluate(Tuple(Expr(1), Expr(2.0f)), &a, &a), CompileError);
    EXPECT_THROW(evaluate(Tuple(Expr(1), Expr(2.0f)), &a), CompileError);
    (void)b;
}
