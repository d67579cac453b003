// Times the spatial transformer app's forward and backward passes (apps/spatial_transformer),
// JIT-compiled, for bench/nn_ops.py, which builds this source against Loom and Halide 21 and
// races both against PyTorch. Prints one line per schedule: "<schedule> <forward ms> <backward
// ms> <total ms>", medians of the runs (the pipelines' thread count: LOOM_NUM_THREADS /
// HL_NUM_THREADS). Schedules: default (none), hand (schedule_cpu), and an autoscheduler's name
// (Halide's plugins must be on the library path).
//
// Usage: nn_ops <n> <c> <h> <w> <runs> <schedule>...
#include "Halide.h"

#include "common/autoschedule.h"
#include "common/timing.h"
#include "spatial_transformer/spatial_transformer.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
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

} // namespace

int main(int argc, char **argv) {
    if (argc < 7) {
        std::fprintf(stderr, "usage: nn_ops <n> <c> <h> <w> <runs> <schedule>...\n");
        return 2;
    }
    const int n = std::atoi(argv[1]), c = std::atoi(argv[2]), h = std::atoi(argv[3]),
              w = std::atoi(argv[4]), runs = std::atoi(argv[5]);
    Halide::Buffer<float> in(w, h, c, n), theta(3, 2, n), d_out(w, h, c, n);
    fill(in, 1, 0.0f);
    fill(d_out, 2, -0.5f);
    // A rotation by about 0.2 radians with some scaling and a shift, as a trained network's.
    for (int b = 0; b < n; b++) {
        const float t[6] = {0.95f, -0.2f, 0.05f * b, 0.2f, 0.9f, -0.03f * b};
        for (int i = 0; i < 6; i++) theta(i % 3, i / 3, b) = t[i];
    }
    for (int a = 6; a < argc; a++) {
        const std::string schedule = argv[a];
        try {
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
            forward.compile_jit(target);
            backward.compile_jit(target);
            std::vector<double> fwd, bwd, total;
            for (int r = 0; r < runs + 1; r++) {
                double f = once_ms([&] { forward.realize(out); });
                double b = once_ms([&] { backward.realize({d_in, d_theta}); });
                if (r == 0) continue; // warm-up
                fwd.push_back(f);
                bwd.push_back(b);
                total.push_back(f + b);
            }
            std::printf("%s %.2f %.2f %.2f\n", schedule.c_str(), median(fwd), median(bwd),
                        median(total));
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
