// The bilateral grid app (apps/bilateral_grid) against its naive reference, unscheduled and with
// its CPU schedule, plus a check that the schedule shaped the loop nest as written; its backward
// pass (define_backward), breadth-first and scheduled by Li2018, against central finite
// differences of the reference in double.
#include "Halide.h"

#include "bilateral_grid/bilateral_grid.h"
#include "bilateral_grid/reference.h"

#include "common/compare.h"
#include "common/finite_difference.h"
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

/// A deterministic gray test image in [0, 1]: a ramp, hash noise and a bright square (a strong
/// edge, which the filter must preserve), with values exactly 0 and 1 (the end bins).
Buffer<float> make_input(int w, int h) {
    Buffer<float> in(w, h);
    uint32_t state = 777;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            state = state * 1664525u + 1013904223u;
            float noise = (float)(state >> 8) / (float)(1u << 24);
            float v = 0.4f * x / w + 0.2f * y / h + 0.15f * noise;
            if (x >= w / 3 && x < w / 3 + 16 && y >= h / 4 && y < h / 4 + 16) v += 0.45f;
            if (x == 1) v = 0.0f;
            if (y == 2) v = 1.0f;
            in(x, y) = v;
        }
    }
    return in;
}

/// Runs the (already scheduled) pipeline on `in` and compares every value with the reference.
/// The grid's counts are small integers, exact in float; the sums and the interpolation follow
/// the reference's order of operations, so the two differ only where a compiler contracts a
/// multiply and an add into one rounding (a few ulp of the interpolated sums). 1e-5 relative
/// leaves room for that and nothing more: an off-by-one cell or bin moves values by 1e-2 or more.
void check_against_reference(BilateralGridPipeline &p, const Buffer<float> &in, float r_sigma) {
    const int w = in.width(), h = in.height();
    p.input.set(in);
    p.r_sigma.set(r_sigma);
    Buffer<float> out = p.output.realize({w, h});
    std::vector<float> expected((size_t)w * h);
    bilateral_grid_reference(in.data(), expected.data(), w, h, r_sigma);
    double worst = 0, smoothed = 0;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            float e = expected[(size_t)y * w + x];
            float got = out(x, y);
            double err = std::fabs((double)got - e) / std::max(1.0, std::fabs((double)e));
            worst = std::max(worst, err);
            ASSERT_LE(err, 1e-5) << "at " << x << ", " << y << ": " << got << " vs " << e;
            smoothed = std::max(smoothed, (double)std::fabs(got - in(x, y)));
        }
    }
    // Not vacuous: the filter removed the noise somewhere.
    EXPECT_GT(smoothed, 0.03);
    std::cout << "max relative error " << worst << "\n";
}

} // namespace

TEST(BilateralGridApp, UnscheduledMatchesReference) {
    BilateralGridPipeline p;
    p.schedule_default();
    check_against_reference(p, make_input(64, 48), 0.1f);
}

TEST(BilateralGridApp, CpuScheduleMatchesReference) {
    BilateralGridPipeline p;
    p.schedule_cpu();
    check_against_reference(p, make_input(64, 48), 0.1f);
}

TEST(BilateralGridApp, CpuScheduleOddSizeAndSigma) {
    // 67 x 45: neither a multiple of the cell size nor of the vector width; 0.15 wide bins.
    BilateralGridPipeline p;
    p.schedule_cpu();
    check_against_reference(p, make_input(67, 45), 0.15f);
}

TEST(BilateralGridApp, CpuScheduleLoopNest) {
    BilateralGridPipeline p;
    p.schedule_cpu();
    std::string nest = loop_nest_of(p.output);
    // The splat per row of cells inside the parallel z blur; the x and y blurs at root,
    // parallel over z and vectorized with the channel unrolled; the slice parallel, vectorized.
    std::vector<std::string> in_order = {"produce blurz:",     "parallel y:",
                                         "produce histogram:", "for r",
                                         "unrolled c",         "consume histogram:",
                                         "vectorized x",       "produce blurx:",
                                         "parallel z:",        "vectorized x",
                                         "produce blury:",     "parallel z:",
                                         "vectorized x",       "produce bilateral_grid:",
                                         "parallel y:",        "vectorized x"};
    ASSERT_TRUE(appears_in_order(nest, in_order));
    // The slice's interpolation is inlined into the output.
    EXPECT_EQ(nest.find("produce interpolated"), std::string::npos) << nest;
}

