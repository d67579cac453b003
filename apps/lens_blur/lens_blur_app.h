// The lens blur app as an AppInstance (apps/common/app.h) for the benchmark harness and the
// demo: "lens_blur" at the paper's size (992 x 1024 x 3, 8-bit: the left view is the photograph
// tiled, the right one made from it by shifting regions by known disparities), or with
// tutorial_rgb.png at its own 768 x 1280 as the left view in the natural mode. Include
// "Halide.h" first.
#ifndef LOOM_APPS_LENS_BLUR_APP_H
#define LOOM_APPS_LENS_BLUR_APP_H

#include "common/app.h"
#include "common/autoschedule.h"
#include "common/inputs.h"
#include "common/picture.h"
#include "lens_blur/lens_blur.h"
#include "lens_blur/reference.h"

#include <algorithm>
#include <memory>
#include <string>

namespace lens_blur_detail {

/// One lens blur pipeline on a w x h x 3 8-bit stereo pair.
class LensBlurApp : public AppInstance {
public:
    LensBlurApp(const AppOptions &opt, int w, int h) {
        if (opt.size() == InputSize::Natural) {
            left_ = app_inputs::natural_photo8(opt.images_dir, app_inputs::kNaturalRgb, 3,
                                               app_inputs::kNaturalRgbWidth,
                                               app_inputs::kNaturalRgbHeight, 2024, &source_);
            w = left_.width();
            h = left_.height();
        } else {
            Halide::Buffer<uint8_t> photo =
                app_inputs::load_photo<uint8_t>(opt.images_dir, "rgb_small.png");
            if (photo.defined()) {
                left_ = app_inputs::tile_mirrored(photo, w, h);
                source_ = "rgb_small.png tiled";
            } else {
                Halide::Buffer<float> f = app_inputs::synthetic_float(w, h, 3, 2024);
                left_ = Halide::Buffer<uint8_t>(w, h, 3);
                left_.for_each_element(
                    [&](int x, int y, int c) { left_(x, y, c) = (uint8_t)(f(x, y, c) * 255.0f); });
                source_ = "synthetic";
            }
        }
        right_ = Halide::Buffer<uint8_t>(w, h, 3);
        out_ = Halide::Buffer<float>(w, h, 3);
        lens_blur_make_right(left_.data(), right_.data(), w, h);
        pipeline_.left.set(left_);
        pipeline_.right.set(right_);
    }
    std::string input_description() const override {
        return std::to_string(left_.width()) + "x" + std::to_string(left_.height()) +
               "x3 8-bit stereo pair, " + source_ + ", 32 disparities, focus " +
               std::to_string(kDefaultFocus);
    }
    void compile() override {
        pipeline_.schedule_cpu();
        pipeline_.output.compile_jit();
    }
    std::string compile_autoscheduled(const Halide::AutoschedulerParams &params) override {
        pipeline_.left.set_estimates(app_autoschedule::region_of(left_));
        pipeline_.right.set_estimates(app_autoschedule::region_of(right_));
        pipeline_.focus.set_estimate(pipeline_.focus.get());
        return app_autoschedule::schedule(pipeline_.output, out_, params);
    }
    void run() override { pipeline_.output.realize(out_); }
    Halide::Func output_func() override { return pipeline_.output; }
    Halide::Buffer<> output() override { return out_; }
    Halide::Buffer<> reference() override {
        Halide::Buffer<float> ref(left_.width(), left_.height(), 3);
        lens_blur_reference(left_.data(), right_.data(), ref.data(), left_.width(), left_.height(),
                            kDefaultFocus);
        return ref;
    }
    /// The same (integer) depths and the same sums: exact up to the final division's rounding
    /// (see tests/apps/lens_blur.cpp).
    double reference_tolerance() const override { return 1e-6; }
    Halide::Buffer<uint8_t> picture() override { return app_picture::from_float(out_); }
    /// The left view (the right one is made from it).
    Halide::Buffer<uint8_t> input_picture() override { return left_; }

private:
    LensBlurPipeline pipeline_;
    Halide::Buffer<uint8_t> left_, right_;
    Halide::Buffer<float> out_;
    std::string source_;
};

} // namespace lens_blur_detail

/// Lens blur at 992 x 1024 x 3 (paper size), 160 x 96 x 3 (small) or the photograph's size
/// (natural).
inline std::unique_ptr<AppInstance> make_lens_blur_app(const AppOptions &opt) {
    return opt.size() == InputSize::Benchmark
               ? std::make_unique<lens_blur_detail::LensBlurApp>(opt, 992, 1024)
               : std::make_unique<lens_blur_detail::LensBlurApp>(opt, 160, 96);
}

#endif
