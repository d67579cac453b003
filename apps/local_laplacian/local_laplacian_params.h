// The constants of the local Laplacian filter app, shared by the pipeline (local_laplacian.h)
// and the naive reference (reference.h), and the host-built remapping table. Needs no Halide
// header.
#ifndef LOOM_APPS_LOCAL_LAPLACIAN_PARAMS_H
#define LOOM_APPS_LOCAL_LAPLACIAN_PARAMS_H

#include <cmath>
#include <vector>

namespace local_laplacian_detail {

/// Pyramid levels (the finest is the image itself).
constexpr int kLevels = 8;
/// Intensity levels K: the remapped images are made around gray = k / (K - 1), k = 0..K-1.
constexpr int kIntensityLevels = 8;
/// Remapping table entries per intensity step 1 / (K - 1).
constexpr int kLutStepsPerLevel = 256;
/// Entries of the remapping table: differences d = gray - level from -1 to 1.
constexpr int kLutSize = 2 * (kIntensityLevels - 1) * kLutStepsPerLevel + 1;
/// Defaults: alpha scales the detail (small differences), beta the large-scale contrast.
constexpr float kAlpha = 1.0f, kBeta = 1.0f;
/// Luma weights (ITU-R BT.601) and the floor that keeps the colour ratio finite.
constexpr float kLumaR = 0.299f, kLumaG = 0.587f, kLumaB = 0.114f;
constexpr float kEps = 0.01f;

/// The detail part of the remapping curve: for a difference d between a pixel's gray and the
/// intensity level, alpha * d * exp(-d^2 / (2 sigma^2)) with sigma = 1 / (K - 1) (one level
/// step): small differences (texture) are amplified by up to 1 + alpha, large ones (edges) are
/// left to the beta term. Entry i is d = (i - (K - 1) * steps) / ((K - 1) * steps), computed
/// in double and rounded to float once, so the pipeline and the reference share the values
/// (T = double: not rounded, for the reference in double).
template <typename T = float>
std::vector<T> remap_table(double alpha) {
    std::vector<T> lut(kLutSize);
    const double sigma = 1.0 / (kIntensityLevels - 1);
    const double unit = (double)(kIntensityLevels - 1) * kLutStepsPerLevel;
    for (int i = 0; i < kLutSize; i++) {
        double d = (i - unit) / unit;
        lut[i] = (T)(alpha * d * std::exp(-d * d / (2.0 * sigma * sigma)));
    }
    return lut;
}

} // namespace local_laplacian_detail

#endif
