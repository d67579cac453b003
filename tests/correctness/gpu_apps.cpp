// The apps' GPU schedules (schedule_gpu() in apps/<name>/<name>.h) against each app's naive
// reference (apps/<name>/reference.h), on small inputs with sizes that are not multiples of the
// tiles. Integer outputs must match exactly; float outputs within a small relative tolerance,
// stated per app: the GPU compilers contract multiply-adds into fused ones (OpenCL C and PTX
// allow it by default), and their exp is not the CPU's. The conventions are those of
// tests/correctness/gpu_schedules.cpp: the target comes from LOOM_GPU_TARGET ("host-opencl", PoCL
// in CI, by default), LOOM_SKIP_OPENCL=1 skips the OpenCL runs, and LOOM_GPU_COMPILE_ONLY=1 only
// compiles each pipeline (the ptxas check of tests/gpu/check_ptx.sh).
#include "Halide.h"

#include "bilateral_grid/bilateral_grid.h"
#include "bilateral_grid/reference.h"
#include "blur/blur.h"
#include "blur/reference.h"
#include "camera_pipe/camera_pipe.h"
#include "camera_pipe/reference.h"
#include "conv_layer/conv_layer.h"
#include "conv_layer/conv_layer_params.h"
#include "conv_layer/reference.h"
#include "harris/harris.h"
#include "harris/reference.h"
#include "hist_eq/hist_eq.h"
#include "hist_eq/reference.h"
#include "interpolate/interpolate.h"
#include "interpolate/reference.h"
#include "local_laplacian/local_laplacian.h"
#include "local_laplacian/reference.h"
#include "matmul/matmul.h"
#include "matmul/matmul_params.h"
#include "matmul/reference.h"
#include "max_filter/max_filter.h"
#include "max_filter/reference.h"
#include "nl_means/nl_means.h"
#include "nl_means/reference.h"
#include "unsharp/reference.h"
#include "unsharp/unsharp.h"

#include <gtest/gtest.h>

#include "common/gpu_test_env.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using namespace Halide;

namespace {

Target gpu_target() { return Target(gpu_target_name()); }

/// Realizes `f` over `sizes` on the GPU target into `out`, or, with LOOM_GPU_COMPILE_ONLY=1,
/// only compiles it and returns false (nothing to compare).
template <typename T>
bool run_on_gpu(Func f, const std::vector<int> &sizes, Buffer<T> &out) {
    if (compile_only()) {
        f.compile_jit(gpu_target());
        return false;
    }
    out = f.realize(sizes, gpu_target());
    return true;
}

/// Every value of `out` (dense, in the reference's layout: dimension 0 fastest) equal to the
/// reference's, or within `max_diff` of it.
template <typename T>
void expect_equal(const Buffer<T> &out, const std::vector<T> &expected, int max_diff = 0) {
    ASSERT_EQ((size_t)out.number_of_elements(), expected.size());
    int mismatches = 0;
    for (size_t i = 0; i < expected.size(); i++) {
        int diff = std::abs((int)out.data()[i] - (int)expected[i]);
        if (diff > max_diff && mismatches++ < 5) {
            ADD_FAILURE() << "element " << i << ": expected " << (int)expected[i] << ", got "
                          << (int)out.data()[i];
        }
    }
    EXPECT_EQ(mismatches, 0);
}

/// Every value of `out` within tol * max(floor, |expected|) of the reference's.
void expect_close(const Buffer<float> &out, const std::vector<float> &expected, double tol,
                  double floor = 1.0) {
    ASSERT_EQ((size_t)out.number_of_elements(), expected.size());
    int mismatches = 0;
    double worst = 0;
    for (size_t i = 0; i < expected.size(); i++) {
        double e = expected[i], a = out.data()[i];
        double err = std::fabs(a - e) / std::max(floor, std::fabs(e));
        worst = std::max(worst, err);
        if (!(err <= tol) && mismatches++ < 5) {
            ADD_FAILURE() << "element " << i << ": expected " << e << ", got " << a;
        }
    }
    EXPECT_EQ(mismatches, 0);
    ::testing::Test::RecordProperty("worst_relative_error", std::to_string(worst));
}

/// A fixed-seed stream of floats uniform in [0, 1).
struct Noise {
    uint32_t state;
    float next() {
        state = state * 1664525u + 1013904223u;
        return (float)(state >> 8) / (float)(1u << 24);
    }
};

/// A planar float image in [0, 1] of w x h (x channels): ramps, noise and a bright square.
Buffer<float> float_image(int w, int h, int channels, uint32_t seed) {
    Buffer<float> in = channels > 0 ? Buffer<float>(w, h, channels) : Buffer<float>(w, h);
    Noise noise{seed};
    in.for_each_element([&](const int *p) {
        int x = p[0], y = p[1], c = channels > 0 ? p[2] : 0;
        float v = 0.5f * x / w + 0.2f * y / h + 0.1f * c + 0.2f * noise.next();
        if (x >= w / 3 && x < w / 3 + 12 && y >= h / 4 && y < h / 4 + 12) v = 0.95f - 0.1f * c;
        in(p) = std::min(std::max(v, 0.0f), 1.0f);
    });
    return in;
}

template <typename T>
std::vector<T> output_like(int n) {
    return std::vector<T>((size_t)n);
}

} // namespace

