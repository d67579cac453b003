// The non-blind deconvolution app (apps/deconvolution): the forward pass (the unrolled
// steepest-descent solves, whose gradients and Hessian-vector products come from
// propagate_adjoints) against the plain-loops reference with hand-derived gradient and Hessian,
// in double; that it sharpens (PSNR above the blurry input's); and the gradient of the training
// loss with respect to every parameter (third derivatives of the energy) against central finite
// differences of the reference's loss. On a synthetic scene blurred by a synthetic motion PSF.
//
// Then the training step's cost at two sizes (linear in the image), the Li2018 autoscheduler's
// gradient, and a few Adam steps lowering the loss. Small on purpose: 2 stages of 1 step each
// on 24 x 20 to 48 x 40. The training pipeline (loss and gradients, ~700 loop nests) takes Loom
// about 10 s to JIT-compile, 30 s under Li2018 (see README.md).
#include "Halide.h"

#include "common/adam.h"
#include "deconvolution/deconvolution.h"
#include "deconvolution/reference.h"

#include "common/finite_difference.h"
#include "common/stored_values.h"

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

namespace {

/// The training pipeline's loss and gradients (all parameters, in the order of
/// ReferenceParameters), realized once.
template <typename T>
struct Gradient {
    double loss = 0;
    std::vector<double> all;
    Gradient(Pipeline training, int stages) {
        Buffer<T> l = Buffer<T>::make_scalar(),
                  d_filters(kFilterTaps, kFilterTaps, kFilters, stages),
                  d_log_weights(kFilters, stages), d_thresholds(kFilters, stages - 1),
                  d_range_sigma(stages - 1);
        training.realize({l, d_filters, d_log_weights, d_thresholds, d_range_sigma});
        loss = l();
        for (const Buffer<T> *g : {&d_filters, &d_log_weights, &d_thresholds, &d_range_sigma}) {
            for (size_t e = 0; e < g->number_of_elements(); e++) all.push_back(g->data()[e]);
        }
    }
};

/// Central differences (step 1e-6) of the reference's loss with respect to every parameter.
std::vector<double> reference_gradient(const Case &k, ReferenceParameters<double> rp, int stages,
                                       int steps) {
    std::vector<double> fd;
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
    return fd;
}

/// The largest difference between a gradient and the reference's, relative to the reference's
/// largest component: rounding in the differences is about 1e-16 * loss / step, the truncation
/// step^2 times the third derivative.
double relative_error(const std::vector<double> &got, const std::vector<double> &fd) {
    double largest = 0;
    for (double v : fd) largest = std::max(largest, std::fabs(v));
    EXPECT_GT(largest, 1e-4);
    return max_abs_error(got, fd) / largest;
}

} // namespace

TEST(DeconvolutionApp, GradientMatchesFiniteDifferencesInDouble) {
    // Every parameter of 2 stages of 1 step, under the CPU schedule: central differences of the
    // reference's loss. The pipeline's gradient differentiates the gradients and Hessian-vector
    // products of the solves (third derivatives of the energy).
    const int stages = 2, steps = 1;
    Case k(24, 20, 3, 2.0);
    Params params(stages, 0.05, 4);
    DeconvolutionPipeline p(Float(64), k.w, k.h, stages, steps, k.size, k.margin);
    p.schedule_cpu(8);
    Buffer<double> blurry, psf, sharp;
    k.bind(p, params, blurry, psf, sharp);
    Gradient<double> g(p.training_pipeline(), stages);
    ReferenceParameters<double> rp = params.reference();
    EXPECT_NEAR(g.loss, k.reference_loss(rp, stages, steps), 1e-10 * g.loss);
    EXPECT_LE(relative_error(g.all, reference_gradient(k, rp, stages, steps)), 1e-6);
}

TEST(DeconvolutionApp, Li2018GradientMatchesFiniteDifferences) {
    // The same under the Li2018 autoscheduler (estimates at the image's size), which inlines
    // most of the forward Funcs and factors the parameters' sums over the image.
    const int stages = 2, steps = 1;
    Case k(24, 20, 5, 1.0);
    Params params(stages, 0.05, 6);
    DeconvolutionPipeline p(Float(64), k.w, k.h, stages, steps, k.size, k.margin);
    Pipeline training = p.training_pipeline();
    p.set_estimates();
    training.apply_autoscheduler(get_host_target(), {"Li2018", {}});
    Buffer<double> blurry, psf, sharp;
    k.bind(p, params, blurry, psf, sharp);
    Gradient<double> g(training, stages);
    ReferenceParameters<double> rp = params.reference();
    EXPECT_NEAR(g.loss, k.reference_loss(rp, stages, steps), 1e-10 * g.loss);
    EXPECT_LE(relative_error(g.all, reference_gradient(k, rp, stages, steps)), 1e-6);
}

