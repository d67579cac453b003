// The bilateral grid app (apps/bilateral_grid) against its naive reference, unscheduled and with
// its CPU schedule, plus a check that the schedule shaped the loop nest as written.
#include "Halide.h"

#include "bilateral_grid/bilateral_grid.h"
#include "bilateral_grid/reference.h"

#include "common/loop_nest_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace Halide;

namespace {

/// A deterministic gray test image in [0, 1]: a ramp, hash noise and a bright square (a strong
/// edge, which the filter must preserve), with values exactly 0 and 1 (the end bins).
Buffer<float> make_input(int w, int h) {
    Buffer<float> in(w, h);
    uint32_t state = 777;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            state = state * 1664525u + 1013904223u;
            float noise = (float)(state >> 8) / (float)(1u << 24);
            float v = 0.4f * x / w + 0.2f * y / h + 0.15f * noise;
            if (x >= w / 3 && x < w / 3 + 16 && y >= h / 4 && y < h / 4 + 16) v += 0.45f;
            if (x == 1) v = 0.0f;
            if (y == 2) v = 1.0f;
            in(x, y) = v;
        }
    }
    return in;
}

/// Runs the (already scheduled) pipeline on `in` and compares every value with the reference.
/// The grid's counts are small integers, exact in float; the sums and the interpolation follow
/// the reference's order of operations, so the two differ only where a compiler contracts a
/// multiply and an add into one rounding (a few ulp of the interpolated sums). 1e-5 relative
/// leaves room for that and nothing more: an off-by-one cell or bin moves values by 1e-2 or more.
void check_against_reference(BilateralGridPipeline &p, const Buffer<float> &in, float r_sigma) {
    const int w = in.width(), h = in.height();
    p.input.set(in);
    p.r_sigma.set(r_sigma);
    Buffer<float> out = p.output.realize({w, h});
    std::vector<float> expected((size_t)w * h);
    bilateral_grid_reference(in.data(), expected.data(), w, h, r_sigma);
    double worst = 0, smoothed = 0;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            float e = expected[(size_t)y * w + x];
            float got = out(x, y);
            double err = std::fabs((double)got - e) / std::max(1.0, std::fabs((double)e));
            worst = std::max(worst, err);
            ASSERT_LE(err, 1e-5) << "at " << x << ", " << y << ": " << got << " vs " << e;
            smoothed = std::max(smoothed, (double)std::fabs(got - in(x, y)));
        }
    }
    // Not vacuous: the filter removed the noise somewhere.
    EXPECT_GT(smoothed, 0.03);
    std::cout << "max relative error " << worst << "\n";
}

} // namespace

TEST(BilateralGridApp, UnscheduledMatchesReference) {
    BilateralGridPipeline p;
    p.schedule_default();
    check_against_reference(p, make_input(64, 48), 0.1f);
}

TEST(BilateralGridApp, CpuScheduleMatchesReference) {
    BilateralGridPipeline p;
    p.schedule_cpu();
    check_against_reference(p, make_input(64, 48), 0.1f);
}

TEST(BilateralGridApp, CpuScheduleOddSizeAndSigma) {
    // 67 x 45: neither a multiple of the cell size nor of the vector width; 0.15 wide bins.
    BilateralGridPipeline p;
    p.schedule_cpu();
    check_against_reference(p, make_input(67, 45), 0.15f);
}

TEST(BilateralGridApp, CpuScheduleLoopNest) {
    BilateralGridPipeline p;
    p.schedule_cpu();
    std::string nest = loop_nest_of(p.output);
    // The splat per row of cells inside the parallel z blur; the x and y blurs at root,
    // parallel over z and vectorized with the channel unrolled; the slice parallel, vectorized.
    std::vector<std::string> in_order = {"produce blurz:",     "parallel y:",
                                         "produce histogram:", "for r",
                                         "unrolled c",         "consume histogram:",
                                         "vectorized x",       "produce blurx:",
                                         "parallel z:",        "vectorized x",
                                         "produce blury:",     "parallel z:",
                                         "vectorized x",       "produce bilateral_grid:",
                                         "parallel y:",        "vectorized x"};
    ASSERT_TRUE(appears_in_order(nest, in_order));
    // The slice's interpolation is inlined into the output.
    EXPECT_EQ(nest.find("produce interpolated"), std::string::npos) << nest;
}
