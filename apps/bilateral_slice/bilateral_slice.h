// The bilateral slicing layer of deep bilateral learning (HDRNet, Gharbi et al. 2017; Li et al.
// 2018 §5.1.3, Fig. 2): a coarse bilateral grid of 3 x 4 affine color transforms is sliced
// (trilinear interpolation) at every pixel's position and guide value, and the sliced transform
// is applied to the pixel's color. Tensors as PyTorch's NCHW, x fastest: the input and output
// are (x, y, c, n) with 3 channels, the guide (x, y, n) in [0, 1], the grid (gx, gy, gz, k, n)
// with k = co * 4 + ci the affine coefficient (ci = 3: the offset). Pixel (x, y) sits at grid
// position ((x + 0.5) GW / W - 0.5, (y + 0.5) GH / H - 0.5, guide GD - 0.5): pixel centres map
// to cell centres, as in HDRNet's bilateral_slice_apply. Each of the 2 x 2 x 2 taps has the
// tent weight max(1 - |tap - position|, 0) and reads the grid at its index clamped to the grid,
// the weight kept (so within half a cell of the edge, and beyond, the edge cell's value). The
// backward pass (the gradients with respect to the grid, the guide and the input, given the
// adjoint of the output) comes from propagate_adjoints, so the same source builds against Loom
// (include/compat) and Halide 21. Include "Halide.h" first.
#ifndef LOOM_APPS_BILATERAL_SLICE_H
#define LOOM_APPS_BILATERAL_SLICE_H

#include <vector>

struct BilateralSlicePipeline {
    /// The grid of affine coefficients (gx, gy, gz, k, n), 12 coefficients, of type `type`
    /// (float, or double for the gradient checks).
    Halide::ImageParam grid;
    /// The guide (x, y, n), in [0, 1]: the intensity coordinate of each pixel in the grid.
    Halide::ImageParam guide;
    /// The input image (x, y, ci, n), 3 channels.
    Halide::ImageParam input;
    /// The adjoint of the output (x, y, co, n), the backward pass's input.
    Halide::ImageParam d_output;
    Halide::Var x{"x"}, y{"y"}, k{"k"}, c{"c"}, n{"n"};
    /// The sliced coefficients (x, y, k, n), and the output (x, y, co, n).
    Halide::Func affine{"bs_affine"}, output{"bilateral_slice"};
    /// The backward pass: the gradients with respect to the grid, the guide and the input.
    Halide::Func d_grid, d_guide, d_input;
    /// Autodiff's adjoints of the sliced coefficients and of the output (d_output within the
    /// output's bounds), which the gradients read.
    Halide::Func d_affine, d_out_adjoint;