TEST(DeconvolutionApp, TrainingStepCostGrowsLinearly) {
    // The values a training step stores (every Func, the ones propagate_adjoints makes for
    // itself included), under the CPU schedule, at 16 x 12 and at twice that in each
    // dimension: at most 4 times as many (a cost linear in the image grows with its area, its
    // edges' part only twice), not up to 16. The second- and third-order adjoints of the
    // clamped reads once summed whole rows or the whole image for every point (or every
    // vector) near an edge, and the training step was quadratic in the image (4.3 times as
    // many values at these sizes, 16 times asymptotically).
    const int stages = 2, steps = 1;
    int64_t stored[2];
    for (int scale = 1; scale <= 2; scale++) {
        Case k(16 * scale, 12 * scale, 7, 0.5);
        Params params(stages, 0.05, 8);
        DeconvolutionPipeline p(Float(64), k.w, k.h, stages, steps, k.size, k.margin);
        p.schedule_cpu(8);
        Buffer<double> blurry, psf, sharp;
        k.bind(p, params, blurry, psf, sharp);
        Pipeline training = p.training_pipeline();
        stored[scale - 1] =
            loom_test::values_stored(training, [&] { Gradient<double> g(training, stages); });
    }
    EXPECT_GT(stored[0], 0);
    EXPECT_LE(stored[1], 4 * stored[0])
        << stored[0] << " values stored at 16 x 12, " << stored[1] << " at 32 x 24";
}

TEST(DeconvolutionApp, AdamLowersTheLoss) {
    // Training in float under the CPU schedule: six Adam steps from the initial parameters
    // lower the loss at every step, and the reference, run on the parameters before and after,
    // measures a higher PSNR against the sharp scene.
    const int stages = 2, steps = 1, adam_steps = 6;
    Case k(32, 32, 9, 0.3);
    DeconvolutionPipeline p(Float(32), k.w, k.h, stages, steps, k.size, k.margin);
    p.schedule_cpu(8);
    Buffer<float> filters(kFilterTaps, kFilterTaps, kFilters, stages),
        log_weights(kFilters, stages), thresholds(kFilters, stages - 1), range_sigma(stages - 1);
    initial_parameters(filters, log_weights, thresholds, range_sigma);
    Buffer<float> blurry = to_buffer<float>(k.blurry, {k.w, k.h}),
                  psf = to_buffer<float>(k.psf, {k.size, k.size}),
                  sharp = to_buffer<float>(k.sharp, {k.w, k.h});
    p.blurry.set(blurry);
    p.kernel.set(psf);
    p.sharp.set(sharp);
    p.filters.set(filters);
    p.log_weights.set(log_weights);
    p.thresholds.set(thresholds);
    p.range_sigma.set(range_sigma);
    auto reference_psnr = [&] {
        ReferenceParameters<double> rp{to_vector(filters), to_vector(log_weights),
                                       to_vector(thresholds), to_vector(range_sigma)};
        return psnr_reference(k.reference(rp, stages, steps), k.sharp, k.w, k.h, k.margin);
    };
    const double psnr_before = reference_psnr();
    Pipeline training = p.training_pipeline();
    Buffer<float> loss = Buffer<float>::make_scalar(),
                  d_filters(kFilterTaps, kFilterTaps, kFilters, stages),
                  d_log_weights(kFilters, stages), d_thresholds(kFilters, stages - 1),
                  d_range_sigma(stages - 1);
    AdamMoments moments[4];
    std::vector<float> losses;
    for (int step = 1; step <= adam_steps + 1; step++) {
        training.realize({loss, d_filters, d_log_weights, d_thresholds, d_range_sigma});
        losses.push_back(loss());
        if (step > adam_steps) break;
        adam_step(filters, d_filters, moments[0], step, 5e-3);
        adam_step(log_weights, d_log_weights, moments[1], step, 5e-3);
        adam_step(thresholds, d_thresholds, moments[2], step, 5e-3);
        adam_step(range_sigma, d_range_sigma, moments[3], step, 5e-3);
    }
    for (size_t s = 1; s < losses.size(); s++) EXPECT_LT(losses[s], losses[s - 1]) << s;
    const double psnr_after = reference_psnr();
    EXPECT_GT(psnr_after, psnr_before);
    if (std::getenv("LOOM_APP_REPORT"))
        std::printf("loss %.6g -> %.6g, PSNR %.3f -> %.3f dB\n", losses.front(), losses.back(),
                    psnr_before, psnr_after);
}
