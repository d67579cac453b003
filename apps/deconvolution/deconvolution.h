// Non-blind deconvolution with learned parameters (Li et al. 2018 §5.2.2, after Fortunato and
// Oliveira 2014): given a blurry gray image b = k * x + noise and its point spread function k,
// recover x by S stages of L2 deconvolution. Stage s minimizes
//   E_s(x) = sum_p (k * x - b)(p)^2 + sum_f w_{s,f} sum_p (d_{s,f} * x - t_{s,f})(p)^2
// over kFilters learned 3 x 3 derivative filters d_{s,f} (initially dx, dy, dxx, dyy, dxy),
// with learned weights w_{s,f} = exp(log_weights(f, s)). Stage 0's targets t are zero; stage s
// >= 1 starts from stage s - 1's result y, cleans it with a 5 x 5 bilateral filter of learned
// range sigma, and matches its large derivatives only: t_{s,f} = e * sigmoid((|e| - tau_{s,f}) /
// kSoftness), e = d_{s,f} * bilateral(y), with learned thresholds tau.
//
// Each solve is `iterations` unrolled steps of steepest descent with exact line search, every
// step its own Funcs: the gradient g = dE/dx is propagate_adjoints of E, and the step length
// alpha = (g . g) / (g . H g) takes the Hessian-vector product H g from propagate_adjoints of
// (g . g) / 2 (the derivative of a derivative: d/dx (g(x) . v) = H v, and with v = g, as H is
// symmetric, d/dx (g . g / 2) = H g). The loss is the mean squared error of the last stage
// against the sharp image over the image less a margin; its gradient with respect to the
// parameters is propagate_adjoints through the whole unrolled solve (third derivatives of E).
//
// Images are read clamped to their edges (repeat_edge) by every filter. Written against
// Halide's API so the same source builds against Loom (include/compat) and Halide 21. Include
// "Halide.h" first.
#ifndef LOOM_APPS_DECONVOLUTION_H
#define LOOM_APPS_DECONVOLUTION_H

#include "deconvolution/reference.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace deconvolution_detail {

/// The initial parameters of `stages` stages, Fortunato and Oliveira's scheme: forward
/// differences dx, dy, second differences dxx, dyy and the mixed dxy, weighted 0.003 (first
/// order) and 0.0015 (second) in stage 0, ten times more in the later stages (whose targets
/// keep the edges); thresholds 0.03; bilateral range sigma 0.1. Buffers: filters (3, 3, F, S),
/// log_weights (F, S), thresholds (F, S - 1), range_sigma (S - 1).
template <typename T>
void initial_parameters(Halide::Buffer<T> &filters, Halide::Buffer<T> &log_weights,
                        Halide::Buffer<T> &thresholds, Halide::Buffer<T> &range_sigma) {
    const int stages = filters.dim(3).extent();
    filters.fill(0);
    for (int s = 0; s < stages; s++) {
        filters(1, 1, 0, s) = -1, filters(2, 1, 0, s) = 1;                          // dx
        filters(1, 1, 1, s) = -1, filters(1, 2, 1, s) = 1;                          // dy
        filters(0, 1, 2, s) = 1, filters(1, 1, 2, s) = -2, filters(2, 1, 2, s) = 1; // dxx
        filters(1, 0, 3, s) = 1, filters(1, 1, 3, s) = -2, filters(1, 2, 3, s) = 1; // dyy
        filters(1, 1, 4, s) = 1, filters(2, 1, 4, s) = -1;                          // dxy
        filters(1, 2, 4, s) = -1, filters(2, 2, 4, s) = 1;
        for (int f = 0; f < kFilters; f++)
            log_weights(f, s) = (T)std::log((s == 0 ? 0.003 : 0.03) * (f < 2 ? 1.0 : 0.5));
    }
    thresholds.fill((T)0.03);
    range_sigma.fill((T)0.1);
}

} // namespace deconvolution_detail

struct DeconvolutionPipeline {
    /// The blurry image (x, y), its PSF (i, j), kernel_size x kernel_size (tap (i, j) at offset
    /// (i - kernel_size / 2, j - kernel_size / 2)), and the sharp image (x, y) of the loss.
    Halide::ImageParam blurry, kernel, sharp;
    /// The parameters: filters (i, j, f, s), 3 x 3 x kFilters x S; log_weights (f, s);
    /// thresholds (f, s - 1) and range_sigma (s - 1) of the stages s >= 1.
    Halide::ImageParam filters, log_weights, thresholds, range_sigma;
    Halide::Var x{"x"}, y{"y"}, f{"f"};

