// Histogram equalization as an AppInstance for the benchmark harness and the demo: the RGB
// photograph tiled to 1536 x 2560 x 3 uint8 (192 x 320 x 3 in the small mode; tutorial_rgb.png
// at its own 768 x 1280 in the natural one), each channel equalized on its own by the 2-D
// pipeline (one compiled pipeline, three realizations per run, as OpenCV's equalizeHist per
// channel), with the CPU schedule. Include "Halide.h" first.
#ifndef LOOM_APPS_HIST_EQ_APP_H
#define LOOM_APPS_HIST_EQ_APP_H

#include "common/app.h"
#include "common/autoschedule.h"
#include "common/inputs.h"
#include "hist_eq/hist_eq.h"
#include "hist_eq/reference.h"

#include <cstdint>
#include <memory>
#include <string>

class HistEqApp : public AppInstance {
public:
    explicit HistEqApp(const AppOptions &opt) {
        if (opt.size() == InputSize::Natural) {
            in = app_inputs::natural_photo8(opt.images_dir, app_inputs::kNaturalRgb, 3,
                                            app_inputs::kNaturalRgbWidth,
                                            app_inputs::kNaturalRgbHeight, 7, &source);
            source = ", " + source;
        } else {
            const bool big = opt.size() == InputSize::Benchmark;
            const int tw = big ? 1536 : 192, th = big ? 2560 : 320;
            Halide::Buffer<uint8_t> photo =
                app_inputs::load_photo<uint8_t>(opt.images_dir, "rgb_small.png");
            if (photo.defined()) {
                in = app_inputs::tile_mirrored(photo, tw, th);
            } else {
                Halide::Buffer<float> f = app_inputs::synthetic_float(tw, th, 3, 7);
                in = Halide::Buffer<uint8_t>(tw, th, 3);
                in.for_each_element([&](const int *pos) { in(pos) = (uint8_t)(f(pos) * 255.0f); });
            }
        }
        w = in.width();
        h = in.height();
        out = Halide::Buffer<uint8_t>(w, h, 3);
    }
    std::string input_description() const override {
        return std::to_string(w) + "x" + std::to_string(h) + "x3 uint8" + source;
    }
    void compile() override {
        p.schedule_cpu();
        p.output.compile_jit();
    }
    std::string compile_autoscheduled(const Halide::AutoschedulerParams &params) override {
        // One plane at a time, as run() computes them.
        p.input.set_estimates(
            app_autoschedule::region_of(Halide::Buffer<uint8_t>(in.sliced(2, 0))));
        return app_autoschedule::schedule(p.output, Halide::Buffer<uint8_t>(out.sliced(2, 0)),
                                          params);
    }
    void run() override {
        for (int c = 0; c < 3; c++) {
            Halide::Buffer<> plane = prepare_realization(c, out);
            p.output.realize(plane);
        }
    }
    Halide::Func output_func() override { return p.output; }
    int realizations() const override { return 3; }
    Halide::Buffer<> prepare_realization(int c, Halide::Buffer<> planes) override {
        // Views of one plane (Halide's sliced() gives a Runtime::Buffer: wrap it).
        p.input.set(Halide::Buffer<uint8_t>(in.sliced(2, c)));
        return Halide::Buffer<>(planes.sliced(2, c));
    }
    Halide::Buffer<> output() override { return out; }
    Halide::Buffer<> reference() override {
        Halide::Buffer<uint8_t> ref(w, h, 3);
        for (int c = 0; c < 3; c++) hist_eq_reference(&in(0, 0, c), &ref(0, 0, c), w, h);
        return ref;
    }
    double reference_tolerance() const override { return 0; }
    Halide::Buffer<uint8_t> picture() override { return out; }
    Halide::Buffer<uint8_t> input_picture() override { return in; }

private:
    int w, h;
    std::string source; ///< ", <file>" in the natural mode
    HistEqPipeline p;
    Halide::Buffer<uint8_t> in, out;
};

/// The registry's factory (apps/common/all_apps.h).
inline std::unique_ptr<AppInstance> make_hist_eq_app(const AppOptions &opt) {
    return std::make_unique<HistEqApp>(opt);
}

#endif
