// A naive max filter in plain C++ loops: for every pixel, the maximum over the whole
// (2r + 1) x (2r + 1) window of the edge-repeated image, computed directly (not separably).
// The loops run over the window offsets outside and over a row of pixels inside, so the
// compiler vectorizes the innermost loop (the paper size takes ~30 G comparisons; with the
// window innermost the harness waited ~100 s for it).
#ifndef LOOM_APPS_MAX_FILTER_REFERENCE_H
#define LOOM_APPS_MAX_FILTER_REFERENCE_H

#include <algorithm>
#include <cstddef>
#include <vector>

/// Max-filters the planar w x h x channels float image `in` (x fastest, then y, then the channel)
/// into `out` (same layout) with window radius r and repeated edges.
inline void max_filter_reference(const float *in, float *out, int w, int h, int channels, int r) {
    // One source row with r repeated pixels on each side, so the window's columns need no clamp.
    std::vector<float> padded((size_t)w + 2 * r);
    for (int c = 0; c < channels; c++) {
        const float *plane = in + (size_t)c * w * h;
        for (int y = 0; y < h; y++) {
            float *row = out + (size_t)c * w * h + (size_t)y * w;
            for (int wy = y - r; wy <= y + r; wy++) {
                const float *src = plane + (size_t)std::min(std::max(wy, 0), h - 1) * w;
                for (int i = 0; i < w + 2 * r; i++)
                    padded[i] = src[std::min(std::max(i - r, 0), w - 1)];
                for (int dx = 0; dx <= 2 * r; dx++) {
                    const float *p = padded.data() + dx;
                    if (wy == y - r && dx == 0) {
                        for (int x = 0; x < w; x++) row[x] = p[x];
                    } else {
                        for (int x = 0; x < w; x++) row[x] = row[x] < p[x] ? p[x] : row[x];
                    }
                }
            }
        }
    }
}

#endif
