// A naive non-local means in plain C++ loops over raw planar arrays, written from the definition
// (Buades, Coll and Morel 2005: patch distances over a search window, exponential weights, a
// weighted mean) rather than from the pipeline's text. Shares only the constants with the
// pipeline.
#ifndef LOOM_APPS_NL_MEANS_REFERENCE_H
#define LOOM_APPS_NL_MEANS_REFERENCE_H

#include "nl_means/nl_means_params.h"

#include <algorithm>
#include <cmath>
#include <vector>

/// Denoises the planar w x h x 3 float image `in` (x fastest, then y, then the channel) into `out`
/// (same layout), edges repeated: out(p) = sum_q w(p, q) in(q) / sum_q w(p, q) over the 7 x 7
/// offsets q - p, with w(p, q) = exp(-D(p, q) / (147 sigma^2)) and D the sum of squared colour
/// differences between the 7 x 7 patches around p and q (for the default radii). D is computed per
/// offset with separable box sums (vertical first), adding in the same order as the pipeline.
inline void nl_means_reference(const float *in, float *out, int w, int h, float sigma,
                               int patch_radius = nl_means_detail::kPatchRadius,
                               int search_radius = nl_means_detail::kSearchRadius) {
    using namespace nl_means_detail;
    const int pr = patch_radius, sr = search_radius;
    const size_t plane = (size_t)w * h;
    auto at = [&](int x, int y, int c) {
        x = std::min(std::max(x, 0), w - 1);
        y = std::min(std::max(y, 0), h - 1);
        return in[(size_t)c * plane + (size_t)y * w + x];
    };
    // Squared differences over the frame grown by the patch radius, then the vertical box sum
    // over the columns the horizontal one reads.
    const int gw = w + 2 * pr, gh = h + 2 * pr;
    std::vector<float> d((size_t)gw * gh), vy((size_t)gw * h);
    std::vector<float> sums(plane * 4, 0.0f);
    const float scale = -1.0f / (sigma * sigma * (float)patch_values(pr));
    for (int oy = -sr; oy <= sr; oy++) {
        for (int ox = -sr; ox <= sr; ox++) {
            for (int y = -pr; y < h + pr; y++) {
                for (int x = -pr; x < w + pr; x++) {
                    float s = 0;
                    for (int c = 0; c < 3; c++) {
                        float e = at(x, y, c) - at(x + ox, y + oy, c);
                        s = c == 0 ? e * e : s + e * e;
                    }
                    d[(size_t)(y + pr) * gw + (x + pr)] = s;
                }
            }
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < gw; x++) {
                    float s = d[(size_t)y * gw + x];
                    for (int i = 1; i <= 2 * pr; i++) s += d[(size_t)(y + i) * gw + x];
                    vy[(size_t)y * gw + x] = s;
                }
            }
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    float dist = vy[(size_t)y * gw + x];
                    for (int i = 1; i <= 2 * pr; i++) dist += vy[(size_t)y * gw + x + i];
                    float wt = std::exp(dist * scale);
                    size_t k = (size_t)y * w + x;
                    for (int c = 0; c < 3; c++) sums[c * plane + k] += wt * at(x + ox, y + oy, c);
                    sums[3 * plane + k] += wt;
                }
            }
        }
    }
    for (int c = 0; c < 3; c++)
        for (size_t k = 0; k < plane; k++)
            out[c * plane + k] = sums[c * plane + k] / sums[3 * plane + k];
}

#endif
