// The multi-scale interpolation app as an AppInstance (apps/common/app.h) for the benchmark
// harness and the demo: 1536 x 2560 RGBA (the photograph tiled, alpha from the app's hole
// pattern), or 384 x 640 in the small mode, or tutorial_rgb.png at its own 768 x 1280 in the
// natural one. Include "Halide.h" first.
#ifndef LOOM_APPS_INTERPOLATE_APP_H
#define LOOM_APPS_INTERPOLATE_APP_H

#include "common/app.h"
#include "common/autoschedule.h"
#include "common/inputs.h"
#include "common/picture.h"
#include "interpolate/interpolate.h"
#include "interpolate/reference.h"

#include <algorithm>
#include <memory>
#include <string>

namespace interpolate_detail {

/// One interpolation pipeline on a w x h RGBA float image (in the natural mode, the size of the
/// photograph).
class InterpolateApp : public AppInstance {
public:
    InterpolateApp(const AppOptions &opt, int w, int h) {
        Halide::Buffer<float> rgb;
        if (opt.size() == InputSize::Natural) {
            rgb = app_inputs::natural_rgb_float(opt.images_dir, 2024, &source_);
            w = rgb.width();
            h = rgb.height();
        } else {
            rgb = app_inputs::photo_rgb_float(opt.images_dir, w, h);
            source_ = opt.images_dir.empty() ? "synthetic" : "rgb_small.png tiled";
        }
        input_ = Halide::Buffer<float>(w, h, 4);
        out_ = Halide::Buffer<float>(w, h, 3);
        input_.for_each_element([&](int x, int y, int c) {
            input_(x, y, c) = c < 3 ? rgb(x, y, c) : alpha_pattern(x, y);
        });
        pipeline_.input.set(input_);
    }
    std::string input_description() const override {
        return std::to_string(input_.width()) + "x" + std::to_string(input_.height()) +
               "x4 float RGBA, " + source_ + ", alpha with holes, " + std::to_string(kLevels) +
               " levels";
    }
    void compile() override {
        pipeline_.schedule_cpu();
        pipeline_.output.compile_jit();
    }
    std::string compile_autoscheduled(const Halide::AutoschedulerParams &params) override {
        pipeline_.input.set_estimates(app_autoschedule::region_of(input_));
        return app_autoschedule::schedule(pipeline_.output, out_, params);
    }
    void run() override { pipeline_.output.realize(out_); }
    Halide::Func output_func() override { return pipeline_.output; }
    Halide::Buffer<> output() override { return out_; }
    Halide::Buffer<> reference() override {
        Halide::Buffer<float> ref(input_.width(), input_.height(), 3);
        interpolate_reference(input_.data(), ref.data(), input_.width(), input_.height());
        return ref;
    }
    /// Same operations in the same order; room for fused multiply-adds (see
    /// tests/apps/interpolate.cpp).
    double reference_tolerance() const override { return 1e-5; }
    Halide::Buffer<uint8_t> picture() override { return app_picture::from_float(out_); }
    /// The colours premultiplied by alpha: the holes the interpolation fills are black.
    Halide::Buffer<uint8_t> input_picture() override {
        Halide::Buffer<float> shown(input_.width(), input_.height(), 3);
        shown.for_each_element(
            [&](int x, int y, int c) { shown(x, y, c) = input_(x, y, c) * input_(x, y, 3); });
        return app_picture::from_float(shown);
    }

private:
    InterpolatePipeline pipeline_;
    Halide::Buffer<float> input_, out_;
    std::string source_;
};

} // namespace interpolate_detail

/// Multi-scale interpolation at 1536 x 2560 RGBA (paper size), 384 x 640 (small) or the
/// photograph's size (natural).
inline std::unique_ptr<AppInstance> make_interpolate_app(const AppOptions &opt) {
    return opt.size() == InputSize::Benchmark
               ? std::make_unique<interpolate_detail::InterpolateApp>(opt, 1536, 2560)
               : std::make_unique<interpolate_detail::InterpolateApp>(opt, 384, 640);
}

#endif