namespace {

/// Deterministic adjoint weights in [-1, 1).
Buffer<float> make_adjoint(int w, int h) { return loom_test::random_buffer<float>({w, h}, 4242); }

/// The loss L = sum of output * d_output by the reference in double, with its integer
/// decisions (clamps, bins, planes) in `branches`.
double reference_loss(const std::vector<double> &in, const Buffer<float> &d_out, double r_sigma,
                      std::vector<int> *branches) {
    const int w = d_out.width(), h = d_out.height();
    std::vector<double> out((size_t)w * h);
    bilateral_grid_reference(in.data(), out.data(), w, h, r_sigma, branches);
    double loss = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) loss += out[(size_t)y * w + x] * d_out(x, y);
    return loss;
}

struct Gradient {
    Buffer<float> d_input;
    float d_r_sigma;
};

/// Runs `backward`, the backward pass (define_backward) of `p`, on `in`.
Gradient run_backward(Pipeline &backward, BilateralGridPipeline &p, const Buffer<float> &in,
                      const Buffer<float> &d_out, float r_sigma) {
    p.input.set(in);
    p.d_output.set(d_out);
    p.r_sigma.set(r_sigma);
    Gradient g{Buffer<float>(in.width(), in.height()), 0.0f};
    Buffer<float> d_r = Buffer<float>::make_scalar();
    backward.realize({g.d_input, d_r});
    g.d_r_sigma = d_r();
    return g;
}

/// Checks the gradient of L = sum(output * d_output) against central differences of the double
/// reference. The output is only piecewise smooth: a step that moves a value across a bin
/// boundary of the splat moves its whole weight to another bin (a jump), and one across a grid
/// plane in the slice or an end of [0, 1] puts a kink between the two evaluations. So each
/// difference is taken only where the reference's integer decisions at both ends of the step
/// are those at the point (for r_sigma the test asserts it). The steps (1e-7 relative for
/// r_sigma, 1e-6 for a pixel) make crossings rare, and keep double rounding (L sums about w * h
/// terms below 1: ~1e-13) ~1e-7 of the difference. The float pipeline agrees within 3e-5
/// relative for the pixels and 1e-5 for r_sigma (measured: 3e-6 and 1e-6; float sums of
/// ~10^3 terms).
void check_against_finite_differences(const Gradient &g, const Buffer<float> &in,
                                      const Buffer<float> &d_out, float r_sigma) {
    const int w = in.width(), h = in.height();
    std::vector<double> v(in.data(), in.data() + in.number_of_elements());
    std::vector<int> at_point, up_branches, down_branches;
    reference_loss(v, d_out, r_sigma, &at_point);
    // The central difference in the pixel value x (an element of v).
    auto central = [&](double &x, double step) {
        const double saved = x;
        up_branches.clear();
        down_branches.clear();
        x = saved + step;
        double up = reference_loss(v, d_out, r_sigma, &up_branches);
        x = saved - step;
        double down = reference_loss(v, d_out, r_sigma, &down_branches);
        x = saved;
        return (up - down) / (2 * step);
    };

    // r_sigma: perturbed through the reference's argument.
    {
        const double step = 1e-7 * r_sigma;
        std::vector<int> up_b, down_b;
        double r = r_sigma;
        double up = reference_loss(v, d_out, r + step, &up_b);
        double down = reference_loss(v, d_out, r - step, &down_b);
        ASSERT_TRUE(up_b == at_point && down_b == at_point)
            << "the step in r_sigma moves a value across a bin: take a smaller one";
        double fd = (up - down) / (2 * step);
        EXPECT_NEAR(g.d_r_sigma, fd, 1e-5 * std::max(1.0, std::fabs(fd))) << "d loss / d r_sigma";
        std::cout << "d loss / d r_sigma " << g.d_r_sigma << ", relative error "
                  << std::fabs(g.d_r_sigma - fd) / std::max(1.0, std::fabs(fd)) << "\n";
        // Not vacuous: the slice's z weight moves the output.
        EXPECT_GT(std::fabs(fd), 0.1);
    }

    // Every pixel.
    int checked = 0, skipped = 0, failures = 0;
    double largest = 0, worst = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double fd = central(v[(size_t)y * w + x], 1e-6);
            if (up_branches != at_point || down_branches != at_point) {
                skipped++;
                continue;
            }
            checked++;
            double got = g.d_input(x, y);
            largest = std::max(largest, std::fabs(fd));
            worst = std::max(worst, std::fabs(got - fd) / std::max(1.0, std::fabs(fd)));
            if (std::fabs(got - fd) > 3e-5 * std::max(1.0, std::fabs(fd)) && failures++ < 10)
                ADD_FAILURE() << "d loss / d input(" << x << ", " << y << ") = " << got
                              << ", finite differences give " << fd;
        }
    EXPECT_EQ(failures, 0);
    std::cout << checked << " pixels checked (largest error " << worst << "), " << skipped
              << " skipped\n";
    // Not vacuous: nearly every pixel is checked (on the test images, the skipped ones are the
    // values of exactly 0 and 1, at the clamp's ends) and the gradient is not small.
    EXPECT_GE(checked, w * h * 8 / 10);
    EXPECT_GT(largest, 0.1);
}

} // namespace

