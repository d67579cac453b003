// The bilateral grid as an AppInstance (apps/common/app.h) for the benchmark harness and the
// demo. Include "Halide.h" first; links libpng and libjpeg (apps/common/inputs.h).
#ifndef LOOM_APPS_BILATERAL_GRID_APP_H
#define LOOM_APPS_BILATERAL_GRID_APP_H

#include "bilateral_grid/bilateral_grid.h"
#include "bilateral_grid/reference.h"
#include "common/app.h"
#include "common/autoschedule.h"
#include "common/inputs.h"
#include "common/picture.h"

#include <algorithm>
#include <memory>
#include <string>

/// The bilateral grid on the 1536 x 2560 gray photograph (gray.png as float in [0, 1], its own
/// size: at paper size and in the natural mode), or on gray_small.png tiled to 320 x 240 (small);
/// synthetic without the photographs.
class BilateralGridApp : public AppInstance {
public:
    explicit BilateralGridApp(const AppOptions &opt) {
        const bool big = opt.size() != InputSize::Small;
        const int w = big ? 1536 : 320, h = big ? 2560 : 240;
        const char *file = big ? "gray.png" : "gray_small.png";
        input_ = app_inputs::photo_gray_float(opt.images_dir, file, w, h, 7, &description_);
        output_ = Halide::Buffer<float>(w, h);
        pipeline_.input.set(input_);
    }
    std::string input_description() const override { return description_; }
    void compile() override {
        pipeline_.schedule_cpu();
        pipeline_.output.compile_jit();
    }
    std::string compile_autoscheduled(const Halide::AutoschedulerParams &params) override {
        pipeline_.input.set_estimates(app_autoschedule::region_of(input_));
        pipeline_.r_sigma.set_estimate(pipeline_.r_sigma.get());
        return app_autoschedule::schedule(pipeline_.output, output_, params);
    }
    void run() override { pipeline_.output.realize(output_); }
    Halide::Func output_func() override { return pipeline_.output; }
    Halide::Buffer<> output() override { return output_; }
    Halide::Buffer<> reference() override {
        Halide::Buffer<float> ref(input_.width(), input_.height());
        bilateral_grid_reference(input_.data(), ref.data(), input_.width(), input_.height(),
                                 bilateral_grid_detail::kSigmaR);
        return ref;
    }
    /// Bit-exact on this machine in the tests; 1e-5 relative allows a contracted multiply-add
    /// in the interpolation (see tests/apps/bilateral_grid.cpp).
    double reference_tolerance() const override { return 1e-5; }
    Halide::Buffer<uint8_t> picture() override { return app_picture::from_float(output_); }
    Halide::Buffer<uint8_t> input_picture() override { return app_picture::from_float(input_); }

private:
    BilateralGridPipeline pipeline_;
    Halide::Buffer<float> input_, output_;
    std::string description_;
};

/// Makes the bilateral grid app (registry entry in apps/common/all_apps.h).
inline std::unique_ptr<AppInstance> make_bilateral_grid_app(const AppOptions &opt) {
    return std::make_unique<BilateralGridApp>(opt);
}

#endif
