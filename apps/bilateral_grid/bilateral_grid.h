// The bilateral grid (Chen, Paris and Durand 2007; the 2012 Halide paper, section 6.3): an
// edge-preserving blur of a gray float image. Pixels are splatted into a coarse 3-D grid (space
// downsampled by sigma_s, intensity by sigma_r), each cell accumulating (sum of values, count);
// the grid is blurred by [1 4 6 4 1] along z, x and y; each output pixel is the trilinear
// interpolation of the blurred grid at (x / sigma_s, y / sigma_s, value / sigma_r), the
// interpolated value sum divided by the interpolated count. Written against Halide's API so the
// same source builds against Loom (include/compat) and Halide 21. Include "Halide.h" first.
#ifndef LOOM_APPS_BILATERAL_GRID_H
#define LOOM_APPS_BILATERAL_GRID_H

#include "bilateral_grid/bilateral_grid_params.h"

struct BilateralGridPipeline {
    /// Gray float input (x, y), values in [0, 1]; edges are repeated.
    Halide::ImageParam input{Halide::Float(32), 2, "input"};
    /// Range sigma: the width of one intensity bin of the grid.
    Halide::Param<float> r_sigma{"r_sigma", bilateral_grid_detail::kSigmaR};
    Halide::Func clamped{"clamped"}, histogram{"histogram"}, blurz{"blurz"}, blurx{"blurx"},
        blury{"blury"}, interpolated{"interpolated"}, output{"bilateral_grid"};
    Halide::Var x{"x"}, y{"y"}, z{"z"}, c{"c"};
    /// The footprint of one grid cell (sigma_s x sigma_s pixels).
    Halide::RDom r{0, bilateral_grid_detail::kSigmaS, 0, bilateral_grid_detail::kSigmaS, "r"};

    BilateralGridPipeline() {
        using namespace bilateral_grid_detail;
        using Halide::Expr;
        const int s = kSigmaS;
        clamped = Halide::BoundaryConditions::repeat_edge(input);
        Expr inv_r = 1.0f / r_sigma;

        // Splat: cell (x, y) gathers the pixels of its footprint (centred on the cell, so cell
        // i covers pixels i*s - s/2 .. i*s + s/2 - 1) into the nearest intensity bin; channel 0
        // sums the values, channel 1 counts them.
        Expr val = Halide::clamp(clamped(x * s + r.x - s / 2, y * s + r.y - s / 2), 0.0f, 1.0f);
        Expr zi = Halide::cast<int>(val * inv_r + 0.5f);
        histogram(x, y, z, c) = 0.0f;
        histogram(x, y, zi, c) += Halide::select(c == 0, val, 1.0f);

        // The grid blur, the taps summed in order from the most negative offset (the
        // reference follows the same float rounding).
        blurz(x, y, z, c) = blur5([&](int d) { return histogram(x, y, z + d, c); });
        blurx(x, y, z, c) = blur5([&](int d) { return blurz(x + d, y, z, c); });
        blury(x, y, z, c) = blur5([&](int d) { return blurx(x, y + d, z, c); });

        // Slice: trilinear interpolation of the blurred grid at the pixel's grid coordinates.
        Expr v = Halide::clamp(clamped(x, y), 0.0f, 1.0f);
        Expr zv = v * inv_r;
        Expr zc = Halide::cast<int>(zv);
        Expr zf = zv - Halide::cast<float>(zc);
        Expr xf = Halide::cast<float>(x % s) / (float)s;
        Expr yf = Halide::cast<float>(y % s) / (float)s;
        Expr xc = x / s, yc = y / s;
        auto mix = [](Expr a, Expr b, Expr w) { return a * (1.0f - w) + b * w; };
        auto plane = [&](Expr zz) {
            return mix(mix(blury(xc, yc, zz, c), blury(xc + 1, yc, zz, c), xf),
                       mix(blury(xc, yc + 1, zz, c), blury(xc + 1, yc + 1, zz, c), xf), yf);
        };
        interpolated(x, y, c) = mix(plane(zc), plane(zc + 1), zf);
        output(x, y) = interpolated(x, y, 0) / interpolated(x, y, 1);
    }

    /// No schedule: the grid (a reduction) at root, every blur and the slice inlined into the
    /// output (125 grid reads per blurred cell, 8 blurred cells per pixel). Serial, scalar.
    void schedule_default() {}

    /// As in the paper: the splat per row of grid cells inside the z blur, rows of cells in
    /// parallel; the x and y blurs at root, parallel over z, vectorized by 8 floats (AVX2) with
    /// the two channels unrolled; the slice parallel over rows and vectorized.
    void schedule_cpu() {
        blurz.compute_root().reorder(c, z, x, y).parallel(y).vectorize(x, 8).unroll(c);
        histogram.compute_at(blurz, y);
        histogram.update().reorder(c, r.x, r.y, x, y).unroll(c);
        blurx.compute_root().reorder(c, x, y, z).parallel(z).vectorize(x, 8).unroll(c);
        blury.compute_root().reorder(c, x, y, z).parallel(z).vectorize(x, 8).unroll(c);
        output.compute_root().parallel(y).vectorize(x, 8);
    }

    /// GPU schedule (a target with CUDA or OpenCL), every stage its own kernel. The splat is a
    /// scatter only along z (a cell's pixels land in that cell's own bins), so it runs with one
    /// GPU thread per grid cell (8 x 8 cells per block): each thread zeroes its cell's bins, then
    /// loops over its sigma_s x sigma_s pixels, both channels unrolled; no two threads write the
    /// same bin. The three blurs at root in 8 x 8 tiles of cells, each thread looping over z
    /// with the channels unrolled; the slice (trilinear interpolation inlined) in 32 x 8 tiles
    /// of pixels, edge tiles guarded so any image size works.
    void schedule_gpu() {
        Halide::Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        histogram.compute_root().reorder(c, z, x, y).gpu_tile(x, y, xo, yo, xi, yi, 8, 8);
        histogram.update()
            .reorder(c, r.x, r.y, x, y)
            .gpu_tile(x, y, xo, yo, xi, yi, 8, 8)
            .unroll(c);
        for (Halide::Func f : {blurz, blurx, blury})
            f.compute_root().reorder(c, z, x, y).gpu_tile(x, y, xo, yo, xi, yi, 8, 8).unroll(c);
        output.gpu_tile(x, y, xo, yo, xi, yi, 32, 8, Halide::TailStrategy::GuardWithIf);
    }

private:
    /// tap[0] f(-2) + tap[1] f(-1) + ... + tap[4] f(2), summed left to right.
    template <typename F>
    static Halide::Expr blur5(F f) {
        using namespace bilateral_grid_detail;
        Halide::Expr sum = kTap[0] * f(-2);
        for (int d = -1; d <= 2; d++) sum = sum + kTap[d + 2] * f(d);
        return sum;
    }
};

#endif
