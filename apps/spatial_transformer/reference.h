// The spatial transformer's sampler in plain C++ loops, in double, written from PyTorch's
// definitions of affine_grid and grid_sample (bilinear, zero padding, align_corners=False), with
// the backward pass derived by hand: each output sample spreads its adjoint over the four input
// pixels it read with the bilinear weights, and its gradient with respect to the sample position
// (the derivative of the weights) goes through the affine map to theta. Layouts as the pipeline:
// x fastest, then y, c, n (N x C x H x W); theta[(n * 2 + i) * 3 + j] = theta[n][i][j].
#ifndef LOOM_APPS_SPATIAL_TRANSFORMER_REFERENCE_H
#define LOOM_APPS_SPATIAL_TRANSFORMER_REFERENCE_H

#include <cmath>
#include <cstddef>
#include <vector>

namespace spatial_transformer_detail {

/// The sample position in input pixels of output pixel (x, y) of image n.
inline void sample_position(const double *theta, int w, int h, int x, int y, int n, double *sx,
                            double *sy) {
    const double *t = theta + (size_t)n * 6;
    double xn = (2.0 * x + 1) / w - 1, yn = (2.0 * y + 1) / h - 1;
    double gx = t[0] * xn + t[1] * yn + t[2];
    double gy = t[3] * xn + t[4] * yn + t[5];
    *sx = ((gx + 1) * w - 1) / 2;
    *sy = ((gy + 1) * h - 1) / 2;
}

/// out = grid_sample(in, affine_grid(theta)), all w x h x c x n.
inline void spatial_transformer_reference(const double *in, const double *theta, double *out, int w,
                                          int h, int c, int n) {
    for (int b = 0; b < n; b++)
        for (int ch = 0; ch < c; ch++) {
            const double *plane = in + (size_t)w * h * (ch + (size_t)c * b);
            auto at = [&](int px, int py) {
                return px >= 0 && px < w && py >= 0 && py < h ? plane[(size_t)py * w + px] : 0.0;
            };
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    double sx, sy;
                    sample_position(theta, w, h, x, y, b, &sx, &sy);
                    int x0 = (int)std::floor(sx), y0 = (int)std::floor(sy);
                    double ax = sx - x0, ay = sy - y0;
                    out[(size_t)x + (size_t)w * (y + (size_t)h * (ch + (size_t)c * b))] =
                        (1 - ay) * ((1 - ax) * at(x0, y0) + ax * at(x0 + 1, y0)) +
                        ay * ((1 - ax) * at(x0, y0 + 1) + ax * at(x0 + 1, y0 + 1));
                }
        }
}

/// The backward pass: given d_out (the adjoint of out), d_in (w x h x c x n) and d_theta (n x 2
/// x 3, laid out as theta) receive the gradients (overwritten).
inline void spatial_transformer_backward_reference(const double *in, const double *theta,
                                                   const double *d_out, double *d_in,
                                                   double *d_theta, int w, int h, int c, int n) {
    const size_t plane_size = (size_t)w * h;
    for (size_t i = 0; i < plane_size * c * n; i++) d_in[i] = 0;
    for (int i = 0; i < 6 * n; i++) d_theta[i] = 0;
    for (int b = 0; b < n; b++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double sx, sy;
                sample_position(theta, w, h, x, y, b, &sx, &sy);
                int x0 = (int)std::floor(sx), y0 = (int)std::floor(sy);
                double ax = sx - x0, ay = sy - y0;
                // d loss / d sx and d sy, summed over the channels.
                double gsx = 0, gsy = 0;
                for (int ch = 0; ch < c; ch++) {
                    size_t plane = plane_size * (ch + (size_t)c * b);
                    double g = d_out[plane + (size_t)y * w + x];
                    auto inside = [&](int px, int py) {
                        return px >= 0 && px < w && py >= 0 && py < h;
                    };
                    auto at = [&](int px, int py) {
                        return inside(px, py) ? in[plane + (size_t)py * w + px] : 0.0;
                    };
                    auto spread = [&](int px, int py, double weight) {
                        if (inside(px, py)) d_in[plane + (size_t)py * w + px] += g * weight;
                    };
                    spread(x0, y0, (1 - ax) * (1 - ay));
                    spread(x0 + 1, y0, ax * (1 - ay));
                    spread(x0, y0 + 1, (1 - ax) * ay);
                    spread(x0 + 1, y0 + 1, ax * ay);
                    double v00 = at(x0, y0), v10 = at(x0 + 1, y0);
                    double v01 = at(x0, y0 + 1), v11 = at(x0 + 1, y0 + 1);
                    gsx += g * ((1 - ay) * (v10 - v00) + ay * (v11 - v01));
                    gsy += g * ((1 - ax) * (v01 - v00) + ax * (v11 - v10));
                }
                // sx = ((gx + 1) w - 1) / 2, so d sx / d gx = w / 2; gx = theta . (xn, yn, 1).
                double ggx = gsx * w / 2, ggy = gsy * h / 2;
                double xn = (2.0 * x + 1) / w - 1, yn = (2.0 * y + 1) / h - 1;
                double *t = d_theta + (size_t)b * 6;
                t[0] += ggx * xn, t[1] += ggx * yn, t[2] += ggx;
                t[3] += ggy * xn, t[4] += ggy * yn, t[5] += ggy;
            }
}

} // namespace spatial_transformer_detail

#endif
