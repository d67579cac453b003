// The bilateral slicing app (apps/bilateral_slice): the forward pass against the naive
// reference, the backward pass (propagate_adjoints) against the reference's hand-derived
// gradients and against finite differences in double; unscheduled, the CPU schedule and the
// Li2018 autoscheduler's against the reference in float.
#include "Halide.h"

#include "bilateral_slice/bilateral_slice.h"
#include "bilateral_slice/reference.h"

#include "common/finite_difference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace Halide;
using namespace bilateral_slice_detail;

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
    Sizes s;
    Buffer<double> grid, guide, in, d_out;
    /// Guide values within `margin` of a cell centre (a kink of the trilinear weights) are moved
    /// off it, for the finite differences; otherwise two pixels get the guide's extremes, 0 and
    /// 1.
    Case(Sizes s_, uint32_t seed, double margin = 0) : s(s_) {
        grid = loom_test::random_buffer<double>({s.gw, s.gh, s.gd, 12, s.n}, seed);
        guide = loom_test::random_buffer<double>({s.w, s.h, s.n}, seed + 1, 0.0, 1.0);
        in = loom_test::random_buffer<double>({s.w, s.h, 3, s.n}, seed + 2);
        d_out = loom_test::random_buffer<double>({s.w, s.h, 3, s.n}, seed + 3);
        for (size_t i = 0; i < guide.number_of_elements(); i++) {
            double &g = guide.data()[i];
            double z = g * s.gd - 0.5, frac = z - std::floor(z);
            if (frac < margin) g += (margin - frac + 0.1) / s.gd;
            if (frac > 1 - margin) g -= (frac - 1 + margin + 0.1) / s.gd;
        }
        if (margin == 0) {
            guide(0, 0, 0) = 0;
            guide(s.w - 1, s.h - 1, s.n - 1) = 1;
        }
    }
    std::vector<double> forward() const {
        std::vector<double> out(in.number_of_elements());
        bilateral_slice_reference(s, grid.data(), guide.data(), in.data(), out.data());
        return out;
    }
    void backward(std::vector<double> &d_grid, std::vector<double> &d_guide,
                  std::vector<double> &d_in) const {
        d_grid.resize(grid.number_of_elements());
        d_guide.resize(guide.number_of_elements());
        d_in.resize(in.number_of_elements());
        bilateral_slice_backward_reference(s, grid.data(), guide.data(), in.data(), d_out.data(),
                                           d_grid.data(), d_guide.data(), d_in.data());
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

void bind(BilateralSlicePipeline &p, const Buffer<> &grid, const Buffer<> &guide,
          const Buffer<> &in, const Buffer<> &d_out) {
    p.grid.set(grid);
    p.guide.set(guide);
    p.input.set(in);
    p.d_output.set(d_out);
}

/// The pipeline's forward and backward passes, realized in type T: out, d_grid, d_guide, d_in.
template <typename T>
std::vector<Buffer<T>> run(BilateralSlicePipeline &p, const Sizes &s) {
    Buffer<T> out = p.output.realize({s.w, s.h, 3, s.n});
    Buffer<T> d_grid(s.gw, s.gh, s.gd, 12, s.n), d_guide(s.w, s.h, s.n), d_in(s.w, s.h, 3, s.n);
    Pipeline({p.d_grid, p.d_guide, p.d_input}).realize({d_grid, d_guide, d_in});
    return {out, d_grid, d_guide, d_in};
}

/// The pipeline in double on the case: forward and backward against the reference.
void check_double(BilateralSlicePipeline &p, const Case &k, double tol) {
    bind(p, k.grid, k.guide, k.in, k.d_out);
    std::vector<Buffer<double>> got = run<double>(p, k.s);
    std::vector<double> d_grid, d_guide, d_in;
    k.backward(d_grid, d_guide, d_in);
    EXPECT_LE(max_error(got[0], k.forward()), tol) << "output";
    EXPECT_LE(max_error(got[1], d_grid), tol) << "d_grid";
    EXPECT_LE(max_error(got[2], d_guide), tol) << "d_guide";
    EXPECT_LE(max_error(got[3], d_in), tol) << "d_input";
    // Not vacuous: every gradient has sizeable entries, and the grid's edge cells (where the
    // clamped taps land) receive some.
    for (const std::vector<double> *g : {&d_grid, &d_guide, &d_in}) {
        double largest = 0;
        for (double v : *g) largest = std::max(largest, std::fabs(v));
        EXPECT_GT(largest, 0.1);
    }
    EXPECT_NE(d_grid[0], 0.0);
}

/// Estimates of the case's sizes for the autoscheduler, on every input and output.
void set_estimates(BilateralSlicePipeline &p, const Sizes &s) {
    const Region image = {{0, s.w}, {0, s.h}, {0, 3}, {0, s.n}};
    const Region plane = {{0, s.w}, {0, s.h}, {0, s.n}};
    const Region cells = {{0, s.gw}, {0, s.gh}, {0, s.gd}, {0, 12}, {0, s.n}};
    p.grid.set_estimates(cells);
    p.guide.set_estimates(plane);
    p.input.set_estimates(image);
    p.d_output.set_estimates(image);
    p.output.set_estimates(image);
    p.d_grid.set_estimates(cells);
    p.d_guide.set_estimates(plane);
    p.d_input.set_estimates(image);
}

} // namespace

