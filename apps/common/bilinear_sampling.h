// The bilinear sampling layer that the spatial transformer and the FlowNet warp share
// (PyTorch's grid_sample: bilinear, zero padding): given each output pixel's sample position
// in input pixels, (sample_x, sample_y)(x, y, n), every channel samples the input's four
// neighbours of that position, the input zero outside the image; the backward pass (the
// gradients with respect to the input and the positions, given the adjoint of the output)
// comes from propagate_adjoints. Tensors are N x C x H x W as in PyTorch: dimension 0 is x
// (contiguous), then y, c, n. Written against Halide's API (the same source builds against
// Loom's include/compat and Halide 21). Include "Halide.h" first.
#ifndef LOOM_APPS_COMMON_BILINEAR_SAMPLING_H
#define LOOM_APPS_COMMON_BILINEAR_SAMPLING_H

#include <string>
#include <vector>

struct BilinearSamplingLayer {
    /// The input (x, y, c, n), of type `type` (float, or double for the gradient checks).
    Halide::ImageParam input;
    /// The adjoint of the output (x, y, c, n), the backward pass's input.
    Halide::ImageParam d_output;
    Halide::Var x{"x"}, y{"y"}, c{"c"}, n{"n"};
    /// The sample position in input pixels (x, y, n), defined by the layer using this one.
    Halide::Func sample_x, sample_y;
    /// The bilinear weight (x, y, i, j, n) of tap (i, j): the input pixel (floor(sample_x) + i,
    /// floor(sample_y) + j).
    Halide::Func weight;
    /// The bilinear sample: zero, then the four taps added over `tap`.
    Halide::Func bilinear;
    Halide::Func output;
    /// The tap (i, j) = (tap.x, tap.y) in [0, 2) x [0, 2), bilinear's reduction.
    Halide::RDom tap;
    /// The backward pass's gradient with respect to the input.
    Halide::Func d_input;
    /// The adjoints of the output and of bilinear's update (copies of d_output).
    Halide::Func d_output_adjoint, d_bilinear;
    /// The adjoints of the weights and of sample_x and sample_y (the gradient with respect to
    /// the sample positions).
    Halide::Func d_weight, d_sample_x, d_sample_y;

    /// Names: `<prefix>_input`, `<prefix>_sample_x`, ..., and `output_name` for the output.
    BilinearSamplingLayer(Halide::Type type, const std::string &prefix,
                          const std::string &output_name)
        : input(type, 4, prefix + "_input"), d_output(type, 4, prefix + "_d_output"),
          sample_x(prefix + "_sample_x"), sample_y(prefix + "_sample_y"),
          weight(prefix + "_weight"), bilinear(prefix + "_bilinear"), output(output_name),
          tap(0, 2, 0, 2, prefix + "_tap") {}

    /// Defines the sampling from sample_x and sample_y (which must be defined), and its
    /// backward pass over the input's shape. Returns the derivative, for the gradients of the
    /// parameters the positions are computed from.
    Halide::Derivative define_sampling(Halide::Type type) {
        using Halide::cast;
        using Halide::clamp;
        using Halide::Expr;
        using Halide::select;
        Expr w = input.dim(0).extent(), h = input.dim(1).extent();
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
        // channels) is then computed once and serves both positions' gradients, which would
        // each read the four taps of every channel again otherwise.
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
        d_weight = d(weight);
        d_sample_x = d(sample_x);
        d_sample_y = d(sample_y);
        return d;
    }

    /// No schedule: the sample positions inlined into the output; the derivative's defaults.
    void schedule_default() {}

    /// The CPU schedule of the sampling (forward and backward), for images at least `vec`
    /// pixels wide. Forward: the sample positions once per pixel of each image (not per
    /// channel), then the planes of all channels and images in parallel, vectors of `vec`
    /// pixels along x, each summing its four taps (gathers, unrolled) in registers. Backward:
    /// the weights' gradient (per pixel and tap, a sum over the channels) once, rows in
    /// parallel, vectorized, and from it the positions' gradients; the input's gradient is a
    /// scatter (its reads are at data-dependent positions, so autodiff cannot make it a
    /// gather): one serial update over the output's points with the four taps innermost and
    /// unrolled, so each point's position and adjoint are read once, and the channels in
    /// parallel (distinct channels write distinct planes, so the loop is race-free). The copies
    /// autodiff makes of the output's adjoint are inlined.
    void schedule_sampling_cpu(int vec) {
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
