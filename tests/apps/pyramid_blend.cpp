// The pyramid-blending app (apps/pyramid_blend) against its naive reference, with the least
// schedule that lowers and with its CPU schedule, plus a check that the schedule shaped the loop
// nest as written.
#include "Halide.h"

#include "pyramid_blend/pyramid_blend.h"
#include "pyramid_blend/pyramid_blend_params.h"
#include "pyramid_blend/reference.h"

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

/// A deterministic RGB image in [0, 1]: ramps (different per image) plus hash noise.
Buffer<float> make_image(int w, int h, uint32_t seed) {
    Buffer<float> im(w, h, 3);
    uint32_t state = seed;
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                state = state * 1664525u + 1013904223u;
                float noise = (float)(state >> 8) / (float)(1u << 24);
                float ramp = (seed & 1) ? (float)x / w : (float)y / h;
                im(x, y, c) = 0.6f * ramp + 0.1f * c + 0.3f * noise;
            }
    return im;
}

/// Blends two images with the pipeline (already scheduled) and compares every value with the
/// reference: |got - expected| <= 1e-5 (values in [0, 1]; the same float operations in the
/// same order, so the only differences are fused multiply-adds, a few ulps).
void check_against_reference(PyramidBlendPipeline &p, int w, int h) {
    Buffer<float> a = make_image(w, h, 3), b = make_image(w, h, 4), mask(w, h);
    mask.for_each_element(
        [&](int x, int y) { mask(x, y) = pyramid_blend_detail::mask_weight(x, w); });
    p.a.set(a);
    p.b.set(b);
    p.mask.set(mask);
    Buffer<float> out = p.output.realize({w, h, 3});
    std::vector<float> expected((size_t)w * h * 3);
    pyramid_blend_reference(a.data(), b.data(), mask.data(), expected.data(), w, h);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                float e = expected[(size_t)c * w * h + (size_t)y * w + x];
                ASSERT_NEAR(out(x, y, c), e, 1e-5) << "at " << x << ", " << y << ", " << c;
            }
    // Not vacuous: far left is image a, far right image b (up to the pyramid's smoothing).
    EXPECT_NEAR(out(2, h / 2, 0), a(2, h / 2, 0), 0.05f);
    EXPECT_NEAR(out(w - 3, h / 2, 0), b(w - 3, h / 2, 0), 0.05f);
}

} // namespace

TEST(PyramidBlendApp, LeastScheduleMatchesReference) {
    PyramidBlendPipeline p;
    p.schedule_default();
    check_against_reference(p, 64, 48);
}

TEST(PyramidBlendApp, CpuScheduleMatchesReference) {
    // The coarsest level (w / 8 x h / 8) must hold a strip of 8 rows and a vector of 16.
    PyramidBlendPipeline p;
    p.schedule_cpu();
    check_against_reference(p, 128, 64);
}

TEST(PyramidBlendApp, CpuScheduleLoopNest) {
    PyramidBlendPipeline p;
    p.schedule_cpu();
    std::string nest = loop_nest_of(p.output);
    // Each Gaussian level once, by strips in parallel with its horizontal pass per strip; the
    // collapse levels likewise with their upsampling passes per strip; the output last.
    std::vector<std::string> in_order = {
        "produce ga_1:", "parallel y.yo",       "produce ga_1_dx:",    "vectorized x.",
        "produce gm_1:", "produce ga_3:",       "produce gm_3:",       "produce collapse_2:",
        "parallel y.yo", "produce up_col_2_x:", "produce collapse_1:", "produce pyramid_blend:",
        "parallel y.yo", "produce up_ga_0_x:",  "produce up_gb_0_x:",  "produce up_col_0_x:",
        "for c:",        "vectorized x."};
    ASSERT_TRUE(appears_in_order(nest, in_order));
}
