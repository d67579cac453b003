// The FlowNet 2.0 warping layer app (apps/flow_warp): the forward pass against the naive
// reference, the backward pass (propagate_adjoints) against the reference's hand-derived
// gradient and against finite differences in double, and the CPU and Li2018 schedules against
// the reference in float.
#include "Halide.h"

#include "flow_warp/flow_warp.h"
#include "flow_warp/reference.h"

#include "common/finite_difference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace Halide;
using namespace flow_warp_detail;

namespace {

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
    Buffer<double> in, flow, d_out;
    /// Flows of up to 3 pixels either way, so samples fall between pixels at every fraction and
    /// those near the border partly or wholly outside the input (zero padding). With
    /// `integer_flows`, every fifth flow is a whole number of pixels (samples on a pixel, where
    /// the bilinear weights' kinks are).
    Case(int w_, int h_, int c_, int n_, uint32_t seed, bool integer_flows = false)
        : w(w_), h(h_), c(c_), n(n_) {
        in = loom_test::random_buffer<double>({w, h, c, n}, seed);
        flow = loom_test::random_buffer<double>({w, h, 2, n}, seed + 1, -3.0, 3.0);
        d_out = loom_test::random_buffer<double>({w, h, c, n}, seed + 2);
        if (integer_flows) {
            for (size_t i = 0; i < flow.number_of_elements(); i += 5) {
                flow.data()[i] = std::round(flow.data()[i]);
            }
        }
    }
    std::vector<double> forward() const {
        std::vector<double> out(in.number_of_elements());
        flow_warp_reference(in.data(), flow.data(), out.data(), w, h, c, n);
        return out;
    }
    void backward(std::vector<double> &d_in, std::vector<double> &d_flow) const {
        d_in.resize(in.number_of_elements());
        d_flow.resize(flow.number_of_elements());
        flow_warp_backward_reference(in.data(), flow.data(), d_out.data(), d_in.data(),
                                     d_flow.data(), w, h, c, n);
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

double max_abs(const std::vector<double> &v) {
    double m = 0;
    for (double x : v) m = std::max(m, std::fabs(x));
    return m;
}

/// Gives the pipeline estimates of the case's sizes and schedules both passes with Li2018.
void autoschedule(FlowWarpPipeline &p, const Case &k) {
    const Region image = {{0, k.w}, {0, k.h}, {0, k.c}, {0, k.n}};
    const Region flow = {{0, k.w}, {0, k.h}, {0, 2}, {0, k.n}};
    p.input.set_estimates(image);
    p.d_output.set_estimates(image);
    p.flow.set_estimates(flow);
    p.output.set_estimates(image);
    p.d_input.set_estimates(image);
    p.d_flow.set_estimates(flow);
    Pipeline(p.output).apply_autoscheduler(get_host_target(), {"Li2018"});
    Pipeline({p.d_input, p.d_flow}).apply_autoscheduler(get_host_target(), {"Li2018"});
}

/// The pipeline in double on the case: forward and backward against the reference.
void check_double(FlowWarpPipeline &p, const Case &k, double tol) {
    p.input.set(k.in);
    p.flow.set(k.flow);
    p.d_output.set(k.d_out);
    Buffer<double> out = p.output.realize({k.w, k.h, k.c, k.n});
    EXPECT_LE(max_error(out, k.forward()), tol);
    std::vector<double> d_in, d_flow;
    k.backward(d_in, d_flow);
    Buffer<double> got_in(k.w, k.h, k.c, k.n), got_flow(k.w, k.h, 2, k.n);
    Pipeline({p.d_input, p.d_flow}).realize({got_in, got_flow});
    EXPECT_LE(max_error(got_in, d_in), tol);
    EXPECT_LE(max_error(got_flow, d_flow), tol);
    // Not vacuous: some samples fall wholly outside the input (zeros), others inside, and both
    // gradients are far from zero.
    int zeros = 0;
    for (int b = 0; b < k.n; b++)
        for (int y = 0; y < k.h; y++)
            for (int x = 0; x < k.w; x++) zeros += out(x, y, 0, b) == 0;
    EXPECT_GT(zeros, 0);
    EXPECT_LT(zeros, k.w * k.h * k.n / 2);
    EXPECT_GT(max_abs(d_in), 0.1);
    EXPECT_GT(max_abs(d_flow), 0.1);
}

} // namespace

TEST(FlowWarpApp, ReferenceSamplesAtThePixelPlusItsFlow) {
    // The reference itself, on values that can be worked out by hand: a 3 x 2 image moved by
    // half a pixel right and a whole pixel down reads the row above, halfway between pixels.
    const int w = 3, h = 2;
    const double in[w * h] = {1, 2, 4, 8, 16, 32};
    double flow[w * h * 2], out[w * h];
    for (int i = 0; i < w * h; i++) flow[i] = -0.5, flow[w * h + i] = -1;
    flow_warp_reference(in, flow, out, w, h, 1, 1);
    // Row 0 samples row -1 (outside: zeros); row 1 samples row 0 at x - 0.5 (x = -0.5 blends
    // the zero outside with in(0, 0)).
    const double expected[w * h] = {0, 0, 0, 0.5, 1.5, 3};
    for (int i = 0; i < w * h; i++) EXPECT_EQ(out[i], expected[i]) << i;
}

TEST(FlowWarpApp, UnscheduledMatchesReferenceInDouble) {
    FlowWarpPipeline p(Float(64));
    check_double(p, Case(13, 11, 3, 2, 40, true), 1e-10);
}

TEST(FlowWarpApp, CpuScheduleMatchesReferenceInDouble) {
    FlowWarpPipeline p(Float(64));
    p.schedule_cpu(4);
    check_double(p, Case(19, 10, 4, 3, 50, true), 1e-10);
}

TEST(FlowWarpApp, Li2018AutoscheduleMatchesReferenceInDouble) {
    // Large enough for the scheduler's tiles (16 x 16): both passes scheduled by "Li2018".
    Case k(96, 64, 3, 2, 60, true);
    FlowWarpPipeline p(Float(64));
    autoschedule(p, k);
    check_double(p, k, 1e-10);
}

TEST(FlowWarpApp, GradientMatchesFiniteDifferences) {
    // loss = sum of output * d_output, whose gradient the backward pass computes.
    FlowWarpPipeline p(Float(64));
    Case k(7, 6, 2, 2, 70);
    p.input.set(k.in);
    p.flow.set(k.flow);
    p.d_output.set(k.d_out);
    RDom r(0, k.w, 0, k.h, 0, k.c, 0, k.n);
    Func loss("loss");
    loss() = cast<double>(0);
    loss() += p.output(r.x, r.y, r.z, r.w) * k.d_out(r.x, r.y, r.z, r.w);
    // The loss is linear in the input: central differences are exact up to rounding.
    loom_test::expect_gradient(loss, k.in, p.d_input, 1e-8);
    // In the flow it is piecewise smooth (the bilinear weights' kinks where a sample crosses a
    // pixel); a step of 1e-6 moves a sample by a millionth of a pixel, which with random flows
    // crosses none.
    loom_test::expect_gradient(loss, k.flow, p.d_flow, 1e-5, -1, 1e-6);
}

TEST(FlowWarpApp, FloatSchedulesMatchReference) {
    // Float32, as benchmarked: unscheduled, the CPU schedule and Li2018 against the double
    // reference.
    Case k(96, 40, 5, 2, 80);
    Buffer<float> in = cast_buffer<float>(k.in), flow = cast_buffer<float>(k.flow),
                  d_out = cast_buffer<float>(k.d_out);
    const std::vector<double> out_ref = k.forward();
    std::vector<double> d_in_ref, d_flow_ref;
    k.backward(d_in_ref, d_flow_ref);
    for (const std::string schedule : {"default", "hand", "Li2018"}) {
        SCOPED_TRACE(schedule);
        FlowWarpPipeline p;
        if (schedule == "hand") p.schedule_cpu(8);
        if (schedule == "Li2018") autoschedule(p, k);
        p.input.set(in);
        p.flow.set(flow);
        p.d_output.set(d_out);
        Buffer<float> out = p.output.realize({k.w, k.h, k.c, k.n});
        Buffer<float> d_in(k.w, k.h, k.c, k.n), d_flow(k.w, k.h, 2, k.n);
        Pipeline({p.d_input, p.d_flow}).realize({d_in, d_flow});
        // Float rounding of the sample positions (x + flow) moves them by ~1e-5 pixel; the
        // flow's gradient sums the channels' terms.
        EXPECT_LE(max_error(out, out_ref), 1e-4);
        EXPECT_LE(max_error(d_in, d_in_ref), 1e-4);
        EXPECT_LE(max_error(d_flow, d_flow_ref), 1e-4);
    }
}
