// Lens blur, the 2016 autoscheduling paper's "lens blur" benchmark: depth from a rectified stereo
// pair (a cost volume of colour differences over 32 disparities, box-filtered, and its argmin per
// pixel), then a synthetic shallow depth of field: every output pixel averages a fixed set of
// samples over a disc whose radius grows with the distance of its depth from the focus depth,
// keeping only the samples whose own circle of confusion covers the pixel. Written against
// Halide's API so the same source builds against Loom (include/compat) and Halide 21. Include
// "Halide.h" first.
#ifndef LOOM_APPS_LENS_BLUR_H
#define LOOM_APPS_LENS_BLUR_H

#include "lens_blur/lens_blur_params.h"

struct LensBlurPipeline {
    /// The left and right views, planar 8-bit RGB (x, y, c), the same size; the left one is the
    /// reference view (and the one blurred). Edges are repeated.
    Halide::ImageParam left{Halide::UInt(8), 3, "left"}, right{Halide::UInt(8), 3, "right"};
    /// The disparity that stays sharp.
    Halide::Param<int> focus{"focus", lens_blur_detail::kDefaultFocus};
    Halide::Func left_c{"left_c"}, right_c{"right_c"}, diff{"diff"}, cost_y{"cost_y"}, cost{"cost"},
        depth{"depth"}, radius{"radius"}, output{"lens_blur"};
    Halide::Var x{"x"}, y{"y"}, c{"c"}, d{"d"};
    Halide::RDom disparity;

    /// The number of disparities (32 in the benchmark), of defocus samples (the first `samples`
    /// of the 17 in lens_blur_params.h) and the box filter's radius (2) are constants of the
    /// compiled pipeline; smaller ones keep the unscheduled pipeline small in tests.
    explicit LensBlurPipeline(int disparities = lens_blur_detail::kDisparities,
                              int samples = lens_blur_detail::kSamples,
                              int box_radius = lens_blur_detail::kBoxRadius) {
        using namespace lens_blur_detail;
        using Halide::Expr;
        const int br = box_radius;
        left_c = Halide::BoundaryConditions::repeat_edge(left);
        right_c = Halide::BoundaryConditions::repeat_edge(right);
        // Matching cost of left pixel (x, y) against the right one at x - d: the absolute colour
        // differences summed over the channels, in 16 bits (at most 25 * 3 * 255 after the box
        // filter), so the costs and their argmin are exact.
        auto ad = [&](int k) {
            return Halide::cast<uint16_t>(Halide::absd(left_c(x, y, k), right_c(x - d, y, k)));
        };
        diff(x, y, d) = ad(0) + ad(1) + ad(2);
        // (2 br + 1)^2 box sum (5 x 5), vertical pass first, taps from the most negative offset.
        Expr sy = diff(x, y - br, d);
        for (int i = 1; i <= 2 * br; i++) sy = sy + diff(x, y + i - br, d);
        cost_y(x, y, d) = sy;
        Expr sx = cost_y(x - br, y, d);
        for (int i = 1; i <= 2 * br; i++) sx = sx + cost_y(x + i - br, y, d);
        cost(x, y, d) = sx;
        // The disparity of least cost (the first one on ties).
        disparity = Halide::RDom(0, disparities, "disparity");
        depth(x, y) = Halide::argmin(disparity, cost(x, y, disparity))[0];
        // Circle of confusion radius in pixels.
        radius(x, y) = Halide::min(
            Halide::max(depth(x, y) - focus, focus - depth(x, y)) / kCocDivisor, kMaxRadius);
        // Defocus: the samples' offsets scale with this pixel's radius; a sample counts when its
        // own radius reaches back to this pixel. Radii and samples are read inside the frame.
        // Sums in sample order.
        Expr w = left.width(), h = left.height();
        Expr r = radius(Halide::clamp(x, 0, w - 1), Halide::clamp(y, 0, h - 1));
        Expr num, den;
        for (int i = 0; i < samples; i++) {
            Expr ox = (kSampleX[i] * r + 2) / 4, oy = (kSampleY[i] * r + 2) / 4;
            Expr qx = Halide::clamp(x + ox, 0, w - 1), qy = Halide::clamp(y + oy, 0, h - 1);
            Expr rq = radius(qx, qy);
            Expr covered = ox * ox + oy * oy <= rq * rq;
            Expr v = Halide::select(covered, Halide::cast<float>(left_c(qx, qy, c)), 0.0f);
            Expr one = Halide::select(covered, 1.0f, 0.0f);
            num = i == 0 ? v : num + v;
            den = i == 0 ? one : den + one;
        }
        // The mean, scaled to [0, 1].
        output(x, y, c) = num / (den * 255.0f);
    }

    /// No schedule: everything inlined (the argmin's reduction computed per use of a depth).
    void schedule_default() {}

    /// Radii at root in 64 x 8 tiles, rows of tiles in parallel, vectorized by 8; per tile the
    /// colour differences (with the box filter's halo) and the vertical box sums of all
    /// disparities, then the depths (the argmin, with the horizontal box sum inlined), each
    /// vectorized by 8. The defocus in rows of 16 in parallel, vectorized by 8 (gathers),
    /// channels unrolled so the radii and sample positions are shared.
    void schedule_cpu() {
        Halide::Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        radius.compute_root().tile(x, y, xo, yo, xi, yi, 64, 8).parallel(yo).vectorize(xi, 8);
        depth.compute_at(radius, xo).vectorize(x, 8);
        cost_y.compute_at(radius, xo).vectorize(x, 8);
        diff.compute_at(radius, xo).vectorize(x, 8);
        output.reorder(c, x, y)
            .bound(c, 0, 3)
            .unroll(c)
            .split(y, yo, yi, 16)
            .parallel(yo)
            .vectorize(x, 8);
    }
};

#endif
