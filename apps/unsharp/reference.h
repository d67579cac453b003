// A naive unsharp mask in plain C++ loops over raw planar arrays, written from the math (luma,
// 7-tap Gaussian, sharpen, per-channel ratio) rather than from the pipeline's text. Shares only
// the constants (kernel taps, luma weights, the luma floor) with the pipeline.
#ifndef LOOM_APPS_UNSHARP_REFERENCE_H
#define LOOM_APPS_UNSHARP_REFERENCE_H

#include "unsharp/unsharp_params.h"

#include <algorithm>
#include <vector>

/// Unsharp-masks the planar w x h x 3 float image `in` (x fastest, then y, then the channel) into
/// `out` (same layout), with edges repeated. Sums the taps in the same order as the pipeline.
inline void unsharp_reference(const float *in, float *out, int w, int h, float weight) {
    using namespace unsharp_detail;
    const int r = kRadius;
    float taps[2 * kRadius + 1];
    for (int i = 0; i <= 2 * r; i++) taps[i] = gaussian_tap(i);
    auto clampi = [](int v, int lo, int hi) { return std::min(std::max(v, lo), hi); };
    // Luma of the clamped image over the frame grown by the blur radius on every side.
    const int gw = w + 2 * r, gh = h + 2 * r;
    std::vector<float> luma((size_t)gw * gh);
    for (int y = -r; y < h + r; y++) {
        for (int x = -r; x < w + r; x++) {
            int cx = clampi(x, 0, w - 1), cy = clampi(y, 0, h - 1);
            const float *p = in + (size_t)cy * w + cx;
            luma[(size_t)(y + r) * gw + (x + r)] =
                kLumaR * p[0] + kLumaG * p[(size_t)w * h] + kLumaB * p[(size_t)2 * w * h];
        }
    }
    // Vertical pass, kept over the columns the horizontal pass reads.
    std::vector<float> vert((size_t)gw * h);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < gw; x++) {
            float s = 0;
            for (int i = 0; i <= 2 * r; i++)
                s = (i == 0) ? taps[0] * luma[(size_t)(y + i) * gw + x]
                             : s + taps[i] * luma[(size_t)(y + i) * gw + x];
            vert[(size_t)y * gw + x] = s;
        }
    }
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            float blurred = 0;
            for (int i = 0; i <= 2 * r; i++)
                blurred = (i == 0) ? taps[0] * vert[(size_t)y * gw + x]
                                   : blurred + taps[i] * vert[(size_t)y * gw + x + i];
            float g = luma[(size_t)(y + r) * gw + (x + r)];
            float sharp = g + weight * (g - blurred);
            float ratio = sharp / std::max(g, kMinGray);
            for (int c = 0; c < 3; c++) {
                size_t k = (size_t)c * w * h + (size_t)y * w + x;
                out[k] = ratio * in[k];
            }
        }
    }
}

#endif
