// The Harris corner app (apps/harris) against its naive reference, unscheduled and with its CPU
// schedule, plus a check that the schedule shaped the loop nest as written.
#include "Halide.h"

#include "harris/harris.h"
#include "harris/reference.h"

#include "common/loop_nest_text.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace Halide;

namespace {

/// A deterministic RGB image in [0, 1]: a checkerboard of 8-pixel squares (corners and edges
/// for the detector), tinted per channel, plus a little hash noise.
Buffer<float> make_input(int w, int h) {
    Buffer<float> in(w, h, 3);
    uint32_t state = 777;
    for (int c = 0; c < 3; c++) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                state = state * 1664525u + 1013904223u;
                float noise = (float)(state >> 8) / (float)(1u << 24);
                bool on = ((x / 8) + (y / 8)) % 2 == 0;
                in(x, y, c) = (on ? 0.8f : 0.2f) - 0.05f * c + 0.05f * noise;
            }
        }
    }
    return in;
}

/// Runs the pipeline (already scheduled) on `in` and compares every value with the reference.
/// The response cancels two products (det - k trace^2), so its error is bounded relative to the
/// image's largest response: |got - expected| <= 1e-5 * max(1, max |expected|). The pipeline and
/// the reference round the same operations in the same order; the bound leaves room for fused
/// multiply-adds.
void check_against_reference(HarrisPipeline &p, const Buffer<float> &in) {
    const int w = in.width(), h = in.height();
    p.input.set(in);
    Buffer<float> out = p.output.realize({w, h});
    std::vector<float> expected((size_t)w * h);
    harris_reference(in.data(), expected.data(), w, h);
    float peak = 0, lowest = 0;
    for (float e : expected) {
        peak = std::max(peak, std::fabs(e));
        lowest = std::min(lowest, e);
    }
    const double tol = 1e-5 * std::max(1.0f, peak);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            float e = expected[(size_t)y * w + x];
            ASSERT_LE(std::fabs((double)out(x, y) - e), tol)
                << "at " << x << ", " << y << ": " << out(x, y) << " vs " << e;
        }
    }
    // Not vacuous: corners give a clearly positive response and edges a negative one.
    EXPECT_GT(peak, 1e-3f);
    EXPECT_LT(lowest, -1e-4f);
}

} // namespace

// Sanitizer builds (Debug, instrumented, ~10x slower) would spend a minute or more compiling the
// fully inlined pipeline (~2600 inlined loads): even with the faster CSE, lowering takes ~3 s
// and LLVM ~4 s of this test's ~8 s in Release (measured on a loaded 2-core machine). There the
// luma alone is computed at root, which still inlines the gradients, products and box sums.
#if defined(__SANITIZE_ADDRESS__)
#define LOOM_APPS_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LOOM_APPS_SANITIZED 1
#endif
#endif

TEST(HarrisApp, UnscheduledMatchesReference) {
    HarrisPipeline p;
    p.schedule_default();
#ifdef LOOM_APPS_SANITIZED
    p.gray.compute_root();
#endif
    check_against_reference(p, make_input(64, 48));
}

TEST(HarrisApp, CpuScheduleMatchesReference) {
    HarrisPipeline p;
    p.schedule_cpu();
    check_against_reference(p, make_input(64, 48));
}

TEST(HarrisApp, CpuScheduleOddSize) {
    // 67 x 45: neither dimension a multiple of the vector width or of the strip height.
    HarrisPipeline p;
    p.schedule_cpu();
    check_against_reference(p, make_input(67, 45));
}

TEST(HarrisApp, CpuScheduleLoopNest) {
    HarrisPipeline p;
    p.schedule_cpu();
    std::string nest = loop_nest_of(p.output);
    // Strips in parallel; the luma and both gradients computed per strip, vectorized; the rows of
    // the strip then compute the response, vectorized.
    std::vector<std::string> in_order = {
        "produce harris:",     "  parallel y.yo:",  "    produce gray:",
        "vectorized x.",       "      produce Ix:", "vectorized x.",
        "        produce Iy:", "vectorized x.",     "          for y.yi in [0, 31]:",
        "vectorized x."};
    ASSERT_TRUE(appears_in_order(nest, in_order));
    // The products and box sums are inlined into the response.
    for (const char *inlined : {"produce Ixx", "produce Sxx", "produce Sxy"})
        EXPECT_EQ(nest.find(inlined), std::string::npos) << nest;
}
