// A naive distance regularized level set evolution (Li, Xu, Gui and Fox 2010) in plain C++ loops
// over raw arrays, written from the paper's update rule rather than from the pipeline's text:
// whole-image arrays per step (smoothed image, edge indicator, normals, phi), each computed
// over the frame it is read on. Shares only the constants with the pipeline.
#ifndef LOOM_APPS_SNAKE_REFERENCE_H
#define LOOM_APPS_SNAKE_REFERENCE_H

#include "snake/snake_params.h"

#include <algorithm>
#include <cmath>
#include <vector>

/// Evolves phi over `iterations` steps on the w x h gray image `in` (x fastest, values in
/// [0, 1]) and writes the final phi to `out` (w x h). phi starts at -c0 inside the rectangle of
/// inside_initial_rect and c0 outside; each step, with phi's edges repeated and central
/// differences:
///   phi += dt (mu (lap phi - curv) + lambda dirac(phi) (grad g . N + g curv)
///              + alpha dirac(phi) g)
/// where N = grad phi / (|grad phi| + 1e-10), curv = div N and g = 1 / (1 + |grad(G * 255 I)|^2)
/// (G: the 5-tap Gaussian of sigma 0.8, the image's edges repeated).
inline void snake_reference(const float *in, float *out, int w, int h,
                            int iterations = snake_detail::kIterations) {
    using namespace snake_detail;
    const GaussWeights gw = gauss_weights();
    const int r = kGaussRadius;
    auto img = [&](int x, int y) {
        x = std::min(std::max(x, 0), w - 1);
        y = std::min(std::max(y, 0), h - 1);
        return in[(size_t)y * w + x] * kIntensityScale;
    };
    // Arrays over frames grown by a margin m: a(x, y) at [(y + m) * (w + 2m) + x + m].
    struct Grid {
        int w, h, m;
        std::vector<float> v;
        Grid(int w, int h, int m) : w(w), h(h), m(m), v((size_t)(w + 2 * m) * (h + 2 * m)) {}
        float &at(int x, int y) { return v[(size_t)(y + m) * (w + 2 * m) + x + m]; }
    };
    // g is read at x +- 1, the smoothed image at g's x +- 1, its vertical pass at that x +- 2.
    Grid vert(w, h, 4), smooth(w, h, 2), g(w, h, 1);
    for (int y = -2; y < h + 2; y++)
        for (int x = -4; x < w + 4; x++) {
            float s = gw.w[0] * img(x, y - r);
            for (int i = 1; i <= 2 * r; i++) s = s + gw.w[i] * img(x, y + i - r);
            vert.at(x, y) = s;
        }
    for (int y = -2; y < h + 2; y++)
        for (int x = -2; x < w + 2; x++) {
            float s = gw.w[0] * vert.at(x - r, y);
            for (int i = 1; i <= 2 * r; i++) s = s + gw.w[i] * vert.at(x + i - r, y);
            smooth.at(x, y) = s;
        }
    for (int y = -1; y < h + 1; y++)
        for (int x = -1; x < w + 1; x++) {
            float bx = (smooth.at(x + 1, y) - smooth.at(x - 1, y)) * 0.5f;
            float by = (smooth.at(x, y + 1) - smooth.at(x, y - 1)) * 0.5f;
            g.at(x, y) = 1.0f / (1.0f + (bx * bx + by * by));
        }
    std::vector<float> phi((size_t)w * h), next((size_t)w * h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            phi[(size_t)y * w + x] = inside_initial_rect(x, y, w, h) ? -kC0 : kC0;
    auto p = [&](int x, int y) {
        x = std::min(std::max(x, 0), w - 1);
        y = std::min(std::max(y, 0), h - 1);
        return phi[(size_t)y * w + x];
    };
    Grid nxg(w, h, 1), nyg(w, h, 1);
    const float half_over_eps = 1.0f / (2.0f * kEpsilon), pi_over_eps = kPi / kEpsilon;
    for (int it = 0; it < iterations; it++) {
        // The unit normal, over the frame grown by 1 (its divergence reads the neighbours).
        for (int y = -1; y < h + 1; y++)
            for (int x = -1; x < w + 1; x++) {
                float px = (p(x + 1, y) - p(x - 1, y)) * 0.5f;
                float py = (p(x, y + 1) - p(x, y - 1)) * 0.5f;
                float s = std::sqrt(px * px + py * py) + kSmall;
                nxg.at(x, y) = px / s;
                nyg.at(x, y) = py / s;
            }
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                float c = p(x, y);
                float curv = (nxg.at(x + 1, y) - nxg.at(x - 1, y)) * 0.5f +
                             (nyg.at(x, y + 1) - nyg.at(x, y - 1)) * 0.5f;
                float lap = ((p(x - 1, y) + p(x + 1, y)) + (p(x, y - 1) + p(x, y + 1))) - 4.0f * c;
                float dirac = std::fabs(c) <= kEpsilon
                                  ? half_over_eps * (1.0f + std::cos(c * pi_over_eps))
                                  : 0.0f;
                float gc = g.at(x, y);
                float gx = (g.at(x + 1, y) - g.at(x - 1, y)) * 0.5f;
                float gy = (g.at(x, y + 1) - g.at(x, y - 1)) * 0.5f;
                float length = dirac * ((gx * nxg.at(x, y) + gy * nyg.at(x, y)) + gc * curv);
                float area = dirac * gc;
                next[(size_t)y * w + x] =
                    c + kTimestep * ((kMu * (lap - curv) + kLambda * length) + kAlpha * area);
            }
        phi.swap(next);
    }
    std::copy(phi.begin(), phi.end(), out);
}

#endif
