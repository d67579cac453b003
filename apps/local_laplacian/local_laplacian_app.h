// The local Laplacian filter as an AppInstance (apps/common/app.h) for the benchmark harness and
// the demo. Include "Halide.h" first; links libpng and libjpeg (apps/common/inputs.h).
#ifndef LOOM_APPS_LOCAL_LAPLACIAN_APP_H
#define LOOM_APPS_LOCAL_LAPLACIAN_APP_H

#include "common/app.h"
#include "common/autoschedule.h"
#include "common/inputs.h"
#include "common/picture.h"
#include "local_laplacian/local_laplacian.h"
#include "local_laplacian/reference.h"

#include <memory>
#include <string>

/// The local Laplacian filter (8 levels, alpha 1, beta 1) on rgb_small16.png (192 x 320 x 3,
/// 16-bit) tiled by mirroring to 1536 x 2560 x 3 (paper size) or as is (small), or on
/// tutorial_rgb.png at its own 768 x 1280 x 3 widened to 16 bits (natural: the only 16-bit
/// photograph is the small one); a synthetic image without the photographs.
class LocalLaplacianApp : public AppInstance {
public:
    explicit LocalLaplacianApp(const AppOptions &opt) {
        if (opt.size() == InputSize::Natural) {
            std::string source;
            Halide::Buffer<uint8_t> photo = app_inputs::natural_photo8(
                opt.images_dir, app_inputs::kNaturalRgb, 3, app_inputs::kNaturalRgbWidth,
                app_inputs::kNaturalRgbHeight, 16, &source);
            input_ = Halide::Buffer<uint16_t>(photo.width(), photo.height(), 3);
            // v * 257 maps 0..255 onto 0..65535 exactly.
            input_.for_each_element(
                [&](const int *pos) { input_(pos) = (uint16_t)(photo(pos) * 257); });
            description_ = std::to_string(photo.width()) + "x" + std::to_string(photo.height()) +
                           "x3 uint16, " + source + " widened from 8 bits";
            output_ = Halide::Buffer<uint16_t>(photo.width(), photo.height(), 3);
            pipeline_.input.set(input_);
            return;
        }
        Halide::Buffer<uint16_t> photo =
            app_inputs::load_photo<uint16_t>(opt.images_dir, "rgb_small16.png");
        const bool have = photo.defined() && photo.dimensions() == 3 && photo.channels() == 3;
        const bool big = opt.size() == InputSize::Benchmark;
        const int w = big ? 1536 : (have ? photo.width() : 192);
        const int h = big ? 2560 : (have ? photo.height() : 320);
        const std::string size = std::to_string(w) + "x" + std::to_string(h) + "x3 uint16, ";
        if (have) {
            input_ = app_inputs::tile_mirrored(photo, w, h);
            description_ = size + "rgb_small16.png" +
                           (w == photo.width() && h == photo.height() ? "" : " tiled");
        } else {
            Halide::Buffer<float> f = app_inputs::synthetic_float(w, h, 3, 16);
            input_ = Halide::Buffer<uint16_t>(w, h, 3);
            input_.for_each_element(
                [&](const int *pos) { input_(pos) = (uint16_t)(f(pos) * 65535.0f); });
            description_ = size + "synthetic";
        }
        output_ = Halide::Buffer<uint16_t>(w, h, 3);
        pipeline_.input.set(input_);
    }
    std::string input_description() const override { return description_; }
    void compile() override {
        pipeline_.schedule_cpu();
        pipeline_.output.compile_jit();
    }
    std::string compile_autoscheduled(const Halide::AutoschedulerParams &params) override {
        pipeline_.input.set_estimates(app_autoschedule::region_of(input_));
        pipeline_.remap_lut.set_estimates(app_autoschedule::region_of(pipeline_.lut_table));
        pipeline_.beta.set_estimate(pipeline_.beta.get());
        return app_autoschedule::schedule(pipeline_.output, output_, params);
    }
    void run() override { pipeline_.output.realize(output_); }
    Halide::Func output_func() override { return pipeline_.output; }
    Halide::Buffer<> output() override { return output_; }
    Halide::Buffer<> reference() override {
        using namespace local_laplacian_detail;
        Halide::Buffer<uint16_t> ref(output_.width(), output_.height(), 3);
        local_laplacian_reference(input_.data(), ref.data(), input_.width(), input_.height(),
                                  kAlpha, kBeta);
        return ref;
    }
    /// Float in the middle, uint16 out: the reference does the same float operations in the
    /// same order, so Loom agrees with it exactly; a compiler that contracts multiply-adds
    /// (Halide 21) moves 0.2% of the values by one unit. Up to 2 units are allowed, as in
    /// tests/apps/local_laplacian.cpp; in the harness's |a - b| / max(1, |b|) that is 2 (a dark
    /// value of 1 off by 2 units).
    double reference_tolerance() const override { return 2.0; }
    Halide::Buffer<uint8_t> picture() override { return app_picture::from_unsigned(output_, 8); }
    Halide::Buffer<uint8_t> input_picture() override {
        return app_picture::from_unsigned(input_, 8);
    }

private:
    LocalLaplacianPipeline pipeline_;
    Halide::Buffer<uint16_t> input_, output_;
    std::string description_;
};

/// Makes the local Laplacian app (registry entry in apps/common/all_apps.h).
inline std::unique_ptr<AppInstance> make_local_laplacian_app(const AppOptions &opt) {
    return std::make_unique<LocalLaplacianApp>(opt);
}

#endif
