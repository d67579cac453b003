// The snake app as an AppInstance (apps/common/app.h) for the benchmark harness and the demo:
// 5 iterations of distance regularized level set evolution on the 1536 x 2560 gray photograph
// (gray.png as float in [0, 1]), or on gray_small.png tiled to 320 x 240 in the small mode;
// synthetic without the photographs. In the demo's natural mode the input is tutorial_gray.png
// (the same photograph as gray.png at half its size) halved again to 384 x 640, and
// run_for_demo() iterates until the contour settles (at 768 x 1280 the front needs several times
// more iterations, each four times dearer, and leaks between the feathers: see snake/README.md).
// Include "Halide.h" first; links libpng and libjpeg (apps/common/inputs.h).
#ifndef LOOM_APPS_SNAKE_APP_H
#define LOOM_APPS_SNAKE_APP_H

#include "common/app.h"
#include "common/autoschedule.h"
#include "common/inputs.h"
#include "common/timing.h"
#include "snake/reference.h"
#include "snake/snake.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

namespace snake_detail {

/// The demo's run to convergence (SnakeApp::run_for_demo): the background is seeded in the top
/// kDemoSeedRows rows (phi = -c0 there, c0 elsewhere) and grows, under the benchmark's update,
/// until it meets the subject's outline. The app's rectangle cannot be the start on this
/// photograph: the parrot reaches the frame on three sides, so the rectangle cuts through it and
/// the front, growing from it or shrinking onto it, runs through the feathers.
constexpr int kDemoSeedRows = 8;
/// The run stops when fewer than kDemoSettled of the pixels changed side (the sign of phi) over
/// the last kDemoWindow iterations, or after kDemoMaxIterations.
constexpr int kDemoWindow = 100;
constexpr double kDemoSettled = 0.001;
constexpr int kDemoMaxIterations = 4000;

/// The level set evolution on a gray float image; the output is phi after kIterations steps.
class SnakeApp : public AppInstance {
public:
    explicit SnakeApp(const AppOptions &opt) : natural_(opt.size() == InputSize::Natural) {
        if (natural_) {
            std::string source;
            Halide::Buffer<uint8_t> photo = app_inputs::natural_photo8(
                opt.images_dir, "tutorial_gray.png", 0, 768, 1280, 11, &source);
            input_ = app_inputs::to_unit_float(app_inputs::half_size(photo));
            description_ = std::to_string(input_.width()) + "x" + std::to_string(input_.height()) +
                           " float, " + source + " halved (2x2 mean)";
        } else {
            const bool big = opt.size() == InputSize::Benchmark;
            const int w = big ? 1536 : 320, h = big ? 2560 : 240;
            const char *file = big ? "gray.png" : "gray_small.png";
            input_ = app_inputs::photo_gray_float(opt.images_dir, file, w, h, 11, &description_);
        }
        description_ += ", " + std::to_string(kIterations) + " iterations";
        output_ = Halide::Buffer<float>(input_.width(), input_.height());
        pipeline_.input.set(input_);
    }
    std::string input_description() const override { return description_; }
    void compile() override {
        pipeline_.schedule_cpu();
        pipeline_.output.compile_jit();
    }
    std::string compile_autoscheduled(const Halide::AutoschedulerParams &params) override {
        pipeline_.input.set_estimates(app_autoschedule::region_of(input_));
        return app_autoschedule::schedule(pipeline_.output, output_, params);
    }
    void run() override { pipeline_.output.realize(output_); }
    Halide::Func output_func() override { return pipeline_.output; }
    Halide::Buffer<> output() override { return output_; }
    Halide::Buffer<> reference() override {
        Halide::Buffer<float> ref(input_.width(), input_.height());
        snake_reference(input_.data(), ref.data(), input_.width(), input_.height());
        return ref;
    }
    /// phi lies in about [-3, 3]; the cosine of the Dirac delta (a polynomial within a few ulp of
    /// std::cos) and contracted multiply-adds differ by ulps, which the normal's division by
    /// |grad phi| can magnify (see tests/apps/snake.cpp).
    double reference_tolerance() const override { return 1e-4; }
    /// The image in gray with the zero level set of phi (pixels whose phi changes sign towards
    /// the right or lower neighbour) in red and the region phi < 0 tinted blue: after
    /// run_for_demo(), the background around the subject.
    Halide::Buffer<uint8_t> picture() override { return draw(output_); }
    /// The image with the starting level set drawn the same way: the initial rectangle, or in
    /// the natural mode the demo's seed rows.
    Halide::Buffer<uint8_t> input_picture() override { return draw(start()); }
    /// In the natural mode: from start(), rounds of kIterations updates (the benchmark's chain,
    /// compiled once more reading phi from an input) fed back until the contour settles (see
    /// kDemoSettled), leaving the result in output(). Nothing in the other modes.
    DemoRun run_for_demo() override {
        DemoRun result;
        if (!natural_) return result;
        const int w = input_.width(), h = input_.height();
        SnakePipeline step(kIterations, /*from_initial_phi=*/true);
        step.input.set(input_);
        result.compile_ms = once_ms([&] {
            step.schedule_cpu();
            step.output.compile_jit();
        });
        Halide::Buffer<float> phi = start(), next(w, h), seen = phi.copy();
        int iterations = 0;
        long changed = -1;
        bool settled = false;
        result.run_ms = once_ms([&] {
            while (!settled && iterations < kDemoMaxIterations) {
                step.initial_phi.set(phi);
                step.output.realize(next);
                std::swap(phi, next);
                iterations += kIterations;
                if (iterations % kDemoWindow) continue;
                changed = 0;
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++) changed += (phi(x, y) < 0) != (seen(x, y) < 0);
                seen.copy_from(phi);
                settled = changed < kDemoSettled * w * h;
            }
        });
        result.steps = iterations;
        output_.copy_from(phi);
        char text[256];
        std::snprintf(text, sizeof text,
                      "the background grown from the top %d rows %s after %d iterations (%ld "
                      "pixels, %.2f%%, changed side in the last %d)",
                      kDemoSeedRows, settled ? "settled" : "stopped at the cap", iterations,
                      changed, 100.0 * changed / (w * h), kDemoWindow);
        result.what = text;
        return result;
    }

private:
    /// phi before the first update: the step function of the initial rectangle (the pipeline's
    /// phi0), or in the natural mode the demo's seed (-c0 in the top kDemoSeedRows rows).
    Halide::Buffer<float> start() const {
        const int w = input_.width(), h = input_.height();
        Halide::Buffer<float> phi(w, h);
        phi.for_each_element([&](int x, int y) {
            bool inside = natural_ ? y < kDemoSeedRows : inside_initial_rect(x, y, w, h);
            phi(x, y) = inside ? -kC0 : kC0;
        });
        return phi;
    }
    Halide::Buffer<uint8_t> draw(const Halide::Buffer<float> &phi) const {
        const int w = phi.width(), h = phi.height();
        Halide::Buffer<uint8_t> pic(w, h, 3);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                float v = phi(x, y);
                bool edge = (x + 1 < w && (v < 0) != (phi(x + 1, y) < 0)) ||
                            (y + 1 < h && (v < 0) != (phi(x, y + 1) < 0));
                float gray = std::min(std::max(input_(x, y), 0.0f), 1.0f) * 255.0f;
                float r = gray, g = gray, b = gray;
                if (v < 0) { // tinted: darker, towards blue
                    r = 0.5f * gray;
                    g = 0.6f * gray;
                    b = 0.6f * gray + 90.0f;
                }
                pic(x, y, 0) = edge ? 255 : (uint8_t)(r + 0.5f);
                pic(x, y, 1) = edge ? 0 : (uint8_t)(g + 0.5f);
                pic(x, y, 2) = edge ? 0 : (uint8_t)std::min(255.0f, b + 0.5f);
            }
        return pic;
    }

    SnakePipeline pipeline_;
    Halide::Buffer<float> input_, output_;
    std::string description_;
    bool natural_;
};

} // namespace snake_detail

/// Snake (level set segmentation) at 1536 x 2560 (paper size), 320 x 240 (small) or 384 x 640
/// (natural).
inline std::unique_ptr<AppInstance> make_snake_app(const AppOptions &opt) {
    return std::make_unique<snake_detail::SnakeApp>(opt);
}

#endif
