// The non-blind deconvolution app (apps/deconvolution): the forward pass (the unrolled
// steepest-descent solves, whose gradients and Hessian-vector products come from
// propagate_adjoints) against the plain-loops reference with hand-derived gradient and Hessian,
// in double; that it sharpens (PSNR above the blurry input's); and the gradient of the training
// loss with respect to every parameter (third derivatives of the energy) against central finite
// differences of the reference's loss. On a synthetic scene blurred by a synthetic motion PSF.
//
// Small on purpose: 2 stages of 1 step each on 24 x 20. The training pipeline (loss and
// gradients, ~700 loop nests) takes Loom about half a minute to JIT-compile (see README.md).
#include "Halide.h"

#include "deconvolution/deconvolution.h"
#include "deconvolution/reference.h"

#include "common/finite_difference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

using namespace Halide;
using namespace deconvolution_detail;
using loom_test::to_buffer;
using loom_test::to_vector;

namespace {

/// A deterministic w x h scene in [0.1, 0.8]: a ramp, a disc, a dark rectangle and a striped
/// corner, placed by the seed.
std::vector<double> make_scene(int w, int h, uint32_t seed) {
    std::vector<double> v((size_t)w * h);
    std::mt19937 rng(seed);
    auto u = [&] { return (rng() + 0.5) / 4294967296.0; };
    const double cx = w * (0.3 + 0.4 * u()), cy = h * (0.3 + 0.4 * u()), r = 0.25 * std::min(w, h);
    const double x0 = w * 0.1 * (1 + u()), y0 = h * 0.55, x1 = w * 0.55, y1 = h * 0.9;
    const double phase = 6.28 * u();
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double val = 0.25 + 0.3 * x / w;
            if ((x - cx) * (x - cx) + (y - cy) * (y - cy) < r * r) val = 0.8;
            if (x >= x0 && x < x1 && y >= y0 && y < y1) val = 0.1;
            if (x + 2 * y > 1.6 * w + 0.6 * h) val = 0.6 + 0.2 * std::sin(0.9 * x + phase);
            v[(size_t)y * w + x] = val;
        }
    return v;
}

/// The parameters of `stages` stages: the initial ones, optionally perturbed (so that no filter
/// keeps its symmetry and the weights and thresholds differ).
struct Params {
    Buffer<double> filters, log_weights, thresholds, range_sigma;
    Params(int stages, double perturbation, uint32_t seed)
        : filters(kFilterTaps, kFilterTaps, kFilters, stages), log_weights(kFilters, stages),
          thresholds(kFilters, stages - 1), range_sigma(stages - 1) {
        initial_parameters(filters, log_weights, thresholds, range_sigma);
        std::mt19937 rng(seed);
        std::uniform_real_distribution<double> d(-perturbation, perturbation);
        for (Buffer<double> *p : {&filters, &log_weights, &thresholds})
            for (size_t e = 0; e < p->number_of_elements(); e++) p->data()[e] += d(rng);
        for (size_t e = 0; e < range_sigma.number_of_elements(); e++)
            range_sigma.data()[e] *= 1 + d(rng);
    }
    ReferenceParameters<double> reference() const {
        return {to_vector(filters), to_vector(log_weights), to_vector(thresholds),
                to_vector(range_sigma)};
    }
};

/// A scene, its blurred noisy version, the PSF, and the pipeline bound to them.
struct Case {
    int w, h, size, margin;
    std::vector<double> sharp, psf, blurry;
    Case(int w_, int h_, uint32_t seed, double angle, int margin_ = 4)
        : w(w_), h(h_), size(7), margin(margin_), sharp(make_scene(w_, h_, seed)),
          psf(motion_psf(7, angle, 5.0, 1.0)),
          blurry(blur_reference(sharp, w_, h_, psf, 7, 0.01, seed + 100)) {}
    std::vector<double> reference(const ReferenceParameters<double> &p, int stages,
                                  int steps) const {
        return deconvolution_reference(blurry, w, h, psf, size, p, stages, steps);
    }
    double reference_loss(const ReferenceParameters<double> &p, int stages, int steps) const {
        return loss_reference(reference(p, stages, steps), sharp, w, h, margin);
    }
    void bind(DeconvolutionPipeline &pipe, const Params &p, Buffer<double> &blurry_buf,
              Buffer<double> &psf_buf, Buffer<double> &sharp_buf) const {
        blurry_buf = to_buffer<double>(blurry, {w, h});
        psf_buf = to_buffer<double>(psf, {size, size});
        sharp_buf = to_buffer<double>(sharp, {w, h});
        pipe.blurry.set(blurry_buf);
        pipe.kernel.set(psf_buf);
        pipe.sharp.set(sharp_buf);
        pipe.filters.set(p.filters);
        pipe.log_weights.set(p.log_weights);
        pipe.thresholds.set(p.thresholds);
        pipe.range_sigma.set(p.range_sigma);
    }
};

double max_abs_error(const std::vector<double> &got, const std::vector<double> &expected) {
    EXPECT_EQ(got.size(), expected.size());
    double worst = 0;
    for (size_t e = 0; e < expected.size(); e++)
        worst = std::max(worst, std::fabs(got[e] - expected[e]));
    return worst;
}

} // namespace

