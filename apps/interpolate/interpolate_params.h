// The constants of the multi-scale interpolation app, shared by the pipeline (interpolate.h), the
// naive reference (reference.h) and the app's input. Needs no Halide header.
#ifndef LOOM_APPS_INTERPOLATE_PARAMS_H
#define LOOM_APPS_INTERPOLATE_PARAMS_H

#include <cstdint>

namespace interpolate_detail {

/// Pyramid levels, the input's level 0 included (the 2016 paper's 10).
constexpr int kLevels = 10;
/// Levels computed in parallel and vectorized by the CPU schedule; the smaller ones (from
/// level kBigLevels on, at most 1/16 of the pixels of level 0 each) run serially.
constexpr int kBigLevels = 4;
/// The floor of the final alpha in the un-premultiplication (only reached where the whole
/// pyramid above a pixel is transparent).
constexpr float kMinAlpha = 1e-10f;

/// The input's alpha at (x, y): a deterministic pattern of 24 x 20 cells, about 45% fully
/// transparent (holes to fill), 25% opaque and 30% partially transparent, the partial ones a
/// smooth ramp, so every level of the pyramid sees holes and partial coverage.
inline float alpha_pattern(int x, int y) {
    uint32_t h = (uint32_t)(x / 24) * 73856093u ^ (uint32_t)(y / 20) * 19349663u;
    h = (h ^ (h >> 13)) * 0x5bd1e995u;
    h ^= h >> 15;
    uint32_t kind = h % 20;
    if (kind < 9) return 0.0f;
    if (kind < 14) return 1.0f;
    return 0.1f + 0.8f * (float)((x % 24) + (y % 20)) / 42.0f;
}

} // namespace interpolate_detail

#endif