    /// One steepest-descent step of a stage's solve: the iterate, the energy at it and the Funcs
    /// between, the gradient and Hessian-vector product, the step.
    struct Iteration {
        /// The iterate (x, y) and its clamped read.
        Halide::Func iterate, padded;
        /// k * x, d_f * x (x, y, f), and E (scalar).
        Halide::Func blurred, derivatives, energy;
        /// g = dE/dx (x, y), (g . g) / 2, and H g = d((g . g) / 2)/dx.
        Halide::Func gradient, half_norm, hessian_gradient;
        /// g . H g and the step length (g . g) / (g . H g).
        Halide::Func curvature, step;
        /// propagate_adjoints of the energy and of the half norm, and the adjoints in them the
        /// iteration uses (the gradient's and H g's graphs).
        std::shared_ptr<const Halide::Derivative> d_energy, d_half_norm;
        std::vector<Halide::Func> energy_adjoints, half_norm_adjoints;
    };

    /// Per stage: its filters (i, j, f) and weights (f); for s >= 1 the bilateral filter's sums
    /// and result (x, y) of the previous stage's result, the derivatives of that (x, y, f), and
    /// the targets (x, y, f).
    std::vector<Halide::Func> stage_filters, stage_weights, bilateral_input, bilateral_sums,
        cleaned, cleaned_padded, cleaned_derivatives, targets;
    /// iterations[s][n]; stage_results[s] is the iterate after stage s's last step.
    std::vector<std::vector<Iteration>> iterations;
    std::vector<Halide::Func> stage_results;
    /// The deconvolved image (x, y), and the mean squared error against `sharp` over the pixels
    /// at least `margin` from an edge.
    Halide::Func output{"dc_output"}, loss{"dc_loss"};
    /// d loss / d parameters, of the parameters' shapes.
    Halide::Func d_filters, d_log_weights, d_thresholds, d_range_sigma;

    /// The image size (a constant of the pipeline: with the inputs' symbolic extents,
    /// propagate_adjoints spends minutes simplifying the bounds of the clamped iterates), the
    /// number of stages and of steps per stage, the PSF's size (odd), the loss's margin.
    int width, height, stages, steps, kernel_size, margin;
    /// The training pipeline's adjoints (a pointer because Halide's Derivative cannot be
    /// assigned).
    std::shared_ptr<const Halide::Derivative> derivative;

