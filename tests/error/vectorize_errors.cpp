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

TEST(VectorizeWarnings, LoopThatStaysScalarIsReported) {
    // An atomic histogram vectorized over its RDom: lanes may hit the same bin, and each lane
    // reads the bin it writes, so the loop stays a serial loop over the lanes. The result is
    // still right, and the user learns which loop and why.
    Buffer<uint8_t> in(64);
    for (int i = 0; i < 64; i++) in(i) = (uint8_t)((i * 7) % 16);
    Var x("x");
    RDom r(0, 64, "r");
    Func hist("hist");
    hist(x) = 0;
    hist(clamp(cast<int>(in(r)), 0, 15)) += 1;
    hist.update().atomic().vectorize(r, 8);
    testing::internal::CaptureStderr();
    Buffer<int32_t> out = hist.realize({16});
    std::string err = testing::internal::GetCapturedStderr();
    std::vector<int> want(16, 0);
    for (int i = 0; i < 64; i++) want[in(i)]++;
    for (int b = 0; b < 16; b++) EXPECT_EQ(out(b), want[b]) << b;
    EXPECT_NE(err.find("Warning: The loop over "), std::string::npos) << err;
    EXPECT_NE(err.find(" of hist is scheduled to be vectorized, but stays scalar: "),
              std::string::npos)
        << err;
    EXPECT_NE(err.find("read-modify-write"), std::string::npos) << err;
}
