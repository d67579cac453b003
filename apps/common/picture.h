// Conversions of application outputs to the 8-bit pictures the demo writes (AppInstance::
// picture()). Include "Halide.h" first.
#ifndef LOOM_APPS_COMMON_PICTURE_H
#define LOOM_APPS_COMMON_PICTURE_H

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace app_picture {

/// A float image with values in [lo, hi] (2-D, or 3-D with channels last) mapped linearly to
/// [0, 255], clamped and rounded.
inline Halide::Buffer<uint8_t> from_float(const Halide::Buffer<float> &src, float lo = 0.0f,
                                          float hi = 1.0f) {
    Halide::Buffer<uint8_t> out =
        src.dimensions() == 3 ? Halide::Buffer<uint8_t>(src.width(), src.height(), src.channels())
                              : Halide::Buffer<uint8_t>(src.width(), src.height());
    const float scale = 255.0f / (hi - lo);
    out.for_each_element([&](const int *pos) {
        float v = (src(pos) - lo) * scale;
        out(pos) = (uint8_t)std::lround(std::min(255.0f, std::max(0.0f, v)));
    });
    return out;
}

/// An unsigned integer image shifted right by `shift` bits (e.g. 8 for full-range uint16).
template <typename T>
Halide::Buffer<uint8_t> from_unsigned(const Halide::Buffer<T> &src, int shift) {
    Halide::Buffer<uint8_t> out =
        src.dimensions() == 3 ? Halide::Buffer<uint8_t>(src.width(), src.height(), src.channels())
                              : Halide::Buffer<uint8_t>(src.width(), src.height());
    out.for_each_element(
        [&](const int *pos) { out(pos) = (uint8_t)std::min<uint32_t>(255, src(pos) >> shift); });
    return out;
}

/// Pictures a and b (both 2-D, or both 3-D with the same channels) side by side, left to right,
/// with a white gap of `gap` columns; the shorter one is padded with white below.
inline Halide::Buffer<uint8_t> side_by_side(const Halide::Buffer<uint8_t> &a,
                                            const Halide::Buffer<uint8_t> &b, int gap = 16) {
    const int w = a.width() + gap + b.width(), h = std::max(a.height(), b.height());
    const int channels = a.dimensions() == 3 ? a.channels() : 1;
    Halide::Buffer<uint8_t> out = a.dimensions() == 3 ? Halide::Buffer<uint8_t>(w, h, channels)
                                                      : Halide::Buffer<uint8_t>(w, h);
    out.fill(255);
    for (int c = 0; c < channels; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                const Halide::Buffer<uint8_t> &src = x < a.width() ? a : b;
                const int sx = x < a.width() ? x : x - a.width() - gap;
                if (sx < 0 || y >= src.height()) continue;
                if (a.dimensions() == 3)
                    out(x, y, c) = src(sx, y, c);
                else
                    out(x, y) = src(sx, y);
            }
    return out;
}

} // namespace app_picture

#endif