// uint16 arithmetic: bit-exact.
TEST(GpuApps, Blur) {
    REQUIRE_GPU();
    BlurPipeline p;
    p.schedule_gpu();
    for (auto [w, h] : {std::pair{67, 45}, std::pair{13, 9}}) {
        Buffer<uint16_t> in(w, h);
        Noise noise{7};
        in.for_each_value([&](uint16_t &v) { v = (uint16_t)(noise.next() * 65535.0f); });
        p.input.set(in);
        Buffer<uint16_t> out;
        if (!run_on_gpu(p.blur_y, {w, h}, out)) return;
        std::vector<uint16_t> expected = output_like<uint16_t>(w * h);
        blur_reference(in.data(), expected.data(), w, h);
        expect_equal(out, expected);
    }
}

// The grid's counts are exact; the sums, blurs and interpolation round as the reference's except
// where a multiply-add is fused: 1e-5 relative, as in tests/apps/bilateral_grid.cpp (an
// off-by-one cell or bin moves values by 1e-2 or more).
TEST(GpuApps, BilateralGrid) {
    REQUIRE_GPU();
    BilateralGridPipeline p;
    p.schedule_gpu();
    const int w = 67, h = 45;
    const float r_sigma = 0.1f;
    Buffer<float> in = float_image(w, h, 0, 777);
    p.input.set(in);
    p.r_sigma.set(r_sigma);
    Buffer<float> out;
    if (!run_on_gpu(p.output, {w, h}, out)) return;
    std::vector<float> expected = output_like<float>(w * h);
    bilateral_grid_reference(in.data(), expected.data(), w, h, r_sigma);
    expect_close(out, expected, 1e-5);
}

// Integer arithmetic throughout: bit-exact.
TEST(GpuApps, CameraPipe) {
    REQUIRE_GPU();
    using namespace camera_pipe_detail;
    CameraPipePipeline p;
    p.schedule_gpu();
    const int W = 99, H = 73, w = W - 2 * kShiftX, h = H - 2 * kShiftY;
    Buffer<uint16_t> raw(W, H);
    Noise noise{4242};
    raw.for_each_element([&](int X, int Y) {
        float v = 0.3f + 0.4f * X / W + ((X + 2 * Y > W) ? 0.2f : 0.0f);
        int value = (int)(25 + v * 900) + (int)(noise.next() * 32) - 16;
        if (noise.next() < 0.01f) value = 1023; // a hot pixel
        raw(X, Y) = (uint16_t)std::min(std::max(value, 0), 1023);
    });
    p.input.set(raw);
    Buffer<uint8_t> out;
    if (!run_on_gpu(p.output, {w, h, 3}, out)) return;
    std::vector<uint8_t> expected = output_like<uint8_t>(w * h * 3);
    camera_pipe_reference(raw.data(), W, H, expected.data(), kColorTemp, kGamma, kContrast,
                          kSharpen);
    expect_equal(out, expected);
}

