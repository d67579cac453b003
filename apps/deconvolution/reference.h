// Non-blind deconvolution with learned parameters (deconvolution.h) in plain C++ loops, templated
// on the value type (double for finite differences), written from the algorithm's description
// with the energy's gradient and Hessian derived by hand:
//   E(x) = |A x - b|^2 + sum_f w_f |D_f x - t_f|^2,
//   g = dE/dx = 2 A^T (A x - b) + 2 sum_f w_f D_f^T (D_f x - t_f),
//   g . H g = 2 |A g|^2 + 2 sum_f w_f |D_f g|^2,
// where A is the correlation with the PSF and D_f with derivative filter f, both reading their
// image clamped to its edges (A^T and D_f^T scatter back to the clamped positions), and the norms
// and dot products sum over the image. Each solve is `iterations` steps of steepest descent with
// exact line search, x <- x - (g . g) / (g . H g) g. Also the synthetic data of the tests and
// benchmarks: a motion-blur PSF, the blurred noisy image, PSNR. No Halide.
//
// Layouts (x fastest, as the pipeline's Buffers): images [y * w + x]; the PSF [j * size + i]
// (tap (i, j) at offset (i - size / 2, j - size / 2)); filters [((s * F + f) * 3 + j) * 3 + i]
// (tap (i, j) at offset (i - 1, j - 1)); log_weights [s * F + f]; thresholds [(s - 1) * F + f]
// and range_sigma [s - 1] for the stages s >= 1.
#ifndef LOOM_APPS_DECONVOLUTION_REFERENCE_H
#define LOOM_APPS_DECONVOLUTION_REFERENCE_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace deconvolution_detail {

/// Derivative filters per stage, their footprint, the bilateral filter's footprint and spatial
/// sigma, and the softness of the thresholds' sigmoid.
constexpr int kFilters = 5, kFilterTaps = 3, kBilateralTaps = 5;
constexpr double kSpatialSigma = 1.5, kSoftness = 0.01;

inline int clamp_index(int i, int n) { return std::min(std::max(i, 0), n - 1); }

/// out(p) = sum_{i,j} taps(i, j) img(clamp(p + (i, j) - size / 2)) over the w x h image.
template <typename T>
std::vector<T> correlate(const std::vector<T> &img, int w, int h, const T *taps, int size) {
    std::vector<T> out((size_t)w * h);
    const int c = size / 2;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            T sum = 0;
            for (int j = 0; j < size; j++)
                for (int i = 0; i < size; i++)
                    sum += taps[j * size + i] *
                           img[(size_t)clamp_index(y + j - c, h) * w + clamp_index(x + i - c, w)];
            out[(size_t)y * w + x] = sum;
        }
    return out;
}

/// The transpose of correlate: each u(p) scattered to the clamped positions correlate read.
template <typename T>
std::vector<T> correlate_transpose(const std::vector<T> &u, int w, int h, const T *taps, int size) {
    std::vector<T> out((size_t)w * h, T(0));
    const int c = size / 2;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int j = 0; j < size; j++)
                for (int i = 0; i < size; i++)
                    out[(size_t)clamp_index(y + j - c, h) * w + clamp_index(x + i - c, w)] +=
                        taps[j * size + i] * u[(size_t)y * w + x];
    return out;
}

template <typename T>
T dot(const std::vector<T> &a, const std::vector<T> &b) {
    T sum = 0;
    for (size_t e = 0; e < a.size(); e++) sum += a[e] * b[e];
    return sum;
}

/// The 5 x 5 bilateral filter of the image (clamped at its edges): spatial Gaussian of sigma
/// kSpatialSigma, range Gaussian of sigma `sigma_r`, normalized.
template <typename T>
std::vector<T> bilateral_reference(const std::vector<T> &img, int w, int h, T sigma_r) {
    std::vector<T> out((size_t)w * h);
    const int c = kBilateralTaps / 2;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const T centre = img[(size_t)y * w + x];
            T num = 0, den = 0;
            for (int v = -c; v <= c; v++)
                for (int u = -c; u <= c; u++) {
                    const T q = img[(size_t)clamp_index(y + v, h) * w + clamp_index(x + u, w)];
                    const T d = q - centre;
                    const T weight =
                        (T)std::exp(-(u * u + v * v) / (2 * kSpatialSigma * kSpatialSigma)) *
                        std::exp(-d * d / (2 * sigma_r * sigma_r));
                    num += weight * q;
                    den += weight;
                }
            out[(size_t)y * w + x] = num / den;
        }
    return out;
}

/// The learned parameters of `stages` stages, in the layouts above.
template <typename T>
struct ReferenceParameters {
    std::vector<T> filters, log_weights, thresholds, range_sigma;
};

