// Naive convolution layer (3 x 3 convolution with zero padding, bias, ReLU) and its relatives in
// plain C++ loops over raw arrays, written from the definitions rather than from the pipeline's
// text. Layouts are channel-fastest ("NHWC"): element (c, x, y, n) of a C x W x H x N tensor is
// at c + C * (x + W * (y + H * n)); a filter (co, ci, dx, dy) of CO x CI x 3 x 3 is at
// co + CO * (ci + CI * (dx + 3 * dy)).
#ifndef LOOM_APPS_CONV_LAYER_REFERENCE_H
#define LOOM_APPS_CONV_LAYER_REFERENCE_H

#include <algorithm>
#include <cstddef>

/// out(co, x, y, n) = max(0, bias(co) + sum over dy, dx, ci of filter(co, ci, dx, dy) *
/// in(ci, x + dx - 1, y + dy - 1, n)), with in zero outside the image. The sum starts from the
/// bias and adds the products for dy, then dx, then ci increasing (ci fastest), one at a time,
/// the order the pipeline's reduction uses, so the two differ only by fused multiply-adds.
inline void conv_relu_reference(const float *in, const float *filter, const float *bias, float *out,
                                int ci_count, int co_count, int w, int h, int n) {
    for (int b = 0; b < n; b++) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                float *o = out + (size_t)co_count * (x + (size_t)w * (y + (size_t)h * b));
                for (int co = 0; co < co_count; co++) {
                    float sum = bias[co];
                    for (int dy = 0; dy < 3; dy++) {
                        int iy = y + dy - 1;
                        if (iy < 0 || iy >= h) continue;
                        for (int dx = 0; dx < 3; dx++) {
                            int ix = x + dx - 1;
                            if (ix < 0 || ix >= w) continue;
                            const float *i =
                                in + (size_t)ci_count * (ix + (size_t)w * (iy + (size_t)h * b));
                            const float *f =
                                filter + co + (size_t)co_count * ci_count * (dx + 3 * dy);
                            for (int ci = 0; ci < ci_count; ci++) {
                                sum += f[(size_t)co_count * ci] * i[ci];
                            }
                        }
                    }
                    o[co] = std::max(sum, 0.0f);
                }
            }
        }
    }
}

#endif
