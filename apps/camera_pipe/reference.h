// A naive camera pipeline in plain C++ loops over raw arrays, written from the method (hot-pixel
// clamp, edge-aware demosaic in full-resolution raw coordinates, fixed-point colour matrix, tone
// curve table, 3 x 3 unsharp mask) rather than from the pipeline's text: it never deinterleaves,
// it classifies each raw pixel by its Bayer site. Shares the constants and the host tables
// (colour matrix, tone curve) with the pipeline.
#ifndef LOOM_APPS_CAMERA_PIPE_REFERENCE_H
#define LOOM_APPS_CAMERA_PIPE_REFERENCE_H

#include "camera_pipe/camera_pipe_params.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

/// Develops the W x H raw `raw` (x fastest; green-red on even rows) into the planar 8-bit RGB
/// `out` of (W - 2 kShiftX) x (H - 2 kShiftY) x 3 (x fastest, then y, then the channel); output
/// pixel (x, y) is raw pixel (x + kShiftX, y + kShiftY).
inline void camera_pipe_reference(const uint16_t *raw, int W, int H, uint8_t *out,
                                  float temperature, float gamma, float contrast, float strength) {
    using namespace camera_pipe_detail;
    const int w = W - 2 * kShiftX, h = H - 2 * kShiftY;
    int32_t m[3][4];
    colour_matrix_q8(temperature, m);
    uint8_t lut[kCurveSize];
    tone_curve(gamma, contrast, lut);
    const int s = sharpen_q5(strength);

    // Hot-pixel suppression over the raw frame inset by 2 (same-colour neighbours 2 away).
    std::vector<int> hot((size_t)W * H, 0);
    auto rawv = [&](int X, int Y) { return (int)raw[(size_t)Y * W + X]; };
    for (int Y = 2; Y < H - 2; Y++)
        for (int X = 2; X < W - 2; X++) {
            int m4 = std::max(std::max(rawv(X - 2, Y), rawv(X + 2, Y)),
                              std::max(rawv(X, Y - 2), rawv(X, Y + 2)));
            hot[(size_t)Y * W + X] = std::min(rawv(X, Y), m4);
        }
    auto P = [&](int X, int Y) { return hot[(size_t)Y * W + X]; };
    auto avg = [](int a, int b) { return (a + b) >> 1; };
    // Sites: green on red rows (even X, even Y), red (odd, even), blue (even, odd), green on
    // blue rows (odd, odd).
    auto is_red = [](int X, int Y) { return (X & 1) == 1 && (Y & 1) == 0; };
    auto is_blue = [](int X, int Y) { return (X & 1) == 0 && (Y & 1) == 1; };
    // Green everywhere: sampled at green sites; at red and blue sites the average of the
    // horizontal or the vertical pair, whichever differs less (vertical on a tie).
    auto green = [&](int X, int Y) {
        if (!is_red(X, Y) && !is_blue(X, Y)) return P(X, Y);
        int l = P(X - 1, Y), r = P(X + 1, Y), u = P(X, Y - 1), d = P(X, Y + 1);
        return std::abs(l - r) < std::abs(u - d) ? avg(l, r) : avg(u, d);
    };
    // A missing colour from two samples of it at (X0, Y0), (X1, Y1): their average plus the
    // difference between the green here and the average green there.
    auto from_pair = [&](int X, int Y, int X0, int Y0, int X1, int Y1) {
        return green(X, Y) - avg(green(X0, Y0), green(X1, Y1)) + avg(P(X0, Y0), P(X1, Y1));
    };
    // A missing colour at the opposite chroma site: along the diagonal (up-right/down-left
    // first) whose two samples differ less.
    auto from_diagonal = [&](int X, int Y) {
        int ur = P(X + 1, Y - 1), dl = P(X - 1, Y + 1), ul = P(X - 1, Y - 1), dr = P(X + 1, Y + 1);
        return std::abs(ur - dl) < std::abs(ul - dr) ? from_pair(X, Y, X + 1, Y - 1, X - 1, Y + 1)
                                                     : from_pair(X, Y, X - 1, Y - 1, X + 1, Y + 1);
    };
    auto rgb = [&](int X, int Y, int rgb_out[3]) {
        bool even_row = (Y & 1) == 0;
        rgb_out[1] = green(X, Y);
        if (is_red(X, Y)) {
            rgb_out[0] = P(X, Y);
            rgb_out[2] = from_diagonal(X, Y);
        } else if (is_blue(X, Y)) {
            rgb_out[2] = P(X, Y);
            rgb_out[0] = from_diagonal(X, Y);
        } else if (even_row) { // green on a red row: red left/right, blue up/down
            rgb_out[0] = from_pair(X, Y, X - 1, Y, X + 1, Y);
            rgb_out[2] = from_pair(X, Y, X, Y - 1, X, Y + 1);
        } else { // green on a blue row: red up/down, blue left/right
            rgb_out[0] = from_pair(X, Y, X, Y - 1, X, Y + 1);
            rgb_out[2] = from_pair(X, Y, X - 1, Y, X + 1, Y);
        }
    };
    // Colour matrix and tone curve over the output grown by the sharpening's 1-pixel halo.
    const int cw = w + 2, ch = h + 2;
    std::vector<int> tone((size_t)cw * ch * 3);
    for (int y = -1; y <= h; y++)
        for (int x = -1; x <= w; x++) {
            int v[3];
            rgb(x + kShiftX, y + kShiftY, v);
            for (int c = 0; c < 3; c++) {
                int corrected = (m[c][0] * v[0] + m[c][1] * v[1] + m[c][2] * v[2] + m[c][3]) >> 8;
                int idx = std::min(std::max(corrected, 0), kCurveSize - 1);
                tone[((size_t)c * ch + (y + 1)) * cw + (x + 1)] = lut[idx];
            }
        }
    // Unsharp mask with the [1 2 1] x [1 2 1] / 16 blur (rounded).
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                auto T = [&](int dx, int dy) {
                    return tone[((size_t)c * ch + (y + 1 + dy)) * cw + (x + 1 + dx)];
                };
                int blur = 0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++)
                        blur += (2 - std::abs(dx)) * (2 - std::abs(dy)) * T(dx, dy);
                blur = (blur + 8) >> 4;
                int v = T(0, 0) + (((T(0, 0) - blur) * s) >> 5);
                out[((size_t)c * h + y) * w + x] = (uint8_t)std::min(std::max(v, 0), 255);
            }
}

#endif
