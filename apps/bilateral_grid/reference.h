// A naive bilateral grid in plain C++ loops over raw arrays, written from the method of Chen,
// Paris and Durand (splat into a (space / sigma_s, intensity / sigma_r) grid of (sum, count),
// blur the grid by [1 4 6 4 1] along each axis, slice by trilinear interpolation) rather than
// from the pipeline's text. Shares only the constants with the pipeline.
#ifndef LOOM_APPS_BILATERAL_GRID_REFERENCE_H
#define LOOM_APPS_BILATERAL_GRID_REFERENCE_H

#include "bilateral_grid/bilateral_grid_params.h"

#include <algorithm>
#include <vector>

/// Filters the w x h gray image `in` (x fastest, values in [0, 1], edges repeated) into `out`
/// (same layout). Sums in the same order as the pipeline, so in float only contraction of
/// multiply-adds separates the two; in double (T = double, with the same float constants) it is
/// the function the gradient tests take finite differences of. The output is piecewise smooth
/// in the input and r_sigma: if `branches` is given, every integer decision (each clamp of a
/// value to [0, 1], each pixel's bin in the splat and lower plane in the slice) is appended to
/// it, so a caller can tell whether two evaluations lie on the same smooth piece.
template <typename T>
void bilateral_grid_reference(const T *in, T *out, int w, int h, T r_sigma,
                              std::vector<int> *branches = nullptr) {
    using namespace bilateral_grid_detail;
    const int s = kSigmaS;
    const T inv_r = T(1) / r_sigma;
    auto decide = [&](int choice) {
        if (branches) branches->push_back(choice);
        return choice;
    };
    auto pixel = [&](int x, int y) {
        x = std::min(std::max(x, 0), w - 1);
        y = std::min(std::max(y, 0), h - 1);
        T v = in[(size_t)y * w + x];
        decide(v < 0 ? -1 : v > 1 ? 1 : 0);
        return std::min(std::max(v, T(0)), T(1));
    };
    // The grid covers every cell the slice reads (0 .. last + 1), the blurs' reach (2 each way)
    // and a spare margin, so the blur loops need no edge tests; cells hold (sum, count).
    const int margin = 4;
    const int x0 = -margin, nx = (w - 1) / s + 2 + 2 * margin;
    const int y0 = -margin, ny = (h - 1) / s + 2 + 2 * margin;
    const int z0 = -margin, nz = (int)(inv_r + T(0.5)) + 2 + 2 * margin;
    auto at = [&](int gx, int gy, int gz, int ch) {
        return ((((size_t)(gz - z0) * ny + (gy - y0)) * nx + (gx - x0)) * 2) + ch;
    };
    const size_t cells = (size_t)nx * ny * nz * 2;
    std::vector<T> grid(cells, T(0));
    // Splat: cell (gx, gy) owns pixels gx*s - s/2 .. gx*s + s/2 - 1 (rows outer, columns
    // inner), each into its nearest intensity bin.
    for (int gy = y0; gy < y0 + ny; gy++)
        for (int gx = x0; gx < x0 + nx; gx++)
            for (int j = 0; j < s; j++)
                for (int i = 0; i < s; i++) {
                    T v = pixel(gx * s + i - s / 2, gy * s + j - s / 2);
                    int bin = decide((int)(v * inv_r + T(0.5)));
                    grid[at(gx, gy, bin, 0)] += v;
                    grid[at(gx, gy, bin, 1)] += T(1);
                }
    // Separable blur along z, then x, then y, over the interior (2 cells from each edge).
    auto blur = [&](const std::vector<T> &src, int dx, int dy, int dz) {
        std::vector<T> dst(cells, T(0));
        for (int gz = z0 + 2; gz < z0 + nz - 2; gz++)
            for (int gy = y0 + 2; gy < y0 + ny - 2; gy++)
                for (int gx = x0 + 2; gx < x0 + nx - 2; gx++)
                    for (int ch = 0; ch < 2; ch++) {
                        T sum = kTap[0] * src[at(gx - 2 * dx, gy - 2 * dy, gz - 2 * dz, ch)];
                        for (int d = -1; d <= 2; d++)
                            sum = sum +
                                  kTap[d + 2] * src[at(gx + d * dx, gy + d * dy, gz + d * dz, ch)];
                        dst[at(gx, gy, gz, ch)] = sum;
                    }
        return dst;
    };
    std::vector<T> blurred = blur(blur(blur(grid, 0, 0, 1), 1, 0, 0), 0, 1, 0);
    // Slice: trilinear interpolation at (x / s, y / s, v / r_sigma) of both channels.
    auto mix = [](T a, T b, T t) { return a * (T(1) - t) + b * t; };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            T v = pixel(x, y);
            T zv = v * inv_r;
            int gz = decide((int)zv);
            T tz = zv - (T)gz;
            int gx = x / s, gy = y / s;
            T tx = (T)(x % s) / (T)s, ty = (T)(y % s) / (T)s;
            T result[2];
            for (int ch = 0; ch < 2; ch++) {
                T plane[2];
                for (int k = 0; k < 2; k++) {
                    auto g = [&](int ax, int ay) { return blurred[at(ax, ay, gz + k, ch)]; };
                    plane[k] = mix(mix(g(gx, gy), g(gx + 1, gy), tx),
                                   mix(g(gx, gy + 1), g(gx + 1, gy + 1), tx), ty);
                }
                result[ch] = mix(plane[0], plane[1], tz);
            }
            out[(size_t)y * w + x] = result[0] / result[1];
        }
}

#endif