TEST(BilateralGridApp, BackwardMatchesFiniteDifferences) {
    // Breadth-first (schedule_backward_root: fully unscheduled, the gradient takes minutes to
    // compile). r_sigma 0.12, not 0.1: with 1 / r_sigma an integer, the test image's values of
    // exactly 1 would lie on a grid plane of the slice, a kink in r_sigma.
    Buffer<float> in = make_input(16, 12), d_out = make_adjoint(16, 12);
    BilateralGridPipeline plain;
    plain.define_backward();
    plain.schedule_backward_root();
    Pipeline plain_backward({plain.d_input, plain.d_r_sigma});
    Gradient g_plain = run_backward(plain_backward, plain, in, d_out, 0.12f);
    check_against_finite_differences(g_plain, in, d_out, 0.12f);

    // Scheduled by Li2018 (estimates at 67 x 45, large enough for its 16 x 16 tiles and a
    // parallel reduction for r_sigma's gradient), on the same image, then on a 67 x 45 one
    // (ragged tiles) with 0.15 wide bins.
    BilateralGridPipeline p;
    p.define_backward();
    p.input.set_estimates({{0, 67}, {0, 45}});
    p.d_output.set_estimates({{0, 67}, {0, 45}});
    p.r_sigma.set_estimate(0.15f);
    p.d_input.set_estimates({{0, 67}, {0, 45}});
    p.d_r_sigma.set_estimates({});
    Pipeline backward({p.d_input, p.d_r_sigma});
    backward.apply_autoscheduler(get_host_target(),
                                 {"Li2018", {{"compute_root", p.li2018_compute_root()}}});
    Gradient g_li2018 = run_backward(backward, p, in, d_out, 0.12f);
    check_against_finite_differences(g_li2018, in, d_out, 0.12f);
    // The two schedules sum in other orders.
    EXPECT_LE(app_compare::max_rel_error_typed<float>(g_li2018.d_input, g_plain.d_input), 1e-5);
    EXPECT_NEAR(g_li2018.d_r_sigma, g_plain.d_r_sigma,
                1e-5 * std::max(1.0f, std::fabs(g_plain.d_r_sigma)));

    Buffer<float> big = make_input(67, 45), d_big = make_adjoint(67, 45);
    check_against_finite_differences(run_backward(backward, p, big, d_big, 0.15f), big, d_big,
                                     0.15f);
}
