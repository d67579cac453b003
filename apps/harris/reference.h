// A naive Harris corner response in plain C++ loops over raw planar arrays, written from the
// definition (luma, Sobel gradients, 3x3 structure tensor, det - k trace^2) rather than from the
// pipeline's text. Shares only the constants with the pipeline.
#ifndef LOOM_APPS_HARRIS_REFERENCE_H
#define LOOM_APPS_HARRIS_REFERENCE_H

#include "harris/harris_params.h"

#include <algorithm>
#include <vector>

/// The Harris response of the planar w x h x 3 float image `in` (x fastest, then y, then the
/// channel) into the w x h array `out`, with the input's edges repeated. Adds in the same order as
/// the pipeline (so the two round alike).
inline void harris_reference(const float *in, float *out, int w, int h) {
    using namespace harris_detail;
    // Luma over the frame grown by 2 (1 for the gradients, 1 for the boxes).
    const int m = 2, gw = w + 2 * m, gh = h + 2 * m;
    std::vector<float> g((size_t)gw * gh);
    for (int y = -m; y < h + m; y++) {
        for (int x = -m; x < w + m; x++) {
            int cx = std::min(std::max(x, 0), w - 1), cy = std::min(std::max(y, 0), h - 1);
            const float *p = in + (size_t)cy * w + cx;
            g[(size_t)(y + m) * gw + (x + m)] =
                kLumaR * p[0] + kLumaG * p[(size_t)w * h] + kLumaB * p[(size_t)2 * w * h];
        }
    }
    auto G = [&](int x, int y) { return g[(size_t)(y + m) * gw + (x + m)]; };
    // Gradient products over the frame grown by 1.
    const int pw = w + 2, ph = h + 2;
    std::vector<float> xx((size_t)pw * ph), yy((size_t)pw * ph), xy((size_t)pw * ph);
    for (int y = -1; y < h + 1; y++) {
        for (int x = -1; x < w + 1; x++) {
            float right = G(x + 1, y - 1) + 2.0f * G(x + 1, y) + G(x + 1, y + 1);
            float left = G(x - 1, y - 1) + 2.0f * G(x - 1, y) + G(x - 1, y + 1);
            float bottom = G(x - 1, y + 1) + 2.0f * G(x, y + 1) + G(x + 1, y + 1);
            float top = G(x - 1, y - 1) + 2.0f * G(x, y - 1) + G(x + 1, y - 1);
            float gx = (right - left) * kSobelScale, gy = (bottom - top) * kSobelScale;
            size_t k = (size_t)(y + 1) * pw + (x + 1);
            xx[k] = gx * gx;
            yy[k] = gy * gy;
            xy[k] = gx * gy;
        }
    }
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            float sxx = 0, syy = 0, sxy = 0;
            bool first = true;
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    size_t k = (size_t)(y + dy + 1) * pw + (x + dx + 1);
                    sxx = first ? xx[k] : sxx + xx[k];
                    syy = first ? yy[k] : syy + yy[k];
                    sxy = first ? xy[k] : sxy + xy[k];
                    first = false;
                }
            }
            float det = sxx * syy - sxy * sxy;
            float trace = sxx + syy;
            out[(size_t)y * w + x] = det - kHarrisK * (trace * trace);
        }
    }
}

#endif
