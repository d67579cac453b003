// The learned demosaick's forward pass and loss in plain C++ loops, in double, written from the
// algorithm's description (learned_demosaick.h): the base filters expanded by the 8 symmetries of
// the square, each filter's green plane, its 3 x 3 mean gradient energy, the softmax of
// -selectivity * log(energy + epsilon) over the filters, the blended green, and red and blue as
// green plus the symmetrized chroma filter applied to the sparse colour differences. Each stage
// is computed on the image grown by what its consumers reach beyond it; the mosaic is read
// mirrored about its edge pixels. Layouts: x fastest; green_bases[(b * 5 + j) * 5 + i],
// chroma_base[j * 5 + i], out[(c * h + y) * w + x]. No Halide.
#ifndef LOOM_APPS_LEARNED_DEMOSAICK_REFERENCE_H
#define LOOM_APPS_LEARNED_DEMOSAICK_REFERENCE_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace learned_demosaick_detail {

/// Reflects i into [0, n) about the edge elements: -1 -> 1, n -> n - 2 (period 2n - 2).
inline int mirror_interior_index(int i, int n) {
    if (n == 1) return 0;
    const int period = 2 * (n - 1);
    int m = ((i % period) + period) % period;
    return m < n ? m : period - m;
}

/// The colour of the GRBG site (x, y): 0 red, 1 green, 2 blue.
inline int bayer_colour(int x, int y) {
    x &= 1, y &= 1;
    return x == y ? 1 : (x ? 0 : 2);
}