// Float pyramids, uint16 output: as in tests/apps/local_laplacian.cpp, at most 2 of 65535 (an
// ulp of a fused multiply-add carried up the pyramid), far below what a wrong tap, level or
// weight causes.
TEST(GpuApps, LocalLaplacian) {
    REQUIRE_GPU();
    // 5 levels: the coarsest uses the small tiles.
    const int levels = 5, w = 67, h = 45;
    const float alpha = 2.0f, beta = 0.6f;
    LocalLaplacianPipeline p(levels);
    p.schedule_gpu();
    Buffer<uint16_t> in(w, h, 3);
    Buffer<float> f = float_image(w, h, 3, 31337);
    in.for_each_element([&](int x, int y, int c) { in(x, y, c) = (uint16_t)(f(x, y, c) * 65535); });
    p.input.set(in);
    p.set_alpha(alpha);
    p.beta.set(beta);
    Buffer<uint16_t> out;
    if (!run_on_gpu(p.output, {w, h, 3}, out)) return;
    std::vector<uint16_t> expected = output_like<uint16_t>(w * h * 3);
    local_laplacian_reference(in.data(), expected.data(), w, h, alpha, beta, levels);
    expect_equal(out, expected, 2);
}

// det - k trace^2 cancels two products, so the error is bounded relative to the image's largest
// response (as in tests/apps/harris.cpp): 1e-5 of max(1, peak), room for fused multiply-adds.
TEST(GpuApps, Harris) {
    REQUIRE_GPU();
    HarrisPipeline p;
    p.schedule_gpu();
    const int w = 67, h = 45;
    Buffer<float> in = float_image(w, h, 3, 99);
    p.input.set(in);
    Buffer<float> out;
    if (!run_on_gpu(p.output, {w, h}, out)) return;
    std::vector<float> expected = output_like<float>(w * h);
    harris_reference(in.data(), expected.data(), w, h);
    float peak = 0;
    for (float e : expected) peak = std::max(peak, std::fabs(e));
    expect_close(out, expected, 1e-5, std::max(1.0f, peak));
}

// Same operations in the same order as the reference; 1e-5 relative leaves room for fused
// multiply-adds (as in tests/apps/unsharp.cpp).
TEST(GpuApps, Unsharp) {
    REQUIRE_GPU();
    UnsharpPipeline p;
    p.schedule_gpu();
    const int w = 67, h = 45;
    Buffer<float> in = float_image(w, h, 3, 5);
    p.input.set(in);
    p.weight.set(1.0f);
    Buffer<float> out;
    if (!run_on_gpu(p.output, {w, h, 3}, out)) return;
    std::vector<float> expected = output_like<float>(w * h * 3);
    unsharp_reference(in.data(), expected.data(), w, h, 1.0f);
    expect_close(out, expected, 1e-5);
}

// Same sums in the same order; 1e-5 relative, as in tests/apps/interpolate.cpp (fused
// multiply-adds, and the final division by alpha).
TEST(GpuApps, Interpolate) {
    REQUIRE_GPU();
    const int levels = 5, w = 70, h = 45;
    InterpolatePipeline p(levels);
    p.schedule_gpu();
    Buffer<float> in = float_image(w, h, 4, 4242);
    in.for_each_element([&](int x, int y) {
        in(x, y, 3) = x < 9 ? 0.0f : interpolate_detail::alpha_pattern(x, y);
    });
    p.input.set(in);
    Buffer<float> out;
    if (!run_on_gpu(p.output, {w, h, 3}, out)) return;
    std::vector<float> expected = output_like<float>(w * h * 3);
    interpolate_reference(in.data(), expected.data(), w, h, levels);
    expect_close(out, expected, 1e-5);
}

