// A naive local Laplacian filter in plain C++ loops over raw arrays, written from the method
// (Gaussian and Laplacian pyramids with [1 3 3 1] downsampling and linear upsampling, K
// remapped images, per-coefficient interpolation between intensity levels, collapse, colour
// ratio) rather than from the pipeline's text. The pyramids are defined on the whole plane
// (only the input's edges are repeated), so each level is computed over exactly the region its
// consumers read, found by propagating the stencils' reach from the output down the pyramid.
// It streams over the intensity levels, one remapped pyramid at a time. Shares the constants
// and the remapping table with the pipeline.
#ifndef LOOM_APPS_LOCAL_LAPLACIAN_REFERENCE_H
#define LOOM_APPS_LOCAL_LAPLACIAN_REFERENCE_H

#include "local_laplacian/local_laplacian_params.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace local_laplacian_detail {

inline int floor_div2(int v) { return v >= 0 ? v / 2 : -((1 - v) / 2); }
inline int floor_mod2(int v) { return v & 1; }

/// An image over the rectangle [x0, x0 + w) x [y0, y0 + h) of the plane.
template <typename T>
struct Plane {
    int x0 = 0, y0 = 0, w = 0, h = 0;
    std::vector<T> v;
    Plane() = default;
    Plane(int x0_, int y0_, int x1, int y1)
        : x0(x0_), y0(y0_), w(x1 - x0_ + 1), h(y1 - y0_ + 1), v((size_t)w * h, T(0)) {}
    T &operator()(int x, int y) { return v[(size_t)(y - y0) * w + (x - x0)]; }
    T operator()(int x, int y) const { return v[(size_t)(y - y0) * w + (x - x0)]; }
};

/// An inclusive range of one coordinate.
struct Range {
    int lo, hi;
};

/// f downsampled by [1 3 3 1] / 8 along x then y, over `out`'s rectangle.
template <typename T>
void reference_downsample(const Plane<T> &f, Plane<T> &out) {
    for (int y = out.y0; y < out.y0 + out.h; y++)
        for (int x = out.x0; x < out.x0 + out.w; x++) {
            auto dx = [&](int row) {
                return (f(2 * x - 1, row) + 3.0f * f(2 * x, row) + 3.0f * f(2 * x + 1, row) +
                        f(2 * x + 2, row)) *
                       0.125f;
            };
            out(x, y) =
                (dx(2 * y - 1) + 3.0f * dx(2 * y) + 3.0f * dx(2 * y + 1) + dx(2 * y + 2)) * 0.125f;
        }
}

/// The linear upsampling of the coarser level f at fine pixel (x, y).
template <typename T>
T reference_upsample(const Plane<T> &f, int x, int y) {
    auto ux = [&](int row) {
        int near = floor_div2(x), far = floor_div2(x) - 1 + 2 * floor_mod2(x);
        return 0.25f * f(far, row) + 0.75f * f(near, row);
    };
    int near = floor_div2(y), far = floor_div2(y) - 1 + 2 * floor_mod2(y);
    return 0.25f * ux(far) + 0.75f * ux(near);
}

} // namespace local_laplacian_detail

