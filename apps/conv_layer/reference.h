// Naive convolution layer (3 x 3 convolution with zero padding, bias, ReLU) and its relatives in
// plain C++ loops over raw arrays, written from the definitions rather than from the pipeline's
// text. Layouts are channel-fastest ("NHWC"): element (c, x, y, n) of a C x W x H x N tensor is
// at c + C * (x + W * (y + H * n)); a filter (co, ci, dx, dy) of CO x CI x 3 x 3 is at
// co + CO * (ci + CI * (dx + 3 * dy)).
#ifndef LOOM_APPS_CONV_LAYER_REFERENCE_H
#define LOOM_APPS_CONV_LAYER_REFERENCE_H

#include <algorithm>
#include <cstddef>
#include <vector>

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

/// The layer's backward pass: given d_out (co, x, y, n), the adjoint of out, the gradients
/// d_in (ci, x, y, n), d_filter (co, ci, dx, dy) and d_bias (co) of sum(out * d_out). With
/// g = d_out where the pre-ReLU sum is positive (else 0): d_bias(co) = sum of g over pixels and
/// batch; d_filter(co, ci, dx, dy) = sum of g(co, x, y, n) * in(ci, x + dx - 1, y + dy - 1, n);
/// d_in(ci, x', y', n) = sum of g(co, x' - dx + 1, y' - dy + 1, n) * filter(co, ci, dx, dy) over
/// the taps whose output pixel is inside the image. Sums in double.
inline void conv_relu_backward_reference(const float *in, const float *filter, const float *bias,
                                         const float *d_out, float *d_in, float *d_filter,
                                         float *d_bias, int ci_count, int co_count, int w, int h,
                                         int n) {
    const size_t in_size = (size_t)ci_count * w * h * n, out_size = (size_t)co_count * w * h * n;
    std::vector<float> out(out_size);
    conv_relu_reference(in, filter, bias, out.data(), ci_count, co_count, w, h, n);
    std::vector<double> gin(in_size, 0.0), gf((size_t)co_count * ci_count * 9, 0.0),
        gb(co_count, 0.0);
    for (int b = 0; b < n; b++) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                const size_t o = (size_t)co_count * (x + (size_t)w * (y + (size_t)h * b));
                for (int co = 0; co < co_count; co++) {
                    // out > 0 exactly where the sum is positive.
                    const double g = out[o + co] > 0 ? d_out[o + co] : 0.0;
                    if (g == 0) continue;
                    gb[co] += g;
                    for (int dy = 0; dy < 3; dy++) {
                        const int iy = y + dy - 1;
                        if (iy < 0 || iy >= h) continue;
                        for (int dx = 0; dx < 3; dx++) {
                            const int ix = x + dx - 1;
                            if (ix < 0 || ix >= w) continue;
                            const size_t i =
                                (size_t)ci_count * (ix + (size_t)w * (iy + (size_t)h * b));
                            const size_t f = co + (size_t)co_count * ci_count * (dx + 3 * dy);
                            for (int ci = 0; ci < ci_count; ci++) {
                                gf[f + (size_t)co_count * ci] += g * in[i + ci];
                                gin[i + ci] += g * filter[f + (size_t)co_count * ci];
                            }
                        }
                    }
                }
            }
        }
    }
    for (size_t i = 0; i < in_size; i++) d_in[i] = (float)gin[i];
    for (size_t i = 0; i < gf.size(); i++) d_filter[i] = (float)gf[i];
    for (int co = 0; co < co_count; co++) d_bias[co] = (float)gb[co];
}

#endif
