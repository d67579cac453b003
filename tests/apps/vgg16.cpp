// The VGG-16 app (apps/vgg16) at widths / 16 on 32 x 32 x 3 x 2 images (the same code as the
// real network) against its naive reference, with the least schedule that runs and with its CPU
// schedule, plus a check that the schedule shaped the loop nest as written.
#include "Halide.h"

#include "vgg16/reference.h"
#include "vgg16/vgg16.h"
#include "vgg16/vgg16_params.h"

#include "common/loop_nest_text.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace Halide;
using namespace vgg16_detail;

namespace {

Buffer<float> make_images(const Config &cfg) {
    Buffer<float> in(3, cfg.size, cfg.size, cfg.batch);
    conv_layer_detail::fill_uniform(in.data(), (long)in.number_of_elements(), 77);
    return in;
}

/// Runs the network (already scheduled) and compares the class probabilities with the
/// reference: |got - expected| <= 1e-5. Every sum adds its products in the reference's order;
/// fused multiply-adds and Halide's exp differ from the reference by a few ulps per layer
/// (measured 3e-8 at this size).
void check_against_reference(Vgg16Pipeline &p, const Config &cfg, const Weights &w) {
    Buffer<float> in = make_images(cfg);
    p.input.set(in);
    const int classes = w.fc_out.back();
    Buffer<float> out = p.output.realize({classes, cfg.batch});
    std::vector<float> expected = vgg16_reference(in.data(), cfg, w);
    for (int n = 0; n < cfg.batch; n++) {
        float total = 0, top = 0, bottom = 1;
        for (int o = 0; o < classes; o++) {
            float e = expected[o + (size_t)classes * n];
            ASSERT_NEAR(out(o, n), e, 1e-5) << "class " << o << ", image " << n;
            total += out(o, n);
            top = std::max(top, e);
            bottom = std::min(bottom, e);
        }
        EXPECT_NEAR(total, 1.0f, 1e-4);
        // Not vacuous: the classes are told apart, not all 1 / classes.
        EXPECT_GT(top, 1.3f * bottom);
    }
}

} // namespace

TEST(Vgg16App, LeastScheduleMatchesReference) {
    Config cfg = small_config();
    Weights w = make_weights(cfg);
    Vgg16Pipeline p(cfg, w);
    p.schedule_default();
    check_against_reference(p, cfg, w);
}

TEST(Vgg16App, CpuScheduleMatchesReference) {
    Config cfg = small_config();
    Weights w = make_weights(cfg);
    Vgg16Pipeline p(cfg, w);
    p.schedule_cpu();
    check_against_reference(p, cfg, w);
}

TEST(Vgg16App, CpuScheduleLoopNest) {
    Config cfg = small_config();
    Weights w = make_weights(cfg);
    Vgg16Pipeline p(cfg, w);
    p.schedule_cpu();
    std::string nest = loop_nest_of(p.output);
    // Each layer once, in order; convolutions as in apps/conv_layer (rows in parallel, blocks
    // with the reduction outside), pools by rows in parallel, fully connected layers by blocks
    // of outputs in parallel with the whole batch's sums per block.
    std::vector<std::string> in_order = {
        "produce conv1:",         "parallel y.yn in",       "produce conv1_padded:",
        "produce conv1_conv:",    "for conv1_r in [0, 2]:", "for conv1_r in [0, 2]:",
        "for conv1_r in [0, 2]:", "vectorized c.",          "produce conv2:",
        "produce pool1:",         "parallel y.yn in",       "vectorized c.",
        "produce conv13:",        "produce pool5:",         "produce fc1:",
        "parallel o.oo in",       "produce fc1_sums:",      "unrolled n in [0, 1]:",
        "for fc1_r in [0, 31]:",  "unrolled n in [0, 1]:",  "vectorized o.",
        "produce fc2:",           "produce fc3:",           "produce softmax_max:",
        "produce softmax_exp:",   "produce softmax_sum:",   "vectorized o."};
    ASSERT_TRUE(appears_in_order(nest, in_order));
}
