// Harris corner detection as an AppInstance for the benchmark harness and the demo: the RGB
// photograph tiled to 1536 x 2560 x 3 float (192 x 320 x 3 in the small mode; tutorial_rgb.png at
// its own 768 x 1280 in the natural one), the CPU schedule, the naive reference. Include
// "Halide.h" first.
#ifndef LOOM_APPS_HARRIS_APP_H
#define LOOM_APPS_HARRIS_APP_H

#include "common/app.h"
#include "common/autoschedule.h"
#include "common/inputs.h"
#include "common/picture.h"
#include "harris/harris.h"
#include "harris/reference.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

class HarrisApp : public AppInstance {
public:
    explicit HarrisApp(const AppOptions &opt) {
        in = app_inputs::rgb_float_input(opt, &source);
        w = in.width();
        h = in.height();
        out = Halide::Buffer<float>(w, h);
        p.input.set(in);
    }
    std::string input_description() const override {
        return std::to_string(w) + "x" + std::to_string(h) + "x3 float" + source;
    }
    void compile() override {
        p.schedule_cpu();
        p.output.compile_jit();
    }
    std::string compile_autoscheduled(const Halide::AutoschedulerParams &params) override {
        p.input.set_estimates(app_autoschedule::region_of(in));
        return app_autoschedule::schedule(p.output, out, params);
    }
    void run() override { p.output.realize(out); }
    Halide::Func output_func() override { return p.output; }
    Halide::Buffer<> output() override { return out; }
    Halide::Buffer<> reference() override {
        Halide::Buffer<float> ref(w, h);
        harris_reference(in.data(), ref.data(), w, h);
        return ref;
    }
    // The test's bound (tests/apps/harris.cpp): the response is a difference of products that
    // nearly cancels in flat areas, so the error is bounded absolutely there: |a - b| / max(1,
    // |b|) is |a - b| for the responses, all much smaller than 1.
    double reference_tolerance() const override { return 1e-5; }
    /// Corners bright, edges dark, flat areas mid-gray: the signed response compressed by a
    /// cube root and scaled by its largest magnitude.
    Halide::Buffer<uint8_t> picture() override {
        float peak = 1e-12f;
        out.for_each_value([&](float v) { peak = std::max(peak, std::fabs(v)); });
        Halide::Buffer<float> shown(w, h);
        shown.for_each_element(
            [&](int x, int y) { shown(x, y) = 0.5f + 0.5f * std::cbrt(out(x, y) / peak); });
        return app_picture::from_float(shown);
    }

    Halide::Buffer<uint8_t> input_picture() override { return app_picture::from_float(in); }

private:
    int w, h;
    std::string source; ///< ", <file>" in the natural mode
    HarrisPipeline p;
    Halide::Buffer<float> in, out;
};

/// The registry's factory (apps/common/all_apps.h).
inline std::unique_ptr<AppInstance> make_harris_app(const AppOptions &opt) {
    return std::make_unique<HarrisApp>(opt);
}

#endif