TEST(BilateralSliceApp, UnscheduledMatchesReferenceInDouble) {
    BilateralSlicePipeline p(Float(64));
    check_double(p, Case({23, 17, 2, 5, 4, 4}, 10), 1e-10);
}

TEST(BilateralSliceApp, CpuScheduleMatchesReferenceInDouble) {
    BilateralSlicePipeline p(Float(64));
    p.schedule_cpu(4);
    check_double(p, Case({37, 21, 3, 6, 5, 8}, 20), 1e-10);
}

TEST(BilateralSliceApp, GradientMatchesFiniteDifferences) {
    // loss = sum of output * d_output, whose gradient the backward pass computes.
    BilateralSlicePipeline p(Float(64));
    Case k({9, 7, 2, 3, 3, 4}, 50, 0.05);
    bind(p, k.grid, k.guide, k.in, k.d_out);
    RDom r(0, k.s.w, 0, k.s.h, 0, 3, 0, k.s.n);
    Func loss("loss");
    loss() = cast<double>(0);
    loss() += p.output(r.x, r.y, r.z, r.w) * k.d_out(r.x, r.y, r.z, r.w);
    // Compiled once here, the copies expect_gradient realizes share the compiled pipeline;
    // otherwise each would lower it again (without the disk cache, as under ctest, ~70 ms each).
    loss.compile_jit();
    // The loss is linear in the grid and in the input: central differences are exact up to
    // rounding.
    loom_test::expect_gradient(loss, k.grid, p.d_grid, 1e-8);
    loom_test::expect_gradient(loss, k.in, p.d_input, 1e-8);
    // In the guide it is piecewise linear, with kinks where the guide crosses a cell centre
    // (the taps change): the guide keeps 0.05 cells away from them, and a step of 1e-6 cells
    // does not cross one, so central differences are exact up to rounding there too.
    loom_test::expect_gradient(loss, k.guide, p.d_guide, 1e-8, -1, 1e-6);
}

TEST(BilateralSliceApp, FloatSchedulesAgree) {
    // Float32, as benchmarked: unscheduled, the CPU schedule and both passes scheduled by
    // "Li2018" (at a size large enough for its 16 x 16 tiles) against the double reference.
    const Sizes s = {64, 48, 2, 5, 4, 8};
    Case k(s, 60);
    Buffer<float> grid = cast_buffer<float>(k.grid), guide = cast_buffer<float>(k.guide),
                  in = cast_buffer<float>(k.in), d_out = cast_buffer<float>(k.d_out);
    std::vector<double> expected[4];
    expected[0] = k.forward();
    k.backward(expected[1], expected[2], expected[3]);
    const char *names[4] = {"output", "d_grid", "d_guide", "d_input"};
    for (int schedule = 0; schedule < 3; schedule++) {
        BilateralSlicePipeline p;
        if (schedule == 1) p.schedule_cpu(8);
        if (schedule == 2) {
            set_estimates(p, s);
            Pipeline(p.output).apply_autoscheduler(get_host_target(), {"Li2018"});
            const std::string source = Pipeline({p.d_grid, p.d_guide, p.d_input})
                                           .apply_autoscheduler(get_host_target(), {"Li2018"})
                                           .schedule_source;
            // The first scatter into the grid's gradient runs in parallel over one of its
            // RVars (race-free: the coefficient or the image).
            const size_t scatter = source.find(".update(0)");
            ASSERT_NE(scatter, std::string::npos) << source;
            EXPECT_NE(source.find(".parallel(", scatter), std::string::npos) << source;
        }
        bind(p, grid, guide, in, d_out);
        std::vector<Buffer<float>> got = run<float>(p, s);
        // Float rounding of the positions and of d_grid's sums (hundreds of pixels' terms per
        // cell, in another order under each schedule).
        for (int i = 0; i < 4; i++) {
            EXPECT_LE(max_error(got[i], expected[i]), 1e-4)
                << names[i] << " under schedule " << schedule;
        }
    }
}
