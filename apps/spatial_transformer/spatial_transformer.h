// The sampler of a spatial transformer network (Jaderberg et al. 2015; Li et al. 2018 §6.1), as
// PyTorch's affine_grid followed by grid_sample (bilinear, zero padding, align_corners=False):
// every output pixel (x, y) of image n maps through the 2 x 3 affine matrix theta(n) from
// normalized coordinates in [-1, 1] to a position in the input, which is sampled bilinearly in
// every channel (apps/common/bilinear_sampling.h); the input is zero outside the image.
// Tensors are N x C x H x W as in PyTorch: dimension 0 is x (contiguous), then y, c, n; theta
// is (j, i, n) for theta[n][i][j]. The output has the input's size. The backward pass (the
// gradients with respect to the input and theta, given the adjoint of the output) comes from
// propagate_adjoints, so the same source builds against Loom (include/compat) and Halide 21.
// Include "Halide.h" first.
#ifndef LOOM_APPS_SPATIAL_TRANSFORMER_H
#define LOOM_APPS_SPATIAL_TRANSFORMER_H

#include "common/bilinear_sampling.h"

struct SpatialTransformerPipeline : BilinearSamplingLayer {
    /// The affine matrices (j, i, n): theta(j, i, n) multiplies coordinate j (x, y, 1) of output
    /// row i (the sample's x, then y).
    Halide::ImageParam theta;
    /// The backward pass's gradient with respect to theta (d_input is the input's).
    Halide::Func d_theta;

    explicit SpatialTransformerPipeline(Halide::Type type = Halide::Float(32))
        : BilinearSamplingLayer(type, "st", "spatial_transformer"), theta(type, 3, "st_theta") {
        using Halide::cast;
        using Halide::Expr;
        Expr w = input.dim(0).extent(), h = input.dim(1).extent();
        // affine_grid: the pixel's centre in [-1, 1], through theta.
        Expr xn = cast(type, 2 * x + 1) / cast(type, w) - 1;
        Expr yn = cast(type, 2 * y + 1) / cast(type, h) - 1;
        Expr gx = theta(0, 0, n) * xn + theta(1, 0, n) * yn + theta(2, 0, n);
        Expr gy = theta(0, 1, n) * xn + theta(1, 1, n) * yn + theta(2, 1, n);
        // grid_sample: back to input pixels, whose centres sit at integers.
        sample_x(x, y, n) = ((gx + 1) * cast(type, w) - 1) / 2;
        sample_y(x, y, n) = ((gy + 1) * cast(type, h) - 1) / 2;
        Halide::Derivative d = define_sampling(type);
        d_theta = d(theta.name());
    }

    /// The CPU schedule (forward and backward), for images at least `vec` pixels wide: the
    /// sampling's (BilinearSamplingLayer::schedule_sampling_cpu); theta's gradient, 6 sums over
    /// the pixels per image, stays as autodiff made it.
    void schedule_cpu(int vec = 8) { schedule_sampling_cpu(vec); }
};

#endif
