// The local Laplacian filter app (apps/local_laplacian) against its naive reference, with every
// level at root (the breadth-first schedule; inlining everything is out of reach, see
// schedule_root) and with its CPU schedule, plus a check that the schedule shaped the loop nest;
// its backward pass (define_backward), breadth-first and scheduled by Li2018, against central
// finite differences of the reference in double.
#include "Halide.h"

#include "local_laplacian/local_laplacian.h"
#include "local_laplacian/reference.h"

#include "common/compare.h"
#include "common/finite_difference.h"
#include "common/loop_nest_text.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace Halide;
using namespace local_laplacian_detail;

namespace {

/// Pyramid levels in the tests: 4 instead of the paper's 8 (the level loop is the same code;
/// the JIT compilation of 8 levels takes Loom half a minute, see the README).
constexpr int kTestLevels = 4;

/// A deterministic 16-bit RGB test image: colour ramps, fine texture (what alpha amplifies),
/// a strong edge and a dark corner (where the colour ratio's floor matters).
Buffer<uint16_t> make_input(int w, int h) {
    Buffer<uint16_t> in(w, h, 3);
    uint32_t state = 31337;
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                state = state * 1664525u + 1013904223u;
                float noise = (float)(state >> 8) / (float)(1u << 24);
                float v = 0.2f + 0.4f * x / w + 0.1f * c + 0.08f * noise +
                          ((x / 3 + y / 3) % 2 ? 0.05f : 0.0f);
                if (x > 2 * w / 3) v -= 0.3f;
                if (x < 5 && y < 5) v = 0.0f;
                in(x, y, c) = (uint16_t)(65535.0f * std::min(std::max(v, 0.0f), 1.0f));
            }
    return in;
}

/// Runs the (already scheduled) pipeline and compares with the reference. Both do the same
/// float operations in the same order (the remapping table is shared), so only a compiler's
/// contraction of a multiply-add could separate them, by an ulp that the pyramid carries to the
/// output: at most 2 of 65535 (3e-5) is allowed, far below what a wrong tap, level or weight
/// causes (hundreds).
void check_against_reference(LocalLaplacianPipeline &p, int w, int h, float alpha, float beta) {
    std::cout << "levels " << kTestLevels << "\n";
    Buffer<uint16_t> in = make_input(w, h);
    p.input.set(in);
    p.set_alpha(alpha);
    p.beta.set(beta);
    Buffer<uint16_t> out = p.output.realize({w, h, 3});
    std::vector<uint16_t> expected((size_t)w * h * 3);
    local_laplacian_reference(in.data(), expected.data(), w, h, alpha, beta, kTestLevels);
    int worst = 0, changed = 0;
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int e = expected[((size_t)c * h + y) * w + x];
                int d = std::abs((int)out(x, y, c) - e);
                worst = std::max(worst, d);
                ASSERT_LE(d, 2) << "at " << x << ", " << y << ", " << c << ": " << out(x, y, c)
                                << " vs " << e;
                changed = std::max(changed, std::abs((int)out(x, y, c) - (int)in(x, y, c)));
            }
    // Not vacuous: the filter changed the image visibly.
    EXPECT_GT(changed, 1000);
    std::cout << "largest difference " << worst << " of 65535\n";
}

} // namespace

TEST(LocalLaplacianApp, RootScheduleMatchesReference) {
    LocalLaplacianPipeline p(kTestLevels);
    p.schedule_root();
    check_against_reference(p, 64, 48, kAlpha, kBeta);
}

TEST(LocalLaplacianApp, CpuSchedule) {
    LocalLaplacianPipeline p(kTestLevels);
    p.schedule_cpu();
    std::string nest = loop_nest_of(p.output);
    std::vector<std::string> in_order = {"produce gray:",
                                         "parallel y.yo",
                                         "vectorized x",
                                         "produce g_pyr_1:",
                                         "parallel k",
                                         "vectorized x",
                                         "produce g_pyr_3:",
                                         "parallel k",
                                         "produce out_g_pyr_0:",
                                         "parallel y.yo",
                                         "produce local_laplacian:",
                                         "parallel y.yo",
                                         "for c",
                                         "vectorized x"};
    ASSERT_TRUE(appears_in_order(nest, in_order));
    for (const char *inlined :
         {"produce g_pyr_0", "produce l_pyr", "produce out_l_pyr", "produce remapped"})
        EXPECT_EQ(nest.find(inlined), std::string::npos) << inlined << " in:\n" << nest;

    check_against_reference(p, 64, 48, kAlpha, kBeta);
    // 67 x 45, neither a multiple of the vector width nor of the strips; more detail, less
    // large-scale contrast.
    check_against_reference(p, 67, 45, 2.0f, 0.6f);
}