/// The deconvolution of the w x h `blurry` image by the size x size `psf`: `stages` stages of
/// `iterations` steepest-descent steps each, stage 0 from the blurry image with zero targets,
/// stage s from stage s - 1's result with targets from its bilateral-filtered derivatives. Each
/// stage's result is appended to `stage_results` when given.
template <typename T>
std::vector<T> deconvolution_reference(const std::vector<T> &blurry, int w, int h,
                                       const std::vector<T> &psf, int size,
                                       const ReferenceParameters<T> &p, int stages, int iterations,
                                       std::vector<std::vector<T>> *stage_results = nullptr) {
    const int F = kFilters, taps = kFilterTaps * kFilterTaps;
    std::vector<T> x = blurry;
    for (int s = 0; s < stages; s++) {
        const T *filters = p.filters.data() + (size_t)s * F * taps;
        std::vector<std::vector<T>> targets(F, std::vector<T>((size_t)w * h, T(0)));
        if (s > 0) {
            std::vector<T> cleaned = bilateral_reference(x, w, h, p.range_sigma[s - 1]);
            for (int f = 0; f < F; f++) {
                std::vector<T> e = correlate(cleaned, w, h, filters + f * taps, kFilterTaps);
                const T tau = p.thresholds[(size_t)(s - 1) * F + f];
                for (size_t q = 0; q < e.size(); q++)
                    targets[f][q] = e[q] / (1 + std::exp(-(std::fabs(e[q]) - tau) / (T)kSoftness));
            }
        }
        T weights[kFilters];
        for (int f = 0; f < F; f++) weights[f] = std::exp(p.log_weights[(size_t)s * F + f]);
        for (int n = 0; n < iterations; n++) {
            // g = 2 A^T (A x - b) + 2 sum_f w_f D_f^T (D_f x - t_f).
            std::vector<T> residual = correlate(x, w, h, psf.data(), size);
            for (size_t q = 0; q < residual.size(); q++) residual[q] -= blurry[q];
            std::vector<T> g = correlate_transpose(residual, w, h, psf.data(), size);
            for (int f = 0; f < F; f++) {
                std::vector<T> e = correlate(x, w, h, filters + f * taps, kFilterTaps);
                for (size_t q = 0; q < e.size(); q++) e[q] = weights[f] * (e[q] - targets[f][q]);
                std::vector<T> back = correlate_transpose(e, w, h, filters + f * taps, kFilterTaps);
                for (size_t q = 0; q < g.size(); q++) g[q] += back[q];
            }
            for (T &v : g) v *= 2;
            // g . H g = 2 |A g|^2 + 2 sum_f w_f |D_f g|^2.
            std::vector<T> ag = correlate(g, w, h, psf.data(), size);
            T curvature = dot(ag, ag);
            for (int f = 0; f < F; f++) {
                std::vector<T> dg = correlate(g, w, h, filters + f * taps, kFilterTaps);
                curvature += weights[f] * dot(dg, dg);
            }
            const T alpha = dot(g, g) / (2 * curvature);
            for (size_t q = 0; q < x.size(); q++) x[q] -= alpha * g[q];
        }
        if (stage_results) stage_results->push_back(x);
    }
    return x;
}

/// The mean squared error of `out` against `target` (w x h) over the pixels at least `margin`
/// from an edge.
template <typename T>
T loss_reference(const std::vector<T> &out, const std::vector<T> &target, int w, int h,
                 int margin) {
    T sum = 0;
    for (int y = margin; y < h - margin; y++)
        for (int x = margin; x < w - margin; x++) {
            T e = out[(size_t)y * w + x] - target[(size_t)y * w + x];
            sum += e * e;
        }
    return sum / (T)((w - 2 * margin) * (h - 2 * margin));
}

/// PSNR in dB (values in [0, 1]) over the pixels at least `margin` from an edge.
template <typename T>
double psnr_reference(const std::vector<T> &out, const std::vector<T> &target, int w, int h,
                      int margin) {
    return -10 * std::log10((double)loss_reference(out, target, w, h, margin));
}

/// A deterministic motion-blur-like PSF (size x size, odd; sums to 1): a camera path of
/// `length` pixels, a curve from the centre at angle `angle` (radians) turning by `turn`
/// radians along it, splatted bilinearly in fine steps, then a [1 2 1] / 4 smoothing.
inline std::vector<double> motion_psf(int size, double angle, double length, double turn) {
    std::vector<double> k((size_t)size * size, 0.0), smooth((size_t)size * size, 0.0);
    const double c = size / 2;
    const int steps = 64;
    double px = -0.5 * length * std::cos(angle), py = -0.5 * length * std::sin(angle);
    double a = angle - 0.5 * turn;
    for (int t = 0; t <= steps; t++) {
        const double fx = std::min(std::max(c + px, 0.0), size - 1.001),
                     fy = std::min(std::max(c + py, 0.0), size - 1.001);
        const int ix = (int)fx, iy = (int)fy;
        const double ux = fx - ix, uy = fy - iy;
        k[(size_t)iy * size + ix] += (1 - ux) * (1 - uy);
        k[(size_t)iy * size + ix + 1] += ux * (1 - uy);
        k[(size_t)(iy + 1) * size + ix] += (1 - ux) * uy;
        k[(size_t)(iy + 1) * size + ix + 1] += ux * uy;
        px += length / steps * std::cos(a);
        py += length / steps * std::sin(a);
        a += turn / steps;
    }
    const double tent[3] = {0.25, 0.5, 0.25};
    double total = 0;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            double sum = 0;
            for (int v = -1; v <= 1; v++)
                for (int u = -1; u <= 1; u++)
                    if (x + u >= 0 && x + u < size && y + v >= 0 && y + v < size)
                        sum += tent[u + 1] * tent[v + 1] * k[(size_t)(y + v) * size + x + u];
            smooth[(size_t)y * size + x] = sum;
            total += sum;
        }
    for (double &v : smooth) v /= total;
    return smooth;
}

/// The sharp image correlated with the PSF (clamped at the edges, as the energy's A), plus
/// Gaussian noise of standard deviation `noise` (Box-Muller on a seeded mt19937's raw output).
inline std::vector<double> blur_reference(const std::vector<double> &sharp, int w, int h,
                                          const std::vector<double> &psf, int size, double noise,
                                          uint32_t seed) {
    std::vector<double> out = correlate(sharp, w, h, psf.data(), size);
    std::mt19937 rng(seed);
    auto uniform = [&] { return (rng() + 0.5) / 4294967296.0; };
    for (double &v : out) {
        const double u1 = uniform(), u2 = uniform();
        v += noise * std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }
    return out;
}

} // namespace deconvolution_detail

#endif
