// The convolution-layer app for the benchmark harness and the demo (apps/common/app.h): a
// deterministic pseudo-random input batch and He-scaled weights, through ConvLayerPipeline's
// CPU schedule. A layer's input is not a photograph: the natural mode (the demo) keeps the
// synthetic batch at the benchmark's size (about 25 ms). Include "Halide.h" first.
#ifndef LOOM_APPS_CONV_LAYER_APP_H
#define LOOM_APPS_CONV_LAYER_APP_H

#include "common/app.h"
#include "common/autoschedule.h"
#include "conv_layer/conv_layer.h"
#include "conv_layer/conv_layer_params.h"
#include "conv_layer/reference.h"

#include <algorithm>
#include <memory>
#include <string>

class ConvLayerApp : public AppInstance {
public:
    explicit ConvLayerApp(const AppOptions &opt) {
        using namespace conv_layer_detail;
        const bool big = opt.size() != InputSize::Small;
        natural_ = opt.size() == InputSize::Natural;
        w_ = big ? kPaperWidth : kSmallWidth;
        h_ = big ? kPaperHeight : kSmallHeight;
        ci_ = big ? kPaperChannelsIn : kSmallChannelsIn;
        co_ = big ? kPaperChannelsOut : kSmallChannelsOut;
        n_ = big ? kPaperBatch : kSmallBatch;
        in_ = Halide::Buffer<float>(ci_, w_, h_, n_);
        filter_ = Halide::Buffer<float>(co_, ci_, 3, 3);
        bias_ = Halide::Buffer<float>(co_);
        out_ = Halide::Buffer<float>(co_, w_, h_, n_);
        // Activations in [0, 1) (the output of a ReLU layer), He-scaled weights, small biases.
        fill_uniform(in_.data(), (long)in_.number_of_elements(), 21, 0.5f);
        for (size_t i = 0; i < in_.number_of_elements(); i++) in_.data()[i] += 0.5f;
        fill_uniform(filter_.data(), (long)filter_.number_of_elements(), 22,
                     he_uniform_scale(9 * ci_));
        fill_uniform(bias_.data(), co_, 23, 0.1f);
    }
    std::string input_description() const override {
        return std::to_string(w_) + "x" + std::to_string(h_) + "x" + std::to_string(ci_) + "x" +
               std::to_string(n_) + " float (x, y, c, n; stored c fastest), 3x3x" +
               std::to_string(ci_) + "->" + std::to_string(co_) + " filter, fixed-seed LCG" +
               (natural_ ? " (synthetic: not an image)" : "");
    }
    void compile() override {
        p_.schedule_cpu(ci_, co_, w_);
        p_.input.set(in_);
        p_.filter.set(filter_);
        p_.bias.set(bias_);
        p_.output.compile_jit();
    }
    std::string compile_autoscheduled(const Halide::AutoschedulerParams &params) override {
        app_autoschedule::bind(p_.input, in_);
        app_autoschedule::bind(p_.filter, filter_);
        app_autoschedule::bind(p_.bias, bias_);
        return app_autoschedule::schedule(p_.output, out_, params);
    }
    void run() override { p_.output.realize(out_); }
    Halide::Func output_func() override { return p_.output; }
    Halide::Buffer<> output() override { return out_; }
    Halide::Buffer<> reference() override {
        Halide::Buffer<float> ref(co_, w_, h_, n_);
        conv_relu_reference(in_.data(), filter_.data(), bias_.data(), ref.data(), ci_, co_, w_, h_,
                            n_);
        return ref;
    }
    /// The same sums in the same order; fused multiply-adds (Halide contracts a * b + c) round
    /// each of the 576 steps once instead of twice: measured below 1e-6 relative.
    double reference_tolerance() const override { return 1e-5; }
    Halide::Buffer<uint8_t> picture() override {
        // The first image of the batch, its first three output channels as RGB.
        Halide::Buffer<uint8_t> pic(w_, h_, 3);
        float top = 1e-6f;
        for (size_t i = 0; i < out_.number_of_elements(); i++) top = std::max(top, out_.data()[i]);
        pic.for_each_element([&](int x, int y, int c) {
            pic(x, y, c) = (uint8_t)std::min(255.0f, 255.0f * out_(c % co_, x, y, 0) / top);
        });
        return pic;
    }

    /// The first image of the batch, its first three input channels as RGB (values in [0, 1)).
    Halide::Buffer<uint8_t> input_picture() override {
        Halide::Buffer<uint8_t> pic(w_, h_, 3);
        pic.for_each_element([&](int x, int y, int c) {
            pic(x, y, c) = (uint8_t)std::min(255.0f, 255.0f * in_(c % ci_, x, y, 0));
        });
        return pic;
    }

private:
    int w_, h_, ci_, co_, n_;
    bool natural_ = false;
    Halide::Buffer<float> in_, filter_, bias_, out_;
    ConvLayerPipeline p_;
};

/// The registry's factory for the conv_layer app.
inline std::unique_ptr<AppInstance> make_conv_layer_app(const AppOptions &opt) {
    return std::make_unique<ConvLayerApp>(opt);
}

#endif
