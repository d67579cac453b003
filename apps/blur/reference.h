// A naive 3x3 box blur in plain C++ loops, written from the definition: every pixel the mean
// (rounded down) of its three horizontal neighbours, then of three vertical neighbours of that,
// with the image's edges repeated and every sum kept in 16 bits as the uint16 pipeline does.
// Computed point by point from the input (no temporary image), unlike blur_clean_cpp.
#ifndef LOOM_APPS_BLUR_REFERENCE_H
#define LOOM_APPS_BLUR_REFERENCE_H

#include <algorithm>
#include <cstddef>
#include <cstdint>

/// Blurs the w x h uint16 image `in` (row-major, no padding) into `out` (same layout).
inline void blur_reference(const uint16_t *in, uint16_t *out, int w, int h) {
    auto at = [&](int x, int y) {
        x = std::min(std::max(x, 0), w - 1);
        y = std::min(std::max(y, 0), h - 1);
        return in[(size_t)y * w + x];
    };
    // The horizontal mean at (x, y): a 16-bit sum (wrapping like uint16 arithmetic), then / 3.
    auto row_mean = [&](int x, int y) {
        uint16_t sum = (uint16_t)(at(x - 1, y) + at(x, y) + at(x + 1, y));
        return (uint16_t)(sum / 3);
    };
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            uint16_t sum = (uint16_t)(row_mean(x, y - 1) + row_mean(x, y) + row_mean(x, y + 1));
            out[(size_t)y * w + x] = (uint16_t)(sum / 3);
        }
    }
}

#endif