    DeconvolutionPipeline(Halide::Type type, int width_, int height_, int stages_ = 2,
                          int steps_ = 4, int kernel_size_ = 7, int margin_ = 4)
        : blurry(type, 2, "dc_blurry"), kernel(type, 2, "dc_kernel"), sharp(type, 2, "dc_sharp"),
          filters(type, 4, "dc_filters"), log_weights(type, 2, "dc_log_weights"),
          thresholds(type, 2, "dc_thresholds"), range_sigma(type, 1, "dc_range_sigma"),
          width(width_), height(height_), stages(stages_), steps(steps_), kernel_size(kernel_size_),
          margin(margin_) {
        using namespace deconvolution_detail;
        using Halide::cast;
        using Halide::Expr;
        using Halide::Func;
        using Halide::RDom;
        auto constant = [&](double v) { return cast(type, Expr(v)); };
        const Expr w = width, h = height;
        const Halide::Region image = {{0, w}, {0, h}};
        const int taps = kFilterTaps, half_taps = kFilterTaps / 2, half_kernel = kernel_size / 2;
        RDom over_image(0, w, 0, h, "dc_over_image");
        RDom over_terms(0, w, 0, h, 0, kFilters, "dc_over_terms");
        RDom psf_taps(0, kernel_size, 0, kernel_size, "dc_psf_taps");
        RDom filter_taps(0, taps, 0, taps, "dc_filter_taps");
        const int bt = kBilateralTaps / 2;
        RDom bilateral_taps(-bt, kBilateralTaps, -bt, kBilateralTaps, "dc_bilateral_taps");

        // sum_{i,j} taps(i, j, f) in(x + i - c, y + j - c), over the filter's taps.
        auto filter = [&](Func &out, Func taps_func, Func in) {
            out(x, y, f) = constant(0);
            out(x, y, f) += taps_func(filter_taps.x, filter_taps.y, f) *
                            in(x + filter_taps.x - half_taps, y + filter_taps.y - half_taps);
        };

        Func current = blurry;
        for (int s = 0; s < stages; s++) {
            const std::string ps = "dc_s" + std::to_string(s) + "_";
            Func taps_s(ps + "filters"), weights_s(ps + "weights");
            taps_s(Halide::_0, Halide::_1, f) = filters(Halide::_0, Halide::_1, f, s);
            weights_s(f) = Halide::exp(log_weights(f, s));
            stage_filters.push_back(taps_s);
            stage_weights.push_back(weights_s);

            Func target;
            if (s > 0) {
                // The bilateral filter of the previous stage's result (range sigma learned).
                Func in = Halide::BoundaryConditions::repeat_edge(current, image);
                Func sums(ps + "bilateral_sums"), clean(ps + "cleaned");
                Expr sigma = range_sigma(s - 1);
                Expr q = in(x + bilateral_taps.x, y + bilateral_taps.y);
                Expr d = q - in(x, y);
                Expr spatial = Halide::exp(constant(-1.0 / (2 * kSpatialSigma * kSpatialSigma)) *
                                           cast(type, bilateral_taps.x * bilateral_taps.x +
                                                          bilateral_taps.y * bilateral_taps.y));
                Expr weight = spatial * Halide::exp(-d * d / (2 * sigma * sigma));
                sums(x, y) = Halide::Tuple(constant(0), constant(0));
                sums(x, y) = Halide::Tuple(sums(x, y)[0] + weight * q, sums(x, y)[1] + weight);
                clean(x, y) = sums(x, y)[0] / sums(x, y)[1];
                Func clean_padded = Halide::BoundaryConditions::repeat_edge(clean, image);
                Func e(ps + "cleaned_derivatives");
                filter(e, taps_s, clean_padded);
                target = Func(ps + "targets");
                Expr v = e(x, y, f);
                target(x, y, f) = v / (1 + Halide::exp(-(Halide::abs(v) - thresholds(f, s - 1)) /
                                                       constant(kSoftness)));
                bilateral_input.push_back(in);
                bilateral_sums.push_back(sums);
                cleaned.push_back(clean);
                cleaned_padded.push_back(clean_padded);
                cleaned_derivatives.push_back(e);
                targets.push_back(target);
            }

            // The solve starts from a copy of the previous result: the targets depend on that
            // result, and the energy's gradient is with respect to the copy only (the targets
            // are constants of the solve).
            Func start(ps + "start");
            start(x, y) = current(x, y);
            current = start;
            std::vector<Iteration> its;
            for (int n = 0; n < steps; n++) {
                const std::string p = ps + "i" + std::to_string(n) + "_";
                Iteration it;
                it.iterate = current;
                it.padded = Halide::BoundaryConditions::repeat_edge(current, image);
                it.blurred = Func(p + "blurred");
                it.blurred(x, y) = constant(0);
                it.blurred(x, y) +=
                    kernel(psf_taps.x, psf_taps.y) *
                    it.padded(x + psf_taps.x - half_kernel, y + psf_taps.y - half_kernel);
                it.derivatives = Func(p + "derivatives");
                filter(it.derivatives, taps_s, it.padded);
                it.energy = Func(p + "energy");
                Expr r =
                    it.blurred(over_image.x, over_image.y) - blurry(over_image.x, over_image.y);
                it.energy() = constant(0);
                it.energy() += r * r;
                Expr e = it.derivatives(over_terms.x, over_terms.y, over_terms.z);
                if (target.defined()) e -= target(over_terms.x, over_terms.y, over_terms.z);
                it.energy() += weights_s(over_terms.z) * e * e;

                it.d_energy = std::make_shared<const Halide::Derivative>(
                    Halide::propagate_adjoints(it.energy));
                it.gradient = Func(p + "gradient");
                it.gradient(x, y) = (*it.d_energy)(current)(x, y);
                it.energy_adjoints = adjoints_of(
                    *it.d_energy, {current, it.padded, it.blurred, it.derivatives, it.energy});

                Expr g = it.gradient(over_image.x, over_image.y);
                it.half_norm = Func(p + "half_norm");
                it.half_norm() = constant(0);
                it.half_norm() += g * g / 2;
                it.d_half_norm = std::make_shared<const Halide::Derivative>(
                    Halide::propagate_adjoints(it.half_norm));
                it.hessian_gradient = Func(p + "hessian_gradient");
                it.hessian_gradient(x, y) = (*it.d_half_norm)(current)(x, y);
                std::vector<Func> between = {current,   it.padded,   it.blurred,  it.derivatives,
                                             it.energy, it.gradient, it.half_norm};
                between.insert(between.end(), it.energy_adjoints.begin(), it.energy_adjoints.end());
                it.half_norm_adjoints = adjoints_of(*it.d_half_norm, between);

                it.curvature = Func(p + "curvature");
                it.curvature() = constant(0);
                it.curvature() += g * it.hessian_gradient(over_image.x, over_image.y);
                it.step = Func(p + "step");
                it.step() = 2 * it.half_norm() / it.curvature();
                Func next(p + "next");
                next(x, y) = current(x, y) - it.step() * it.gradient(x, y);
                current = next;
                its.push_back(it);
            }
            iterations.push_back(its);
            stage_results.push_back(current);
        }
        output(x, y) = current(x, y);

        RDom interior(margin, w - 2 * margin, margin, h - 2 * margin, "dc_interior");
        Expr e = output(interior.x, interior.y) - sharp(interior.x, interior.y);
        loss() = constant(0);
        loss() += e * e / cast(type, (w - 2 * margin) * (h - 2 * margin));

        derivative = std::make_shared<const Halide::Derivative>(Halide::propagate_adjoints(loss));
        const Halide::Derivative &d = *derivative;
        d_filters = d(filters.name());
        d_log_weights = d(log_weights.name());
        d_thresholds = d(thresholds.name());
        d_range_sigma = d(range_sigma.name());
        // The gradients' shapes, constant: bounds inference then folds them (it took 2.5x
        // longer on the training pipeline with them symbolic).
        auto bound = [](Halide::Func fn, const std::vector<int> &extents) {
            for (size_t k = 0; k < extents.size(); k++) fn.bound(fn.args()[k], 0, extents[k]);
        };
        bound(d_filters, {kFilterTaps, kFilterTaps, kFilters, stages});
        bound(d_log_weights, {kFilters, stages});
        if (stages > 1) {
            bound(d_thresholds, {kFilters, stages - 1});
            bound(d_range_sigma, {stages - 1});
        }
    }

