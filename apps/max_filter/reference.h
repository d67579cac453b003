// A naive max filter in plain C++ loops: for every pixel, the maximum over the whole
// (2r + 1) x (2r + 1) window of the edge-repeated image, computed directly (not separably).
#ifndef LOOM_APPS_MAX_FILTER_REFERENCE_H
#define LOOM_APPS_MAX_FILTER_REFERENCE_H

#include <algorithm>
#include <cstddef>

/// Max-filters the planar w x h x channels float image `in` (x fastest, then y, then the channel)
/// into `out` (same layout) with window radius r and repeated edges.
inline void max_filter_reference(const float *in, float *out, int w, int h, int channels, int r) {
    for (int c = 0; c < channels; c++) {
        const float *plane = in + (size_t)c * w * h;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                float m = plane[(size_t)std::min(std::max(y - r, 0), h - 1) * w +
                                std::min(std::max(x - r, 0), w - 1)];
                for (int wy = y - r; wy <= y + r; wy++) {
                    int cy = std::min(std::max(wy, 0), h - 1);
                    for (int wx = x - r; wx <= x + r; wx++) {
                        int cx = std::min(std::max(wx, 0), w - 1);
                        m = std::max(m, plane[(size_t)cy * w + cx]);
                    }
                }
                out[(size_t)c * w * h + (size_t)y * w + x] = m;
            }
        }
    }
}

#endif