namespace {

/// Pyramid levels in the backward tests: 3 (finest, middle and coarsest levels all occur). The
/// gradient of 4 takes Loom twice as long to compile (20 s with Li2018's schedule).
constexpr int kBackwardLevels = 3;

/// Deterministic adjoint weights in [-1, 1).
Buffer<float> make_adjoint(int w, int h) {
    return loom_test::random_buffer<float>({w, h, 3}, 2718);
}

/// The point the gradient is taken at, in double: the input as the pipeline sees it (16-bit
/// values over 65535, rounded to float), the remapping table of alpha and beta.
struct Point {
    int w, h;
    std::vector<double> in, lut;
    double alpha, beta;
    Point(const Buffer<uint16_t> &input, double alpha_, double beta_)
        : w(input.width()), h(input.height()), alpha(alpha_), beta(beta_) {
        for (size_t i = 0; i < input.number_of_elements(); i++)
            in.push_back((double)((float)input.data()[i] * (1.0f / 65535.0f)));
        lut = remap_table<double>(alpha);
    }
    /// L = sum of output * d_output by the reference in double, its integer decisions in
    /// `branches`.
    double loss(const Buffer<float> &d_out, std::vector<int> *branches) const {
        std::vector<double> out(in.size());
        local_laplacian_reference_values(in.data(), out.data(), w, h, lut, beta, kBackwardLevels,
                                         branches);
        double sum = 0;
        for (size_t i = 0; i < out.size(); i++) sum += out[i] * d_out.data()[i];
        return sum;
    }
};

struct Gradient {
    Buffer<float> d_input, d_remap_lut;
    float d_alpha, d_beta;
};

/// Runs `backward`, the backward pass (define_backward) of `p`, at alpha and beta.
Gradient run_backward(Pipeline &backward, LocalLaplacianPipeline &p, const Buffer<uint16_t> &in,
                      const Buffer<float> &d_out, float alpha, float beta) {
    p.input.set(in);
    p.d_output.set(d_out);
    p.set_alpha(alpha);
    p.beta.set(beta);
    Gradient g{Buffer<float>(in.width(), in.height(), 3), Buffer<float>(kLutSize), 0, 0};
    Buffer<float> d_alpha = Buffer<float>::make_scalar(), d_beta = Buffer<float>::make_scalar();
    backward.realize({g.d_input, g.d_remap_lut, d_alpha, d_beta});
    g.d_alpha = d_alpha();
    g.d_beta = d_beta();
    return g;
}

/// Checks the gradient of L = sum(float_output * d_output) against central differences of the
/// double reference. The output is only piecewise smooth (kinks where a remapped pixel moves to
/// another table entry, a coefficient to another pair of intensity levels, an output across 0
/// or 1), so each difference is taken only where the reference's integer decisions at both
/// ends of the step are those at the point (for alpha, beta and the table's entries, the test
/// asserts it). Steps of 1e-6 make crossings rare and keep double rounding of L (~w * h * 3
/// terms below 1: ~1e-13) ~1e-7 of the difference. The float pipeline agrees within 1e-5
/// relative for alpha and beta and 3e-5 for the pixels (measured: 3e-6, 4e-6), but only 2e-3
/// for the table's entries (measured: 6e-4 over all of them): their gradients sum the
/// interpolation weights pos - i of the pixels that read them, and pos, up to 3584, is rounded
/// to float's 2.4e-4 there.
void check_against_finite_differences(const Gradient &g, Point pt, const Buffer<float> &d_out) {
    std::vector<int> at_point, up_b, down_b;
    pt.loss(d_out, &at_point);
    // The central difference in x, a member of pt; true when no decision changed.
    auto central = [&](double &x, double step, double *fd) {
        const double saved = x;
        up_b.clear();
        down_b.clear();
        x = saved + step;
        double up = pt.loss(d_out, &up_b);
        x = saved - step;
        double down = pt.loss(d_out, &down_b);
        x = saved;
        *fd = (up - down) / (2 * step);
        return up_b == at_point && down_b == at_point;
    };
    // |got - fd| / max(1, |fd|), checked against tol.
    auto error = [&](double got, double fd, double tol, const std::string &what) {
        EXPECT_NEAR(got, fd, tol * std::max(1.0, std::fabs(fd))) << "d loss / d " << what;
        return std::fabs(got - fd) / std::max(1.0, std::fabs(fd));
    };
    double fd = 0;

    // beta, and alpha through the table it scales (remap_table<double> of alpha +- step).
    ASSERT_TRUE(central(pt.beta, 1e-6, &fd)) << "the step in beta crosses a kink";
    const double beta_error = error(g.d_beta, fd, 1e-5, "beta");
    EXPECT_GT(std::fabs(fd), 0.1);
    double alpha_error;
    {
        const double step = 1e-6, alpha = pt.alpha;
        Point up = pt, down = pt;
        up.lut = remap_table<double>(alpha + step);
        down.lut = remap_table<double>(alpha - step);
        std::vector<int> ub, db;
        double l_up = up.loss(d_out, &ub), l_down = down.loss(d_out, &db);
        ASSERT_TRUE(ub == at_point && db == at_point) << "the step in alpha crosses a kink";
        fd = (l_up - l_down) / (2 * step);
        alpha_error = error(g.d_alpha, fd, 1e-5, "alpha");
        EXPECT_GT(std::fabs(fd), 0.1);
    }

    // Every 31st entry of the table; the test image's gray values reach about half of them.
    int nonzero = 0;
    double lut_error = 0;
    for (int i = 0; i < kLutSize; i += 31) {
        ASSERT_TRUE(central(pt.lut[i], 1e-6, &fd)) << "entry " << i;
        lut_error = std::max(
            lut_error, error(g.d_remap_lut(i), fd, 2e-3, "remap_lut(" + std::to_string(i) + ")"));
        nonzero += fd != 0;
    }
    EXPECT_GT(nonzero, 40);

    // 100 pixels at random, and the four corners' (the repeated edges add up there).
    std::vector<std::array<int, 3>> pixels = {
        {0, 0, 0}, {pt.w - 1, 0, 1}, {0, pt.h - 1, 2}, {pt.w - 1, pt.h - 1, 0}};
    uint32_t state = 99;
    while (pixels.size() < 104) {
        state = state * 1664525u + 1013904223u;
        int x = (state >> 8) % pt.w, y = (state >> 16) % pt.h, c = (state >> 4) % 3;
        pixels.push_back({x, y, c});
    }
    int checked = 0;
    double largest = 0, input_error = 0;
    for (const auto &p : pixels) {
        double &v = pt.in[((size_t)p[2] * pt.h + p[1]) * pt.w + p[0]];
        if (!central(v, 1e-6, &fd)) continue;
        checked++;
        largest = std::max(largest, std::fabs(fd));
        input_error = std::max(input_error,
                               error(g.d_input(p[0], p[1], p[2]), fd, 3e-5,
                                     "input(" + std::to_string(p[0]) + ", " + std::to_string(p[1]) +
                                         ", " + std::to_string(p[2]) + ")"));
    }
    std::cout << "relative errors: beta " << beta_error << ", alpha " << alpha_error << ", table "
              << lut_error << " (" << nonzero << " entries used), input " << input_error << " ("
              << checked << " of " << pixels.size() << " pixels)\n";
    // Not vacuous: few pixels sit at a kink, and the gradient is not small.
    EXPECT_GE(checked, 90);
    EXPECT_GT(largest, 0.1);
}

} // namespace

