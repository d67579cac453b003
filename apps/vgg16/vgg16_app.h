// The VGG-16 app for the benchmark harness and the demo (apps/common/app.h): the real network
// (configuration D, 224 x 224 x 3 x 4, 138 million He-scaled weights from fixed seeds) at the
// paper's size, the widths / 16 network on 32 x 32 x 3 x 2 in the small mode, and the real
// network on one 224 x 224 x 3 image in the demo's natural mode (a quarter of the benchmark's
// time). The images are synthetic in every mode (the weights are not trained, so a photograph
// would be classified no better). Include "Halide.h" first.
#ifndef LOOM_APPS_VGG16_APP_H
#define LOOM_APPS_VGG16_APP_H

#include "common/app.h"
#include "common/autoschedule.h"
#include "vgg16/reference.h"
#include "vgg16/vgg16.h"
#include "vgg16/vgg16_params.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

class Vgg16App : public AppInstance {
public:
    explicit Vgg16App(const AppOptions &opt)
        : cfg_(opt.size() == InputSize::Natural     ? vgg16_detail::natural_config()
               : opt.size() == InputSize::Benchmark ? vgg16_detail::paper_config()
                                                    : vgg16_detail::small_config()),
          weights_(vgg16_detail::make_weights(cfg_)), in_(3, cfg_.size, cfg_.size, cfg_.batch),
          out_(weights_.fc_out.back(), cfg_.batch), p_(cfg_, weights_) {
        natural_ = opt.size() == InputSize::Natural;
        // Images with values in [0, 1) (a normalized photograph's range), from a fixed seed.
        conv_layer_detail::fill_uniform(in_.data(), (long)in_.number_of_elements(), 5, 0.5f);
        for (size_t i = 0; i < in_.number_of_elements(); i++) in_.data()[i] += 0.5f;
    }
    std::string input_description() const override {
        return std::to_string(cfg_.size) + "x" + std::to_string(cfg_.size) + "x3x" +
               std::to_string(cfg_.batch) + " float (c fastest), widths / " +
               std::to_string(cfg_.divisor) + ", He-scaled fixed-seed weights" +
               (natural_ ? " (synthetic: not an image)" : "");
    }
    void compile() override {
        p_.schedule_cpu();
        p_.input.set(in_);
        p_.output.compile_jit();
    }
    std::string compile_autoscheduled(const Halide::AutoschedulerParams &params) override {
        app_autoschedule::bind(p_.input, in_);
        return app_autoschedule::schedule(p_.output, out_, params);
    }
    void run() override { p_.output.realize(out_); }
    Halide::Func output_func() override { return p_.output; }
    Halide::Buffer<> output() override { return out_; }
    Halide::Buffer<> reference() override {
        std::vector<float> prob = vgg16_reference(in_.data(), cfg_, weights_);
        Halide::Buffer<float> ref(weights_.fc_out.back(), cfg_.batch);
        std::copy(prob.begin(), prob.end(), ref.data());
        return ref;
    }
    /// Every sum is added in the reference's order; fused multiply-adds (Halide contracts
    /// a * b + c) round each step once instead of twice, and the differences pass through 16
    /// layers and Halide's exp: measured 3e-8 on the probabilities (absolute, all below 1).
    double reference_tolerance() const override { return 1e-5; }
    Halide::Buffer<uint8_t> picture() override {
        // One row of bars per image: each class's probability relative to the largest.
        const int classes = out_.width(), rows = 32;
        Halide::Buffer<uint8_t> pic(classes, rows * cfg_.batch);
        for (int n = 0; n < cfg_.batch; n++) {
            float top = 1e-12f;
            for (int o = 0; o < classes; o++) top = std::max(top, out_(o, n));
            for (int o = 0; o < classes; o++) {
                int bar = (int)(rows * out_(o, n) / top);
                for (int r = 0; r < rows; r++) pic(o, n * rows + r) = (rows - r <= bar) ? 255 : 0;
            }
        }
        return pic;
    }

    /// The batch's images side by side as RGB (values in [0, 1), channel-fastest in memory).
    Halide::Buffer<uint8_t> input_picture() override {
        const int s = cfg_.size;
        Halide::Buffer<uint8_t> pic(s * cfg_.batch, s, 3);
        pic.for_each_element([&](int x, int y, int c) {
            pic(x, y, c) = (uint8_t)std::min(255.0f, 256.0f * in_(c, x % s, y, x / s));
        });
        return pic;
    }

private:
    vgg16_detail::Config cfg_;
    vgg16_detail::Weights weights_;
    Halide::Buffer<float> in_, out_;
    Vgg16Pipeline p_;
    bool natural_ = false;
};

/// The registry's factory for the vgg16 app.
inline std::unique_ptr<AppInstance> make_vgg16_app(const AppOptions &opt) {
    return std::make_unique<Vgg16App>(opt);
}

#endif
