// The constants of the lens blur app (disparity range, box filter, defocus samples, the known
// disparities of the synthetic stereo pair), shared by the pipeline (lens_blur.h), the naive
// reference (reference.h) and the app entry. Needs no Halide header.
#ifndef LOOM_APPS_LENS_BLUR_PARAMS_H
#define LOOM_APPS_LENS_BLUR_PARAMS_H

namespace lens_blur_detail {

/// The cost volume covers the disparities 0 .. kDisparities - 1.
constexpr int kDisparities = 32;
/// The matching costs are box-filtered over (2 * kBoxRadius + 1)^2 = 5 x 5 pixels.
constexpr int kBoxRadius = 2;
/// The circle of confusion's radius in pixels: min(|depth - focus| / kCocDivisor, kMaxRadius)
/// (integer division).
constexpr int kCocDivisor = 2;
constexpr int kMaxRadius = 8;
/// The default focus depth (a disparity).
constexpr int kDefaultFocus = 12;
/// The defocus samples: offsets on the unit disc in quarters (a centre, an inner ring of radius
/// about 1/2 and an outer ring of radius about 1). A sample's pixel offset is
/// floor((u * radius + 2) / 4), u rounded to the nearest pixel (halves up).
constexpr int kSamples = 17;
constexpr int kSampleX[kSamples] = {0, 2, 0, -2, 0, 1, -1, 1, -1, 4, 0, -4, 0, 3, -3, 3, -3};
constexpr int kSampleY[kSamples] = {0, 0, 2, 0, -2, 1, 1, -1, -1, 0, 4, 0, -4, 3, 3, -3, -3};

/// Floor division by a positive divisor (Halide's integer division).
constexpr int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/// The sample's pixel offset along one axis for a unit offset u (in quarters) and a radius.
constexpr int sample_offset(int u, int radius) { return floor_div(u * radius + 2, 4); }

/// The known disparity of the synthetic stereo pair at (x, y) of a w x h frame: 4 in the
/// background, 12 in a rectangle, 24 in a disc (in front of it).
constexpr int true_disparity(int x, int y, int w, int h) {
    int dx = x - w / 2, dy = y - h / 2, r = (w < h ? w : h) / 5;
    if (dx * dx + dy * dy <= r * r) return 24;
    if (x >= w / 8 && x < w / 2 && y >= h / 6 && y < (h * 5) / 6) return 12;
    return 4;
}

} // namespace lens_blur_detail

#endif
