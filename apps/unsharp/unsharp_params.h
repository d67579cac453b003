// The constants of the unsharp mask app (kernel, luma weights, luma floor), shared by the
// pipeline (unsharp.h) and the naive reference (reference.h). Needs no Halide header.
#ifndef LOOM_APPS_UNSHARP_PARAMS_H
#define LOOM_APPS_UNSHARP_PARAMS_H

#include <cmath>

namespace unsharp_detail {

/// Radius of the Gaussian kernel: 2 * radius + 1 = 7 taps cover +-2 sigma of sigma = 1.5.
constexpr int kRadius = 3;
/// Standard deviation of the Gaussian, in pixels.
constexpr float kSigma = 1.5f;
/// Luma weights (ITU-R BT.601), shared with the reference.
constexpr float kLumaR = 0.299f, kLumaG = 0.587f, kLumaB = 0.114f;
/// Floor of the luma in the ratio, so black pixels do not divide by zero.
constexpr float kMinGray = 1e-4f;

/// The normalized kernel weights, tap i (0..2*kRadius) at offset i - kRadius, computed in double
/// and rounded to float once, so the pipeline and the reference use the same constants.
inline float gaussian_tap(int i) {
    double sum = 0;
    for (int j = -kRadius; j <= kRadius; j++)
        sum += std::exp(-(double)(j * j) / (2.0 * kSigma * kSigma));
    int d = i - kRadius;
    return (float)(std::exp(-(double)(d * d) / (2.0 * kSigma * kSigma)) / sum);
}

} // namespace unsharp_detail

#endif
