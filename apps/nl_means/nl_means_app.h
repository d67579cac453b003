// The non-local means app as an AppInstance (apps/common/app.h) for the benchmark harness and the
// demo: "nl_means" at the paper's large size (1536 x 2560 x 3, the photograph tiled; in the
// natural mode tutorial_rgb.png at its own 768 x 1280) and "nl_means_small" at its small one
// (192 x 320 x 3, rgb_small.png exactly). Include "Halide.h" first.
#ifndef LOOM_APPS_NL_MEANS_APP_H
#define LOOM_APPS_NL_MEANS_APP_H

#include "common/app.h"
#include "common/autoschedule.h"
#include "common/inputs.h"
#include "common/picture.h"
#include "nl_means/nl_means.h"
#include "nl_means/reference.h"

#include <algorithm>
#include <memory>
#include <string>

namespace nl_means_detail {

/// One non-local means pipeline on a w x h x 3 float image, or (w = h = 0) on the demo's
/// photograph at its own size.
class NlMeansApp : public AppInstance {
public:
    NlMeansApp(const AppOptions &opt, int w, int h) {
        if (w == 0) {
            input_ = app_inputs::natural_rgb_float(opt.images_dir, 2024, &source_);
        } else {
            input_ = app_inputs::photo_rgb_float(opt.images_dir, w, h);
            // rgb_small.png is 192 x 320: the natural mode says it is shown as it is.
            source_ = opt.images_dir.empty()             ? "synthetic"
                      : opt.size() == InputSize::Natural ? "rgb_small.png"
                                                         : "rgb_small.png tiled";
        }
        out_ = Halide::Buffer<float>(input_.width(), input_.height(), 3);
        pipeline_.input.set(input_);
    }
    std::string input_description() const override {
        return std::to_string(input_.width()) + "x" + std::to_string(input_.height()) +
               "x3 float, " + source_ + ", sigma " + std::to_string(kDefaultSigma).substr(0, 4);
    }
    void compile() override {
        pipeline_.schedule_cpu();
        pipeline_.output.compile_jit();
    }
    std::string compile_autoscheduled(const Halide::AutoschedulerParams &params) override {
        pipeline_.input.set_estimates(app_autoschedule::region_of(input_));
        pipeline_.sigma.set_estimate(pipeline_.sigma.get());
        return app_autoschedule::schedule(pipeline_.output, out_, params);
    }
    void run() override { pipeline_.output.realize(out_); }
    Halide::Func output_func() override { return pipeline_.output; }
    Halide::Buffer<> output() override { return out_; }
    Halide::Buffer<> reference() override {
        Halide::Buffer<float> ref(input_.width(), input_.height(), 3);
        nl_means_reference(input_.data(), ref.data(), input_.width(), input_.height(),
                           kDefaultSigma);
        return ref;
    }
    /// Exponentials within a few ulp of std::exp and fused multiply-adds (see
    /// tests/apps/nl_means.cpp).
    double reference_tolerance() const override { return 2e-5; }
    Halide::Buffer<uint8_t> picture() override { return app_picture::from_float(out_); }
    Halide::Buffer<uint8_t> input_picture() override { return app_picture::from_float(input_); }

private:
    NlMeansPipeline pipeline_;
    Halide::Buffer<float> input_, out_;
    std::string source_;
};

} // namespace nl_means_detail

/// Non-local means at 1536 x 2560 x 3 (paper size), 192 x 320 x 3 (small) or the photograph's
/// size (natural).
inline std::unique_ptr<AppInstance> make_nl_means_app(const AppOptions &opt) {
    switch (opt.size()) {
    case InputSize::Benchmark:
        return std::make_unique<nl_means_detail::NlMeansApp>(opt, 1536, 2560);
    case InputSize::Natural:
        return std::make_unique<nl_means_detail::NlMeansApp>(opt, 0, 0);
    default:
        return std::make_unique<nl_means_detail::NlMeansApp>(opt, 192, 320);
    }
}

/// Non-local means at the paper's small size, 192 x 320 x 3 (rgb_small.png exactly), either way.
inline std::unique_ptr<AppInstance> make_nl_means_small_app(const AppOptions &opt) {
    return std::make_unique<nl_means_detail::NlMeansApp>(opt, 192, 320);
}

#endif
