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
    /// The 2012 paper's Figure 1 schedule: 256x32 tiles of blur_y in parallel over tile rows,
    /// blur_x computed per tile, both vectorized by 8.
    void schedule_paper() {
        Halide::Var xi("xi"), yi("yi");
        blur_y.tile(x, y, xi, yi, 256, 32).vectorize(xi, 8).parallel(y);
        blur_x.compute_at(blur_y, x).vectorize(x, 8);
    }
};

#endif
