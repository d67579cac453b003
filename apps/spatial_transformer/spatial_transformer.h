// The sampler of a spatial transformer network (Jaderberg et al. 2015; Li et al. 2018 §6.1), as
// PyTorch's affine_grid followed by grid_sample (bilinear, zero padding, align_corners=False):
// every output pixel (x, y) of image n maps through the 2 x 3 affine matrix theta(n) from
// normalized coordinates in [-1, 1] to a position in the input, which is sampled bilinearly in
// every channel; the input is zero outside the image. Tensors are N x C x H x W as in PyTorch:
// dimension 0 is x (contiguous), then y, c, n; theta is (j, i, n) for theta[n][i][j]. The output
// has the input's size. The backward pass (the gradients with respect to the input and theta,
// given the adjoint of the output) comes from propagate_adjoints, so the same source builds
// against Loom (include/compat) and Halide 21. Include "Halide.h" first.
#ifndef LOOM_APPS_SPATIAL_TRANSFORMER_H
#define LOOM_APPS_SPATIAL_TRANSFORMER_H

#include <vector>

struct SpatialTransformerPipeline {
    /// The input (x, y, c, n), of type `type` (float, or double for the gradient checks).
    Halide::ImageParam input;
    /// The affine matrices (j, i, n): theta(j, i, n) multiplies coordinate j (x, y, 1) of output
    /// row i (the sample's x, then y).
    Halide::ImageParam theta;
    /// The adjoint of the output (x, y, c, n), the backward pass's input.
    Halide::ImageParam d_output;
    Halide::Var x{"x"}, y{"y"}, c{"c"}, n{"n"};
    /// The sample position in input pixels (affine_grid, then grid_sample's unnormalization).
    Halide::Func sample_x{"st_sample_x"}, sample_y{"st_sample_y"};
    Halide::Func output{"spatial_transformer"};
    /// The backward pass: d output / d input and d output / d theta applied to d_output.
    Halide::Func d_input, d_theta;
    /// The adjoints of sample_x and sample_y (the gradient with respect to the grid).
    Halide::Func d_sample_x, d_sample_y;

    explicit SpatialTransformerPipeline(Halide::Type type = Halide::Float(32))
        : input(type, 4, "st_input"), theta(type, 3, "st_theta"), d_output(type, 4, "st_d_output") {
        using Halide::cast;
        using Halide::clamp;
        using Halide::Expr;
        using Halide::select;
        Expr w = input.dim(0).extent(), h = input.dim(1).extent();
        // affine_grid: the pixel's centre in [-1, 1], through theta.
        Expr xn = cast(type, 2 * x + 1) / cast(type, w) - 1;
        Expr yn = cast(type, 2 * y + 1) / cast(type, h) - 1;
        Expr gx = theta(0, 0, n) * xn + theta(1, 0, n) * yn + theta(2, 0, n);
        Expr gy = theta(0, 1, n) * xn + theta(1, 1, n) * yn + theta(2, 1, n);
        // grid_sample: back to input pixels, whose centres sit at integers.
        sample_x(x, y, n) = ((gx + 1) * cast(type, w) - 1) / 2;
        sample_y(x, y, n) = ((gy + 1) * cast(type, h) - 1) / 2;
        Expr fx = Halide::floor(sample_x(x, y, n)), fy = Halide::floor(sample_y(x, y, n));
        Expr ix = cast<int>(fx), iy = cast<int>(fy);
        Expr wx = sample_x(x, y, n) - fx, wy = sample_y(x, y, n) - fy;
        // Zero outside the image; the clamp keeps the read itself inside and bounds it (which
        // Halide 21's autodiff needs for a data-dependent index).
        Expr zero = cast(type, 0);
        auto at = [&](const Expr &px, const Expr &py) {
            return select(px >= 0 && px < w && py >= 0 && py < h,
                          input(clamp(px, 0, w - 1), clamp(py, 0, h - 1), c, n), zero);
        };
        output(x, y, c, n) = (1 - wy) * ((1 - wx) * at(ix, iy) + wx * at(ix + 1, iy)) +
                             wy * ((1 - wx) * at(ix, iy + 1) + wx * at(ix + 1, iy + 1));

        Halide::Region bounds = {
            {0, w}, {0, h}, {0, input.dim(2).extent()}, {0, input.dim(3).extent()}};
        Halide::Derivative d = Halide::propagate_adjoints(output, Halide::Func(d_output), bounds);
        d_input = d(input.name());
        d_theta = d(theta.name());
        d_sample_x = d(sample_x);
        d_sample_y = d(sample_y);
    }

    /// No schedule: the sample positions inlined into the output; the derivative's defaults.
    void schedule_default() {}

    /// The CPU schedule (forward and backward), for images at least `vec` pixels wide. Forward:
    /// the sample positions once per pixel of each image (not per channel), then the planes of
    /// all channels and images in parallel, vectors of `vec` pixels along x (the four reads are
    /// gathers). Backward: the gradient with respect to the sample positions (a sum over the
    /// channels) once per pixel, vectorized; the input's gradient is a scatter (its reads are at
    /// data-dependent positions, so autodiff cannot make it a gather): four serial updates over
    /// the output's points, one per bilinear tap, which run the channels in parallel (distinct
    /// channels write distinct planes, so the loop is race-free); theta's gradient, 6 sums over
    /// the pixels per image, stays as autodiff made it.
    void schedule_cpu(int vec = 8) {
        Halide::Var cn("cn");
        for (Halide::Func f : {sample_x, sample_y, d_sample_x, d_sample_y}) {
            // The adjoints' Vars are autodiff's, not x and y.
            std::vector<Halide::Var> a = f.args();
            f.compute_root().parallel(a[1]).vectorize(a[0], vec);
        }
        output.fuse(c, n, cn).parallel(cn).vectorize(x, vec);
        std::vector<Halide::Var> v = d_input.args();
        d_input.fuse(v[2], v[3], cn).parallel(cn).vectorize(v[0], vec);
        // The RDom runs over the output's (x, y, c, n). (Fusing the four updates' loops with
        // compute_with would read the positions and d_output once, not four times, but the
        // updates' RVars carry their own RDoms' names, which compute_with refuses to match.)
        for (int i = 0; i < d_input.num_update_definitions(); i++) {
            d_input.update(i).parallel(d_input.rvars(i)[2]);
        }
    }
};

#endif
