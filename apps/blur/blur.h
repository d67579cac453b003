// The 2012 Halide paper's separable 3x3 blur (Figure 1), uint16, with edges repeated. The
// algorithm is written once against Halide's API so the same source builds against Loom
// (include/compat) and Halide 21 for side-by-side benchmarks. Include "Halide.h" first.
#ifndef LOOM_APPS_BLUR_H
#define LOOM_APPS_BLUR_H

struct BlurPipeline {
    Halide::ImageParam input{Halide::UInt(16), 2, "input"};
    Halide::Func blur_x{"blur_x"}, blur_y{"blur_y"};
    Halide::Var x{"x"}, y{"y"};

    BlurPipeline() {
        Halide::Func clamped = Halide::BoundaryConditions::repeat_edge(input);
        blur_x(x, y) = (clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y)) / 3;
        blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
    }

    /// The default schedule: blur_y at root, blur_x inlined into it.
    void schedule_default() {}
    /// blur_x computed at root: two passes over memory.
    void schedule_blur_x_root() { blur_x.compute_root(); }
};

#endif
