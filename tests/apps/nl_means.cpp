// The non-local means app (apps/nl_means) against its naive reference, unscheduled and with its
// CPU schedule, plus a check that the schedule shaped the loop nest as written.
#include "Halide.h"

#include "nl_means/nl_means.h"
#include "nl_means/reference.h"

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

/// A deterministic noisy RGB test image in [0, 1]: a step edge and ramps (structure the patch
/// weights must preserve) plus hash noise (what the mean removes).
Buffer<float> make_input(int w, int h) {
    Buffer<float> in(w, h, 3);
    uint32_t state = 777;
    for (int c = 0; c < 3; c++) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                state = state * 1664525u + 1013904223u;
                float noise = (float)(state >> 8) / (float)(1u << 24) - 0.5f;
                float base = x < w / 2 ? 0.2f + 0.1f * c : 0.7f - 0.1f * c;
                in(x, y, c) = base + 0.2f * ((float)y / h) + 0.1f * noise;
            }
        }
    }
    return in;
}

/// Runs the pipeline (already scheduled) on `in` and compares every value with the reference:
/// a relative error of at most 2e-5. Both add the same float values in the same order; what
/// differs is the exponential (Halide's and Loom's exp are polynomial approximations within a
/// few ulp of std::exp) and possible fused multiply-adds, and a weighted mean of values in
/// [0, 1] passes a weight's relative error to the output at most once.
void check_against_reference(NlMeansPipeline &p, const Buffer<float> &in, float sigma,
                             int patch_radius = nl_means_detail::kPatchRadius,
                             int search_radius = nl_means_detail::kSearchRadius) {
    const int w = in.width(), h = in.height();
    p.input.set(in);
    p.sigma.set(sigma);
    Buffer<float> out = p.output.realize({w, h, 3});
    std::vector<float> expected((size_t)w * h * 3);
    nl_means_reference(in.data(), expected.data(), w, h, sigma, patch_radius, search_radius);
    double changed = 0;
    for (int c = 0; c < 3; c++) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                float e = expected[(size_t)c * w * h + (size_t)y * w + x];
                float got = out(x, y, c);
                double err = std::fabs((double)got - e) / std::max(1.0, std::fabs((double)e));
                ASSERT_LE(err, 2e-5)
                    << "at " << x << ", " << y << ", " << c << ": " << got << " vs " << e;
                changed = std::max(changed, (double)std::fabs(got - in(x, y, c)));
            }
        }
    }
    // The comparison must not be vacuous: the filter moved values by more than rounding.
    EXPECT_GT(changed, 0.02);
}

} // namespace

TEST(NlMeansApp, UnscheduledMatchesReference) {
    // Unscheduled, everything is inlined into the sum's update: with 7 x 7 patches and search
    // window that is 49 x 49 x 3 squared differences per pixel and channel, whose code takes
    // Loom about 10 s and Halide 21 about 30 s to compile. 3 x 3 patches over a 5 x 5 window
    // exercise the same algorithm text with a twentieth of the code.
    NlMeansPipeline p(1, 2);
    p.schedule_default();
    check_against_reference(p, make_input(24, 20), 0.12f, 1, 2);
}

TEST(NlMeansApp, CpuScheduleMatchesReference) {
    NlMeansPipeline p;
    p.schedule_cpu();
    check_against_reference(p, make_input(128, 40), 0.12f);
}

TEST(NlMeansApp, CpuScheduleOddSizeAndSigma) {
    // 67 x 45: neither dimension a multiple of the tile or of the vector width.
    NlMeansPipeline p;
    p.schedule_cpu();
    check_against_reference(p, make_input(67, 45), 0.3f);
}

TEST(NlMeansApp, CpuScheduleOtherRadii) {
    // 5 x 5 patches over a 9 x 9 search window, with the same schedule.
    NlMeansPipeline p(2, 4);
    p.schedule_cpu();
    check_against_reference(p, make_input(70, 33), 0.12f, 2, 4);
}

TEST(NlMeansApp, CpuScheduleLoopNest) {
    NlMeansPipeline p;
    p.schedule_cpu();
    std::string nest = loop_nest_of(p.output);
    // Rows of tiles in parallel; per tile the sums initialized, then per offset of the search
    // window the squared differences (with the patch halo), the vertical box sum and the
    // weights over the tile, and the sums' update, each vectorized; channels unrolled.
    std::vector<std::string> in_order = {
        "produce nl_means:",      "parallel y.yo:",         "for x.xo:",
        "produce weighted_sum:",  "vectorized x.",          "unrolled c in [0, 3]:",
        "for search in [-3, 3]:", "for search in [-3, 3]:", "produce diff:",
        "vectorized x.",          "produce patch_y:",       "vectorized x.",
        "produce weight:",        "vectorized x.",          "consume weight:",
        "vectorized x.",          "unrolled c in [0, 3]:",  "consume weighted_sum:",
        "for y.yi in [0, 15]:",   "vectorized x.",          "unrolled c in [0, 2]:"};
    ASSERT_TRUE(appears_in_order(nest, in_order));
    // The box sum's horizontal pass is inlined into the weights.
    EXPECT_EQ(nest.find("produce patch_dist"), std::string::npos) << nest;
}

TEST(NlMeansApp, CpuScheduleStoresAreVectors) {
    // print_loop_nest shows the directives; the lowered statement shows whether the vectorizer
    // honoured them. Every store into the intermediate stages, the sums' read-modify-write
    // update over the search window included, must be a dense 8-wide store.
    NlMeansPipeline p;
    p.schedule_cpu();
    std::string text = lowered(p.output, {p.input, p.sigma});
    for (const std::string name : {"diff", "patch_y", "weight", "weighted_sum"}) {
        std::istringstream lines(text);
        std::string line;
        int stores = 0;
        while (std::getline(lines, line)) {
            size_t start = line.find_first_not_of(' ');
            if (start == std::string::npos || line.compare(start, name.size() + 1, name + "[") != 0)
                continue;
            stores++;
            EXPECT_EQ(line.compare(start, name.size() + 6, name + "[ramp("), 0)
                << "scalar store into " << name << ": " << line.substr(0, 200);
        }
        EXPECT_GT(stores, 0) << "no store into " << name << " in:\n" << text;
    }
}
