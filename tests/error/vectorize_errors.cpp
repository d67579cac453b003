// Errors of vectorize() and unroll(): a loop whose extent is not a compile-time constant, and a
// non-constant factor; each names the Func and the loop and says what would be legal.
#include <loom/loom.h>

#include "common/expect_error.h"

#include <gtest/gtest.h>

using namespace loom;
using loom_test::expect_error;

TEST(VectorizeErrors, WholeLoopOfUnknownExtent) {
    Var x("x");
    Func f("f");
    f(x) = x * 2;
    f.vectorize(x);
    expect_error([&] { f.realize({16}); }, {"Can only vectorize a loop of constant extent",
                                            "x of f", "vectorize(x, factor)"});
}

TEST(VectorizeErrors, WholeLoopOfConstantExtentIsFine) {
    Var x("x"), xo("xo"), xi("xi");
    Func f("f");
    f(x) = x * 2;
    f.split(x, xo, xi, 8, TailStrategy::RoundUp).vectorize(xi);
    Buffer<int32_t> out = f.realize({16});
    for (int i = 0; i < 16; i++) EXPECT_EQ(out(i), 2 * i);
}

TEST(VectorizeErrors, UnrollOfUnknownExtent) {
    Var x("x"), y("y");
    Func g("g");
    g(x, y) = x + y;
    g.unroll(y);
    expect_error(
        [&] {
            g.realize({4, 4});
        },
        {"Can only unroll a loop of constant extent", "y of g", "unroll(x, factor)", "bound()"});
}

TEST(VectorizeErrors, NonConstantFactor) {
    Var x("x");
    Func f("f");
    f(x) = x;
    Param<int> k("k");
    expect_error([&] { f.vectorize(x, k); }, {"f", "x", "constant"});
    expect_error([&] { f.unroll(x, k); }, {"f", "x", "constant"});
}
