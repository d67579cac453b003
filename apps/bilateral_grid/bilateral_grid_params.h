// The constants of the bilateral grid app, shared by the pipeline (bilateral_grid.h) and the
// naive reference (reference.h). Needs no Halide header.
#ifndef LOOM_APPS_BILATERAL_GRID_PARAMS_H
#define LOOM_APPS_BILATERAL_GRID_PARAMS_H

namespace bilateral_grid_detail {

/// Spatial sigma: one grid cell covers kSigmaS x kSigmaS pixels.
constexpr int kSigmaS = 8;
/// Default range sigma: intensity bins of width 0.1 over [0, 1] (11 bins, 0 .. 10).
constexpr float kSigmaR = 0.1f;
/// The grid blur's 5 taps [1 4 6 4 1] (unnormalized: the slice divides by the blurred weight).
constexpr float kTap[5] = {1.0f, 4.0f, 6.0f, 4.0f, 1.0f};

} // namespace bilateral_grid_detail

#endif