    explicit BilateralSlicePipeline(Halide::Type type = Halide::Float(32))
        : grid(type, 5, "bs_grid"), guide(type, 3, "bs_guide"), input(type, 4, "bs_input"),
          d_output(type, 4, "bs_d_output") {
        using Halide::cast;
        using Halide::clamp;
        using Halide::Expr;
        Expr w = input.dim(0).extent(), h = input.dim(1).extent();
        Expr gw = grid.dim(0).extent(), gh = grid.dim(1).extent(), gd = grid.dim(2).extent();
        // Grid coordinates: pixel centres to cell centres; the guide spans the intensity bins.
        Expr gx = (cast(type, x) + 0.5f) * cast(type, gw) / cast(type, w) - 0.5f;
        Expr gy = (cast(type, y) + 0.5f) * cast(type, gh) / cast(type, h) - 0.5f;
        Expr gz = guide(x, y, n) * cast(type, gd) - 0.5f;
        // The cells left of and below the pixel, in integers (division rounds down): exact, and
        // bounds Loom's Li2018 autoscheduler can evaluate (it cannot for floor() of a float
        // position in x); the guide's cell below it (data-dependent).
        Expr ix = ((2 * x + 1) * gw - w) / (2 * w), iy = ((2 * y + 1) * gh - h) / (2 * h);
        Expr fz = Halide::floor(gz), iz = cast<int>(fz);
        // The tent weights max(1 - |tap - g|, 0) of taps i and i + 1 are 1 - w and w: the lerps'
        // parameters below.
        Expr wx = gx - cast(type, ix), wy = gy - cast(type, iy), wz = gz - fz;
        // The 8 taps written out (Fig. 2 sums them over an RDom): each tap is one scatter over
        // the pixels. The clamps keep the reads inside the grid and bound the data-dependent z
        // index (which Halide 21's autodiff needs for the scatter).
        auto at = [&](int dx, int dy, int dz) {
            return grid(clamp(ix + dx, 0, gw - 1), clamp(iy + dy, 0, gh - 1),
                        clamp(iz + dz, 0, gd - 1), k, n);
        };
        auto lerp = [](const Expr &a, const Expr &b, const Expr &t) { return a + t * (b - a); };
        auto slice_xy = [&](int dz) {
            return lerp(lerp(at(0, 0, dz), at(1, 0, dz), wx), lerp(at(0, 1, dz), at(1, 1, dz), wx),
                        wy);
        };
        affine(x, y, k, n) = lerp(slice_xy(0), slice_xy(1), wz);
        // The 3 x 4 affine transform, coefficient c * 4 + 3 the offset: one pure definition
        // (not Fig. 2's sum over an RDom of input channels), so the 12 coefficients of a pixel
        // can share its weights and indices in one loop body.
        output(x, y, c, n) = affine(x, y, c * 4, n) * input(x, y, 0, n) +
                             affine(x, y, c * 4 + 1, n) * input(x, y, 1, n) +
                             affine(x, y, c * 4 + 2, n) * input(x, y, 2, n) +
                             affine(x, y, c * 4 + 3, n);

        Halide::Region bounds = {{0, w}, {0, h}, {0, 3}, {0, input.dim(3).extent()}};
        Halide::Derivative d = Halide::propagate_adjoints(output, Halide::Func(d_output), bounds);
        d_grid = d(grid.name());
        d_guide = d(guide.name());
        d_input = d(input.name());
        d_affine = d(affine);
        d_out_adjoint = d(output);
    }

    /// No schedule: the sliced coefficients inlined into the output; autodiff's defaults for
    /// the backward pass.
    void schedule_default() {}

    /// The CPU schedule (forward and backward), for images at least `vec` pixels wide.
    void schedule_cpu(int vec = 8) {
        Halide::Var xo("xo"), xi("xi"), yn("yn");
        // Forward: rows of every image in parallel, vectors of `vec` pixels; the three output
        // channels unrolled in one loop body, so the 12 sliced coefficients share the pixel's
        // weights and cell indices (the taps' reads are gathers: z is data-dependent).
        output.bound(c, 0, 3)
            .split(x, xo, xi, vec)
            .reorder(xi, c, xo, y, n)
            .unroll(c)
            .vectorize(xi)
            .fuse(y, n, yn)
            .parallel(yn);
        // Backward. The adjoints of the output and of the sliced coefficients are products of
        // d_output and the input: recomputed where used rather than stored.
        d_affine.compute_inline();
        d_out_adjoint.compute_inline();
        // The grid's gradient: a zero initialization, then one scatter per tap over the
        // pixels (x, y) and coefficients k of each image n. Distinct images write distinct
        // parts of d_grid, so each scatter runs the images in parallel (race-free); k runs
        // innermost, unrolled, sharing the pixel's weight and cell among 12 updates. (Each
        // scatter's RVars are autodiff's: the pixel's x and y, the coefficient, the image.)
        std::vector<Halide::Var> g = d_grid.args();
        d_grid.vectorize(g[0], vec, Halide::TailStrategy::GuardWithIf).parallel(g[4]);
        for (int i = 0; i < d_grid.num_update_definitions(); i++) {
            std::vector<Halide::RVar> r = d_grid.rvars(i);
            d_grid.update(i).reorder(r[2], r[0], r[1], r[3]).unroll(r[2]).parallel(r[3]);
        }
        // The guide's gradient (12 coefficients' differences between the two z taps) and the
        // input's (the transposed 3 x 3 matrix), gathers: rows in parallel, vectorized.
        std::vector<Halide::Var> a = d_guide.args();
        d_guide.split(a[0], xo, xi, vec).vectorize(xi).fuse(a[1], a[2], yn).parallel(yn);
        a = d_input.args();
        d_input.bound(a[2], 0, 3)
            .split(a[0], xo, xi, vec)
            .reorder(xi, a[2], xo, a[1], a[3])
            .unroll(a[2])
            .vectorize(xi)
            .fuse(a[1], a[3], yn)
            .parallel(yn);
    }
};

#endif
