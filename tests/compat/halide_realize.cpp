// realize(sizes) computes what the schedule needs (built against Loom and, as
// compat_halide_realize_halide, against Halide 21): a bounds query first, outputs allocated with
// the queried shape, then cropped back to the requested size. Schedules that round a loop up
// (an update vectorized past the width, TailStrategy::RoundUp) therefore run on any size.
#include "Halide.h"

#include <gtest/gtest.h>

using namespace Halide;

TEST(HalideRealize, UpdateVectorizedPastTheWidth) {
    Func acc("acc");
    Var x("x");
    acc(x) = x;
    acc(x) += 2 * x;
    acc.update().vectorize(x, 8);
    Buffer<int> out = acc.realize({33});
    ASSERT_EQ(out.dimensions(), 1);
    EXPECT_EQ(out.dim(0).min(), 0);
    EXPECT_EQ(out.width(), 33);
    for (int i = 0; i < 33; i++) EXPECT_EQ(out(i), 3 * i) << i;
}

TEST(HalideRealize, RoundUpInTwoDimensionsAndTuples) {
    Func f("f");
    Var x("x"), y("y"), xo("xo"), xi("xi"), yo("yo"), yi("yi");
    f(x, y) = Tuple(x + 10 * y, cast<float>(x - y));
    f.tile(x, y, xo, yo, xi, yi, 8, 4, TailStrategy::RoundUp).vectorize(xi);
    Realization r = f.realize({13, 6});
    Buffer<int> a = r[0];
    Buffer<float> b = r[1];
    EXPECT_EQ(a.width(), 13);
    EXPECT_EQ(a.height(), 6);
    EXPECT_EQ(b.width(), 13);
    EXPECT_EQ(b.height(), 6);
    for (int j = 0; j < 6; j++) {
        for (int i = 0; i < 13; i++) {
            EXPECT_EQ(a(i, j), i + 10 * j);
            EXPECT_EQ(b(i, j), (float)(i - j));
        }
    }
}

TEST(HalideRealize, RealizeIntoAGivenBufferIsNotRounded) {
    // Into a buffer the caller made, the schedule must fit: Halide reports the overrun.
    Func acc("acc_given");
    Var x("x");
    acc(x) = x;
    acc(x) += 1;
    acc.update().vectorize(x, 8);
    Buffer<int> out(33);
    EXPECT_THROW(acc.realize(out), Halide::RuntimeError);
    Buffer<int> whole(40);
    acc.realize(whole);
    for (int i = 0; i < 40; i++) EXPECT_EQ(whole(i), i + 1);
}

// Loom only: when an output constraint moves the queried region off the request
// (dim(0).set_min(5) for realize({13, 6})), Halide 21 crops its [5, 18) allocation to [0, 13)
// and returns a buffer whose host pointer lies before its memory. Loom allocates the request
// and the pipeline reports the violated constraint.
#ifdef LOOM_COMPAT_HALIDE_H
TEST(HalideRealize, AQueryOffTheRequestIsAConstraintError) {
    Func g("constrained_min");
    Var x("x"), y("y");
    g(x, y) = x + y;
    g.output_buffer().dim(0).set_min(5);
    EXPECT_THROW(g.realize({13, 6}), RuntimeError);
    g.output_buffer().dim(0).set_min(0);
    Buffer<int> c = g.realize({13, 6});
    EXPECT_EQ(c(12, 5), 17);
}
#endif
