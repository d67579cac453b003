// propagate_adjoints on the basic pipelines: pure definitions, a chain of Funcs, the three
// entry points and the Derivative lookups; each gradient checked against finite differences.
#include <loom/loom.h>

#include "common/finite_difference.h"

#include <gtest/gtest.h>

using namespace loom;
using namespace loom_test;

TEST(AutodiffBasic, PointwiseChain) {
    Buffer<double> in = random_buffer<double>({8}, 1);
    in.set_name("in");
    Var x("x");
    Func f("f"), g("g");
    f(x) = in(x)*in(x) + 3.0 * in(x);
    g(x) = sin(f(x)) + f(x) / (in(x) + 2.0);
    Func loss = weighted_loss(g, {8});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
    EXPECT_TRUE(d(f).defined());
    EXPECT_TRUE(d("in").defined());
    EXPECT_FALSE(d("nothing").defined());
}

TEST(AutodiffBasic, Blur) {
    Buffer<double> in = random_buffer<double>({10}, 2);
    in.set_name("in");
    Var x("x");
    Func b("b");
    b(x) = in(x) + 2.0 * in(x + 1) + 3.0 * in(x + 2);
    Func loss = weighted_loss(b, {8});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
}
