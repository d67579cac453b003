// Bounds inference cases real programs hit (built against Loom and, as
// compat_halide_bounds_halide, against Halide 21): an index divided by a Param of either sign
// needs the region between the quotients of its ends, known only at run time; an index read
// from a Func is bounded by the values the Func computes.
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

// An index read from a Func is bounded by the values that Func's definition can take (Halide's
// function value bounds), through chains of such Funcs; a Func with an update is not bounded
// by its pure definition, so reading through it is refused.
TEST(HalideBounds, IndicesReadFromBoundedFuncs) {
    ImageParam in(Int(32), 1, "gathered_input");
    Var x("x");
    Func idx("clamped_index"), idx2("derived_index"), out("gathered");
    idx(x) = clamp(x * 3, 0, 10);
    idx2(x) = idx(x) / 2 + 3; // [3, 8]
    out(x) = in(idx(x)) + 100 * in(idx2(x));
    idx.compute_root();
    idx2.compute_root();
    out.infer_input_bounds({20});
    Buffer<int> inferred = in.get();
    EXPECT_EQ(inferred.min(0), 0);
    EXPECT_EQ(inferred.extent(0), 11);

    Buffer<int> input(11);
    for (int i = 0; i < 11; i++) input(i) = i * i;
    in.set(input);
    Buffer<int> result = out.realize({20});
    for (int i = 0; i < 20; i++) {
        int a = std::min(std::max(i * 3, 0), 10), b = a / 2 + 3;
        ASSERT_EQ(result(i), a * a + 100 * b * b) << i;
    }

    ImageParam in2(Int(32), 1, "updated_index_input");
    Func updated("updated_index"), through("read_through_update");
    updated(x) = clamp(x, 0, 5);
    updated(x) += 1;
    updated.compute_root();
    through(x) = in2(updated(x));
    bool refused = false;
    try {
        through.infer_input_bounds({20});
    } catch (const CompileError &) {
        refused = true;
    }
    EXPECT_TRUE(refused);
}
