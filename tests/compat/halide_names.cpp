// Func names as Halide 21 gives them (built against Loom and, as compat_halide_names_halide,
// against Halide): a name used before gets a suffix, so a helper that names its Func and is
// called twice in one pipeline makes two Funcs, computed separately.
#include "Halide.h"

#include <gtest/gtest.h>

using namespace Halide;

namespace {

Var x("x");

/// A 3-tap box filter of `in`, in a Func the helper names.
Func box3(Func in) {
    Func b("box_of_a_helper");
    b(x) = (in(x - 1) + in(x) + in(x + 1)) / 3;
    return b;
}

} // namespace

TEST(HalideNames, AReusedNameGetsASuffix) {
    Func a("name_reused"), b("name_reused"), c("name_reused");
    EXPECT_EQ(a.name(), "name_reused");
    EXPECT_EQ(b.name(), "name_reused$1");
    EXPECT_EQ(c.name(), "name_reused$2");
}

TEST(HalideNames, AHelperCalledTwiceInOnePipeline) {
    Func in("in");
    in(x) = x * x % 17;
    Func once = box3(in);
    Func twice = box3(once);
    EXPECT_NE(once.name(), twice.name());
    once.compute_root();
    twice.compute_root().vectorize(x, 4);
    Func out("out");
    out(x) = twice(x) * 2 + once(x);
    Buffer<int> result = out.realize({20});
    auto input = [](int i) { return i * i % 17; };
    auto first = [&](int i) { return (input(i - 1) + input(i) + input(i + 1)) / 3; };
    for (int i = 0; i < 20; i++) {
        int second = (first(i - 1) + first(i) + first(i + 1)) / 3;
        EXPECT_EQ(result(i), second * 2 + first(i)) << i;
    }
}
