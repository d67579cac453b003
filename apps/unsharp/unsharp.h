// Unsharp masking, the 2016 autoscheduling paper's "unsharp mask" benchmark: a luma image of the
// RGB float input, a separable Gaussian blur of it (sigma 1.5, radius 3), the sharpened luma
// gray + weight * (gray - blurred), and every colour channel scaled by the ratio sharpened / gray.
// Written against Halide's API so the same source builds against Loom (include/compat) and
// Halide 21. Include "Halide.h" first.
#ifndef LOOM_APPS_UNSHARP_H
#define LOOM_APPS_UNSHARP_H

#include "unsharp/unsharp_params.h"

struct UnsharpPipeline {
    /// Planar RGB float input (x, y, c), values in [0, 1]; edges are repeated.
    Halide::ImageParam input{Halide::Float(32), 3, "input"};
    /// Sharpening strength: 1 gives 2 * gray - blurred.
    Halide::Param<float> weight{"weight", 1.0f};
    Halide::Func clamped{"clamped"}, gray{"gray"}, blur_y{"blur_y"}, blur_x{"blur_x"},
        sharpen{"sharpen"}, ratio{"ratio"}, output{"unsharp"};
    Halide::Var x{"x"}, y{"y"}, c{"c"};

    UnsharpPipeline() {
        using namespace unsharp_detail;
        clamped = Halide::BoundaryConditions::repeat_edge(input);
        gray(x, y) =
            kLumaR * clamped(x, y, 0) + kLumaG * clamped(x, y, 1) + kLumaB * clamped(x, y, 2);
        // The taps are summed in order from the most negative offset, so the reference can
        // follow the same float rounding.
        Halide::Expr by = gaussian_tap(0) * gray(x, y - kRadius);
        for (int i = 1; i <= 2 * kRadius; i++) by = by + gaussian_tap(i) * gray(x, y + i - kRadius);
        blur_y(x, y) = by;
        Halide::Expr bx = gaussian_tap(0) * blur_y(x - kRadius, y);
        for (int i = 1; i <= 2 * kRadius; i++)
            bx = bx + gaussian_tap(i) * blur_y(x + i - kRadius, y);
        blur_x(x, y) = bx;
        Halide::Expr g = gray(x, y);
        sharpen(x, y) = g + weight * (g - blur_x(x, y));
        ratio(x, y) = sharpen(x, y) / Halide::max(g, kMinGray);
        output(x, y, c) = ratio(x, y) * input(x, y, c);
    }

    /// No schedule: everything but the output inlined into it (the luma and the vertical blur
    /// are recomputed per tap and per channel). Serial, scalar.
    void schedule_default() {}

    /// Strips of 32 rows in parallel; per strip the luma (with its 3-row halo) and the vertical
    /// blur are computed once, vectorized; per output row the ratio (horizontal blur and
    /// sharpening inlined) is computed once and reused by the three channels.
    void schedule_cpu() {
        Halide::Var yo("yo"), yi("yi");
        output.reorder(x, c, y).split(y, yo, yi, 32).parallel(yo).vectorize(x, 8);
        gray.compute_at(output, yo).vectorize(x, 8);
        blur_y.compute_at(output, yo).vectorize(x, 8);
        ratio.compute_at(output, yi).vectorize(x, 8);
    }

    /// GPU schedule (a target with CUDA or OpenCL): the luma and the vertical blur at root, each
    /// its own kernel in 32 x 8 tiles of GPU threads, one pixel per thread; the output in the
    /// same tiles, each thread computing its pixel's ratio once (compute_at the thread: the
    /// horizontal blur and the sharpening inlined into it) and looping over the channels; edge
    /// tiles guarded so any image size works.
    void schedule_gpu() {
        Halide::Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        gray.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
        blur_y.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
        output.reorder(c, x, y).gpu_tile(x, y, xo, yo, xi, yi, 32, 8,
                                         Halide::TailStrategy::GuardWithIf);
        ratio.compute_at(output, xi);
    }
};

#endif
