// The 2012 paper's 3x3 blur as an AppInstance for the benchmark harness and the demo: the grey
// photograph tiled to 6400 x 4800 (640 x 480 in the small mode; gray.png at its own 1536 x 2560
// in the natural one) and widened to uint16 (shifted left by 6 bits, so the 16-bit sum of three
// samples cannot wrap), under the paper's Figure 1 schedule. Include "Halide.h" first.
#ifndef LOOM_APPS_BLUR_APP_H
#define LOOM_APPS_BLUR_APP_H

#include "blur/blur.h"
#include "blur/reference.h"
#include "common/app.h"
#include "common/autoschedule.h"
#include "common/inputs.h"
#include "common/picture.h"

#include <cstdint>
#include <memory>
#include <string>

class BlurApp : public AppInstance {
public:
    explicit BlurApp(const AppOptions &opt) {
        Halide::Buffer<uint8_t> gray;
        if (opt.size() == InputSize::Natural) {
            gray =
                app_inputs::natural_photo8(opt.images_dir, "gray.png", 0, 1536, 2560, 11, &source);
            w = gray.width();
            h = gray.height();
            source = ", " + source;
        } else {
            w = opt.paper_size ? 6400 : 640;
            h = opt.paper_size ? 4800 : 480;
            Halide::Buffer<uint8_t> photo =
                app_inputs::load_photo<uint8_t>(opt.images_dir, "gray.png");
            if (photo.defined()) gray = app_inputs::tile_mirrored(photo, w, h);
        }
        in = Halide::Buffer<uint16_t>(w, h);
        if (gray.defined()) {
            in.for_each_element([&](int x, int y) { in(x, y) = (uint16_t)(gray(x, y) << 6); });
        } else {
            Halide::Buffer<float> f = app_inputs::synthetic_float(w, h, 0, 11);
            in.for_each_element([&](int x, int y) { in(x, y) = (uint16_t)(f(x, y) * 16383.0f); });
        }
        out = Halide::Buffer<uint16_t>(w, h);
        p.input.set(in);
    }
    std::string input_description() const override {
        return std::to_string(w) + "x" + std::to_string(h) + " uint16" + source;
    }
    void compile() override {
        p.schedule_paper();
        p.blur_y.compile_jit();
    }
    std::string compile_autoscheduled(const Halide::AutoschedulerParams &params) override {
        p.input.set_estimates(app_autoschedule::region_of(in));
        return app_autoschedule::schedule(p.blur_y, out, params);
    }
    void run() override { p.blur_y.realize(out); }
    Halide::Func output_func() override { return p.blur_y; }
    Halide::Buffer<> output() override { return out; }
    Halide::Buffer<> reference() override {
        Halide::Buffer<uint16_t> ref(w, h);
        blur_reference(in.data(), ref.data(), w, h);
        return ref;
    }
    double reference_tolerance() const override { return 0; }
    Halide::Buffer<uint8_t> picture() override { return app_picture::from_unsigned(out, 6); }
    Halide::Buffer<uint8_t> input_picture() override { return app_picture::from_unsigned(in, 6); }

private:
    int w, h;
    std::string source; ///< ", <file>" in the natural mode
    BlurPipeline p;
    Halide::Buffer<uint16_t> in, out;
};

/// The registry's factory (apps/common/all_apps.h).
inline std::unique_ptr<AppInstance> make_blur_app(const AppOptions &opt) {
    return std::make_unique<BlurApp>(opt);
}

#endif
