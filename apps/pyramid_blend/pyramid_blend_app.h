// The pyramid-blending app for the benchmark harness and the demo (apps/common/app.h): the two
// shared RGB photographs (rgb_small.png and tutorial_rgb.png) tiled to 2048 x 2048 by mirroring,
// blended left / right across a soft vertical seam; in the natural mode tutorial_rgb.png and its
// gray version tutorial_gray.png, both at their own 768 x 1280 (colour on the left fading into
// gray on the right). Include "Halide.h" first; links libpng and libjpeg.
#ifndef LOOM_APPS_PYRAMID_BLEND_APP_H
#define LOOM_APPS_PYRAMID_BLEND_APP_H

#include "common/app.h"
#include "common/autoschedule.h"
#include "common/inputs.h"
#include "common/picture.h"
#include "pyramid_blend/pyramid_blend.h"
#include "pyramid_blend/pyramid_blend_params.h"
#include "pyramid_blend/reference.h"

#include <algorithm>
#include <memory>
#include <string>

class PyramidBlendApp : public AppInstance {
public:
    explicit PyramidBlendApp(const AppOptions &opt) {
        using namespace pyramid_blend_detail;
        if (opt.size() == InputSize::Natural) {
            natural_ = true;
            std::string source;
            a_ = app_inputs::natural_rgb_float(opt.images_dir, 2024, &source);
            w_ = a_.width();
            h_ = a_.height();
            Halide::Buffer<uint8_t> gray =
                app_inputs::load_photo<uint8_t>(opt.images_dir, "tutorial_gray.png");
            from_photos_ = source != "synthetic" && gray.defined() && gray.dimensions() == 2 &&
                           gray.width() == w_ && gray.height() == h_;
            b_ = from_photos_ ? Halide::Buffer<float>(w_, h_, 3)
                              : app_inputs::synthetic_float(w_, h_, 3, 77);
            if (from_photos_)
                b_.for_each_element(
                    [&](int x, int y, int c) { b_(x, y, c) = gray(x, y) * (1.0f / 255.0f); });
        } else {
            w_ = opt.paper_size ? kPaperSize : kSmallWidth;
            h_ = opt.paper_size ? kPaperSize : kSmallHeight;
            a_ = app_inputs::photo_rgb_float(opt.images_dir, w_, h_);
            Halide::Buffer<uint8_t> other =
                app_inputs::load_photo<uint8_t>(opt.images_dir, "tutorial_rgb.png");
            from_photos_ = other.defined();
            b_ = from_photos_ ? app_inputs::to_unit_float(app_inputs::tile_mirrored(other, w_, h_))
                              : app_inputs::synthetic_float(w_, h_, 3, 77);
        }
        mask_ = Halide::Buffer<float>(w_, h_);
        mask_.for_each_element([&](int x, int y) { mask_(x, y) = mask_weight(x, w_); });
        out_ = Halide::Buffer<float>(w_, h_, 3);
    }
    std::string input_description() const override {
        const char *photos = natural_ ? "tutorial_rgb.png and tutorial_gray.png"
                                      : "rgb_small.png and tutorial_rgb.png tiled";
        return std::to_string(w_) + "x" + std::to_string(h_) + "x3 float, " +
               (from_photos_ ? photos : "synthetic images") +
               ", left/right mask with a w/8 ramp, 4 levels";
    }
    void compile() override {
        p_.schedule_cpu();
        p_.a.set(a_);
        p_.b.set(b_);
        p_.mask.set(mask_);
        p_.output.compile_jit();
    }
    std::string compile_autoscheduled(const Halide::AutoschedulerParams &params) override {
        app_autoschedule::bind(p_.a, a_);
        app_autoschedule::bind(p_.b, b_);
        app_autoschedule::bind(p_.mask, mask_);
        return app_autoschedule::schedule(p_.output, out_, params);
    }
    void run() override { p_.output.realize(out_); }
    Halide::Func output_func() override { return p_.output; }
    Halide::Buffer<> output() override { return out_; }
    Halide::Buffer<> reference() override {
        Halide::Buffer<float> ref(w_, h_, 3);
        pyramid_blend_reference(a_.data(), b_.data(), mask_.data(), ref.data(), w_, h_);
        return ref;
    }
    /// The same float operations in the same order: Loom is exact; Halide's fused multiply-adds
    /// differ by a few ulps (measured 2.4e-7 on values in [0, 1]).
    double reference_tolerance() const override { return 1e-5; }
    Halide::Buffer<uint8_t> picture() override {
        Halide::Buffer<uint8_t> pic(w_, h_, 3);
        pic.for_each_element([&](int x, int y, int c) {
            pic(x, y, c) = (uint8_t)(255.0f * std::min(1.0f, std::max(0.0f, out_(x, y, c))) + 0.5f);
        });
        return pic;
    }

    /// The two images side by side, a (kept on the left) then b (kept on the right).
    Halide::Buffer<uint8_t> input_picture() override {
        return app_picture::side_by_side(app_picture::from_float(a_), app_picture::from_float(b_));
    }

private:
    int w_, h_;
    bool from_photos_ = false, natural_ = false;
    Halide::Buffer<float> a_, b_, mask_, out_;
    PyramidBlendPipeline p_;
};

/// The registry's factory for the pyramid_blend app.
inline std::unique_ptr<AppInstance> make_pyramid_blend_app(const AppOptions &opt) {
    return std::make_unique<PyramidBlendApp>(opt);
}

#endif
