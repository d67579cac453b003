// Times the forward and backward passes of an NN operator app, JIT-compiled, for
// bench/nn_ops.py, which builds this source against Loom and Halide 21 and races both against
// PyTorch. Prints one line per schedule: "<schedule> <forward ms> <backward ms> <total ms>",
// medians of the runs (the pipelines' thread count: LOOM_NUM_THREADS / HL_NUM_THREADS).
// Operators:
//   spatial_transformer (apps/spatial_transformer): N x C x H x W images, theta per image.
//   conv_layer (apps/conv_layer, with its define_backward): N images of H x W pixels, C channels
//   in and out.
//   flow_warp (apps/flow_warp): N x C x H x W images warped by a flow field (N x 2 x H x W).
//   bilateral_slice (apps/bilateral_slice): N x 3 x H x W images (C must be 3) and guides,
//   sliced from a grid of W / 16 x H / 16 x 8 cells of 12 coefficients per image (HDRNet's).
//   bilateral_grid, local_laplacian (apps/<name>, with their define_backward; N ignored, and
//   C too for the bilateral grid): an H x W gray float image, the gradient with respect to it
//   and r_sigma; an H x W RGB 16-bit image, C pyramid levels, the gradient with respect to it,
//   the remapping table, alpha and beta. Their backward pass is scheduled by Li2018, given the
//   app's compute_root list, or by the autoscheduler named after a ':' in the schedule
//   ("hand:Loom"; unscheduled, it takes minutes to compile); "default" is refused.
//   deconvolution (apps/deconvolution): an H x W gray float image, N stages of C steps; the
//   "backward" pass is the training step (the loss and its gradients with respect to every
//   parameter, which runs the forward pass too). Schedules: root (breadth-first), hand (the
//   app's schedule_cpu) or an autoscheduler's name, for both passes; "default" is refused.
// Schedules: default (none), hand (the app's schedule_cpu; the conv layer has none for its
// backward pass, which Li2018 schedules), and an autoscheduler's name for both passes (Halide's
// plugins must be on the library path).
//
// Usage: nn_ops <operator> <n> <c> <h> <w> <runs> <schedule>...
#include "Halide.h"

#include "bilateral_grid/bilateral_grid.h"
#include "bilateral_slice/bilateral_slice.h"
#include "common/autoschedule.h"
#include "common/timing.h"
#include "conv_layer/conv_layer.h"
#include "deconvolution/deconvolution.h"
#include "flow_warp/flow_warp.h"
#include "local_laplacian/local_laplacian.h"
#include "spatial_transformer/spatial_transformer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/// Deterministic values in [lo, lo + 1).
void fill(Halide::Buffer<float> &b, unsigned seed, float lo) {
    unsigned s = seed;
    for (size_t i = 0; i < b.number_of_elements(); i++) {
        s = s * 1664525u + 1013904223u;
        b.data()[i] = lo + (float)(s >> 8) / (float)(1u << 24);
    }
}

/// Compiles both passes for the JIT target, times `runs` forward and backward runs (`forward`
/// and `backward` realize them) after a warm-up and prints the schedule's line.
void time_passes(const std::string &schedule, int runs, Halide::Pipeline forward_pass,
                 Halide::Pipeline backward_pass, const std::function<void()> &forward,
                 const std::function<void()> &backward) {
    const Halide::Target target = Halide::get_jit_target_from_environment();
    forward_pass.compile_jit(target);
    backward_pass.compile_jit(target);
    std::vector<double> fwd, bwd, total;
    for (int r = 0; r < runs + 1; r++) {
        double f = once_ms(forward);
        double b = once_ms(backward);
        if (r == 0) continue; // warm-up
        fwd.push_back(f);
        bwd.push_back(b);
        total.push_back(f + b);
    }
    std::printf("%s %.2f %.2f %.2f\n", schedule.c_str(), median(fwd), median(bwd), median(total));
}