TEST(DeconvolutionApp, ForwardMatchesReferenceAndSharpens) {
    // 2 stages of 2 steps, perturbed parameters, in double: the result and the loss against the
    // reference (its gradients and Hessian formulas derived by hand), and the deconvolution
    // raises the PSNR above the blurry input's, at the initial parameters and stage by stage.
    const int stages = 2, steps = 2;
    Case k(24, 20, 1, 0.5);
    Params params(stages, 0.05, 2);
    DeconvolutionPipeline p(Float(64), k.w, k.h, stages, steps, k.size, k.margin);
    p.schedule_root();
    Buffer<double> blurry, psf, sharp;
    k.bind(p, params, blurry, psf, sharp);
    Pipeline forward({p.output, p.loss});
    Buffer<double> out(k.w, k.h), loss = Buffer<double>::make_scalar();
    forward.realize({out, loss});
    std::vector<double> expected = k.reference(params.reference(), stages, steps);
    EXPECT_LE(max_abs_error(to_vector(out), expected), 1e-10);
    const double expected_loss = loss_reference(expected, k.sharp, k.w, k.h, k.margin);
    EXPECT_NEAR(loss(), expected_loss, 1e-10 * expected_loss);

    // At the initial parameters: the pipeline's result (the same compiled pipeline, the
    // parameters are inputs) is sharper than stage 0 of the reference, which is sharper than
    // the blurry input.
    Params initial(stages, 0, 0);
    k.bind(p, initial, blurry, psf, sharp);
    forward.realize({out, loss});
    std::vector<std::vector<double>> results;
    deconvolution_reference(k.blurry, k.w, k.h, k.psf, k.size, initial.reference(), stages, steps,
                            &results);
    const double blurry_psnr = psnr_reference(k.blurry, k.sharp, k.w, k.h, k.margin);
    const double stage0 = psnr_reference(results[0], k.sharp, k.w, k.h, k.margin);
    const double stage1 = psnr_reference(results[1], k.sharp, k.w, k.h, k.margin);
    const double pipeline = psnr_reference(to_vector(out), k.sharp, k.w, k.h, k.margin);
    EXPECT_GT(stage0, blurry_psnr + 0.5) << blurry_psnr << " -> " << stage0;
    EXPECT_GT(stage1, stage0) << stage0 << " -> " << stage1;
    EXPECT_GT(pipeline, stage0) << stage0 << " -> " << pipeline;
    EXPECT_NEAR(pipeline, stage1, 1e-6);
    if (std::getenv("LOOM_APP_REPORT"))
        std::printf("PSNR blurry %.3f, stage 0 %.3f, stage 1 %.3f dB\n", blurry_psnr, stage0,
                    stage1);
}

TEST(DeconvolutionApp, GradientMatchesFiniteDifferencesInDouble) {
    // Every parameter of 2 stages of 1 step: central differences of the reference's loss,
    // step 1e-6. The pipeline's gradient differentiates the gradients and Hessian-vector
    // products of the solves (third derivatives of the energy).
    const int stages = 2, steps = 1;
    Case k(24, 20, 3, 2.0);
    Params params(stages, 0.05, 4);
    DeconvolutionPipeline p(Float(64), k.w, k.h, stages, steps, k.size, k.margin);
    p.schedule_root();
    Buffer<double> blurry, psf, sharp;
    k.bind(p, params, blurry, psf, sharp);
    Pipeline training = p.training_pipeline();
    Buffer<double> loss = Buffer<double>::make_scalar(),
                   d_filters(kFilterTaps, kFilterTaps, kFilters, stages),
                   d_log_weights(kFilters, stages), d_thresholds(kFilters, stages - 1),
                   d_range_sigma(stages - 1);
    training.realize({loss, d_filters, d_log_weights, d_thresholds, d_range_sigma});
    ReferenceParameters<double> rp = params.reference();
    EXPECT_NEAR(loss(), k.reference_loss(rp, stages, steps), 1e-10 * loss());

    std::vector<double> got, fd;
    for (const Buffer<double> *g : {&d_filters, &d_log_weights, &d_thresholds, &d_range_sigma}) {
        std::vector<double> v = to_vector(*g);
        got.insert(got.end(), v.begin(), v.end());
    }
    const double step = 1e-6;
    for (std::vector<double> *v : {&rp.filters, &rp.log_weights, &rp.thresholds, &rp.range_sigma})
        for (double &value : *v) {
            const double saved = value;
            value = saved + step;
            const double up = k.reference_loss(rp, stages, steps);
            value = saved - step;
            const double down = k.reference_loss(rp, stages, steps);
            value = saved;
            fd.push_back((up - down) / (2 * step));
        }
    double largest = 0;
    for (double v : fd) largest = std::max(largest, std::fabs(v));
    // Relative to the largest component: rounding in the differences is about
    // 1e-16 * loss / step, the truncation step^2 times the third derivative.
    EXPECT_LE(max_abs_error(got, fd) / largest, 1e-6);
    EXPECT_GT(largest, 1e-4);
}
