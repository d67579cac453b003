// The constants of the snake app (distance regularized level set evolution, Li, Xu, Gui and Fox
// 2010), shared by the pipeline (snake.h) and the naive reference (reference.h). Needs no Halide
// header. The values are those of the authors' demo for edge-based segmentation (image in
// [0, 255], timestep 1, mu = 0.2 / timestep, lambda 5, alpha -3, epsilon 1.5, c0 2, Gaussian
// sigma 0.8), with the single-well distance regularisation.
#ifndef LOOM_APPS_SNAKE_PARAMS_H
#define LOOM_APPS_SNAKE_PARAMS_H

#include <cmath>

namespace snake_detail {

/// Iterations unrolled in the benchmark's pipeline (one realization = this many updates of phi).
constexpr int kIterations = 5;
/// The input in [0, 1] is scaled by this before smoothing: the edge indicator's constants
/// assume 8-bit intensities.
constexpr float kIntensityScale = 255.0f;
/// Time step, and the weights of the distance regularisation (mu), of the weighted length term
/// (lambda) and of the weighted area term (alpha; negative: the region phi < 0 grows, the
/// contour moving outwards until the edges stop it).
constexpr float kTimestep = 1.0f;
constexpr float kMu = 0.2f / kTimestep;
constexpr float kLambda = 5.0f;
constexpr float kAlpha = -3.0f;
/// Width of the smoothed Dirac delta: dirac(v) = (1 + cos(pi v / eps)) / (2 eps) for |v| <= eps,
/// else 0.
constexpr float kEpsilon = 1.5f;
/// phi starts at -kC0 inside the initial rectangle and +kC0 outside.
constexpr float kC0 = 2.0f;
/// Added to |grad phi| before dividing, so flat regions give a zero normal.
constexpr float kSmall = 1e-10f;
/// pi as a float, for the Dirac delta.
constexpr float kPi = 3.14159265358979f;

/// The Gaussian smoothing the image before the edge indicator: sigma 0.8, 5 taps (radius 2),
/// normalized to sum 1. w[i] is the weight at offset i - 2.
constexpr int kGaussRadius = 2;
struct GaussWeights {
    float w[2 * kGaussRadius + 1];
};
inline GaussWeights gauss_weights() {
    const double sigma = 0.8;
    double raw[2 * kGaussRadius + 1], sum = 0;
    for (int i = -kGaussRadius; i <= kGaussRadius; i++) {
        raw[i + kGaussRadius] = std::exp(-(double)i * i / (2 * sigma * sigma));
        sum += raw[i + kGaussRadius];
    }
    GaussWeights g;
    for (int i = 0; i < 2 * kGaussRadius + 1; i++) g.w[i] = (float)(raw[i] / sum);
    return g;
}

/// The initial rectangle (phi = -c0 inside): [w / 8, w - w / 8) x [h / 8, h - h / 8).
inline bool inside_initial_rect(int x, int y, int w, int h) {
    return x >= w / 8 && x < w - w / 8 && y >= h / 8 && y < h - h / 8;
}

} // namespace snake_detail

#endif
