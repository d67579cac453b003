// A naive histogram equalization in plain C++ loops, written from the definition: count every
// grey level, accumulate the counts into the cumulative distribution, and map each pixel to
// floor(cdf(v) * 255 / pixels).
#ifndef LOOM_APPS_HIST_EQ_REFERENCE_H
#define LOOM_APPS_HIST_EQ_REFERENCE_H

#include <algorithm>
#include <cstddef>
#include <cstdint>

/// Equalizes the w x h 8-bit image `in` (row-major, no padding) into `out` (same layout).
inline void hist_eq_reference(const uint8_t *in, uint8_t *out, int w, int h) {
    const size_t n = (size_t)w * h;
    int64_t count[256] = {0};
    for (size_t k = 0; k < n; k++) count[in[k]]++;
    int64_t running = 0;
    uint8_t map[256];
    for (int v = 0; v < 256; v++) {
        running += count[v];
        map[v] = (uint8_t)std::min<int64_t>(255, running * 255 / (int64_t)n);
    }
    for (size_t k = 0; k < n; k++) out[k] = map[in[k]];
}

#endif
