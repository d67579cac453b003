// The unsharp mask as an AppInstance for the benchmark harness and the demo: the RGB photograph
// tiled to 1536 x 2560 x 3 float (192 x 320 x 3 in the small mode; tutorial_rgb.png at its own
// 768 x 1280 in the natural one), the CPU schedule, the naive reference. Include "Halide.h"
// first.
#ifndef LOOM_APPS_UNSHARP_APP_H
#define LOOM_APPS_UNSHARP_APP_H

#include "common/app.h"
#include "common/autoschedule.h"
#include "common/inputs.h"
#include "common/picture.h"
#include "unsharp/reference.h"
#include "unsharp/unsharp.h"

#include <memory>
#include <string>

class UnsharpApp : public AppInstance {
public:
    explicit UnsharpApp(const AppOptions &opt) {
        in = app_inputs::rgb_float_input(opt, &source);
        w = in.width();
        h = in.height();
        out = Halide::Buffer<float>(w, h, 3);
        p.input.set(in);
        p.weight.set(kWeight);
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
        p.weight.set_estimate(p.weight.get());
        return app_autoschedule::schedule(p.output, out, params);
    }
    void run() override { p.output.realize(out); }
    Halide::Func output_func() override { return p.output; }
    Halide::Buffer<> output() override { return out; }
    Halide::Buffer<> reference() override {
        Halide::Buffer<float> ref(w, h, 3);
        unsharp_reference(in.data(), ref.data(), w, h, kWeight);
        return ref;
    }
    // The test's bound (tests/apps/unsharp.cpp): the same float operations in the same order,
    // with room for a fused multiply-add.
    double reference_tolerance() const override { return 1e-5; }
    Halide::Buffer<uint8_t> picture() override { return app_picture::from_float(out); }
    Halide::Buffer<uint8_t> input_picture() override { return app_picture::from_float(in); }

private:
    static constexpr float kWeight = 1.0f;
    int w, h;
    std::string source; ///< ", <file>" in the natural mode
    UnsharpPipeline p;
    Halide::Buffer<float> in, out;
};

/// The registry's factory (apps/common/all_apps.h).
inline std::unique_ptr<AppInstance> make_unsharp_app(const AppOptions &opt) {
    return std::make_unique<UnsharpApp>(opt);
}

#endif