TEST(LocalLaplacianApp, BackwardMatchesFiniteDifferences) {
    const int w = 40, h = 36;
    const float alpha = 1.5f, beta = 0.7f;
    Buffer<uint16_t> in = make_input(w, h);
    Buffer<float> d_out = make_adjoint(w, h);
    Point pt(in, alpha, beta);

    // Breadth-first (schedule_backward_root).
    LocalLaplacianPipeline plain(kBackwardLevels);
    plain.define_backward();
    plain.schedule_backward_root();
    Pipeline plain_backward({plain.d_input, plain.d_remap_lut, plain.d_alpha, plain.d_beta});
    Gradient g_plain = run_backward(plain_backward, plain, in, d_out, alpha, beta);
    check_against_finite_differences(g_plain, pt, d_out);

    // Scheduled by Li2018 (estimates at this size: 16 x 16 tiles, ragged at the edges), with
    // the app's compute_root hint.
    LocalLaplacianPipeline p(kBackwardLevels);
    p.define_backward();
    p.input.set_estimates({{0, w}, {0, h}, {0, 3}});
    p.d_output.set_estimates({{0, w}, {0, h}, {0, 3}});
    p.remap_lut.set_estimates({{0, kLutSize}});
    p.beta.set_estimate(beta);
    p.d_input.set_estimates({{0, w}, {0, h}, {0, 3}});
    p.d_remap_lut.set_estimates({{0, kLutSize}});
    p.d_alpha.set_estimates({});
    p.d_beta.set_estimates({});
    Pipeline backward({p.d_input, p.d_remap_lut, p.d_alpha, p.d_beta});
    backward.apply_autoscheduler(get_host_target(),
                                 {"Li2018", {{"compute_root", p.li2018_compute_root()}}});
    Gradient g_li2018 = run_backward(backward, p, in, d_out, alpha, beta);
    check_against_finite_differences(g_li2018, pt, d_out);

    // The two schedules sum in other orders; a gray value one float ulp apart (6e-8) moves a
    // table position pos by 1e-4, hence the table's looser bound.
    EXPECT_LE(app_compare::max_rel_error_typed<float>(g_li2018.d_input, g_plain.d_input), 1e-5);
    EXPECT_LE(app_compare::max_rel_error_typed<float>(g_li2018.d_remap_lut, g_plain.d_remap_lut),
              2e-3);
    EXPECT_NEAR(g_li2018.d_alpha, g_plain.d_alpha,
                2e-5 * std::max(1.0f, std::fabs(g_plain.d_alpha)));
    EXPECT_NEAR(g_li2018.d_beta, g_plain.d_beta, 2e-5 * std::max(1.0f, std::fabs(g_plain.d_beta)));
}
