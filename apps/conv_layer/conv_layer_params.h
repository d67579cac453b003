// The constants of the convolution-layer app (sizes, the deterministic weight generator), shared
// by the pipeline's app entry, the VGG-16 app that reuses the layer, and the tests. Needs no
// Halide header.
#ifndef LOOM_APPS_CONV_LAYER_PARAMS_H
#define LOOM_APPS_CONV_LAYER_PARAMS_H

#include <cmath>
#include <cstdint>

namespace conv_layer_detail {

/// The 2016 autoscheduling paper's size: a 128 x 128 image of 64 channels, batch of 4, a 3 x 3
/// filter from 64 to 64 channels.
constexpr int kPaperWidth = 128, kPaperHeight = 128, kPaperChannelsIn = 64, kPaperChannelsOut = 64,
              kPaperBatch = 4;
/// The small size (demo quick mode, smoke runs).
constexpr int kSmallWidth = 32, kSmallHeight = 24, kSmallChannelsIn = 16, kSmallChannelsOut = 32,
              kSmallBatch = 2;

/// A fixed-seed generator of floats uniform in [-1, 1): a 32-bit LCG (Numerical Recipes
/// constants) whose top 24 bits make the mantissa, the same sequence on every machine.
class Uniform {
public:
    /// Starts the sequence at `seed`.
    explicit Uniform(uint32_t seed) : state_(seed) {}
    /// The next value in [-1, 1).
    float next() {
        state_ = state_ * 1664525u + 1013904223u;
        return (float)(state_ >> 8) * (2.0f / (float)(1u << 24)) - 1.0f;
    }

private:
    uint32_t state_;
};

/// Fills n floats at `data` with `scale` times values uniform in [-1, 1), seeded with `seed`.
inline void fill_uniform(float *data, long n, uint32_t seed, float scale = 1.0f) {
    Uniform u(seed);
    for (long i = 0; i < n; i++) data[i] = scale * u.next();
}

/// He initialization's scale for a layer with `fan_in` inputs per output, as a uniform range:
/// uniform in [-a, a) has variance a^2 / 3 = 2 / fan_in, so ReLU activations keep their
/// magnitude from layer to layer (He et al. 2015).
inline float he_uniform_scale(int fan_in) { return std::sqrt(6.0f / (float)fan_in); }

} // namespace conv_layer_detail

#endif
