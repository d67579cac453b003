// The snake app as an AppInstance (apps/common/app.h) for the benchmark harness and the demo:
// 5 iterations of distance regularized level set evolution on the 1536 x 2560 gray photograph
// (gray.png as float in [0, 1]), or on gray_small.png tiled to 320 x 240 in the small mode;
// synthetic without the photographs. Include "Halide.h" first; links libpng and libjpeg
// (apps/common/inputs.h).
#ifndef LOOM_APPS_SNAKE_APP_H
#define LOOM_APPS_SNAKE_APP_H

#include "common/app.h"
#include "common/autoschedule.h"
#include "common/inputs.h"
#include "snake/reference.h"
#include "snake/snake.h"

#include <algorithm>
#include <memory>
#include <string>

namespace snake_detail {

/// The level set evolution on a gray float image; the output is phi after kIterations steps.
class SnakeApp : public AppInstance {
public:
    explicit SnakeApp(const AppOptions &opt) {
        const int w = opt.paper_size ? 1536 : 320, h = opt.paper_size ? 2560 : 240;
        const char *file = opt.paper_size ? "gray.png" : "gray_small.png";
        input_ = app_inputs::photo_gray_float(opt.images_dir, file, w, h, 11, &description_);
        description_ += ", " + std::to_string(kIterations) + " iterations";
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
        return app_autoschedule::schedule(pipeline_.output, output_, params);
    }
    void run() override { pipeline_.output.realize(output_); }
    Halide::Buffer<> output() override { return output_; }
    Halide::Buffer<> reference() override {
        Halide::Buffer<float> ref(input_.width(), input_.height());
        snake_reference(input_.data(), ref.data(), input_.width(), input_.height());
        return ref;
    }
    /// phi lies in about [-3, 3]; the cosine of the Dirac delta (a polynomial within a few ulp of
    /// std::cos) and contracted multiply-adds differ by ulps, which the normal's division by
    /// |grad phi| can magnify (see tests/apps/snake.cpp).
    double reference_tolerance() const override { return 1e-4; }
    /// The image in gray with the zero level set of phi (pixels whose phi changes sign towards
    /// the right or lower neighbour) in red.
    Halide::Buffer<uint8_t> picture() override {
        const int w = output_.width(), h = output_.height();
        Halide::Buffer<uint8_t> pic(w, h, 3);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                float v = output_(x, y);
                bool edge = (x + 1 < w && (v < 0) != (output_(x + 1, y) < 0)) ||
                            (y + 1 < h && (v < 0) != (output_(x, y + 1) < 0));
                uint8_t gray =
                    (uint8_t)(std::min(std::max(input_(x, y), 0.0f), 1.0f) * 255.0f + 0.5f);
                pic(x, y, 0) = edge ? 255 : gray;
                pic(x, y, 1) = edge ? 0 : gray;
                pic(x, y, 2) = edge ? 0 : gray;
            }
        return pic;
    }

private:
    SnakePipeline pipeline_;
    Halide::Buffer<float> input_, output_;
    std::string description_;
};

} // namespace snake_detail

/// Snake (level set segmentation) at 1536 x 2560 (paper size) or 320 x 240.
inline std::unique_ptr<AppInstance> make_snake_app(const AppOptions &opt) {
    return std::make_unique<snake_detail::SnakeApp>(opt);
}

#endif
