// A naive lens blur in plain C++ loops over raw planar arrays, written from the definition (a
// stereo cost volume, its box filter and argmin, then a gather-style defocus) rather than from
// the pipeline's text, plus the synthetic right view. Shares only the constants with the
// pipeline.
#ifndef LOOM_APPS_LENS_BLUR_REFERENCE_H
#define LOOM_APPS_LENS_BLUR_REFERENCE_H

#include "lens_blur/lens_blur_params.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

/// The right view of the synthetic stereo pair: right(x, y) = left(x + D(x, y), y), x clamped,
/// with D = lens_blur_detail::true_disparity, so a left pixel in a region of disparity D is seen
/// D pixels to its left in the right view. Planar w x h x 3 arrays.
inline void lens_blur_make_right(const uint8_t *left, uint8_t *right, int w, int h) {
    const size_t plane = (size_t)w * h;
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int sx = std::min(x + lens_blur_detail::true_disparity(x, y, w, h), w - 1);
                right[c * plane + (size_t)y * w + x] = left[c * plane + (size_t)y * w + sx];
            }
}

/// The per-pixel depth (the disparity 0 .. disparities - 1 of least (2 box_radius + 1)^2, i.e.
/// 5 x 5, box-filtered matching cost, the first on ties) of the planar w x h x 3 8-bit views,
/// edges repeated. The costs are integers: exact.
inline std::vector<int> lens_blur_depth_reference(const uint8_t *left, const uint8_t *right, int w,
                                                  int h,
                                                  int disparities = lens_blur_detail::kDisparities,
                                                  int box_radius = lens_blur_detail::kBoxRadius) {
    using namespace lens_blur_detail;
    const int br = box_radius;
    const size_t plane = (size_t)w * h;
    auto at = [&](const uint8_t *im, int x, int y, int c) -> int {
        x = std::min(std::max(x, 0), w - 1);
        y = std::min(std::max(y, 0), h - 1);
        return im[(size_t)c * plane + (size_t)y * w + x];
    };
    const int gw = w + 2 * br, gh = h + 2 * br;
    std::vector<int> e((size_t)gw * gh), v((size_t)gw * h), best(plane);
    std::vector<int> depth(plane, 0);
    for (int d = 0; d < disparities; d++) {
        for (int y = -br; y < h + br; y++)
            for (int x = -br; x < w + br; x++) {
                int s = 0;
                for (int c = 0; c < 3; c++)
                    s += std::abs(at(left, x, y, c) - at(right, x - d, y, c));
                e[(size_t)(y + br) * gw + x + br] = s;
            }
        for (int y = 0; y < h; y++)
            for (int x = 0; x < gw; x++) {
                int s = e[(size_t)y * gw + x];
                for (int i = 1; i <= 2 * br; i++) s += e[(size_t)(y + i) * gw + x];
                v[(size_t)y * gw + x] = s;
            }
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int s = v[(size_t)y * gw + x];
                for (int i = 1; i <= 2 * br; i++) s += v[(size_t)y * gw + x + i];
                size_t k = (size_t)y * w + x;
                if (d == 0 || s < best[k]) {
                    best[k] = s;
                    depth[k] = d;
                }
            }
    }
    return depth;
}

/// Lens blur of the planar w x h x 3 8-bit stereo pair into the float `out` (same layout): with
/// the depth above and R(p) = min(|depth(p) - focus| / 2, 8), out(p, c) is the mean of
/// left(q_i, c) / 255 over the samples i whose own radius covers p: o_i = floor((u_i R(p) + 2) /
/// 4) per axis, q_i = p + o_i clamped into the frame, counted when |o_i|^2 <= R(q_i)^2 (the
/// centre always is).
inline void lens_blur_reference(const uint8_t *left, const uint8_t *right, float *out, int w, int h,
                                int focus, int disparities = lens_blur_detail::kDisparities,
                                int samples = lens_blur_detail::kSamples,
                                int box_radius = lens_blur_detail::kBoxRadius) {
    using namespace lens_blur_detail;
    const size_t plane = (size_t)w * h;
    std::vector<int> depth = lens_blur_depth_reference(left, right, w, h, disparities, box_radius);
    std::vector<int> rad(plane);
    for (size_t k = 0; k < plane; k++)
        rad[k] = std::min(std::abs(depth[k] - focus) / kCocDivisor, kMaxRadius);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int r = rad[(size_t)y * w + x];
            float num[3] = {0, 0, 0}, den = 0;
            for (int i = 0; i < samples; i++) {
                int ox = sample_offset(kSampleX[i], r), oy = sample_offset(kSampleY[i], r);
                int qx = std::min(std::max(x + ox, 0), w - 1);
                int qy = std::min(std::max(y + oy, 0), h - 1);
                int rq = rad[(size_t)qy * w + qx];
                if (ox * ox + oy * oy > rq * rq) continue;
                for (int c = 0; c < 3; c++) num[c] += (float)left[c * plane + (size_t)qy * w + qx];
                den += 1.0f;
            }
            for (int c = 0; c < 3; c++)
                out[c * plane + (size_t)y * w + x] = num[c] / (den * 255.0f);
        }
}

#endif
