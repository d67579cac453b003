// The bilateral slicing layer in plain C++ loops, in double, written from HDRNet's
// bilateral_slice_apply (pixel centres to cell centres, tent weights, indices clamped to the grid
// with the weights kept), with the backward pass derived by hand: each pixel's output adjoint
// gives the adjoint of its sliced coefficients (times the input color, or 1 for the offsets),
// which spreads over the 8 grid cells it read with the trilinear weights, and, through the
// derivative of the z weights, reaches the guide; the input's gradient is the transposed affine
// transform applied to the output adjoint. Layouts as the pipeline, x fastest: images (x, y,
// c, n) with 3 channels, the guide (x, y, n), the grid (gx, gy, gz, k, n) with 12 coefficients.
#ifndef LOOM_APPS_BILATERAL_SLICE_REFERENCE_H
#define LOOM_APPS_BILATERAL_SLICE_REFERENCE_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace bilateral_slice_detail {

struct Sizes {
    int w, h, n;    ///< the images
    int gw, gh, gd; ///< the grid
};

/// One interpolation axis at grid position p: the two taps' clamped indices, their tent weights
/// and the weights' derivatives with respect to p.
struct Axis {
    int index[2];
    double weight[2], d_weight[2];
    Axis() = default;
    Axis(double p, int size) {
        int f = (int)std::floor(p);
        for (int t = 0; t < 2; t++) {
            double u = f + t - p; // in (-1, 1]: both taps inside the tent
            index[t] = std::min(std::max(f + t, 0), size - 1);
            weight[t] = std::max(1 - std::fabs(u), 0.0);
            d_weight[t] = u >= 0 ? 1.0 : -1.0; // d (1 - |f + t - p|) / dp
        }
    }
};

inline size_t grid_at(const Sizes &s, int x, int y, int z, int k, int b) {
    return (size_t)x +
           (size_t)s.gw * (y + (size_t)s.gh * (z + (size_t)s.gd * (k + (size_t)12 * b)));
}

/// An image's element: (x, y, c, b) of 3 channels.
inline size_t pixel_at(const Sizes &s, int x, int y, int c, int b) {
    return (size_t)x + (size_t)s.w * (y + (size_t)s.h * (c + (size_t)3 * b));
}

/// The guide's element (x, y, b).
inline size_t guide_at(const Sizes &s, int x, int y, int b) {
    return (size_t)x + (size_t)s.w * (y + (size_t)s.h * b);
}

/// The pixel's three axes.
inline void axes_of(const Sizes &s, const double *guide, int x, int y, int b, Axis *ax) {
    ax[0] = Axis((x + 0.5) * s.gw / s.w - 0.5, s.gw);
    ax[1] = Axis((y + 0.5) * s.gh / s.h - 0.5, s.gh);
    ax[2] = Axis(guide[guide_at(s, x, y, b)] * s.gd - 0.5, s.gd);
}

/// The 12 coefficients sliced at pixel (x, y) of image b.
inline void slice(const Sizes &s, const double *grid, const Axis *ax, int b, double *a) {
    for (int k = 0; k < 12; k++) {
        a[k] = 0;
        for (int tz = 0; tz < 2; tz++)
            for (int ty = 0; ty < 2; ty++)
                for (int tx = 0; tx < 2; tx++)
                    a[k] +=
                        grid[grid_at(s, ax[0].index[tx], ax[1].index[ty], ax[2].index[tz], k, b)] *
                        ax[0].weight[tx] * ax[1].weight[ty] * ax[2].weight[tz];
    }
}

/// out (x, y, co, n) = sum over ci of A(co * 4 + ci) in(ci) + A(co * 4 + 3).
inline void bilateral_slice_reference(const Sizes &s, const double *grid, const double *guide,
                                      const double *in, double *out) {
    for (int b = 0; b < s.n; b++)
        for (int y = 0; y < s.h; y++)
            for (int x = 0; x < s.w; x++) {
                Axis ax[3];
                axes_of(s, guide, x, y, b, ax);
                double a[12];
                slice(s, grid, ax, b, a);
                for (int co = 0; co < 3; co++) {
                    double v = a[co * 4 + 3];
                    for (int ci = 0; ci < 3; ci++)
                        v += a[co * 4 + ci] * in[pixel_at(s, x, y, ci, b)];
                    out[pixel_at(s, x, y, co, b)] = v;
                }
            }
}

/// The backward pass: given d_out (the adjoint of out), d_grid, d_guide and d_in (laid out as
/// grid, guide and in) receive the gradients (overwritten).
inline void bilateral_slice_backward_reference(const Sizes &s, const double *grid,
                                               const double *guide, const double *in,
                                               const double *d_out, double *d_grid, double *d_guide,
                                               double *d_in) {
    std::fill(d_grid, d_grid + (size_t)s.gw * s.gh * s.gd * 12 * s.n, 0.0);
    for (int b = 0; b < s.n; b++)
        for (int y = 0; y < s.h; y++)
            for (int x = 0; x < s.w; x++) {
                Axis ax[3];
                axes_of(s, guide, x, y, b, ax);
                double a[12], d_a[12];
                slice(s, grid, ax, b, a);
                for (int ci = 0; ci < 3; ci++) d_in[pixel_at(s, x, y, ci, b)] = 0;
                for (int co = 0; co < 3; co++) {
                    double g = d_out[pixel_at(s, x, y, co, b)];
                    d_a[co * 4 + 3] = g;
                    for (int ci = 0; ci < 3; ci++) {
                        d_a[co * 4 + ci] = g * in[pixel_at(s, x, y, ci, b)];
                        d_in[pixel_at(s, x, y, ci, b)] += g * a[co * 4 + ci];
                    }
                }
                // The guide moves only the z position: gz = guide * gd - 0.5.
                double d_gz = 0;
                for (int k = 0; k < 12; k++)
                    for (int tz = 0; tz < 2; tz++)
                        for (int ty = 0; ty < 2; ty++)
                            for (int tx = 0; tx < 2; tx++) {
                                size_t at = grid_at(s, ax[0].index[tx], ax[1].index[ty],
                                                    ax[2].index[tz], k, b);
                                double wxy = ax[0].weight[tx] * ax[1].weight[ty];
                                d_grid[at] += d_a[k] * wxy * ax[2].weight[tz];
                                d_gz += d_a[k] * grid[at] * wxy * ax[2].d_weight[tz];
                            }
                d_guide[guide_at(s, x, y, b)] = d_gz * s.gd;
            }
}

} // namespace bilateral_slice_detail

#endif