void spatial_transformer(int n, int c, int h, int w, int runs, const std::string &schedule) {
    Halide::Buffer<float> in(w, h, c, n), theta(3, 2, n), d_out(w, h, c, n);
    fill(in, 1, 0.0f);
    fill(d_out, 2, -0.5f);
    // A rotation by about 0.2 radians with some scaling and a shift, as a trained network's.
    for (int b = 0; b < n; b++) {
        const float t[6] = {0.95f, -0.2f, 0.05f * b, 0.2f, 0.9f, -0.03f * b};
        for (int i = 0; i < 6; i++) theta(i % 3, i / 3, b) = t[i];
    }
    SpatialTransformerPipeline p;
    p.input.set(in);
    p.theta.set(theta);
    p.d_output.set(d_out);
    Halide::Buffer<float> out(w, h, c, n), d_in(w, h, c, n), d_theta(3, 2, n);
    Halide::Pipeline forward(p.output), backward({p.d_input, p.d_theta});
    Halide::Target target = Halide::get_jit_target_from_environment();
    if (schedule == "hand") {
        p.schedule_cpu(8);
    } else if (schedule != "default") {
        // Estimates of this run's sizes; the autoscheduler schedules each pass.
        app_autoschedule::bind(p.input, in);
        app_autoschedule::bind(p.theta, theta);
        app_autoschedule::bind(p.d_output, d_out);
        p.output.set_estimates(app_autoschedule::region_of(out));
        p.d_input.set_estimates(app_autoschedule::region_of(d_in));
        p.d_theta.set_estimates(app_autoschedule::region_of(d_theta));
        app_autoschedule::load_scheduler(schedule);
        Halide::AutoschedulerParams params(schedule);
        forward.apply_autoscheduler(target, params);
        backward.apply_autoscheduler(target, params);
    }
    time_passes(
        schedule, runs, forward, backward, [&] { forward.realize(out); },
        [&] {
            backward.realize({d_in, d_theta});
        });
}

void conv_layer(int n, int c, int h, int w, int runs, const std::string &schedule) {
    Halide::Buffer<float> in(c, w, h, n), filter(c, c, 3, 3), bias(c), d_out(c, w, h, n);
    fill(in, 3, -0.5f);
    fill(filter, 4, -0.5f);
    for (size_t i = 0; i < filter.number_of_elements(); i++) filter.data()[i] *= 0.1f;
    fill(bias, 5, -0.5f);
    fill(d_out, 6, -0.5f);
    // Two instances, as the passes share the layer's Funcs: "hand" schedules the forward pass
    // by hand and the backward one by Li2018.
    ConvLayerPipeline p, q;
    q.define_backward();
    for (ConvLayerPipeline *l : {&p, &q}) {
        l->input.set(in);
        l->filter.set(filter);
        l->bias.set(bias);
    }
    q.d_output.set(d_out);
    Halide::Buffer<float> out(c, w, h, n), d_in(c, w, h, n), d_filter(c, c, 3, 3), d_bias(c);
    Halide::Pipeline forward(p.output), backward({q.d_input, q.d_filter, q.d_bias});
    Halide::Target target = Halide::get_jit_target_from_environment();
    if (schedule == "hand") p.schedule_cpu(c, c, w);
    if (schedule != "default") {
        for (ConvLayerPipeline *l : {&p, &q}) {
            app_autoschedule::bind(l->input, in);
            app_autoschedule::bind(l->filter, filter);
            app_autoschedule::bind(l->bias, bias);
        }
        app_autoschedule::bind(q.d_output, d_out);
        p.output.set_estimates(app_autoschedule::region_of(out));
        q.d_input.set_estimates(app_autoschedule::region_of(d_in));
        q.d_filter.set_estimates(app_autoschedule::region_of(d_filter));
        q.d_bias.set_estimates(app_autoschedule::region_of(d_bias));
        const std::string scheduler = schedule == "hand" ? "Li2018" : schedule;
        app_autoschedule::load_scheduler(scheduler);
        Halide::AutoschedulerParams params(scheduler);
        backward.apply_autoscheduler(target, params);
        if (schedule != "hand") forward.apply_autoscheduler(target, params);
    }
    time_passes(
        schedule, runs, forward, backward, [&] { forward.realize(out); },
        [&] {
            backward.realize({d_in, d_filter, d_bias});
        });
}

