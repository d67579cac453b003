// The constants of the pyramid-blending app (levels, filter taps, the mask's shape), shared by
// the pipeline (pyramid_blend.h) and the naive reference (reference.h). Needs no Halide header.
#ifndef LOOM_APPS_PYRAMID_BLEND_PARAMS_H
#define LOOM_APPS_PYRAMID_BLEND_PARAMS_H

#include <algorithm>

namespace pyramid_blend_detail {

/// Pyramid levels, as in PolyMage's pyramid blending: the full image and three halvings. Image
/// sides must be multiples of 2^(kLevels - 1) = 8.
constexpr int kLevels = 4;
/// The paper's size: 2048 x 2048 x 3.
constexpr int kPaperSize = 2048;
/// The small size (demo quick mode, smoke runs).
constexpr int kSmallWidth = 256, kSmallHeight = 192;

/// Binomial 5-tap low-pass (1 4 6 4 1) / 16 of Burt and Adelson (1983), applied before taking
/// every other pixel: (a + e) + 4 (b + d) + 6 c, then times 1/16, in this order everywhere.
constexpr float kTapOuter = 1.0f, kTapNear = 4.0f, kTapCenter = 6.0f, kNorm = 1.0f / 16.0f;
/// Upsampling by linear interpolation: a fine pixel is 3/4 of the coarse pixel it lies in and
/// 1/4 of the next coarse pixel on its side.
constexpr float kUpNear = 0.75f, kUpFar = 0.25f;

/// The blending mask's weight of the first image at column x of a w-pixel-wide image: 1 on the
/// left half, 0 on the right, a linear ramp w / 8 wide across the middle.
inline float mask_weight(int x, int w) {
    float t = ((float)x - 0.5f * (float)w) / (0.125f * (float)w) + 0.5f;
    return 1.0f - std::min(1.0f, std::max(0.0f, t));
}

} // namespace pyramid_blend_detail

#endif
