// Bounds inference cases real programs hit (built against Loom and, as
// compat_halide_bounds_halide, against Halide 21): an index divided by a Param of either sign
// needs the region between the quotients of its ends, known only at run time.
#include "Halide.h"

#include <gtest/gtest.h>

using namespace Halide;

namespace {

int floor_div(int a, int b) {
    int q = a / b, r = a % b;
    return r < 0 ? (b > 0 ? q - 1 : q + 1) : q;
}

} // namespace

TEST(HalideBounds, IndexDividedByAParam) {
    ImageParam in(Int(32), 1, "divided_input");
    Param<int> k("divisor");
    Var x("x");
    Func f("divided");
    f(x) = in(x / k) * 2;
    for (int divisor : {3, 1, -2, 7}) {
        k.set(divisor);
        // Exactly the region [min(0 / k, 59 / k), max(0 / k, 59 / k)] is provided.
        int lo = std::min(floor_div(0, divisor), floor_div(59, divisor));
        int hi = std::max(floor_div(0, divisor), floor_div(59, divisor));
        Buffer<int> input(hi - lo + 1);
        input.set_min(lo);
        for (int i = lo; i <= hi; i++) input(i) = i * 10 + 1;
        in.set(input);
        Buffer<int> out = f.realize({60});
        for (int i = 0; i < 60; i++) {
            ASSERT_EQ(out(i), (floor_div(i, divisor) * 10 + 1) * 2) << i << " / " << divisor;
        }
    }
}
