// The snake app (apps/snake: distance regularized level set evolution) against its naive
// reference, unscheduled and with its CPU schedule, plus a check that the schedule shaped the
// loop nest as written.
#include "Halide.h"

#include "snake/reference.h"
#include "snake/snake.h"

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

/// A deterministic gray test image in [0, 1]: a bright disc (the object whose edge the contour
/// is drawn to) on a darker ramp, plus hash noise.
Buffer<float> make_input(int w, int h) {
    Buffer<float> in(w, h);
    uint32_t state = 4242;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            state = state * 1664525u + 1013904223u;
            float noise = (float)(state >> 8) / (float)(1u << 24) - 0.5f;
            float dx = x - 0.5f * w, dy = y - 0.5f * h;
            bool disc = dx * dx + dy * dy < 0.09f * (float)(w * w);
            in(x, y) = (disc ? 0.8f : 0.2f + 0.2f * x / w) + 0.05f * noise;
        }
    }
    return in;
}

/// Runs the pipeline (already scheduled) on `in` and compares every value of phi with the
/// reference: |a - b| <= 1e-4 (phi is within [-3, 3]). Both do the same float operations in the
/// same order; what differs is the cosine of the Dirac delta (Halide's and Loom's are
/// polynomial approximations within a few ulp of std::cos) and possibly contracted multiply-
/// adds; the normal divides by |grad phi|, which magnifies a difference where the gradient is
/// small, so the tolerance leaves two orders of magnitude over the ulp-level differences.
void check_against_reference(SnakePipeline &p, const Buffer<float> &in, int iterations) {
    const int w = in.width(), h = in.height();
    p.input.set(in);
    Buffer<float> out = p.output.realize({w, h});
    std::vector<float> expected((size_t)w * h);
    snake_reference(in.data(), expected.data(), w, h, iterations);
    int moved = 0;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            float e = expected[(size_t)y * w + x];
            float got = out(x, y);
            ASSERT_LE(std::fabs((double)got - e), 1e-4)
                << "at " << x << ", " << y << ": " << got << " vs " << e;
            // The Dirac-weighted terms act where |phi| < 1.5: values strictly inside (-1.5, 1.5)
            // show the evolution went past the first (regularisation-only) step.
            if (std::fabs(e) < 1.4f) moved++;
        }
    }
    // The comparison must not be vacuous: the contour band evolved.
    EXPECT_GT(moved, 20);
}

} // namespace

TEST(SnakeApp, UnscheduledMatchesReference) {
    // Unscheduled, everything is inlined into the output: per pixel the edge indicator at 5
    // points, each from 4 smoothed values of 25 taps, and the normals at 5 points. One iteration
    // compiles in about a second (Loom and Halide 21 alike); with two, the first iteration's
    // ~25 inlined copies per pixel take Halide 21 over a minute.
    SnakePipeline p(1);
    p.schedule_default();
    check_against_reference(p, make_input(24, 20), 1);
}

TEST(SnakeApp, CpuScheduleMatchesReference) {
    // One compilation (the size is a runtime property of the input), two inputs: 48 x 32, and
    // 45 x 37, neither dimension a multiple of the strip height or of the vector width.
    SnakePipeline p;
    p.schedule_cpu();
    check_against_reference(p, make_input(48, 32), snake_detail::kIterations);
    check_against_reference(p, make_input(45, 37), snake_detail::kIterations);
}

TEST(SnakeApp, CpuScheduleLoopNest) {
    SnakePipeline p;
    p.schedule_cpu();
    std::string nest = loop_nest_of(p.output);
    // The edge indicator at root in parallel strips with the Gaussian's passes per strip; then
    // each iteration at root in parallel strips, its predecessor's normals per strip; all
    // vectorized.
    std::vector<std::string> in_order = {
        "produce edge:",    "parallel y.yo:", "produce blur_y:",  "vectorized x.",
        "produce blurred:", "vectorized x.",  "consume blurred:", "vectorized x."};
    for (int k = 1; k <= snake_detail::kIterations; k++) {
        std::string name = k == snake_detail::kIterations ? "snake" : "phi_" + std::to_string(k);
        std::string prev = std::to_string(k - 1);
        for (const std::string &line :
             {"produce " + name + ":", std::string("parallel y.yo:"), "produce nx_" + prev + ":",
              std::string("vectorized x."), "produce ny_" + prev + ":",
              std::string("vectorized x."), std::string("vectorized x.")})
            in_order.push_back(line);
    }
    ASSERT_TRUE(appears_in_order(nest, in_order));
    // The initial step function is inlined into the first iteration.
    EXPECT_EQ(nest.find("produce phi0"), std::string::npos) << nest;
}
