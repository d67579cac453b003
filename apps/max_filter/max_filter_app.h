// The max filter as an AppInstance for the benchmark harness and the demo: the RGB photograph
// tiled to 1536 x 2560 x 3 float (192 x 320 x 3 in the small mode; tutorial_rgb.png at its own
// 768 x 1280 in the natural one), radius 26, the CPU schedule, the naive (direct 2-D window)
// reference. Include "Halide.h" first.
#ifndef LOOM_APPS_MAX_FILTER_APP_H
#define LOOM_APPS_MAX_FILTER_APP_H

#include "common/app.h"
#include "common/autoschedule.h"
#include "common/inputs.h"
#include "common/picture.h"
#include "max_filter/max_filter.h"
#include "max_filter/reference.h"

#include <memory>
#include <string>

class MaxFilterApp : public AppInstance {
public:
    explicit MaxFilterApp(const AppOptions &opt) : p(kRadius) {
        in = app_inputs::rgb_float_input(opt, &source);
        w = in.width();
        h = in.height();
        out = Halide::Buffer<float>(w, h, 3);
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
        Halide::Buffer<float> ref(w, h, 3);
        max_filter_reference(in.data(), ref.data(), w, h, 3, kRadius);
        return ref;
    }
    /// A maximum selects one of its inputs: bit-exact.
    double reference_tolerance() const override { return 0; }
    Halide::Buffer<uint8_t> picture() override { return app_picture::from_float(out); }
    Halide::Buffer<uint8_t> input_picture() override { return app_picture::from_float(in); }

private:
    static constexpr int kRadius = 26;
    int w, h;
    std::string source; ///< ", <file>" in the natural mode
    MaxFilterPipeline p;
    Halide::Buffer<float> in, out;
};

/// The registry's factory (apps/common/all_apps.h).
inline std::unique_ptr<AppInstance> make_max_filter_app(const AppOptions &opt) {
    return std::make_unique<MaxFilterApp>(opt);
}

#endif
