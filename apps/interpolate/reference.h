// A naive multi-scale interpolation in plain C++ loops over raw arrays, written from the
// definition (a premultiplied [1 2 1] pyramid, then coarse-to-fine filling of the transparent
// parts by bilinear upsampling, then un-premultiplication) rather than from the pipeline's text.
// Shares only the constants with the pipeline.
#ifndef LOOM_APPS_INTERPOLATE_REFERENCE_H
#define LOOM_APPS_INTERPOLATE_REFERENCE_H

#include "interpolate/interpolate_params.h"

#include <algorithm>
#include <vector>

namespace interpolate_detail {

/// A 4-channel float image over [x0, x0 + w) x [y0, y0 + h), transparent black outside.
struct LevelImage {
    int x0 = 0, y0 = 0, w = 0, h = 0;
    std::vector<float> v;
    LevelImage(int x0, int y0, int w, int h)
        : x0(x0), y0(y0), w(w), h(h), v((size_t)w * h * 4, 0.0f) {}
    float get(int x, int y, int c) const {
        x -= x0, y -= y0;
        if (x < 0 || y < 0 || x >= w || y >= h) return 0.0f;
        return v[((size_t)c * h + y) * w + x];
    }
    float &at(int x, int y, int c) { return v[((size_t)c * h + y - y0) * w + x - x0]; }
};

/// Floor division by 2 (as Halide's integer division).
inline int half(int v) { return v >= 0 ? v / 2 : -((1 - v) / 2); }

} // namespace interpolate_detail

/// Interpolates the planar w x h x 4 RGBA float image `in` (x fastest, then y, then the channel;
/// alpha not premultiplied) into the w x h x 3 RGB image `out`, with `levels` pyramid levels.
inline void interpolate_reference(const float *in, float *out, int w, int h,
                                  int levels = interpolate_detail::kLevels) {
    using namespace interpolate_detail;
    // The premultiplied pyramid. A level is zero left of and above its origin; level l is
    // nonzero at most up to the last index whose [1 2 1] footprint reaches the previous
    // level's support: s_l = floor((s_{l-1} + 1) / 2).
    std::vector<LevelImage> down;
    down.emplace_back(0, 0, w, h);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            float a = in[((size_t)3 * h + y) * w + x];
            for (int c = 0; c < 3; c++) down[0].at(x, y, c) = in[((size_t)c * h + y) * w + x] * a;
            down[0].at(x, y, 3) = a;
        }
    }
    for (int l = 1; l < levels; l++) {
        const LevelImage &p = down[l - 1];
        int lw = p.w / 2 + 1, lh = p.h / 2 + 1;
        // Horizontal pass over the previous level's rows -1 .. p.h (all it can read).
        LevelImage hx(0, -1, lw, p.h + 2);
        for (int c = 0; c < 4; c++)
            for (int y = -1; y <= p.h; y++)
                for (int x = 0; x < lw; x++)
                    hx.at(x, y, c) = (p.get(2 * x - 1, y, c) + 2.0f * p.get(2 * x, y, c) +
                                      p.get(2 * x + 1, y, c)) *
                                     0.25f;
        LevelImage d(0, 0, lw, lh);
        for (int c = 0; c < 4; c++)
            for (int y = 0; y < lh; y++)
                for (int x = 0; x < lw; x++)
                    d.at(x, y, c) = (hx.get(x, 2 * y - 1, c) + 2.0f * hx.get(x, 2 * y, c) +
                                     hx.get(x, 2 * y + 1, c)) *
                                    0.25f;
        down.push_back(d);
    }
    // Coarse to fine. Each interpolated level is kept with a margin of one sample on every side
    // (what the bilinear upsampling of the level below reads).
    // Bilinear upsampling by 2, pixel centres aligned: sample x of the finer level lies between
    // samples floor((x - 1) / 2) and floor((x + 1) / 2) of the coarser one, a quarter of the way
    // from the first when x is odd, three quarters when it is even.
    auto bilinear = [](const LevelImage &a, int x, int y, int c) {
        auto row = [&](int yy) {
            float wx = (x % 2 == 0) ? 0.25f : 0.75f;
            return wx * a.get(half(x - 1), yy, c) + (1.0f - wx) * a.get(half(x + 1), yy, c);
        };
        float wy = (y % 2 == 0) ? 0.25f : 0.75f;
        return wy * row(half(y - 1)) + (1.0f - wy) * row(half(y + 1));
    };
    const LevelImage &top = down[levels - 1];
    LevelImage interp(-1, -1, top.w + 2, top.h + 2);
    for (int c = 0; c < 4; c++)
        for (int y = -1; y <= top.h; y++)
            for (int x = -1; x <= top.w; x++) interp.at(x, y, c) = top.get(x, y, c);
    for (int l = levels - 2; l >= 0; l--) {
        const LevelImage &d = down[l];
        LevelImage next(-1, -1, d.w + 2, d.h + 2);
        for (int y = -1; y <= d.h; y++) {
            for (int x = -1; x <= d.w; x++) {
                float a = d.get(x, y, 3);
                for (int c = 0; c < 4; c++)
                    next.at(x, y, c) = d.get(x, y, c) + (1.0f - a) * bilinear(interp, x, y, c);
            }
        }
        interp = std::move(next);
    }
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            float a = std::max(interp.get(x, y, 3), kMinAlpha);
            for (int c = 0; c < 3; c++) out[((size_t)c * h + y) * w + x] = interp.get(x, y, c) / a;
        }
    }
}

#endif
