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

#include <string>
#include <vector>

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

    /// The backward pass's input: the adjoint of the output (x, y), e.g. d loss / d output.
    Halide::ImageParam d_output{Halide::Float(32), 2, "d_output"};
    /// The backward pass (define_backward): the gradients with respect to the input (x, y) and
    /// to r_sigma (zero-dimensional).
    Halide::Func d_input, d_r_sigma;
    /// The adjoints of the grid: of blury, blurx, blurz and of the splat (the histogram's
    /// update), in that order (set by define_backward).
    std::vector<Halide::Func> d_grid;

    /// Defines d_input and d_r_sigma by propagate_adjoints from the output over the input's
    /// shape, given d_output. The output is piecewise smooth: a pixel's bin in the splat and its
    /// lower grid plane in the slice are integers (cast<int>, no derivative), so the gradient is
    /// the one of the piece the inputs lie in. A pixel's value reaches the output by three paths:
    /// the slice's z weight, the value sum of its bin (the histogram's adjoint gathered at the
    /// data-dependent bin) and, for its neighbours, the same through the blurred grid; r_sigma
    /// only through the slice's z weight (v / r_sigma). The clamp to [0, 1] passes nothing
    /// outside.
    void define_backward() {
        const Halide::Region bounds = {{0, input.dim(0).extent()}, {0, input.dim(1).extent()}};
        Halide::Derivative d = Halide::propagate_adjoints(output, Halide::Func(d_output), bounds);
        d_input = d(input.name());
        d_r_sigma = d(r_sigma.name());
        d_grid = {d(blury), d(blurx), d(blurz), d(histogram, 0)};
        d_clamped_ = d(clamped);
    }

    /// The backward pass breadth-first: the histogram, the blurred grid, d_grid and the adjoint
    /// of the clamped input at root, the rest as propagate_adjoints leaves it (its scatters at
    /// root, the others inlined). Unscheduled, the 125-tap blur chains are copied into every
    /// adjoint that reads them and the histogram is recomputed at every point of its consumers:
    /// the gradient of a 16 x 16 image then compiles for minutes and runs for seconds.
    void schedule_backward_root() {
        histogram.compute_root();
        blury.compute_root();
        for (Halide::Func f : d_grid) f.compute_root();
        d_clamped_.compute_root();
    }

    /// The Li2018 autoscheduler's "compute_root" parameter for the backward pass: d_grid. Each
    /// has one consumer, so Li2018 would inline it, and the adjoint of each pixel's read in the
    /// splat would re-evaluate the 125-tap chain for each of the 128 terms it sums (85x slower
    /// at 640 x 384).
    std::string li2018_compute_root() const {
        std::string names;
        for (const Halide::Func &f : d_grid) names += (names.empty() ? "" : ",") + f.name();
        return names;
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
    /// The adjoint of the clamped input (set by define_backward).
    Halide::Func d_clamped_;

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
