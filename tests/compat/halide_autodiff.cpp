// propagate_adjoints through Halide's API (built against Loom and, as
// compat_halide_autodiff_halide, against Halide 21): the three entry points and the Derivative
// lookups on pipelines both differentiate correctly, checked against closed forms, so Loom's
// gradients are Halide's. (Params' adjoints are checked in correctness_autodiff_updates.)
#include "Halide.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace Halide;

namespace {

Buffer<float> ramp_buffer(int n, const char *name, float scale) {
    Buffer<float> b(n);
    b.set_name(name);
    for (int i = 0; i < n; i++) b(i) = scale * std::sin(1.0f + i);
    return b;
}

} // namespace

TEST(HalideAutodiff, BlurWithABufferAdjoint) {
    Buffer<float> in = ramp_buffer(10, "in", 1.0f);
    Var x("x");
    Func blur("blur");
    blur(x) = in(x) + 2.0f * in(x + 1) + in(x + 2) * in(x + 2);
    Buffer<float> adj(8);
    for (int i = 0; i < 8; i++) adj(i) = 0.5f + i;
    Derivative d = propagate_adjoints(blur, adj);
    Buffer<float> g = d(in).realize({10});
    for (int i = 0; i < 10; i++) {
        float want = (i < 8 ? adj(i) : 0.0f) + (i >= 1 && i < 9 ? 2.0f * adj(i - 1) : 0.0f) +
                     (i >= 2 ? 2.0f * in(i)*adj(i - 2) : 0.0f);
        EXPECT_NEAR(g(i), want, 1e-4f) << i;
    }
}

TEST(HalideAutodiff, ScalarLossOverAnRDom) {
    Buffer<float> in = ramp_buffer(6, "in", 1.0f), target = ramp_buffer(6, "target", 0.5f);
    Var x("x");
    Func f("f");
    f(x) = exp(in(x)*0.5f);
    RDom r(0, 6, "r");
    Func loss("loss");
    loss() = 0.0f;
    loss() += pow(f(r) - target(r), 2.0f);
    Derivative d = propagate_adjoints(loss);
    Buffer<float> g = d(in).realize({6});
    Buffer<float> gt = d(target).realize({6});
    for (int i = 0; i < 6; i++) {
        float fi = std::exp(in(i)*0.5f);
        EXPECT_NEAR(g(i), 2.0f * (fi - target(i)) * fi * 0.5f, 1e-4f) << i;
        EXPECT_NEAR(gt(i), -2.0f * (fi - target(i)), 1e-4f) << i;
    }
    EXPECT_TRUE(d(f).defined());
}

TEST(HalideAutodiff, FuncAdjointOverARegion) {
    Buffer<float> in = ramp_buffer(5, "in", 1.0f);
    Param<float> gain("gain", 1.5f);
    Var x("x");
    Func f("f"), ones("ones");
    f(x) = in(x)*gain * gain;
    ones(x) = 1.0f;
    Derivative d = propagate_adjoints(f, ones, {{0, 5}});
    // (d(gain) is not compared: Halide 21's reads `in` beyond the region given.)
    EXPECT_TRUE(d(gain).defined());
    Buffer<float> din = d(in).realize({5});
    for (int i = 0; i < 5; i++) EXPECT_NEAR(din(i), 1.5f * 1.5f, 1e-5f) << i;
}

TEST(HalideAutodiff, TupleValuedFunc) {
    // A Tuple-valued Func's adjoint is a Tuple Func, one element per value.
    Buffer<float> in = ramp_buffer(8, "in", 1.0f);
    Var x("x");
    Func t("pair"), g("g");
    t(x) = Tuple(in(x)*2.0f, in(x) + 1.0f);
    g(x) = t(x)[0] * t(x)[1];
    RDom r(0, 8, "r");
    Func loss("loss");
    loss() = 0.0f;
    loss() += g(r);
    Derivative d = propagate_adjoints(loss);
    ASSERT_EQ(d(t).outputs(), 2);
    Realization dt = d(t).realize({8});
    Buffer<float> dt0 = dt[0], dt1 = dt[1];
    Buffer<float> di = d(in).realize({8});
    for (int i = 0; i < 8; i++) {
        EXPECT_NEAR(dt0(i), in(i) + 1.0f, 1e-5f) << i;
        EXPECT_NEAR(dt1(i), 2.0f * in(i), 1e-5f) << i;
        EXPECT_NEAR(di(i), 2.0f * (in(i) + 1.0f) + 2.0f * in(i), 1e-5f) << i;
    }
}
