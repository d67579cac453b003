// The constants of the camera pipeline app, shared by the pipeline (camera_pipe.h) and the naive
// reference (reference.h): the crop, the sensor's black and white levels, the two calibration
// matrices, and the host-side tables built from them (the fixed-point colour matrix for a
// colour temperature, the tone curve's lookup table). Needs no Halide header.
#ifndef LOOM_APPS_CAMERA_PIPE_PARAMS_H
#define LOOM_APPS_CAMERA_PIPE_PARAMS_H

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace camera_pipe_detail {

/// The output pixel (x, y) is the raw pixel (x + kShiftX, y + kShiftY): the crop leaves room for
/// the stencils (hot pixels 2, demosaic 5, sharpening 1 raw pixels) and is even, so the output
/// keeps the raw's Bayer phase (green-red on even rows, blue-green on odd rows).
constexpr int kShiftX = 16, kShiftY = 12;
/// The sensor's black level and saturation level (10-bit raw).
constexpr int kBlackLevel = 25, kWhiteLevel = 1023;
/// Entries of the tone curve's lookup table, indexed by the colour-corrected value.
constexpr int kCurveSize = 1024;
/// The paper's parameters: colour temperature (K), gamma, contrast, sharpening strength.
constexpr float kColorTemp = 3700.0f, kGamma = 2.0f, kContrast = 50.0f, kSharpen = 1.0f;

/// Calibration matrices from camera RGB (black subtracted) to output RGB under tungsten
/// (3200 K) and daylight (7000 K) light: a colour-correction matrix times the white-balance
/// gains of each illuminant (blue boosted under tungsten, red under daylight).
constexpr double kMatrix3200[3][3] = {
    {1.95, -0.35, -0.30}, {-0.325, 1.45, -0.40}, {-0.065, -0.50, 3.10}};
constexpr double kMatrix7000[3][3] = {
    {2.72, -0.45, -0.195}, {-0.34, 1.40, -0.26}, {-0.085, -0.35, 1.82}};

/// The colour matrix for `temperature` in 8.8 fixed point: m[c][0..2] weigh r, g, b for output
/// channel c and m[c][3] is the offset (black level removal and rounding), so that
/// out_c = (m[c][0] r + m[c][1] g + m[c][2] b + m[c][3]) >> 8. The two calibration matrices
/// are interpolated linearly in 1 / temperature (mired), as cameras do.
inline void colour_matrix_q8(float temperature, int32_t m[3][4]) {
    double alpha = (1.0 / temperature - 1.0 / 7000.0) / (1.0 / 3200.0 - 1.0 / 7000.0);
    for (int c = 0; c < 3; c++) {
        int32_t row_sum = 0;
        for (int k = 0; k < 3; k++) {
            double v = alpha * kMatrix3200[c][k] + (1.0 - alpha) * kMatrix7000[c][k];
            m[c][k] = (int32_t)std::lround(256.0 * v);
            row_sum += m[c][k];
        }
        m[c][3] = -kBlackLevel * row_sum + 128;
    }
}

/// The tone curve: corrected value i (black already removed) scaled to [0, 1] by the white
/// level, gamma-encoded (v^(1/gamma)), then an S-curve g + k g (1 - g) (2g - 1) with
/// k = contrast / 100 (slope 1 + k/2 at mid-grey, 1 - k at the ends), rounded to 8 bits.
inline void tone_curve(float gamma, float contrast, uint8_t lut[kCurveSize]) {
    const double k = std::min(std::max((double)contrast / 100.0, 0.0), 1.0);
    for (int i = 0; i < kCurveSize; i++) {
        double v = std::min(std::max((double)i / (kWhiteLevel - kBlackLevel), 0.0), 1.0);
        double g = std::pow(v, 1.0 / gamma);
        double z = g + k * g * (1.0 - g) * (2.0 * g - 1.0);
        lut[i] = (uint8_t)std::lround(255.0 * std::min(std::max(z, 0.0), 1.0));
    }
}

/// The sharpening strength in 3.5 fixed point (strength * 32, clamped to [0, 4]).
inline int sharpen_q5(float strength) {
    return (int)std::lround(32.0 * std::min(std::max((double)strength, 0.0), 4.0));
}

} // namespace camera_pipe_detail

#endif
