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
    /// The bilinear weight (x, y, i, j, n) of tap (i, j): the input pixel (floor(sample_x) + i,
    /// floor(sample_y) + j).
    Halide::Func weight{"st_weight"};
    /// The bilinear sample: zero, then the four taps added over `tap`.
    Halide::Func bilinear{"st_bilinear"};
    Halide::Func output{"spatial_transformer"};
    /// The tap (i, j) = (tap.x, tap.y) in [0, 2) x [0, 2), bilinear's reduction.
    Halide::RDom tap{0, 2, 0, 2, "st_tap"};
    /// The backward pass: d output / d input and d output / d theta applied to d_output.
    Halide::Func d_input, d_theta;
    /// The adjoints of the output and of bilinear's update (copies of d_output).
    Halide::Func d_output_adjoint, d_bilinear;
    /// The adjoints of the weights and of sample_x and sample_y (the gradient with respect to
    /// the grid).
    Halide::Func d_weight, d_sample_x, d_sample_y;

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
        // The weights, a Func of their own: their gradient (per pixel and tap, a sum over the
        // channels) is then computed once and serves both positions' gradients.
        Halide::Var i("i"), j("j");
        weight(x, y, i, j, n) = select(j == 0, 1 - wy, wy) * select(i == 0, 1 - wx, wx);
        // The four taps as one sum over a 2 x 2 RDom, so that the input is read at one call
        // site: its adjoint is one scatter over the output's points and the taps, which the
        // schedule runs innermost (four reads would make four scatter passes over the output).
        bilinear(x, y, c, n) = zero;
        bilinear(x, y, c, n) += weight(x, y, tap.x, tap.y, n) * at(ix + tap.x, iy + tap.y);
        output(x, y, c, n) = bilinear(x, y, c, n);

        Halide::Region bounds = {
            {0, w}, {0, h}, {0, input.dim(2).extent()}, {0, input.dim(3).extent()}};
        Halide::Derivative d = Halide::propagate_adjoints(output, Halide::Func(d_output), bounds);
        d_output_adjoint = d(output);
        d_bilinear = d(bilinear, 0);
        d_input = d(input.name());
        d_theta = d(theta.name());
        d_weight = d(weight);
        d_sample_x = d(sample_x);
        d_sample_y = d(sample_y);
    }

    /// No schedule: the sample positions inlined into the output; the derivative's defaults.
    void schedule_default() {}

    /// The CPU schedule (forward and backward), for images at least `vec` pixels wide. Forward:
    /// the sample positions once per pixel of each image (not per channel), then the planes of
    /// all channels and images in parallel, vectors of `vec` pixels along x, each summing its
    /// four taps (gathers, unrolled) in registers. Backward: the weights' gradient (per pixel
    /// and tap, a sum over the channels) once, rows in parallel, vectorized, and from it the
    /// positions' gradients; the input's gradient is a scatter (its reads are at
    /// data-dependent positions, so autodiff cannot make it a gather): one serial update over
    /// the output's points with the four taps innermost and unrolled, so each point's position
    /// and adjoint are read once, and the channels in parallel (distinct channels write
    /// distinct planes, so the loop is race-free); theta's gradient, 6 sums over the pixels per
    /// image, stays as autodiff made it. The copies autodiff makes of the output's adjoint are
    /// inlined.
    void schedule_cpu(int vec = 8) {
        Halide::Var cn("cn"), xo("xo");
        for (Halide::Func f : {sample_x, sample_y, d_sample_x, d_sample_y}) {
            // The adjoints' Vars are autodiff's, not x and y.
            std::vector<Halide::Var> a = f.args();
            f.compute_root().parallel(a[1]).vectorize(a[0], vec);
        }
        output.split(x, xo, x, vec).fuse(c, n, cn).parallel(cn).vectorize(x);
        bilinear.compute_at(output, xo).vectorize(x);
        bilinear.update().vectorize(x).unroll(tap.x).unroll(tap.y);
        d_output_adjoint.compute_inline();
        d_bilinear.compute_inline();
        // The weights' gradient (x, y, i, j, n): in each row, the four taps.
        std::vector<Halide::Var> u = d_weight.args();
        d_weight.compute_root()
            .reorder(u[0], u[2], u[3], u[1], u[4])
            .parallel(u[1])
            .vectorize(u[0], vec);
        std::vector<Halide::Var> v = d_input.args();
        d_input.fuse(v[2], v[3], cn).parallel(cn).vectorize(v[0], vec);
        // The scatter's RDom runs over the output's (x, y, c, n), then the tap. (Halide 21
        // returns the input's adjoint as a copy of the Func that scatters, whose update this
        // schedule cannot name: there the scatter keeps its defaults.)
        if (d_input.num_update_definitions() > 0) {
            std::vector<Halide::RVar> r = d_input.rvars(0);
            d_input.update(0)
                .reorder(r[4], r[5], r[0], r[1], r[2], r[3])
                .unroll(r[4])
                .unroll(r[5])
                .parallel(r[2]);
        }
    }
};

#endif
