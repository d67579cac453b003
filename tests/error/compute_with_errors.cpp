// compute_with is not implemented yet: using it is a CompileError that says so and names the
// stages, instead of a schedule silently ignored.
#include <loom/loom.h>

#include "common/expect_error.h"

#include <gtest/gtest.h>

using namespace loom;
using loom_test::expect_error;

TEST(ComputeWithErrors, NotSupportedYet) {
    Var x("x"), y("y");
    Func f("cw_f"), g("cw_g");
    f(x, y) = x;
    g(x, y) = y;
    expect_error([&] { g.compute_with(f, y); }, {"cw_g", "cw_f", "compute_with", "not supported"});
    expect_error([&] { g.compute_with(LoopLevel(f, x), LoopAlignStrategy::AlignStart); },
                 {"cw_g", "compute_with", "not supported"});
}
