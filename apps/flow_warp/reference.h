// The FlowNet 2.0 warping layer in plain C++ loops, in double, written from its definition (the
// bilinear sample of the input at the pixel plus its flow, zero outside the image, as PyTorch's
// grid_sample with zero padding and align_corners=True), with the backward pass derived by
// hand: each output sample spreads its adjoint over the four input pixels it read with the
// bilinear weights, and its gradient with respect to the sample position (the derivative of the
// weights, summed over the channels) is the flow's gradient. Layouts as the pipeline: x fastest,
// then y, c, n (N x C x H x W); the flow is (x, y, k, n), k = 0 along x, k = 1 along y.
#ifndef LOOM_APPS_FLOW_WARP_REFERENCE_H
#define LOOM_APPS_FLOW_WARP_REFERENCE_H

#include <cmath>
#include <cstddef>

namespace flow_warp_detail {

/// The sample position in input pixels of pixel (x, y) of image n.
inline void sample_position(const double *flow, int w, int h, int x, int y, int n, double *sx,
                            double *sy) {
    const size_t plane = (size_t)w * h, at = (size_t)y * w + x;
    *sx = x + flow[plane * (2 * (size_t)n) + at];
    *sy = y + flow[plane * (2 * (size_t)n + 1) + at];
}

/// out = the input warped by the flow, all w x h x c x n.
inline void flow_warp_reference(const double *in, const double *flow, double *out, int w, int h,
                                int c, int n) {
    for (int b = 0; b < n; b++)
        for (int ch = 0; ch < c; ch++) {
            const double *plane = in + (size_t)w * h * (ch + (size_t)c * b);
            auto at = [&](int px, int py) {
                return px >= 0 && px < w && py >= 0 && py < h ? plane[(size_t)py * w + px] : 0.0;
            };
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    double sx, sy;
                    sample_position(flow, w, h, x, y, b, &sx, &sy);
                    int x0 = (int)std::floor(sx), y0 = (int)std::floor(sy);
                    double ax = sx - x0, ay = sy - y0;
                    out[(size_t)x + (size_t)w * (y + (size_t)h * (ch + (size_t)c * b))] =
                        (1 - ay) * ((1 - ax) * at(x0, y0) + ax * at(x0 + 1, y0)) +
                        ay * ((1 - ax) * at(x0, y0 + 1) + ax * at(x0 + 1, y0 + 1));
                }
        }
}

/// The backward pass: given d_out (the adjoint of out), d_in (w x h x c x n) and d_flow (w x h
/// x 2 x n) receive the gradients (overwritten).
inline void flow_warp_backward_reference(const double *in, const double *flow, const double *d_out,
                                         double *d_in, double *d_flow, int w, int h, int c, int n) {
    const size_t plane_size = (size_t)w * h;
    for (size_t i = 0; i < plane_size * c * n; i++) d_in[i] = 0;
    for (int b = 0; b < n; b++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double sx, sy;
                sample_position(flow, w, h, x, y, b, &sx, &sy);
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
                // sx = x + flow(x, y, 0, n): the flow's gradient is the position's.
                size_t at = (size_t)y * w + x;
                d_flow[plane_size * (2 * (size_t)b) + at] = gsx;
                d_flow[plane_size * (2 * (size_t)b + 1) + at] = gsy;
            }
}

} // namespace flow_warp_detail

#endif
