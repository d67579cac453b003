// A naive VGG-16 forward pass in plain C++ loops over raw arrays, written from the network's
// definition (Simonyan and Zisserman 2014, configuration D) rather than from the pipeline's text:
// apps/conv_layer's naive convolution for the conv layers, then 2x2 max pools, fully connected
// layers and a softmax. Layouts are channel-fastest, as in the pipeline.
#ifndef LOOM_APPS_VGG16_REFERENCE_H
#define LOOM_APPS_VGG16_REFERENCE_H

#include "conv_layer/reference.h"
#include "vgg16/vgg16_params.h"

#include <algorithm>
#include <cmath>
#include <vector>

/// The class probabilities (classes x batch, class fastest) of the batch `input` (3 x size x
/// size x batch, channel fastest) through the network `cfg` with weights `w`. Every sum starts
/// from its bias and adds its products in the order of the weights' layout (input channel
/// fastest), as the pipeline does.
inline std::vector<float> vgg16_reference(const float *input, const vgg16_detail::Config &cfg,
                                          const vgg16_detail::Weights &w) {
    const int batch = cfg.batch;
    int channels = 3, side = cfg.size, l = 0;
    std::vector<float> act(input, input + (size_t)3 * side * side * batch);
    for (int width : cfg.plan()) {
        if (width == 0) {
            const int half = side / 2;
            std::vector<float> pooled((size_t)channels * half * half * batch);
            for (int n = 0; n < batch; n++)
                for (int y = 0; y < half; y++)
                    for (int x = 0; x < half; x++)
                        for (int c = 0; c < channels; c++) {
                            float m =
                                act[c + (size_t)channels *
                                            (2 * x + (size_t)side * (2 * y + (size_t)side * n))];
                            for (int dy = 0; dy < 2; dy++)
                                for (int dx = 0; dx < 2; dx++)
                                    m = std::max(
                                        m, act[c + (size_t)channels *
                                                       (2 * x + dx +
                                                        (size_t)side *
                                                            (2 * y + dy + (size_t)side * n))]);
                            pooled[c + (size_t)channels *
                                           (x + (size_t)half * (y + (size_t)half * n))] = m;
                        }
            act.swap(pooled);
            side = half;
            continue;
        }
        std::vector<float> out((size_t)width * side * side * batch);
        conv_relu_reference(act.data(), w.conv_filter[l].data(), w.conv_bias[l].data(), out.data(),
                            channels, width, side, side, batch);
        act.swap(out);
        channels = width;
        l++;
    }
    // The last pool's (c, x, y) is the first fully connected layer's input, c fastest.
    for (size_t j = 0; j < w.fc_weight.size(); j++) {
        const int in = w.fc_in[j], outs = w.fc_out[j];
        const bool last = j + 1 == w.fc_weight.size();
        std::vector<float> out((size_t)outs * batch);
        for (int n = 0; n < batch; n++)
            for (int o = 0; o < outs; o++) {
                float s = w.fc_bias[j][o];
                for (int i = 0; i < in; i++)
                    s += w.fc_weight[j][o + (size_t)outs * i] * act[i + (size_t)in * n];
                out[o + (size_t)outs * n] = last ? s : std::max(s, 0.0f);
            }
        act.swap(out);
    }
    const int classes = w.fc_out.back();
    std::vector<float> prob(act.size());
    for (int n = 0; n < batch; n++) {
        const float *z = act.data() + (size_t)classes * n;
        float m = z[0];
        for (int o = 1; o < classes; o++) m = std::max(m, z[o]);
        float total = 0;
        for (int o = 0; o < classes; o++) total += std::exp(z[o] - m);
        for (int o = 0; o < classes; o++)
            prob[o + (size_t)classes * n] = std::exp(z[o] - m) / total;
    }
    return prob;
}

#endif
