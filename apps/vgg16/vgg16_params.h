// The VGG-16 configuration (Simonyan and Zisserman 2014, table 1, configuration D) and its
// deterministic weights, shared by the pipeline (vgg16.h), its app entry and the naive
// reference's callers. Needs no Halide header.
#ifndef LOOM_APPS_VGG16_PARAMS_H
#define LOOM_APPS_VGG16_PARAMS_H

#include "conv_layer/conv_layer_params.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace vgg16_detail {

/// Configuration D: the output channels of the 13 3x3 convolutions; 0 marks a 2x2 max pool.
inline std::vector<int> layer_plan() {
    return {64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0, 512, 512, 512, 0};
}

/// A network of configuration D's shape: every width divided by `divisor` (1 for the real
/// network), images of size x size pixels (224 for the real one), `batch` images.
struct Config {
    int divisor = 1;
    int size = 224;
    int batch = 4;
    /// The output channels of each layer (0: a max pool), widths divided.
    std::vector<int> plan() const {
        std::vector<int> p = layer_plan();
        for (int &c : p) c /= divisor;
        return p;
    }
    /// The widths of the three fully connected layers (4096, 4096, 1000 for the real one).
    std::vector<int> fc_widths() const {
        return {4096 / divisor, 4096 / divisor, std::max(10, 1000 / divisor)};
    }
    /// The side of the last pool's output (7 for 224).
    int final_size() const { return size / 32; }
};

/// The real network at the paper's input (224 x 224 x 3 x 4).
inline Config paper_config() { return Config{}; }
/// The scaled-down network of the tests and the quick mode: widths / 16, 32 x 32 x 3 x 2.
inline Config small_config() { return Config{16, 32, 2}; }
/// The demo's network (InputSize::Natural): the real one on a single 224 x 224 x 3 image.
inline Config natural_config() { return Config{1, 224, 1}; }

/// All weights, channel-fastest like conv_layer: conv filter l is (co, ci, 3, 3), fc1 is
/// (o, c, x, y) over the last pool's (c, x, y), fc2 and fc3 are (o, i).
struct Weights {
    std::vector<std::vector<float>> conv_filter, conv_bias, fc_weight, fc_bias;
    std::vector<int> conv_in, conv_out; ///< channels of each conv layer
    std::vector<int> fc_in, fc_out;     ///< inputs and outputs of each fc layer
};

/// He-scaled uniform weights from fixed seeds (nothing is downloaded): conv layer l's filter
/// from seed 1000 + l, its bias (small, +-0.05) from 2000 + l; fc layer j's from 3000 + j and
/// 4000 + j. Deterministic on every machine.
inline Weights make_weights(const Config &cfg) {
    using conv_layer_detail::fill_uniform;
    using conv_layer_detail::he_uniform_scale;
    Weights w;
    int channels = 3, side = cfg.size, l = 0;
    for (int c : cfg.plan()) {
        if (c == 0) {
            side /= 2;
            continue;
        }
        std::vector<float> f((size_t)c * channels * 9), b(c);
        fill_uniform(f.data(), (long)f.size(), 1000 + l, he_uniform_scale(9 * channels));
        fill_uniform(b.data(), (long)b.size(), 2000 + l, 0.05f);
        w.conv_filter.push_back(std::move(f));
        w.conv_bias.push_back(std::move(b));
        w.conv_in.push_back(channels);
        w.conv_out.push_back(c);
        channels = c;
        l++;
    }
    int in = channels * side * side;
    int j = 0;
    for (int o : cfg.fc_widths()) {
        std::vector<float> f((size_t)o * in), b(o);
        fill_uniform(f.data(), (long)f.size(), 3000 + j, he_uniform_scale(in));
        fill_uniform(b.data(), (long)b.size(), 4000 + j, 0.05f);
        w.fc_weight.push_back(std::move(f));
        w.fc_bias.push_back(std::move(b));
        w.fc_in.push_back(in);
        w.fc_out.push_back(o);
        in = o;
        j++;
    }
    return w;
}

} // namespace vgg16_detail

#endif