/// Filters the planar w x h x 3 image `in` of values in [0, 1] (x fastest, then y, then the
/// channel) into `out` (same layout): the output in [0, 1] before its rounding to 16 bits, with
/// the remapping table `lut` (remap_table<T>(alpha)), large-scale contrast `beta` and `levels`
/// pyramid levels. In float, the pipeline's operations in its order; in double (T = double,
/// with the same float constants), the function the gradient tests take finite differences of.
/// The output is piecewise smooth: if `branches` is given, every integer decision (each
/// remapped pixel's table entry and the clamps of its position, each coefficient's lower
/// intensity level, each output's clamp to [0, 1]) is appended to it, so a caller can tell
/// whether two evaluations lie on the same smooth piece.
template <typename T>
void local_laplacian_reference_values(const T *in, T *out, int w, int h, const std::vector<T> &lut,
                                      T beta, int levels = local_laplacian_detail::kLevels,
                                      std::vector<int> *branches = nullptr) {
    using namespace local_laplacian_detail;
    const int J = levels, K = kIntensityLevels;
    auto decide = [&](int choice) {
        if (branches) branches->push_back(choice);
        return choice;
    };
    // Regions: A[j] the output pyramid's levels (the collapse reads one coarser pixel beyond
    // half of each finer range), B[j] the Gaussian pyramids' (A[j] and what level j + 1's
    // downsampling reads).
    std::vector<Range> Ax(J), Ay(J), Bx(J), By(J);
    Ax[0] = {0, w - 1};
    Ay[0] = {0, h - 1};
    for (int j = 1; j < J; j++) {
        Ax[j] = {floor_div2(Ax[j - 1].lo) - 1, floor_div2(Ax[j - 1].hi) + 1};
        Ay[j] = {floor_div2(Ay[j - 1].lo) - 1, floor_div2(Ay[j - 1].hi) + 1};
    }
    Bx[J - 1] = Ax[J - 1];
    By[J - 1] = Ay[J - 1];
    for (int j = J - 2; j >= 0; j--) {
        Bx[j] = {std::min(Ax[j].lo, 2 * Bx[j + 1].lo - 1),
                 std::max(Ax[j].hi, 2 * Bx[j + 1].hi + 2)};
        By[j] = {std::min(Ay[j].lo, 2 * By[j + 1].lo - 1),
                 std::max(Ay[j].hi, 2 * By[j + 1].hi + 2)};
    }
    auto plane = [&](const std::vector<Range> &X, const std::vector<Range> &Y, int j) {
        return Plane<T>(X[j].lo, Y[j].lo, X[j].hi, Y[j].hi);
    };
    auto input = [&](int x, int y, int c) {
        x = std::min(std::max(x, 0), w - 1);
        y = std::min(std::max(y, 0), h - 1);
        return in[((size_t)c * h + y) * w + x];
    };
    auto luma = [&](int x, int y) {
        return kLumaR * input(x, y, 0) + kLumaG * input(x, y, 1) + kLumaB * input(x, y, 2);
    };

    // The gray image's Gaussian pyramid.
    std::vector<Plane<T>> in_g(J);
    in_g[0] = plane(Bx, By, 0);
    for (int y = By[0].lo; y <= By[0].hi; y++)
        for (int x = Bx[0].lo; x <= Bx[0].hi; x++) in_g[0](x, y) = luma(x, y);
    for (int j = 1; j < J; j++) {
        in_g[j] = plane(Bx, By, j);
        reference_downsample(in_g[j - 1], in_g[j]);
    }

    // For each intensity level: its remapped image's pyramids, and its share of the output's
    // Laplacian coefficients (weight 1 - t at the level below the gray value, t above).
    const T unit = (T)((K - 1) * kLutStepsPerLevel);
    std::vector<Plane<T>> out_l(J);
    for (int j = 0; j < J; j++) out_l[j] = plane(Ax, Ay, j);
    std::vector<Plane<T>> g(J);
    for (int k = 0; k < K; k++) {
        const T level = (T)k * (T)(1.0f / (K - 1));
        g[0] = plane(Bx, By, 0);
        for (int y = By[0].lo; y <= By[0].hi; y++)
            for (int x = Bx[0].lo; x <= Bx[0].hi; x++) {
                T d = in_g[0](x, y) - level;
                T raw = d * unit + unit;
                decide(raw < 0 ? -1 : raw > 2 * unit ? 1 : 0);
                T pos = std::min(std::max(raw, T(0)), 2 * unit);
                int i = decide(std::min((int)pos, kLutSize - 2));
                T t = pos - (T)i;
                g[0](x, y) = beta * d + level + (lut[i] * (T(1) - t) + lut[i + 1] * t);
            }
        for (int j = 1; j < J; j++) {
            g[j] = plane(Bx, By, j);
            reference_downsample(g[j - 1], g[j]);
        }
        for (int j = 0; j < J; j++)
            for (int y = Ay[j].lo; y <= Ay[j].hi; y++)
                for (int x = Ax[j].lo; x <= Ax[j].hi; x++) {
                    T lv = in_g[j](x, y) * (T)(K - 1);
                    int li = std::min(std::max((int)lv, 0), K - 2);
                    if (k == 0) decide(li);
                    if (k != li && k != li + 1) continue;
                    T t = lv - (T)li;
                    T lap =
                        j == J - 1 ? g[j](x, y) : g[j](x, y) - reference_upsample(g[j + 1], x, y);
                    if (k == li)
                        out_l[j](x, y) = (T(1) - t) * lap;
                    else
                        out_l[j](x, y) = out_l[j](x, y) + t * lap;
                }
    }

    // Collapse, then colour by ratio.
    std::vector<Plane<T>> out_g(J);
    out_g[J - 1] = out_l[J - 1];
    for (int j = J - 2; j >= 0; j--) {
        out_g[j] = plane(Ax, Ay, j);
        for (int y = Ay[j].lo; y <= Ay[j].hi; y++)
            for (int x = Ax[j].lo; x <= Ax[j].hi; x++)
                out_g[j](x, y) = out_l[j](x, y) + reference_upsample(out_g[j + 1], x, y);
    }
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                T v = out_g[0](x, y) * (input(x, y, c) + kEps) / (in_g[0](x, y) + kEps);
                decide(v < 0 ? -1 : v > 1 ? 1 : 0);
                out[((size_t)c * h + y) * w + x] = std::min(std::max(v, T(0)), T(1));
            }
}

/// Filters the planar w x h x 3 16-bit image `in` (x fastest, then y, then the channel) into
/// `out` (same layout) with detail `alpha`, large-scale contrast `beta` and `levels` pyramid
/// levels: local_laplacian_reference_values in float, in and out scaled by 65535.
inline void local_laplacian_reference(const uint16_t *in, uint16_t *out, int w, int h, float alpha,
                                      float beta, int levels = local_laplacian_detail::kLevels) {
    const size_t n = (size_t)w * h * 3;
    std::vector<float> unit(n), values(n);
    for (size_t i = 0; i < n; i++) unit[i] = (float)in[i] * (1.0f / 65535.0f);
    local_laplacian_reference_values(unit.data(), values.data(), w, h,
                                     local_laplacian_detail::remap_table(alpha), beta, levels);
    for (size_t i = 0; i < n; i++) out[i] = (uint16_t)(values[i] * 65535.0f + 0.5f);
}

#endif
