// The unsharp mask app (apps/unsharp) against its naive reference, unscheduled and with its CPU
// schedule, plus a check that the schedule shaped the loop nest as written.
#include "Halide.h"

#include "unsharp/reference.h"
#include "unsharp/unsharp.h"

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

/// A deterministic RGB test image in [0, 1]: smooth ramps, hash noise and a black square (where
/// the luma floor of the ratio matters).
Buffer<float> make_input(int w, int h) {
    Buffer<float> in(w, h, 3);
    uint32_t state = 12345;
    for (int c = 0; c < 3; c++) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                state = state * 1664525u + 1013904223u;
                float noise = (float)(state >> 8) / (float)(1u << 24);
                float v = 0.5f * ((float)(x + 3 * c) / w) + 0.3f * ((float)y / h) + 0.2f * noise;
                bool black = x >= w / 4 && x < w / 4 + 6 && y >= h / 3 && y < h / 3 + 6;
                in(x, y, c) = black ? 0.0f : v;
            }
        }
    }
    return in;
}

/// Runs the pipeline (already scheduled) on `in` and compares every value with the reference:
/// a relative error of at most 1e-5 (the pipeline and the reference round the same float
/// operations in the same order; the bound leaves room for a fused multiply-add).
void check_against_reference(UnsharpPipeline &p, const Buffer<float> &in, float weight) {
    const int w = in.width(), h = in.height();
    p.input.set(in);
    p.weight.set(weight);
    Buffer<float> out = p.output.realize({w, h, 3});
    std::vector<float> expected((size_t)w * h * 3);
    unsharp_reference(in.data(), expected.data(), w, h, weight);
    double worst = 0;
    for (int c = 0; c < 3; c++) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                float e = expected[(size_t)c * w * h + (size_t)y * w + x];
                float got = out(x, y, c);
                double err = std::fabs((double)got - e) / std::max(1.0, std::fabs((double)e));
                worst = std::max(worst, err);
                ASSERT_LE(err, 1e-5)
                    << "at " << x << ", " << y << ", " << c << ": " << got << " vs " << e;
            }
        }
    }
    // The comparison must not be vacuous: the sharpening changed the image.
    double changed = 0;
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                changed = std::max(changed, (double)std::fabs(out(x, y, c) - in(x, y, c)));
    EXPECT_GT(changed, 0.05);
}

} // namespace

TEST(UnsharpApp, UnscheduledMatchesReference) {
    UnsharpPipeline p;
    p.schedule_default();
    check_against_reference(p, make_input(64, 48), 1.0f);
}

TEST(UnsharpApp, CpuScheduleMatchesReference) {
    UnsharpPipeline p;
    p.schedule_cpu();
    check_against_reference(p, make_input(64, 48), 1.0f);
}

TEST(UnsharpApp, CpuScheduleOddSizeAndWeight) {
    // 67 x 45: neither dimension a multiple of the vector width or of the strip height.
    UnsharpPipeline p;
    p.schedule_cpu();
    check_against_reference(p, make_input(67, 45), 0.6f);
}

TEST(UnsharpApp, CpuScheduleLoopNest) {
    UnsharpPipeline p;
    p.schedule_cpu();
    std::string nest = loop_nest_of(p.output);
    // Strips in parallel; the luma and the vertical blur computed per strip, each vectorized;
    // the ratio per row of the strip, before the channel loop that reuses it.
    std::vector<std::string> in_order = {"produce unsharp:",
                                         "  parallel y.yo:",
                                         "    produce gray:",
                                         "vectorized x.",
                                         "      produce blur_y:",
                                         "vectorized x.",
                                         "        for y.yi in [0, 31]:",
                                         "          produce ratio:",
                                         "vectorized x.",
                                         "          consume ratio:",
                                         "            for c:",
                                         "vectorized x."};
    ASSERT_TRUE(appears_in_order(nest, in_order));
    // Nothing else got a loop nest of its own: blur_x and sharpen are inlined into the ratio.
    EXPECT_EQ(nest.find("produce blur_x"), std::string::npos) << nest;
    EXPECT_EQ(nest.find("produce sharpen"), std::string::npos) << nest;
}