    /// The adjoints in `d` of every definition of `funcs` that it has, each once.
    static std::vector<Halide::Func> adjoints_of(const Halide::Derivative &d,
                                                 const std::vector<Halide::Func> &funcs) {
        std::vector<Halide::Func> out;
        std::set<std::string> seen;
        for (const Halide::Func &fn : funcs)
            for (int u = fn.num_update_definitions() - 1; u >= -1; u--) {
                Halide::Func a = d(fn, u);
                if (a.defined() && seen.insert(a.name()).second) out.push_back(a);
            }
        return out;
    }

    /// Every Func of the forward pass (the deconvolution with its gradients and Hessian-vector
    /// products), producers first, the output and the loss apart.
    std::vector<Halide::Func> stages_list() const {
        std::vector<Halide::Func> out;
        for (int s = 0; s < stages; s++) {
            out.push_back(stage_filters[s]);
            out.push_back(stage_weights[s]);
            if (s > 0)
                for (const std::vector<Halide::Func> *v :
                     {&bilateral_input, &bilateral_sums, &cleaned, &cleaned_padded,
                      &cleaned_derivatives, &targets})
                    out.push_back((*v)[s - 1]);
            for (const Iteration &it : iterations[s]) {
                for (Halide::Func fn :
                     {it.iterate, it.padded, it.blurred, it.derivatives, it.energy})
                    out.push_back(fn);
                out.insert(out.end(), it.energy_adjoints.begin(), it.energy_adjoints.end());
                out.push_back(it.gradient);
                out.push_back(it.half_norm);
                out.insert(out.end(), it.half_norm_adjoints.begin(), it.half_norm_adjoints.end());
                for (Halide::Func fn : {it.hessian_gradient, it.curvature, it.step})
                    out.push_back(fn);
            }
        }
        out.push_back(stage_results.back());
        return out;
    }

