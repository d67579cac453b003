// The warping layer of FlowNet 2.0 (Ilg et al. 2017; Li et al. 2018 §5.1.2): every pixel (x, y)
// of image n samples the input bilinearly, in every channel, at (x + flow(x, y, 0, n), y +
// flow(x, y, 1, n)) (apps/common/bilinear_sampling.h), the input zero outside the image, as
// PyTorch's grid_sample (bilinear, zero padding, align_corners=True) with the grid set to the
// pixel grid plus the flow. Tensors are N x C x H x W as in PyTorch: dimension 0 is x
// (contiguous), then y, c, n; the flow is (x, y, k, n), k = 0 the horizontal displacement in
// pixels, k = 1 the vertical. The backward pass (the gradients with respect to the input and
// the flow, given the adjoint of the output) comes from propagate_adjoints, so the same source
// builds against Loom (include/compat) and Halide 21. Include "Halide.h" first.
#ifndef LOOM_APPS_FLOW_WARP_H
#define LOOM_APPS_FLOW_WARP_H

#include "common/bilinear_sampling.h"

#include <vector>

struct FlowWarpPipeline : BilinearSamplingLayer {
    /// The flow (x, y, k, n) in pixels, k = 0 along x, k = 1 along y.
    Halide::ImageParam flow;
    /// The backward pass's gradient with respect to the flow (d_input is the input's).
    Halide::Func d_flow;

    explicit FlowWarpPipeline(Halide::Type type = Halide::Float(32))
        : BilinearSamplingLayer(type, "fw", "flow_warp"), flow(type, 4, "fw_flow") {
        sample_x(x, y, n) = Halide::cast(type, x) + flow(x, y, 0, n);
        sample_y(x, y, n) = Halide::cast(type, y) + flow(x, y, 1, n);
        Halide::Derivative d = define_sampling(type);
        d_flow = d(flow.name());
    }

    /// The CPU schedule (forward and backward), for images at least `vec` pixels wide: the
    /// sampling's (BilinearSamplingLayer::schedule_sampling_cpu), and the flow's gradient (the
    /// positions' gradients laid out in k) rows in parallel, vectorized.
    void schedule_cpu(int vec = 8) {
        schedule_sampling_cpu(vec);
        std::vector<Halide::Var> k = d_flow.args();
        d_flow.parallel(k[1]).vectorize(k[0], vec);
    }
};

#endif
