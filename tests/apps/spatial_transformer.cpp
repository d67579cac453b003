// The spatial transformer app (apps/spatial_transformer): the forward pass against the naive
// reference, the backward pass (propagate_adjoints) against the reference's hand-derived
// gradient and against finite differences in double, and the CPU schedule against the
// unscheduled pipeline.
#include "Halide.h"

#include "spatial_transformer/reference.h"
#include "spatial_transformer/spatial_transformer.h"

#include "common/finite_difference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace Halide;
using namespace spatial_transformer_detail;

namespace {

/// Affine matrices that rotate, scale, shear and shift each image differently, so samples fall
/// between pixels at every fraction and some fall outside the input (zero padding).
Buffer<double> random_theta(int n, uint32_t seed) {
    Buffer<double> t = loom_test::random_buffer<double>({3, 2, n}, seed, -0.3, 0.3);
    for (int b = 0; b < n; b++) {
        t(0, 0, b) += 1.0;
        t(1, 1, b) += 1.0;
    }
    return t;
}

template <typename T>
Buffer<T> cast_buffer(const Buffer<double> &b) {
    std::vector<int> sizes;
    for (int d = 0; d < b.dimensions(); d++) sizes.push_back(b.dim(d).extent());
    Buffer<T> out(sizes);
    for (size_t i = 0; i < b.number_of_elements(); i++) out.data()[i] = (T)b.data()[i];
    return out;
}

struct Case {
    int w, h, c, n;
    Buffer<double> in, theta, d_out;
    Case(int w_, int h_, int c_, int n_, uint32_t seed) : w(w_), h(h_), c(c_), n(n_) {
        in = loom_test::random_buffer<double>({w, h, c, n}, seed);
        theta = random_theta(n, seed + 1);
        d_out = loom_test::random_buffer<double>({w, h, c, n}, seed + 2);
    }
    std::vector<double> forward() const {
        std::vector<double> out(in.number_of_elements());
        spatial_transformer_reference(in.data(), theta.data(), out.data(), w, h, c, n);
        return out;
    }
    void backward(std::vector<double> &d_in, std::vector<double> &d_theta) const {
        d_in.resize(in.number_of_elements());
        d_theta.resize(theta.number_of_elements());
        spatial_transformer_backward_reference(in.data(), theta.data(), d_out.data(), d_in.data(),
                                               d_theta.data(), w, h, c, n);
    }
};

/// max |got - expected| / max(1, |expected|) over all elements.
template <typename T>
double max_error(const Buffer<T> &got, const std::vector<double> &expected) {
    EXPECT_EQ(got.number_of_elements(), expected.size());
    double worst = 0;
    for (size_t i = 0; i < expected.size(); i++) {
        worst = std::max(worst, std::fabs((double)got.data()[i] - expected[i]) /
                                    std::max(1.0, std::fabs(expected[i])));
    }
    return worst;
}

/// The pipeline in double on the case: forward and backward against the reference.
void check_double(SpatialTransformerPipeline &p, const Case &k, double tol) {
    p.input.set(k.in);
    p.theta.set(k.theta);
    p.d_output.set(k.d_out);
    Buffer<double> out = p.output.realize({k.w, k.h, k.c, k.n});
    EXPECT_LE(max_error(out, k.forward()), tol);
    std::vector<double> d_in, d_theta;
    k.backward(d_in, d_theta);
    Buffer<double> got_in(k.w, k.h, k.c, k.n), got_theta(3, 2, k.n);
    Pipeline({p.d_input, p.d_theta}).realize({got_in, got_theta});
    EXPECT_LE(max_error(got_in, d_in), tol);
    EXPECT_LE(max_error(got_theta, d_theta), tol);
    // Not vacuous: the samples reach outside the input (zeros) and the gradients are not zero.
    int zeros = 0;
    for (int b = 0; b < k.n; b++)
        for (int y = 0; y < k.h; y++)
            for (int x = 0; x < k.w; x++) zeros += out(x, y, 0, b) == 0;
    EXPECT_GT(zeros, 0);
    double largest = 0;
    for (double g : d_theta) largest = std::max(largest, std::fabs(g));
    EXPECT_GT(largest, 1e-3);
}

} // namespace

TEST(SpatialTransformerApp, UnscheduledMatchesReferenceInDouble) {
    SpatialTransformerPipeline p(Float(64));
    check_double(p, Case(13, 11, 3, 2, 40), 1e-10);
}

