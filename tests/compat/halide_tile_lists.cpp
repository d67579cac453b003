// tile() over lists of loops (built against Loom and, as compat_halide_tile_lists_halide,
// against Halide 21): any number of dimensions split at once, with one tail strategy or one per
// loop, on pure and update stages; the result is the unscheduled pipeline's.
#include "Halide.h"

#include <gtest/gtest.h>

using namespace Halide;

namespace {

Func volume(const std::string &name) {
    Var x("x"), y("y"), z("z");
    Func f(name);
    f(x, y, z) = x * 7 + y * 3 - z * 11 + (x * y) % 5;
    return f;
}

void expect_equal_volumes(const Buffer<int> &a, const Buffer<int> &b) {
    ASSERT_EQ(a.width(), b.width());
    for (int k = 0; k < a.channels(); k++) {
        for (int j = 0; j < a.height(); j++) {
            for (int i = 0; i < a.width(); i++) {
                ASSERT_EQ(a(i, j, k), b(i, j, k)) << i << ", " << j << ", " << k;
            }
        }
    }
}

} // namespace

TEST(HalideTileLists, ThreeDimensionsAtOnce) {
    Buffer<int> want = volume("reference").realize({19, 10, 7});
    Var x("x"), y("y"), z("z"), xo("xo"), yo("yo"), zo("zo"), xi("xi"), yi("yi"), zi("zi");

    Func a = volume("a");
    a.tile({x, y, z}, {xo, yo, zo}, {xi, yi, zi}, {4, 3, 2}, TailStrategy::GuardWithIf);
    expect_equal_volumes(a.realize({19, 10, 7}), want);

    Func b = volume("b");
    b.tile({x, y, z}, {xo, yo, zo}, {xi, yi, zi}, {8, 4, 2},
           {TailStrategy::ShiftInwards, TailStrategy::GuardWithIf, TailStrategy::GuardWithIf})
        .vectorize(xi);
    expect_equal_volumes(b.realize({19, 10, 7}), want);

    // The outer loops keep the names of the tiled ones.
    Func c = volume("c");
    c.tile({x, y}, {xi, yi}, {5, 5}).parallel(y);
    expect_equal_volumes(c.realize({19, 10, 7}), want);
}

TEST(HalideTileLists, UpdateStage) {
    Var x("x"), y("y"), xi("xi"), yi("yi");
    Func f("f");
    f(x, y) = x + y;
    f(x, y) = f(x, y) * 3 + x;
    f.update().tile({x, y}, {xi, yi}, {4, 4}, TailStrategy::GuardWithIf);
    Buffer<int> out = f.realize({10, 9});
    for (int j = 0; j < 9; j++) {
        for (int i = 0; i < 10; i++) ASSERT_EQ(out(i, j), (i + j) * 3 + i);
    }
}
