// compute_at(f, y) for a Func f with update definitions (built against Loom and, as
// compat_halide_compute_at_stages_halide, against Halide 21): a level that names no stage means
// every stage of f that calls the producer, each computing its own copy in its loop over y, as
// Halide does. Each result is checked against plain C++ loops.
#include "Halide.h"

#include <gtest/gtest.h>

#include <string>

using namespace Halide;

namespace {

const int W = 37, H = 13;

int g_value(int x, int y) { return x * 3 + y * 5 - 7; }

/// f(x, y) = first(x, y), then f(x, y) += second(x, y), checked against the values computed
/// here.
void expect_values(Func f, int (*first)(int, int), int (*second)(int, int)) {
    Buffer<int> out = f.realize({W, H});
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            ASSERT_EQ(out(x, y), first(x, y) + second(x, y)) << "at " << x << ", " << y;
        }
    }
}

} // namespace

TEST(ComputeAtStages, ProducerUsedByThePureStageOnly) {
    Var x("x"), y("y");
    Func g("g"), f("f");
    g(x, y) = x * 3 + y * 5 - 7;
    f(x, y) = g(x, y) + g(x + 1, y);
    f(x, y) += 2;
    g.compute_at(f, y).vectorize(x, 4);
    f.vectorize(x, 4);
    expect_values(
        f, [](int x, int y) { return g_value(x, y) + g_value(x + 1, y); },
        [](int, int) { return 2; });
}

TEST(ComputeAtStages, ProducerUsedByTheUpdateOnly) {
    Var x("x"), y("y");
    Func g("g"), f("f");
    g(x, y) = x * 3 + y * 5 - 7;
    f(x, y) = x;
    f(x, y) += g(x, y - 1) * 2;
    g.compute_at(f, y);
    f.update().parallel(y);
    expect_values(
        f, [](int x, int) { return x; }, [](int x, int y) { return g_value(x, y - 1) * 2; });
}

TEST(ComputeAtStages, ProducerUsedByEveryStage) {
    // Each stage computes g in its own loop over y, over the region that stage reads.
    Var x("x"), y("y");
    Func g("g"), f("f");
    g(x, y) = x * 3 + y * 5 - 7;
    f(x, y) = g(x, y);
    f(x, y) += g(x + 2, y + 1);
    g.compute_at(f, y);
    f.parallel(y);
    expect_values(
        f, [](int x, int y) { return g_value(x, y); },
        [](int x, int y) { return g_value(x + 2, y + 1); });
}