// The schedule sums in the reference's order; a fused multiply-add rounds each of the 9 * ci
// steps once instead of twice: 1e-5 relative (as in tests/apps/conv_layer.cpp). 24 output
// channels and 13 pixels: neither a multiple of the 32 x 4 blocks.
TEST(GpuApps, ConvLayer) {
    REQUIRE_GPU();
    using namespace conv_layer_detail;
    ConvLayerPipeline p;
    p.schedule_gpu();
    const int ci = 8, co = 24, w = 13, h = 9, n = 2;
    Buffer<float> in(ci, w, h, n), filter(co, ci, 3, 3), bias(co);
    fill_uniform(in.data(), (long)in.number_of_elements(), 31);
    fill_uniform(filter.data(), (long)filter.number_of_elements(), 32, he_uniform_scale(9 * ci));
    fill_uniform(bias.data(), co, 33, 0.5f);
    p.input.set(in);
    p.filter.set(filter);
    p.bias.set(bias);
    Buffer<float> out;
    if (!run_on_gpu(p.output, {co, w, h, n}, out)) return;
    std::vector<float> expected = output_like<float>(co * w * h * n);
    conv_relu_reference(in.data(), filter.data(), bias.data(), expected.data(), ci, co, w, h, n);
    expect_close(out, expected, 1e-5);
}

// Both add the k products in increasing k; fused multiply-adds differ by k half-ulps of the
// partial sums: 1e-5 relative (as in tests/apps/matmul.cpp).
TEST(GpuApps, Matmul) {
    REQUIRE_GPU();
    MatmulPipeline p;
    p.schedule_gpu();
    const int m = 37, k = 29, n = 45;
    Buffer<float> a(k, m), b(n, k);
    matmul_detail::fill_uniform(a.data(), (long)k * m, 7);
    matmul_detail::fill_uniform(b.data(), (long)n * k, 8);
    p.A.set(a);
    p.B.set(b);
    Buffer<float> out;
    if (!run_on_gpu(p.output, {n, m}, out)) return;
    std::vector<float> expected = output_like<float>(m * n);
    matmul_reference(a.data(), b.data(), expected.data(), m, k, n);
    expect_close(out, expected, 1e-5);
}

// The device's exp is not the CPU's (a few ulp), and a weighted mean of values in [0, 1] passes
// a weight's relative error to the output at most once: 2e-5 relative, as in
// tests/apps/nl_means.cpp.
TEST(GpuApps, NlMeans) {
    REQUIRE_GPU();
    NlMeansPipeline p;
    p.schedule_gpu();
    const int w = 41, h = 30;
    const float sigma = 0.12f;
    Buffer<float> in = float_image(w, h, 3, 11);
    p.input.set(in);
    p.sigma.set(sigma);
    Buffer<float> out;
    if (!run_on_gpu(p.output, {w, h, 3}, out)) return;
    std::vector<float> expected = output_like<float>(w * h * 3);
    nl_means_reference(in.data(), expected.data(), w, h, sigma);
    expect_close(out, expected, 2e-5);
}

// Maxima of floats are exact.
TEST(GpuApps, MaxFilter) {
    REQUIRE_GPU();
    const int radius = 7, w = 67, h = 45;
    MaxFilterPipeline p(radius);
    p.schedule_gpu();
    Buffer<float> in = float_image(w, h, 3, 3);
    p.input.set(in);
    Buffer<float> out;
    if (!run_on_gpu(p.output, {w, h, 3}, out)) return;
    std::vector<float> expected = output_like<float>(w * h * 3);
    max_filter_reference(in.data(), expected.data(), w, h, 3, radius);
    expect_close(out, expected, 0);
}

// Integer counts and a table lookup: bit-exact.
TEST(GpuApps, HistEq) {
    REQUIRE_GPU();
    HistEqPipeline p;
    p.schedule_gpu();
    for (auto [w, h] : {std::pair{75, 131}, std::pair{64, 48}}) {
        Buffer<uint8_t> in(w, h);
        Noise noise{123};
        // Skewed towards dark values, so the equalization moves them.
        in.for_each_value([&](uint8_t &v) { v = (uint8_t)(255 * std::pow(noise.next(), 3.0f)); });
        p.input.set(in);
        Buffer<uint8_t> out;
        if (!run_on_gpu(p.output, {w, h}, out)) return;
        std::vector<uint8_t> expected = output_like<uint8_t>(w * h);
        hist_eq_reference(in.data(), expected.data(), w, h);
        expect_equal(out, expected);
    }
}
