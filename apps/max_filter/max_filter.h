// Max filter, the 2016 autoscheduling paper's "max filter" benchmark: every channel of a float
// image replaced by its maximum over a (2r + 1) x (2r + 1) square window (r = 26 in the paper),
// edges repeated. The square maximum is separable: a vertical maximum over 2r + 1 rows, then a
// horizontal maximum of that over 2r + 1 columns. Written against Halide's API so the same
// source builds against Loom (include/compat) and Halide 21. Include "Halide.h" first.
#ifndef LOOM_APPS_MAX_FILTER_H
#define LOOM_APPS_MAX_FILTER_H

struct MaxFilterPipeline {
    /// Planar float input (x, y, c); edges are repeated.
    Halide::ImageParam input{Halide::Float(32), 3, "input"};
    Halide::Func clamped{"clamped"}, vmax{"vmax"}, hmax{"hmax"}, output{"max_filter"};
    Halide::Var x{"x"}, y{"y"}, c{"c"};
    /// The window radius (a compile-time constant of the pipeline).
    const int radius;

    explicit MaxFilterPipeline(int r = 26) : radius(r) {
        clamped = Halide::BoundaryConditions::repeat_edge(input);
        // Vertical maximum as a reduction: the top row, then the 2r rows below it.
        Halide::RDom dv(-radius + 1, 2 * radius, "dv");
        vmax(x, y, c) = clamped(x, y - radius, c);
        vmax(x, y, c) = Halide::max(vmax(x, y, c), clamped(x, y + dv, c));
        // Horizontal maximum of the vertical one.
        Halide::RDom dh(-radius + 1, 2 * radius, "dh");
        hmax(x, y, c) = vmax(x - radius, y, c);
        hmax(x, y, c) = Halide::max(hmax(x, y, c), vmax(x + dh, y, c));
        output(x, y, c) = hmax(x, y, c);
    }

    /// No schedule: the reductions are computed per output pixel at the innermost loop (the
    /// vertical maximum recomputed for each of the 2r + 1 columns). Serial, scalar.
    void schedule_default() {}

    /// Strips of 32 rows of one channel in parallel; per strip and channel the vertical maximum
    /// (over the strip's columns plus the r-column halo) computed once, vectorized; per output
    /// row the horizontal maximum, vectorized.
    void schedule_cpu() {
        Halide::Var yo("yo"), yi("yi");
        output.split(y, yo, yi, 32).reorder(x, yi, c, yo).parallel(yo).vectorize(x, 8);
        vmax.compute_at(output, c).vectorize(x, 8);
        vmax.update().vectorize(x, 8);
        hmax.compute_at(output, yi).vectorize(x, 8);
        hmax.update().vectorize(x, 8);
    }

    /// GPU schedule (a target with CUDA or OpenCL), two kernels, the channel a block dimension
    /// in both. The vertical maximum at root, one pixel per GPU thread in 32 x 8 tiles, each
    /// thread running the 2r-row reduction serially. Then the output in 32 x 8 tiles (edge tiles
    /// guarded so any size works), each thread computing its pixel's horizontal maximum
    /// (compute_at the thread) over the 2r + 1 columns serially.
    void schedule_gpu() {
        Halide::Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        vmax.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 32, 8).gpu_blocks(c);
        vmax.update().gpu_tile(x, y, xo, yo, xi, yi, 32, 8).gpu_blocks(c);
        output.gpu_tile(x, y, xo, yo, xi, yi, 32, 8, Halide::TailStrategy::GuardWithIf)
            .gpu_blocks(c);
        hmax.compute_at(output, xi);
    }
};

#endif