void flow_warp(int n, int c, int h, int w, int runs, const std::string &schedule) {
    Halide::Buffer<float> in(w, h, c, n), flow(w, h, 2, n), d_out(w, h, c, n);
    fill(in, 7, 0.0f);
    fill(d_out, 8, -0.5f);
    // A smooth flow of up to 4 pixels, as between video frames, plus noise of half a pixel:
    // samples fall between pixels at every fraction, and near the border outside the image.
    fill(flow, 9, -0.5f);
    for (int b = 0; b < n; b++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                flow(x, y, 0, b) += 4.0f * std::sin(0.02f * y + b);
                flow(x, y, 1, b) += 4.0f * std::cos(0.02f * x);
            }
    FlowWarpPipeline p;
    p.input.set(in);
    p.flow.set(flow);
    p.d_output.set(d_out);
    Halide::Buffer<float> out(w, h, c, n), d_in(w, h, c, n), d_flow(w, h, 2, n);
    Halide::Pipeline forward(p.output), backward({p.d_input, p.d_flow});
    Halide::Target target = Halide::get_jit_target_from_environment();
    if (schedule == "hand") {
        p.schedule_cpu(8);
    } else if (schedule != "default") {
        app_autoschedule::bind(p.input, in);
        app_autoschedule::bind(p.flow, flow);
        app_autoschedule::bind(p.d_output, d_out);
        p.output.set_estimates(app_autoschedule::region_of(out));
        p.d_input.set_estimates(app_autoschedule::region_of(d_in));
        p.d_flow.set_estimates(app_autoschedule::region_of(d_flow));
        app_autoschedule::load_scheduler(schedule);
        Halide::AutoschedulerParams params(schedule);
        forward.apply_autoscheduler(target, params);
        backward.apply_autoscheduler(target, params);
    }
    time_passes(
        schedule, runs, forward, backward, [&] { forward.realize(out); },
        [&] {
            backward.realize({d_in, d_flow});
        });
}

void bilateral_slice(int n, int c, int h, int w, int runs, const std::string &schedule) {
    if (c != 3) throw std::runtime_error("bilateral_slice: the images have 3 channels");
    const int gw = std::max(1, w / 16), gh = std::max(1, h / 16), gd = 8;
    Halide::Buffer<float> grid(gw, gh, gd, 12, n), guide(w, h, n), in(w, h, 3, n),
        d_out(w, h, 3, n);
    fill(grid, 10, -0.5f);
    fill(guide, 11, 0.0f);
    fill(in, 12, 0.0f);
    fill(d_out, 13, -0.5f);
    BilateralSlicePipeline p;
    p.grid.set(grid);
    p.guide.set(guide);
    p.input.set(in);
    p.d_output.set(d_out);
    Halide::Buffer<float> out(w, h, 3, n), d_grid(gw, gh, gd, 12, n), d_guide(w, h, n),
        d_in(w, h, 3, n);
    Halide::Pipeline forward(p.output), backward({p.d_grid, p.d_guide, p.d_input});
    Halide::Target target = Halide::get_jit_target_from_environment();
    if (schedule == "hand") {
        p.schedule_cpu(16);
    } else if (schedule != "default") {
        app_autoschedule::bind(p.grid, grid);
        app_autoschedule::bind(p.guide, guide);
        app_autoschedule::bind(p.input, in);
        app_autoschedule::bind(p.d_output, d_out);
        p.output.set_estimates(app_autoschedule::region_of(out));
        p.d_grid.set_estimates(app_autoschedule::region_of(d_grid));
        p.d_guide.set_estimates(app_autoschedule::region_of(d_guide));
        p.d_input.set_estimates(app_autoschedule::region_of(d_in));
        app_autoschedule::load_scheduler(schedule);
        Halide::AutoschedulerParams params(schedule);
        forward.apply_autoscheduler(target, params);
        backward.apply_autoscheduler(target, params);
    }
    time_passes(
        schedule, runs, forward, backward, [&] { forward.realize(out); },
        [&] {
            backward.realize({d_grid, d_guide, d_in});
        });
}

/// The forward pass's schedule: `schedule` up to a ':' (see schedule_app_passes).
std::string forward_schedule(const std::string &schedule) {
    return schedule.substr(0, schedule.find(':'));
}

/// The forward pass by `schedule` ("hand": the app's schedule_cpu, set by the caller; else an
/// autoscheduler's name) and the backward pass by Li2018 given `compute_root`, or by the
/// autoscheduler named after a ':' ("hand:Loom", "Loom:Loom"); the estimates are set by the
/// caller.
void schedule_app_passes(const std::string &schedule, Halide::Pipeline forward,
                         Halide::Pipeline backward, const std::string &compute_root) {
    if (schedule == "default")
        throw std::runtime_error("unscheduled, the gradient takes minutes to compile");
    Halide::Target target = Halide::get_jit_target_from_environment();
    const size_t colon = schedule.find(':');
    const std::string first = forward_schedule(schedule),
                      second = colon == std::string::npos ? "Li2018" : schedule.substr(colon + 1);
    Halide::AutoschedulerParams backward_params(second);
#ifdef LOOM_COMPAT_HALIDE_H
    // Loom's Li2018 takes a compute_root list, as the paper's does; Halide 21's refuses it.
    if (second == "Li2018") backward_params.extra["compute_root"] = compute_root;
#endif
    app_autoschedule::load_scheduler(second);
    backward.apply_autoscheduler(target, backward_params);
    if (first != "hand") {
        app_autoschedule::load_scheduler(first);
        forward.apply_autoscheduler(target, Halide::AutoschedulerParams(first));
    }
}