TEST(SpatialTransformerApp, CpuScheduleMatchesReferenceInDouble) {
    SpatialTransformerPipeline p(Float(64));
    p.schedule_cpu(4);
    check_double(p, Case(19, 10, 4, 3, 50), 1e-10);
}

TEST(SpatialTransformerApp, Li2018AutoscheduleMatchesReferenceInDouble) {
    // Large enough for the scheduler's tiles (16 x 16) and parallel reductions (theta's
    // gradient sums each image's pixels): both passes scheduled by "Li2018".
    const int w = 96, h = 64, c = 3, n = 2;
    SpatialTransformerPipeline p(Float(64));
    p.input.set_estimates({{0, w}, {0, h}, {0, c}, {0, n}});
    p.d_output.set_estimates({{0, w}, {0, h}, {0, c}, {0, n}});
    p.theta.set_estimates({{0, 3}, {0, 2}, {0, n}});
    p.output.set_estimates({{0, w}, {0, h}, {0, c}, {0, n}});
    p.d_input.set_estimates({{0, w}, {0, h}, {0, c}, {0, n}});
    p.d_theta.set_estimates({{0, 3}, {0, 2}, {0, n}});
    Pipeline(p.output).apply_autoscheduler(get_host_target(), {"Li2018"});
    const std::string source = Pipeline({p.d_input, p.d_theta})
                                   .apply_autoscheduler(get_host_target(), {"Li2018"})
                                   .schedule_source;
    EXPECT_NE(source.find(".rfactor({"), std::string::npos) << source;
    check_double(p, Case(w, h, c, n, 60), 1e-10);
}

TEST(SpatialTransformerApp, GradientMatchesFiniteDifferences) {
    // loss = sum of output * d_output, whose gradient the backward pass computes.
    SpatialTransformerPipeline p(Float(64));
    Case k(7, 6, 2, 2, 60);
    p.input.set(k.in);
    p.theta.set(k.theta);
    p.d_output.set(k.d_out);
    RDom r(0, k.w, 0, k.h, 0, k.c, 0, k.n);
    Func loss("loss");
    loss() = cast<double>(0);
    loss() += p.output(r.x, r.y, r.z, r.w) * k.d_out(r.x, r.y, r.z, r.w);
    // The loss is linear in the input: central differences are exact up to rounding.
    loom_test::expect_gradient(loss, k.in, p.d_input, 1e-8);
    // In theta it is piecewise smooth (the bilinear weights' kinks at pixel boundaries); a
    // step of 1e-6 moves samples by a few millionths of a pixel, rarely across one.
    loom_test::expect_gradient(loss, k.theta, p.d_theta, 1e-5, -1, 1e-6);
}

TEST(SpatialTransformerApp, FloatSchedulesAgree) {
    // Float32, as benchmarked: the CPU schedule against the unscheduled pipeline, and both
    // against the double reference.
    Case k(37, 21, 3, 2, 70);
    Buffer<float> in = cast_buffer<float>(k.in), theta = cast_buffer<float>(k.theta),
                  d_out = cast_buffer<float>(k.d_out);
    std::vector<double> d_in_ref, d_theta_ref;
    k.backward(d_in_ref, d_theta_ref);
    std::vector<Buffer<float>> results[2];
    for (int scheduled = 0; scheduled < 2; scheduled++) {
        SpatialTransformerPipeline p;
        if (scheduled) p.schedule_cpu(8);
        p.input.set(in);
        p.theta.set(theta);
        p.d_output.set(d_out);
        Buffer<float> out = p.output.realize({k.w, k.h, k.c, k.n});
        Buffer<float> d_in(k.w, k.h, k.c, k.n), d_theta(3, 2, k.n);
        Pipeline({p.d_input, p.d_theta}).realize({d_in, d_theta});
        // Float rounding of the sample positions moves them by ~1e-6 pixel.
        EXPECT_LE(max_error(out, k.forward()), 1e-4);
        EXPECT_LE(max_error(d_in, d_in_ref), 1e-4);
        EXPECT_LE(max_error(d_theta, d_theta_ref), 1e-3);
        results[scheduled] = {out, d_in, d_theta};
    }
    // As against the reference: theta's gradient sums every pixel's term, in another order
    // under each schedule.
    const double tolerance[3] = {1e-4, 1e-4, 1e-3};
    for (int i = 0; i < 3; i++) {
        const Buffer<float> &a = results[0][i], &b = results[1][i];
        std::vector<double> expected(a.data(), a.data() + a.number_of_elements());
        EXPECT_LE(max_error(b, expected), tolerance[i]) << "output " << i;
    }
}
