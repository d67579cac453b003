// The constants of the Harris corner app, shared by the pipeline (harris.h) and the naive
// reference (reference.h). Needs no Halide header.
#ifndef LOOM_APPS_HARRIS_PARAMS_H
#define LOOM_APPS_HARRIS_PARAMS_H

namespace harris_detail {

/// Luma weights (ITU-R BT.601).
constexpr float kLumaR = 0.299f, kLumaG = 0.587f, kLumaB = 0.114f;
/// Normalization of the Sobel operator (its weights sum to 8 in absolute value per side).
constexpr float kSobelScale = 1.0f / 8.0f;
/// Harris' sensitivity constant in det - k * trace^2.
constexpr float kHarrisK = 0.04f;

} // namespace harris_detail

#endif
