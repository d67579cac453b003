// The convolution-layer app (apps/conv_layer) against its naive reference, unscheduled and with
// its CPU schedule, plus a check that the schedule shaped the loop nest as written.
#include "Halide.h"

#include "conv_layer/conv_layer.h"
#include "conv_layer/conv_layer_params.h"
#include "conv_layer/reference.h"

#include "common/loop_nest_text.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace Halide;
using namespace conv_layer_detail;

namespace {

/// Runs the layer (already scheduled) on a ci x w x h x n batch and compares every output with
/// the reference: |got - expected| <= 1e-5 * max(1, |expected|). Both start from the bias and
/// add the products in the same order; a fused multiply-add rounds each of the 9 * ci steps
/// once instead of twice (sums here stay below 4 in magnitude: far below the bound).
void check_against_reference(ConvLayerPipeline &p, int ci, int co, int w, int h, int n) {
    Buffer<float> in(ci, w, h, n), filter(co, ci, 3, 3), bias(co);
    fill_uniform(in.data(), (long)in.number_of_elements(), 31);
    fill_uniform(filter.data(), (long)filter.number_of_elements(), 32, he_uniform_scale(9 * ci));
    fill_uniform(bias.data(), co, 33, 0.5f);
    p.input.set(in);
    p.filter.set(filter);
    p.bias.set(bias);
    Buffer<float> out = p.output.realize({co, w, h, n});
    std::vector<float> expected(out.number_of_elements());
    conv_relu_reference(in.data(), filter.data(), bias.data(), expected.data(), ci, co, w, h, n);
    int positive = 0, zero = 0;
    for (int b = 0; b < n; b++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                for (int c = 0; c < co; c++) {
                    float e = expected[c + (size_t)co * (x + (size_t)w * (y + (size_t)h * b))];
                    float got = out(c, x, y, b);
                    double err = std::fabs((double)got - e) / std::max(1.0, std::fabs((double)e));
                    ASSERT_LE(err, 1e-5) << "at c " << c << ", x " << x << ", y " << y << ", n "
                                         << b << ": " << got << " vs " << e;
                    (e > 0 ? positive : zero)++;
                }
    // Not vacuous: the ReLU both passes and clips a good share of the outputs.
    EXPECT_GT(positive, (int)out.number_of_elements() / 5);
    EXPECT_GT(zero, (int)out.number_of_elements() / 5);
}

} // namespace

TEST(ConvLayerApp, UnscheduledMatchesReference) {
    ConvLayerPipeline p;
    p.schedule_default();
    check_against_reference(p, 5, 6, 9, 7, 2);
}

TEST(ConvLayerApp, CpuScheduleMatchesReference) {
    // Two vectors of 16 output channels per block, rows of 16 pixels (two blocks of 8).
    ConvLayerPipeline p;
    p.schedule_cpu(8, 32, 16);
    check_against_reference(p, 8, 32, 16, 6, 2);
}

TEST(ConvLayerApp, CpuScheduleRaggedSizes) {
    // An odd number of input channels, 48 output channels (the last 32-channel block shifts
    // inwards), a width of 19 (so does the last block of 8 pixels).
    ConvLayerPipeline p;
    p.schedule_cpu(3, 48, 19);
    check_against_reference(p, 3, 48, 19, 5, 1);
}

TEST(ConvLayerApp, CpuScheduleFewChannels) {
    // Fewer than 16 output channels: one vector of 4 lanes per block (VGG-16's scaled-down test).
    ConvLayerPipeline p;
    p.schedule_cpu(4, 4, 8);
    check_against_reference(p, 4, 4, 8, 8, 2);
}

TEST(ConvLayerApp, CpuScheduleLoopNest) {
    ConvLayerPipeline p;
    p.schedule_cpu(64, 64, 128);
    std::string nest = loop_nest_of(p.output);
    // Rows of all images in parallel, the padded rows they read copied per row (in vectors of
    // 16 input channels); per block of
    // 2 x 16 channels by 8 pixels, the sums start from the bias, then the reduction (input
    // channel innermost) runs outside the block's unrolled pixels and vectors.
    std::vector<std::string> in_order = {"produce conv_layer:",
                                         "parallel y.yn:",
                                         "produce conv_layer_padded:",
                                         "vectorized c.",
                                         "in [0, 15]:",
                                         "for x.xo:",
                                         "for c.co:",
                                         "produce conv_layer_conv:",
                                         "unrolled x:",
                                         "unrolled c.c:",
                                         "vectorized c.",
                                         "in [0, 15]:",
                                         "for conv_layer_r in [0, 2]:",
                                         "for conv_layer_r in [0, 2]:",
                                         "for conv_layer_r:",
                                         "unrolled x:",
                                         "unrolled c.c:",
                                         "vectorized c.",
                                         "consume conv_layer_conv:",
                                         "unrolled x.xi in [0, 7]:",
                                         "unrolled c.ci.ci in [0, 1]:",
                                         "vectorized c.ci."};
    ASSERT_TRUE(appears_in_order(nest, in_order));
}

namespace {

/// The backward pass (define_backward) on a ci x w x h x n batch with co output channels,
/// unscheduled or scheduled by the Li2018 autoscheduler (estimates at these sizes), against the
/// naive backward reference: |got - expected| <= 1e-4 * max(1, |expected|) (float sums in
/// another order than the reference's double ones).
void check_backward(bool li2018, int ci, int co, int w, int h, int n) {
    ConvLayerPipeline p;
    p.define_backward();
    Buffer<float> in(ci, w, h, n), filter(co, ci, 3, 3), bias(co), d_out(co, w, h, n);
    fill_uniform(in.data(), (long)in.number_of_elements(), 41);
    fill_uniform(filter.data(), (long)filter.number_of_elements(), 42, he_uniform_scale(9 * ci));
    fill_uniform(bias.data(), co, 43, 0.5f);
    fill_uniform(d_out.data(), (long)d_out.number_of_elements(), 44);
    p.input.set(in);
    p.filter.set(filter);
    p.bias.set(bias);
    p.d_output.set(d_out);
    Pipeline backward({p.d_input, p.d_filter, p.d_bias});
    if (li2018) {
        p.input.set_estimates({{0, ci}, {0, w}, {0, h}, {0, n}});
        p.filter.set_estimates({{0, co}, {0, ci}, {0, 3}, {0, 3}});
        p.bias.set_estimates({{0, co}});
        p.d_output.set_estimates({{0, co}, {0, w}, {0, h}, {0, n}});
        p.d_input.set_estimates({{0, ci}, {0, w}, {0, h}, {0, n}});
        p.d_filter.set_estimates({{0, co}, {0, ci}, {0, 3}, {0, 3}});
        p.d_bias.set_estimates({{0, co}});
        backward.apply_autoscheduler(get_host_target(), {"Li2018"});
    }
    Buffer<float> d_in(ci, w, h, n), d_filter(co, ci, 3, 3), d_bias(co);
    backward.realize({d_in, d_filter, d_bias});
    std::vector<float> e_in(d_in.number_of_elements()), e_filter(d_filter.number_of_elements()),
        e_bias(co);
    conv_relu_backward_reference(in.data(), filter.data(), bias.data(), d_out.data(), e_in.data(),
                                 e_filter.data(), e_bias.data(), ci, co, w, h, n);
    auto check = [](const Buffer<float> &got, const std::vector<float> &expected,
                    const char *what) {
        double worst = 0, largest = 0;
        for (size_t i = 0; i < expected.size(); i++) {
            worst = std::max(worst, std::fabs((double)got.data()[i] - expected[i]) /
                                        std::max(1.0, std::fabs((double)expected[i])));
            largest = std::max(largest, std::fabs((double)expected[i]));
        }
        EXPECT_LE(worst, 1e-4) << what;
        EXPECT_GT(largest, 0.1) << what << " is (nearly) zero: the check would be vacuous";
    };
    check(d_in, e_in, "d_input");
    check(d_filter, e_filter, "d_filter");
    check(d_bias, e_bias, "d_bias");
}

} // namespace

TEST(ConvLayerApp, UnscheduledBackwardMatchesReference) { check_backward(false, 5, 6, 9, 7, 2); }

TEST(ConvLayerApp, Li2018BackwardMatchesReference) {
    // Large enough for 16 x 16 tiles and for the filter's and bias's sums over the pixels to
    // become parallel reductions.
    check_backward(true, 8, 16, 48, 40, 2);
}