/// The GRBG mosaic of a planar w x h x 3 image.
inline std::vector<double> mosaic_reference(const double *rgb, int w, int h) {
    std::vector<double> out((size_t)w * h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            out[(size_t)y * w + x] = rgb[((size_t)bayer_colour(x, y) * h + y) * w + x];
    return out;
}

/// A plane over [-pad, w + pad) x [-pad, h + pad).
struct PaddedPlane {
    int w, h, pad;
    std::vector<double> v;
    PaddedPlane(int w_, int h_, int pad_)
        : w(w_), h(h_), pad(pad_), v((size_t)(w_ + 2 * pad_) * (h_ + 2 * pad_)) {}
    double &at(int x, int y) { return v[(size_t)(y + pad) * (w + 2 * pad) + (x + pad)]; }
};

/// Tap (i, j) of base filter `base` (5 x 5) under symmetry s: transpose when s >= 4, then mirror
/// i (s odd) and j (s & 2), as the pipeline expands it.
inline double transformed_tap(const double *base, int s, int i, int j) {
    int u = s >= 4 ? j : i, v = s >= 4 ? i : j;
    if (s & 1) u = 4 - u;
    if (s & 2) v = 4 - v;
    return base[v * 5 + u];
}

/// out (w x h x 3) = the learned demosaick of the w x h GRBG `mosaic` with `bases` base green
/// filters, the chroma filter and one selectivity per base.
inline void learned_demosaick_reference(const double *mosaic, int w, int h,
                                        const double *green_bases, int bases,
                                        const double *chroma_base, const double *selectivity,
                                        double *out, double epsilon = 1e-4) {
    const int K = 8 * bases;
    // What each stage's consumers reach: chroma 2, energy box 1, central differences 1, the
    // green filters 2.
    const int pad_green = 2, pad_energy = 2, pad_gradient = 3, pad_plane = 4;
    auto in = [&](int x, int y) {
        return mosaic[(size_t)mirror_interior_index(y, h) * w + mirror_interior_index(x, w)];
    };
    std::vector<double> filters((size_t)K * 25);
    for (int k = 0; k < K; k++)
        for (int j = 0; j < 5; j++)
            for (int i = 0; i < 5; i++)
                filters[(size_t)k * 25 + j * 5 + i] =
                    transformed_tap(green_bases + (size_t)(k / 8) * 25, k % 8, i, j);
    std::vector<PaddedPlane> candidate(K, PaddedPlane(w, h, pad_plane)),
        plane(K, PaddedPlane(w, h, pad_plane)), gradient(K, PaddedPlane(w, h, pad_gradient)),
        energy(K, PaddedPlane(w, h, pad_energy));
    for (int k = 0; k < K; k++) {
        for (int y = -pad_plane; y < h + pad_plane; y++)
            for (int x = -pad_plane; x < w + pad_plane; x++) {
                double sum = 0;
                for (int j = 0; j < 5; j++)
                    for (int i = 0; i < 5; i++)
                        sum += filters[(size_t)k * 25 + j * 5 + i] * in(x + i - 2, y + j - 2);
                candidate[k].at(x, y) = sum;
                plane[k].at(x, y) = bayer_colour(x, y) == 1 ? in(x, y) : sum;
            }
        for (int y = -pad_gradient; y < h + pad_gradient; y++)
            for (int x = -pad_gradient; x < w + pad_gradient; x++) {
                double dx = plane[k].at(x + 1, y) - plane[k].at(x - 1, y);
                double dy = plane[k].at(x, y + 1) - plane[k].at(x, y - 1);
                gradient[k].at(x, y) = dx * dx + dy * dy;
            }
        for (int y = -pad_energy; y < h + pad_energy; y++)
            for (int x = -pad_energy; x < w + pad_energy; x++) {
                double sum = 0;
                for (int v = -1; v <= 1; v++)
                    for (int u = -1; u <= 1; u++) sum += gradient[k].at(x + u, y + v);
                energy[k].at(x, y) = sum / 9;
            }
    }
    PaddedPlane green(w, h, pad_green);
    std::vector<double> logit(K);
    for (int y = -pad_green; y < h + pad_green; y++)
        for (int x = -pad_green; x < w + pad_green; x++) {
            if (bayer_colour(x, y) == 1) {
                green.at(x, y) = in(x, y);
                continue;
            }
            double largest = -HUGE_VAL;
            for (int k = 0; k < K; k++) {
                logit[k] = -selectivity[k / 8] * std::log(energy[k].at(x, y) + epsilon);
                largest = std::max(largest, logit[k]);
            }
            double norm = 0, blend = 0;
            for (int k = 0; k < K; k++) {
                double e = std::exp(logit[k] - largest);
                norm += e;
                blend += e * candidate[k].at(x, y);
            }
            green.at(x, y) = blend / norm;
        }
    double chroma[25];
    for (int j = 0; j < 5; j++)
        for (int i = 0; i < 5; i++) {
            double sum = 0;
            for (int s = 0; s < 8; s++) sum += transformed_tap(chroma_base, s, i, j);
            chroma[j * 5 + i] = sum / 8;
        }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const double g = green.at(x, y);
            out[((size_t)1 * h + y) * w + x] = g;
            for (int colour : {0, 2}) {
                double sum = 0;
                for (int j = 0; j < 5; j++)
                    for (int i = 0; i < 5; i++) {
                        int sx = x + i - 2, sy = y + j - 2;
                        if (bayer_colour(sx, sy) == colour)
                            sum += chroma[j * 5 + i] * (in(sx, sy) - green.at(sx, sy));
                    }
                out[((size_t)colour * h + y) * w + x] = g + sum;
            }
        }
}

/// The mean squared error of `out` against `target` (both w x h x 3) over the pixels at least
/// `margin` from an edge.
inline double loss_reference(const double *out, const double *target, int w, int h, int margin) {
    double sum = 0;
    for (int c = 0; c < 3; c++)
        for (int y = margin; y < h - margin; y++)
            for (int x = margin; x < w - margin; x++) {
                double e = out[((size_t)c * h + y) * w + x] - target[((size_t)c * h + y) * w + x];
                sum += e * e;
            }
    return sum / (3.0 * (w - 2 * margin) * (h - 2 * margin));
}

/// Peak signal-to-noise ratio in dB of `out` against `target` (values in [0, 1]) over the
/// pixels at least `margin` from an edge.
inline double psnr_reference(const double *out, const double *target, int w, int h, int margin) {
    return -10 * std::log10(loss_reference(out, target, w, h, margin));
}

} // namespace learned_demosaick_detail

#endif
