// Histogram equalization (apps/hist_eq) against its naive reference, with the paper's schedule,
// the CPU schedule and everything inlined but the reductions, plus a check that the CPU schedule
// shaped the loop nest. Integer arithmetic: the comparison is bit-exact.
#include "Halide.h"

#include "hist_eq/hist_eq.h"
#include "hist_eq/reference.h"

#include "common/loop_nest_text.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace Halide;

namespace {

/// A low-contrast image (values 60..139, unevenly distributed) that equalization must spread.
Buffer<uint8_t> make_input(int w, int h) {
    Buffer<uint8_t> in(w, h);
    uint32_t state = 99;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            state = state * 1664525u + 1013904223u;
            int noise = (int)((state >> 24) % 20);
            in(x, y) = (uint8_t)(60 + (x * 40) / w + (y * 20) / h + noise);
        }
    }
    return in;
}

void check_against_reference(HistEqPipeline &p, const Buffer<uint8_t> &in) {
    const int w = in.width(), h = in.height();
    p.input.set(in);
    Buffer<uint8_t> out = p.output.realize({w, h});
    std::vector<uint8_t> expected((size_t)w * h);
    hist_eq_reference(in.data(), expected.data(), w, h);
    std::set<int> levels;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            ASSERT_EQ(out(x, y), expected[(size_t)y * w + x]) << "at " << x << ", " << y;
            levels.insert(out(x, y));
        }
    }
    // Not vacuous: the output spans (almost) the whole range.
    EXPECT_LE(*levels.begin(), 10);
    EXPECT_EQ(*levels.rbegin(), 255);
}

} // namespace

TEST(HistEqApp, UnscheduledMatchesReference) {
    // Only the reductions at root (a histogram inlined into the remap would be recomputed per
    // pixel, and an inlined scan is not allowed); the remap table is inlined.
    HistEqPipeline p;
    p.schedule_default();
    check_against_reference(p, make_input(64, 48));
}

TEST(HistEqApp, CpuScheduleMatchesReference) {
    // At least one 64-row strip: a shorter image would shift the only strip above row 0 and
    // read the input out of bounds (in Halide as well).
    HistEqPipeline p;
    p.schedule_cpu();
    check_against_reference(p, make_input(64, 96));
}

TEST(HistEqApp, CpuScheduleOddSize) {
    // 75 x 131: neither dimension a multiple of the vector width or of the strip height.
    HistEqPipeline p;
    p.schedule_cpu();
    check_against_reference(p, make_input(75, 131));
}

TEST(HistEqApp, CpuScheduleLoopNest) {
    HistEqPipeline p;
    p.schedule_cpu();
    std::string nest = loop_nest_of(p.output);
    // The histogram, its scan and the table at root, in order; then strips of 64 rows in
    // parallel, each row one vectorized lookup loop.
    std::vector<std::string> in_order = {
        "produce histogram:", "produce cdf:",         "produce lut:", "produce equalized:",
        "parallel y.yo:",     "for y.yi in [0, 63]:", "vectorized x."};
    ASSERT_TRUE(appears_in_order(nest, in_order));
}