void bilateral_grid(int h, int w, int runs, const std::string &schedule) {
    Halide::Buffer<float> in(w, h), d_out(w, h);
    fill(in, 14, 0.0f);
    fill(d_out, 15, -0.5f);
    // Two instances, as the passes share the pipeline's Funcs.
    BilateralGridPipeline p, q;
    q.define_backward();
    if (forward_schedule(schedule) == "hand") p.schedule_cpu();
    app_autoschedule::bind(p.input, in);
    app_autoschedule::bind(q.input, in);
    app_autoschedule::bind(q.d_output, d_out);
    p.r_sigma.set_estimate(p.r_sigma.get());
    q.r_sigma.set_estimate(q.r_sigma.get());
    Halide::Buffer<float> out(w, h), d_in(w, h);
    Halide::Buffer<float> d_r_sigma = Halide::Buffer<float>::make_scalar();
    p.output.set_estimates(app_autoschedule::region_of(out));
    q.d_input.set_estimates(app_autoschedule::region_of(d_in));
    q.d_r_sigma.set_estimates({});
    Halide::Pipeline forward(p.output), backward({q.d_input, q.d_r_sigma});
    schedule_app_passes(schedule, forward, backward, q.li2018_compute_root());
    time_passes(
        schedule, runs, forward, backward, [&] { forward.realize(out); },
        [&] {
            backward.realize({d_in, d_r_sigma});
        });
}

void local_laplacian(int levels, int h, int w, int runs, const std::string &schedule) {
    Halide::Buffer<float> noise(w, h, 3), d_out(w, h, 3);
    fill(noise, 16, 0.0f);
    fill(d_out, 17, -0.5f);
    Halide::Buffer<uint16_t> in(w, h, 3);
    for (size_t i = 0; i < in.number_of_elements(); i++)
        in.data()[i] = (uint16_t)(noise.data()[i] * 65535.0f);
    LocalLaplacianPipeline p(levels), q(levels);
    q.define_backward();
    if (forward_schedule(schedule) == "hand") p.schedule_cpu();
    for (LocalLaplacianPipeline *l : {&p, &q}) {
        app_autoschedule::bind(l->input, in);
        l->remap_lut.set_estimates(app_autoschedule::region_of(l->lut_table));
        l->beta.set_estimate(l->beta.get());
    }
    app_autoschedule::bind(q.d_output, d_out);
    Halide::Buffer<uint16_t> out(w, h, 3);
    Halide::Buffer<float> d_in(w, h, 3), d_lut(local_laplacian_detail::kLutSize);
    Halide::Buffer<float> d_alpha = Halide::Buffer<float>::make_scalar(),
                          d_beta = Halide::Buffer<float>::make_scalar();
    p.output.set_estimates(app_autoschedule::region_of(out));
    q.d_input.set_estimates(app_autoschedule::region_of(d_in));
    q.d_beta.set_estimates({});
    q.d_alpha.set_estimates({});
    q.d_remap_lut.set_estimates(app_autoschedule::region_of(d_lut));
    Halide::Pipeline forward(p.output), backward({q.d_input, q.d_remap_lut, q.d_alpha, q.d_beta});
    schedule_app_passes(schedule, forward, backward, q.li2018_compute_root());
    time_passes(
        schedule, runs, forward, backward, [&] { forward.realize(out); },
        [&] {
            backward.realize({d_in, d_lut, d_alpha, d_beta});
        });
}

