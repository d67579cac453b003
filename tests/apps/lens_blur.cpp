// The lens blur app (apps/lens_blur) against its naive reference, unscheduled (with fewer
// disparities and samples) and with its CPU schedule, plus a check that the schedule shaped the
// loop nest as written.
#include "Halide.h"

#include "lens_blur/lens_blur.h"
#include "lens_blur/reference.h"

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

/// A deterministic textured 8-bit left view (ramps plus hash noise, so the stereo matching has
/// something to lock on to).
Buffer<uint8_t> make_left(int w, int h) {
    Buffer<uint8_t> in(w, h, 3);
    uint32_t state = 991;
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                state = state * 1664525u + 1013904223u;
                float noise = (float)(state >> 8) / (float)(1u << 24);
                in(x, y, c) = (uint8_t)(255.0f * (0.3f * ((float)(x + 3 * c) / w) +
                                                  0.2f * ((float)y / h) + 0.5f * noise));
            }
    return in;
}

Buffer<uint8_t> make_right(const Buffer<uint8_t> &left) {
    Buffer<uint8_t> right(left.width(), left.height(), 3);
    lens_blur_make_right(left.data(), right.data(), left.width(), left.height());
    return right;
}

/// Runs the pipeline (already scheduled) and compares every value with the reference. Both pick
/// the same depths (integer costs) and add the same integer-valued floats, so the sums agree
/// exactly; the tolerance 1e-6 only allows for the final division rounded differently (Halide
/// may multiply by a reciprocal).
void check_against_reference(LensBlurPipeline &p, const Buffer<uint8_t> &left, int focus,
                             int disparities = lens_blur_detail::kDisparities,
                             int samples = lens_blur_detail::kSamples,
                             int box_radius = lens_blur_detail::kBoxRadius) {
    const int w = left.width(), h = left.height();
    Buffer<uint8_t> right = make_right(left);
    p.left.set(left);
    p.right.set(right);
    p.focus.set(focus);
    Buffer<float> out = p.output.realize({w, h, 3});
    std::vector<float> expected((size_t)w * h * 3);
    lens_blur_reference(left.data(), right.data(), expected.data(), w, h, focus, disparities,
                        samples, box_radius);
    double changed = 0;
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                float e = expected[(size_t)c * w * h + (size_t)y * w + x];
                float got = out(x, y, c);
                ASSERT_LE(std::fabs((double)got - e), 1e-6 * std::max(1.0, std::fabs((double)e)))
                    << "at " << x << ", " << y << ", " << c << ": " << got << " vs " << e;
                changed = std::max(changed, (double)std::fabs(got - left(x, y, c) / 255.0f));
            }
    // Not vacuous: the defocus moved values well beyond rounding.
    EXPECT_GT(changed, 0.05);
}

} // namespace

TEST(LensBlurApp, ReferenceRecoversDisparities) {
    // The reference's depth finds the known disparities of the synthetic pair away from the
    // region edges (the 5 x 5 box straddles them there, and occluded pixels have no match).
    const int w = 96, h = 64;
    Buffer<uint8_t> left = make_left(w, h), right = make_right(left);
    std::vector<int> depth = lens_blur_depth_reference(left.data(), right.data(), w, h);
    int right_count = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            right_count += depth[(size_t)y * w + x] == lens_blur_detail::true_disparity(x, y, w, h);
    EXPECT_GT(right_count, w * h * 7 / 10);
}

TEST(LensBlurApp, UnscheduledMatchesReference) {
    // Unscheduled, the argmin's reduction (32 disparities x 25 box taps x 3 channels, all
    // inlined) is computed per use of a depth over the whole frame (the sample positions are
    // data-dependent), and its code repeated per use: seconds to compile. 4 disparities, 3
    // samples and no box filter (one tap) keep it quick.
    LensBlurPipeline p(4, 3, 0);
    p.schedule_default();
    check_against_reference(p, make_left(16, 12), 0, 4, 3, 0);
}

TEST(LensBlurApp, CpuScheduleMatchesReference) {
    // One compiled pipeline (JIT once) on two inputs: 96 x 48 at the default focus, then
    // 75 x 37 (neither dimension a multiple of the tiles or of the vector width) focused on the
    // nearest region.
    LensBlurPipeline p;
    p.schedule_cpu();
    check_against_reference(p, make_left(96, 48), lens_blur_detail::kDefaultFocus);
    check_against_reference(p, make_left(75, 37), 24);
}

TEST(LensBlurApp, CpuScheduleLoopNest) {
    LensBlurPipeline p;
    p.schedule_cpu();
    std::string nest = loop_nest_of(p.output);
    // Rows of radius tiles in parallel; per tile the differences, the vertical box sums and the
    // depths (vectorized), then the radii; then the defocus rows in parallel, vectorized, the
    // channels unrolled innermost.
    std::vector<std::string> in_order = {
        "produce radius:", "parallel y.yo:",  "for x.xo:",
        "produce diff:",   "vectorized x.",   "produce cost_y:",
        "vectorized x.",   "produce depth:",  "vectorized x.",
        "consume depth:",  "vectorized x.xi", "produce lens_blur:",
        "parallel y.yo:",  "vectorized x.",   "unrolled c in [0, 2]:"};
    ASSERT_TRUE(appears_in_order(nest, in_order));
    EXPECT_EQ(nest.find("produce cost:"), std::string::npos) << nest;
}