    /// The training derivative's adjoints of the forward Funcs, the output and the loss, each
    /// once, consumers first.
    std::vector<Halide::Func> adjoints() const {
        std::vector<Halide::Func> forward = stages_list();
        forward.push_back(output);
        forward.push_back(loss);
        std::reverse(forward.begin(), forward.end());
        return adjoints_of(*derivative, forward);
    }

    /// Estimates of every input and output at the pipeline's sizes, for an autoscheduler.
    void set_estimates() {
        using deconvolution_detail::kFilters;
        using deconvolution_detail::kFilterTaps;
        blurry.set_estimates({{0, width}, {0, height}});
        sharp.set_estimates({{0, width}, {0, height}});
        kernel.set_estimates({{0, kernel_size}, {0, kernel_size}});
        const Halide::Region filters_shape = {
            {0, kFilterTaps}, {0, kFilterTaps}, {0, kFilters}, {0, stages}};
        const Halide::Region weights_shape = {{0, kFilters}, {0, stages}};
        const Halide::Region thresholds_shape = {{0, kFilters}, {0, std::max(stages - 1, 1)}};
        const Halide::Region sigma_shape = {{0, std::max(stages - 1, 1)}};
        filters.set_estimates(filters_shape);
        log_weights.set_estimates(weights_shape);
        thresholds.set_estimates(thresholds_shape);
        range_sigma.set_estimates(sigma_shape);
        output.set_estimates({{0, width}, {0, height}});
        loss.set_estimates({});
        d_filters.set_estimates(filters_shape);
        d_log_weights.set_estimates(weights_shape);
        if (stages > 1) {
            d_thresholds.set_estimates(thresholds_shape);
            d_range_sigma.set_estimates(sigma_shape);
        }
    }

    /// No schedule: every pure stage inlined. Unusable: each step's iterate is inlined into
    /// the next, so the work grows exponentially with the number of steps.
    void schedule_default() {}

    /// Breadth-first: every forward Func and every adjoint at root, serial and scalar. The
    /// baseline the other schedules are checked against.
    void schedule_root() {
        for (Halide::Func fn : stages_list()) fn.compute_root();
        output.compute_root();
        for (Halide::Func fn : adjoints()) fn.compute_root();
    }

    /// The CPU schedule of the training step (forward and backward; images at least `vec`
    /// pixels wide). Breadth-first, as schedule_root, each Func over the whole image: rows in
    /// parallel and `vec` pixels along x in a vector, for the pure definitions and for the
    /// convolutions' and the bilateral filter's tap sums (each computes its Func pointwise).
    /// The scalar reductions (energies, norms, curvatures), the adjoints' scatters and the
    /// small parameter-shaped Funcs stay serial.
    void schedule_cpu(int vec = 8) {
        schedule_root();
        std::set<std::string> small;
        for (const std::vector<Halide::Func> *v : {&stage_filters, &stage_weights})
            for (const Halide::Func &fn : *v) {
                small.insert(fn.name());
                for (const Halide::Func &a : adjoints_of(*derivative, {fn})) small.insert(a.name());
            }
        for (Halide::Func fn : {d_filters, d_log_weights, d_thresholds, d_range_sigma})
            if (fn.defined()) small.insert(fn.name());
        auto rows = [&](Halide::Func fn) {
            if (fn.dimensions() < 2 || small.count(fn.name())) return;
            fn.parallel(fn.args()[1]).vectorize(fn.args()[0], vec);
        };
        for (Halide::Func fn : stages_list()) rows(fn);
        rows(output);
        for (Halide::Func fn : adjoints()) rows(fn);
        std::vector<Halide::Func> tap_sums = bilateral_sums;
        tap_sums.insert(tap_sums.end(), cleaned_derivatives.begin(), cleaned_derivatives.end());
        for (const std::vector<Iteration> &its : iterations)
            for (const Iteration &it : its) {
                tap_sums.push_back(it.blurred);
                tap_sums.push_back(it.derivatives);
            }
        for (Halide::Func fn : tap_sums) fn.update().parallel(y).vectorize(x, vec);
    }

    /// The loss and its gradient in one pipeline (one training step's forward and backward).
    Halide::Pipeline training_pipeline() {
        return Halide::Pipeline({loss, d_filters, d_log_weights, d_thresholds, d_range_sigma});
    }
};

#endif