void deconvolution(int stages, int steps, int h, int w, int runs, const std::string &schedule) {
    using deconvolution_detail::kFilters;
    using deconvolution_detail::kFilterTaps;
    const int psf_size = 7;
    Halide::Buffer<float> blurry(w, h), sharp(w, h), psf(psf_size, psf_size);
    fill(blurry, 18, 0.0f);
    fill(sharp, 19, 0.0f);
    psf.fill(1.0f / (psf_size * psf_size));
    Halide::Buffer<float> filters(kFilterTaps, kFilterTaps, kFilters, stages),
        log_weights(kFilters, stages), thresholds(kFilters, std::max(stages - 1, 1)),
        range_sigma(std::max(stages - 1, 1));
    deconvolution_detail::initial_parameters(filters, log_weights, thresholds, range_sigma);
    // Two instances, as the passes share the pipeline's Funcs; the "backward" pass is the
    // training step, the loss and its gradients (forward and backward together).
    DeconvolutionPipeline p(Halide::Float(32), w, h, stages, steps, psf_size),
        q(Halide::Float(32), w, h, stages, steps, psf_size);
    Halide::Pipeline forward({p.output, p.loss}), backward = q.training_pipeline();
    for (DeconvolutionPipeline *d : {&p, &q}) {
        d->blurry.set(blurry);
        d->sharp.set(sharp);
        d->kernel.set(psf);
        d->filters.set(filters);
        d->log_weights.set(log_weights);
        d->thresholds.set(thresholds);
        d->range_sigma.set(range_sigma);
        d->set_estimates();
    }
    if (schedule == "default") {
        throw std::runtime_error("unscheduled, every iterate is inlined into the next");
    } else if (schedule == "root") {
        p.schedule_root();
        q.schedule_root();
    } else if (schedule == "hand") {
        p.schedule_cpu();
        q.schedule_cpu();
    } else {
        Halide::Target target = Halide::get_jit_target_from_environment();
        app_autoschedule::load_scheduler(schedule);
        forward.apply_autoscheduler(target, Halide::AutoschedulerParams(schedule));
        backward.apply_autoscheduler(target, Halide::AutoschedulerParams(schedule));
    }
    Halide::Buffer<float> out(w, h), loss = Halide::Buffer<float>::make_scalar(),
                                     train_loss = Halide::Buffer<float>::make_scalar();
    Halide::Buffer<float> d_filters(kFilterTaps, kFilterTaps, kFilters, stages),
        d_log_weights(kFilters, stages), d_thresholds(kFilters, std::max(stages - 1, 1)),
        d_range_sigma(std::max(stages - 1, 1));
    time_passes(
        schedule, runs, forward, backward,
        [&] {
            forward.realize({out, loss});
        },
        [&] {
            backward.realize({train_loss, d_filters, d_log_weights, d_thresholds, d_range_sigma});
        });
}

} // namespace

int main(int argc, char **argv) {
    const std::string op = argc > 1 ? argv[1] : "";
    if (argc < 8 || (op != "spatial_transformer" && op != "conv_layer" && op != "flow_warp" &&
                     op != "bilateral_slice" && op != "bilateral_grid" && op != "local_laplacian" &&
                     op != "deconvolution")) {
        std::fprintf(stderr, "usage: nn_ops spatial_transformer|conv_layer|flow_warp|"
                             "bilateral_slice|bilateral_grid|local_laplacian|deconvolution <n> "
                             "<c> <h> <w> <runs> <schedule>...\n");
        return 2;
    }
    const int n = std::atoi(argv[2]), c = std::atoi(argv[3]), h = std::atoi(argv[4]),
              w = std::atoi(argv[5]), runs = std::atoi(argv[6]);
    for (int a = 7; a < argc; a++) {
        const std::string schedule = argv[a];
        try {
            if (op == "spatial_transformer") {
                spatial_transformer(n, c, h, w, runs, schedule);
            } else if (op == "flow_warp") {
                flow_warp(n, c, h, w, runs, schedule);
            } else if (op == "bilateral_slice") {
                bilateral_slice(n, c, h, w, runs, schedule);
            } else if (op == "bilateral_grid") {
                bilateral_grid(h, w, runs, schedule);
            } else if (op == "local_laplacian") {
                local_laplacian(c, h, w, runs, schedule);
            } else if (op == "deconvolution") {
                deconvolution(n, c, h, w, runs, schedule);
            } else {
                conv_layer(n, c, h, w, runs, schedule);
            }
        } catch (const std::exception &e) {
            // Halide 21's autodiff or an autoscheduler may refuse the pipeline: say so, go on.
            std::string what = e.what();
            std::replace(what.begin(), what.end(), '\n', ' ');
            std::printf("%s failed %s\n", schedule.c_str(), what.substr(0, 300).c_str());
        }
        std::fflush(stdout);
    }
    return 0;
}
