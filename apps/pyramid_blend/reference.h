// Naive pyramid blending in plain C++ loops over raw planar arrays, written from Burt and
// Adelson's construction rather than from the pipeline's text: Gaussian pyramids (binomial
// filter, then every other pixel), Laplacian levels (a level minus the next one upsampled by
// linear interpolation), a per-level blend weighted by the mask's Gaussian pyramid, and the
// collapse from the coarsest level. Edges are repeated at every level.
#ifndef LOOM_APPS_PYRAMID_BLEND_REFERENCE_H
#define LOOM_APPS_PYRAMID_BLEND_REFERENCE_H

#include "pyramid_blend/pyramid_blend_params.h"

#include <algorithm>
#include <vector>

namespace pyramid_blend_reference_detail {

/// One plane of a level.
struct Plane {
    int w = 0, h = 0;
    std::vector<float> v;
    Plane(int w, int h) : w(w), h(h), v((size_t)w * h) {}
    float at(int x, int y) const {
        x = std::min(std::max(x, 0), w - 1);
        y = std::min(std::max(y, 0), h - 1);
        return v[(size_t)y * w + x];
    }
    float &operator()(int x, int y) { return v[(size_t)y * w + x]; }
};

/// The binomial-filtered half-size plane (horizontal pass, then vertical).
inline Plane down(const Plane &p) {
    using namespace pyramid_blend_detail;
    Plane across(p.w / 2, p.h), out(p.w / 2, p.h / 2);
    for (int y = 0; y < p.h; y++)
        for (int x = 0; x < p.w / 2; x++) {
            float s = (p.at(2 * x - 2, y) + p.at(2 * x + 2, y)) * kTapOuter +
                      (p.at(2 * x - 1, y) + p.at(2 * x + 1, y)) * kTapNear +
                      p.at(2 * x, y) * kTapCenter;
            across(x, y) = s * kNorm;
        }
    for (int y = 0; y < p.h / 2; y++)
        for (int x = 0; x < p.w / 2; x++) {
            float s = (across.at(x, 2 * y - 2) + across.at(x, 2 * y + 2)) * kTapOuter +
                      (across.at(x, 2 * y - 1) + across.at(x, 2 * y + 1)) * kTapNear +
                      across.at(x, 2 * y) * kTapCenter;
            out(x, y) = s * kNorm;
        }
    return out;
}

/// The double-size plane by linear interpolation (horizontal pass, then vertical): a fine
/// pixel 2i or 2i + 1 is 3/4 of coarse pixel i and 1/4 of coarse pixel i - 1 or i + 1.
inline Plane up(const Plane &p) {
    using namespace pyramid_blend_detail;
    Plane across(2 * p.w, p.h), out(2 * p.w, 2 * p.h);
    for (int y = 0; y < p.h; y++)
        for (int x = 0; x < 2 * p.w; x++) {
            int side = (x % 2 == 0) ? x / 2 - 1 : x / 2 + 1;
            across(x, y) = kUpFar * p.at(side, y) + kUpNear * p.at(x / 2, y);
        }
    for (int y = 0; y < 2 * p.h; y++) {
        int side = (y % 2 == 0) ? y / 2 - 1 : y / 2 + 1;
        for (int x = 0; x < 2 * p.w; x++)
            out(x, y) = kUpFar * across.at(x, side) + kUpNear * across.at(x, y / 2);
    }
    return out;
}

} // namespace pyramid_blend_reference_detail

/// Blends the planar w x h x 3 images a and b (mask: w x h, the weight of a) into out (w x h x
/// 3) through kLevels-level pyramids. w and h must be multiples of 2^(kLevels - 1).
inline void pyramid_blend_reference(const float *a, const float *b, const float *mask, float *out,
                                    int w, int h) {
    using namespace pyramid_blend_detail;
    using pyramid_blend_reference_detail::down;
    using pyramid_blend_reference_detail::Plane;
    using pyramid_blend_reference_detail::up;
    const size_t n = (size_t)w * h;
    std::vector<Plane> gm;
    gm.emplace_back(w, h);
    std::copy(mask, mask + n, gm[0].v.begin());
    for (int l = 1; l < kLevels; l++) gm.push_back(down(gm[l - 1]));
    for (int c = 0; c < 3; c++) {
        std::vector<Plane> ga, gb;
        ga.emplace_back(w, h);
        gb.emplace_back(w, h);
        std::copy(a + c * n, a + (c + 1) * n, ga[0].v.begin());
        std::copy(b + c * n, b + (c + 1) * n, gb[0].v.begin());
        for (int l = 1; l < kLevels; l++) {
            ga.push_back(down(ga[l - 1]));
            gb.push_back(down(gb[l - 1]));
        }
        // Blended Laplacian levels, then the collapse from the coarsest.
        std::vector<Plane> blended;
        for (int l = 0; l < kLevels; l++) {
            Plane la = ga[l], lb = gb[l];
            if (l + 1 < kLevels) {
                Plane ua = up(ga[l + 1]), ub = up(gb[l + 1]);
                for (size_t i = 0; i < la.v.size(); i++) {
                    la.v[i] = la.v[i] - ua.v[i];
                    lb.v[i] = lb.v[i] - ub.v[i];
                }
            }
            Plane bl(la.w, la.h);
            for (size_t i = 0; i < bl.v.size(); i++) {
                float m = gm[l].v[i];
                bl.v[i] = m * la.v[i] + (1.0f - m) * lb.v[i];
            }
            blended.push_back(bl);
        }
        Plane col = blended[kLevels - 1];
        for (int l = kLevels - 2; l >= 0; l--) {
            Plane u = up(col);
            Plane next = blended[l];
            for (size_t i = 0; i < next.v.size(); i++) next.v[i] = next.v[i] + u.v[i];
            col = next;
        }
        std::copy(col.v.begin(), col.v.end(), out + c * n);
    }
}

#endif
