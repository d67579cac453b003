// The camera pipeline as an AppInstance (apps/common/app.h) for the benchmark harness and the
// demo. Include "Halide.h" first; links libpng and libjpeg (apps/common/inputs.h).
#ifndef LOOM_APPS_CAMERA_PIPE_APP_H
#define LOOM_APPS_CAMERA_PIPE_APP_H

#include "camera_pipe/camera_pipe.h"
#include "camera_pipe/reference.h"
#include "common/app.h"
#include "common/autoschedule.h"
#include "common/inputs.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

namespace camera_pipe_detail {

/// The Bayer raw `src` (even width and height) enlarged to W x H by mirroring its 2 x 2 Bayer
/// blocks (block rows and columns reflect; each block keeps its four sites), so the colour
/// pattern stays green-red / blue-green everywhere and the image has no seams.
inline Halide::Buffer<uint16_t> tile_bayer_mirrored(const Halide::Buffer<uint16_t> &src, int W,
                                                    int H) {
    Halide::Buffer<uint16_t> out(W, H);
    const int bw = src.width() / 2, bh = src.height() / 2;
    for (int y = 0; y < H; y++) {
        int sy = 2 * app_inputs::mirror_index(y / 2, bh) + (y & 1);
        for (int x = 0; x < W; x++)
            out(x, y) = src(2 * app_inputs::mirror_index(x / 2, bw) + (x & 1), sy);
    }
    return out;
}

/// A deterministic 10-bit Bayer raw when no photograph is available: smooth colour ramps
/// mosaicked (green-red on even rows) with hash noise.
inline Halide::Buffer<uint16_t> synthetic_bayer(int W, int H) {
    Halide::Buffer<uint16_t> raw(W, H);
    uint32_t state = 99;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            state = state * 1664525u + 1013904223u;
            int site = (y & 1) * 2 + (x & 1);
            float v = site == 1 ? 0.3f + 0.5f * x / W : site == 2 ? 0.2f + 0.6f * y / H : 0.5f;
            raw(x, y) = (uint16_t)(25 + v * 900 + (state >> 27));
        }
    return raw;
}

} // namespace camera_pipe_detail

/// The camera pipeline on bayer_small.png (256 x 344) enlarged to a 2560 x 1920 raw by mirrored
/// 2 x 2 blocks (paper size; output 2528 x 1896 x 3), or on bayer_small.png itself (small and
/// natural: the only real raw in ../shared/images; output 224 x 320 x 3); a synthetic raw without
/// the photographs.
class CameraPipeApp : public AppInstance {
public:
    explicit CameraPipeApp(const AppOptions &opt) {
        using namespace camera_pipe_detail;
        Halide::Buffer<uint16_t> photo =
            app_inputs::load_photo<uint16_t>(opt.images_dir, "bayer_small.png");
        const bool have = photo.defined() && photo.dimensions() == 2;
        const bool big = opt.size() == InputSize::Benchmark;
        const int W = big ? 2560 : (have ? photo.width() : 256);
        const int H = big ? 1920 : (have ? photo.height() : 344);
        if (have) {
            raw_ = tile_bayer_mirrored(photo, W, H);
            description_ =
                std::to_string(W) + "x" + std::to_string(H) + " uint16 raw, bayer_small.png" +
                (W == photo.width() && H == photo.height() ? "" : " tiled by 2x2 blocks");
        } else {
            raw_ = synthetic_bayer(W, H);
            description_ = std::to_string(W) + "x" + std::to_string(H) + " uint16 raw, synthetic";
        }
        output_ = Halide::Buffer<uint8_t>(W - 2 * kShiftX, H - 2 * kShiftY, 3);
        pipeline_.input.set(raw_);
    }
    std::string input_description() const override { return description_; }
    void compile() override {
        pipeline_.schedule_cpu();
        pipeline_.output.compile_jit();
    }
    std::string compile_autoscheduled(const Halide::AutoschedulerParams &params) override {
        pipeline_.input.set_estimates(app_autoschedule::region_of(raw_));
        pipeline_.matrix.set_estimates(app_autoschedule::region_of(pipeline_.matrix_table));
        pipeline_.curve.set_estimates(app_autoschedule::region_of(pipeline_.curve_table));
        pipeline_.sharpen_q5.set_estimate(pipeline_.sharpen_q5.get());
        return app_autoschedule::schedule(pipeline_.output, output_, params);
    }
    void run() override { pipeline_.output.realize(output_); }
    Halide::Func output_func() override { return pipeline_.output; }
    Halide::Buffer<> output() override { return output_; }
    Halide::Buffer<> reference() override {
        using namespace camera_pipe_detail;
        Halide::Buffer<uint8_t> ref(output_.width(), output_.height(), 3);
        camera_pipe_reference(raw_.data(), raw_.width(), raw_.height(), ref.data(), kColorTemp,
                              kGamma, kContrast, kSharpen);
        return ref;
    }
    /// Integer arithmetic throughout: bit-exact.
    double reference_tolerance() const override { return 0; }
    Halide::Buffer<uint8_t> picture() override { return output_; }
    /// The raw as the sensor saw it: each site in its filter's colour (green-red rows, then
    /// blue-green), scaled to the brightest value with the pipeline's gamma 2 so it is visible.
    Halide::Buffer<uint8_t> input_picture() override {
        Halide::Buffer<uint8_t> pic(raw_.width(), raw_.height(), 3);
        pic.fill(0);
        int top = 1;
        raw_.for_each_value([&](uint16_t v) { top = std::max(top, (int)v); });
        for (int y = 0; y < raw_.height(); y++)
            for (int x = 0; x < raw_.width(); x++) {
                const int site = (y & 1) * 2 + (x & 1), c = site == 1 ? 0 : site == 2 ? 2 : 1;
                pic(x, y, c) = (uint8_t)std::lround(255.0 * std::sqrt((double)raw_(x, y) / top));
            }
        return pic;
    }

private:
    CameraPipePipeline pipeline_;
    Halide::Buffer<uint16_t> raw_;
    Halide::Buffer<uint8_t> output_;
    std::string description_;
};

/// Makes the camera pipeline app (registry entry in apps/common/all_apps.h).
inline std::unique_ptr<AppInstance> make_camera_pipe_app(const AppOptions &opt) {
    return std::make_unique<CameraPipeApp>(opt);
}

#endif
