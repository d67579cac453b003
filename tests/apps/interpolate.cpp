// The multi-scale interpolation app (apps/interpolate) against its naive reference, unscheduled
// (with few levels) and with its CPU schedule, plus a check that the schedule shaped the loop
// nest as written.
#include "Halide.h"

#include "interpolate/interpolate.h"
#include "interpolate/reference.h"

#include "common/lowered_text.h"

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

/// A deterministic RGBA test image: colour ramps plus hash noise, alpha from the app's pattern
/// (holes, opaque and partial cells), with a transparent border band on the left so that the
/// interpolation has to reach across a wide hole.
Buffer<float> make_input(int w, int h) {
    Buffer<float> in(w, h, 4);
    uint32_t state = 4242;
    for (int c = 0; c < 4; c++) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                state = state * 1664525u + 1013904223u;
                float noise = (float)(state >> 8) / (float)(1u << 24);
                if (c < 3) {
                    in(x, y, c) =
                        0.6f * ((float)(x + 5 * c) / w) + 0.2f * ((float)y / h) + 0.2f * noise;
                } else {
                    in(x, y, c) = x < 9 ? 0.0f : interpolate_detail::alpha_pattern(x, y);
                }
            }
        }
    }
    return in;
}

/// Runs the pipeline (already scheduled) on `in` and compares every value with the reference:
/// a relative error of at most 1e-5. Both add the same float values in the same order; the
/// bound leaves room for fused multiply-adds, and the final division by alpha (which can be
/// small where the whole neighbourhood is transparent) magnifies the rounding of the colour
/// sums by at most the ratio of their magnitudes, which the colour/alpha quotient in [0, 1]
/// keeps near 1.
void check_against_reference(InterpolatePipeline &p, const Buffer<float> &in,
                             double min_filled = 0.25) {
    const int w = in.width(), h = in.height();
    p.input.set(in);
    Buffer<float> out = p.output.realize({w, h, 3});
    std::vector<float> expected((size_t)w * h * 3);
    interpolate_reference(in.data(), expected.data(), w, h, p.levels);
    int filled = 0;
    for (int c = 0; c < 3; c++) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                float e = expected[(size_t)c * w * h + (size_t)y * w + x];
                float got = out(x, y, c);
                double err = std::fabs((double)got - e) / std::max(1.0, std::fabs((double)e));
                ASSERT_LE(err, 1e-5)
                    << "at " << x << ", " << y << ", " << c << ": " << got << " vs " << e;
                // Not vacuous: transparent pixels got colours in the input's range.
                if (in(x, y, 3) == 0.0f && got > 0.05f && got < 1.5f) filled++;
            }
        }
    }
    EXPECT_GT(filled, min_filled * w * h);
}

} // namespace

TEST(InterpolateApp, UnscheduledMatchesReference) {
    // Inlined, each level reads 9 samples of the one below and each upsampling 4 of the level
    // above: beyond 2 levels the inlined code takes minutes to compile (Loom and Halide alike).
    InterpolatePipeline p(2);
    p.schedule_default();
    // Two levels fill only the holes next to coloured pixels.
    check_against_reference(p, make_input(40, 30), 0.05);
}

TEST(InterpolateApp, CpuScheduleMatchesReference) {
    // One JIT compilation (most of this test's time) for both sizes.
    InterpolatePipeline p;
    p.schedule_cpu();
    check_against_reference(p, make_input(96, 64));
    // 101 x 77: odd sizes at every level, neither a multiple of the vector width or strips.
    check_against_reference(p, make_input(101, 77));
}

TEST(InterpolateApp, CpuScheduleFewLevels) {
    InterpolatePipeline p(5);
    p.schedule_cpu();
    check_against_reference(p, make_input(70, 45));
}

TEST(InterpolateApp, CpuScheduleLoopNest) {
    InterpolatePipeline p;
    p.schedule_cpu();
    std::string nest = loop_nest_of(p.output);
    // The pyramid first (each level at root; the big ones in parallel strips with their
    // horizontal pass per strip), then the interpolation from the coarsest level, then the
    // output in parallel strips with interpolated level 0 per row.
    std::vector<std::string> in_order = {
        "produce downsampled_1:",  "parallel y.yo:",          "produce down_x_1:",
        "vectorized x.",           "vectorized x.",           "produce downsampled_3:",
        "parallel y.yo:",          "produce downsampled_4:",  "produce downsampled_9:",
        "produce interpolated_9:", "produce interpolated_3:", "parallel y:",
        "vectorized x.",           "produce interpolated_1:", "produce interpolate:",
        "parallel y.yo:",          "produce up_x_0:",         "vectorized x.",
        "produce interpolated_0:", "vectorized x.",           "unrolled c in [0, 3]:",
        "consume interpolated_0:", "vectorized x.",           "unrolled c in [0, 2]:"};
    ASSERT_TRUE(appears_in_order(nest, in_order));
    // The small levels' horizontal passes and every upsampling's vertical pass are inlined.
    EXPECT_EQ(nest.find("produce down_x_5"), std::string::npos) << nest;
    EXPECT_EQ(nest.find("produce up_x_1"), std::string::npos) << nest;
    EXPECT_EQ(nest.find("produce upsampled_"), std::string::npos) << nest;
    EXPECT_EQ(nest.find("parallel", nest.find("produce downsampled_4:")),
              nest.find("parallel y:", nest.find("produce interpolated_3:")))
        << "a small level runs in parallel:\n"
        << nest;
}
