// The 2012 Halide paper's separable 3x3 blur (Figure 1), uint16, with edges repeated. The
// algorithm is written once against Halide's API so the same source builds against Loom
// (include/compat) and Halide 21 for side-by-side benchmarks. Include "Halide.h" first.
//
// The schedules below are the paper's Figure 1 schedule and the variants issue 4's benchmark
// compares with it. Each keeps the algorithm (and so every output value) unchanged.
#ifndef LOOM_APPS_BLUR_H
#define LOOM_APPS_BLUR_H

#include <cstdint>

namespace blur_detail {

// store_root() where the Func type has it (SFINAE), so this header still builds against a Loom
// that lacks the directive; returns whether it was applied.
template <typename F>
auto try_store_root(F &f, int) -> decltype(f.store_root(), bool()) {
    f.store_root();
    return true;
}
template <typename F>
bool try_store_root(F &, long) {
    return false;
}

} // namespace blur_detail

struct BlurPipeline {
    Halide::ImageParam input{Halide::UInt(16), 2, "input"};
    Halide::Func blur_x{"blur_x"}, blur_y{"blur_y"};
    Halide::Var x{"x"}, y{"y"};

    BlurPipeline() {
        Halide::Func clamped = Halide::BoundaryConditions::repeat_edge(input);
        blur_x(x, y) = (clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y)) / 3;
        blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
    }

    /// The default schedule ("all inline"): blur_y at root, blur_x inlined into it, so every
    /// blur_x value is recomputed by the three blur_y pixels that read it. Serial, scalar.
    void schedule_default() {}
    /// "All root": blur_x computed over the whole image first, then blur_y: two full passes over
    /// memory (the paper's breadth-first schedule). Serial, scalar.
    void schedule_blur_x_root() { blur_x.compute_root(); }
    /// "Sliding window over rows": blur_x stored for the whole image but computed per row of
    /// blur_y, so each row of blur_y computes only the one new row of blur_x it needs (storage
    /// folding shrinks the buffer to a few rows). Serial, scalar. Returns false (and leaves the
    /// schedule unchanged) where the library has no store_root.
    bool schedule_sliding_window() {
        if (!blur_detail::try_store_root(blur_x, 0)) return false;
        blur_x.compute_at(blur_y, y);
        return true;
    }
    /// The 2012 paper's Figure 1 schedule: 256x32 tiles of blur_y in parallel over tile rows,
    /// blur_x computed per tile, both vectorized by 8.
    void schedule_paper() {
        Halide::Var xi("xi"), yi("yi");
        blur_y.tile(x, y, xi, yi, 256, 32).vectorize(xi, 8).parallel(y);
        blur_x.compute_at(blur_y, x).vectorize(x, 8);
    }
    /// "Vectorized only": the paper's schedule without its threads (tiles and compute_at kept,
    /// vectorize 8 kept, the tile rows run serially). Isolates the gain of SIMD.
    void schedule_vectorized_only() {
        Halide::Var xi("xi"), yi("yi");
        blur_y.tile(x, y, xi, yi, 256, 32).vectorize(xi, 8);
        blur_x.compute_at(blur_y, x).vectorize(x, 8);
    }
    /// "Parallel only": the paper's schedule without SIMD (tiles and compute_at kept, the tile
    /// rows in parallel, every loop scalar). Isolates the gain of threads.
    void schedule_parallel_only() {
        Halide::Var xi("xi"), yi("yi");
        blur_y.tile(x, y, xi, yi, 256, 32).parallel(y);
        blur_x.compute_at(blur_y, x);
    }
    /// GPU schedule (a target with CUDA or OpenCL): blur_x at root in 32 x 8 tiles of GPU threads,
    /// one pixel per thread, then blur_y the same way: two kernels, blur_x staying in device
    /// memory between them. The output's edge tiles are guarded, so any image size works.
    void schedule_gpu() {
        Halide::Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        blur_x.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
        blur_y.gpu_tile(x, y, xo, yo, xi, yi, 32, 8, Halide::TailStrategy::GuardWithIf);
    }
};

/// The paper's Figure 1a: the clean two-pass C++ blur (a temporary image of blur_x over the
/// whole input, then blur_y from it), with the pipeline's repeat-edge boundary and uint16
/// arithmetic, so its output equals the pipelines' bit for bit. `in` and `out` are w x h,
/// row-major, with no padding; `tmp` has room for w * h values.
inline void blur_clean_cpp(const uint16_t *in, uint16_t *out, uint16_t *tmp, int w, int h) {
    for (int y = 0; y < h; y++) {
        const uint16_t *row = in + (int64_t)y * w;
        for (int x = 0; x < w; x++) {
            int xl = x > 0 ? x - 1 : 0, xr = x < w - 1 ? x + 1 : w - 1;
            tmp[(int64_t)y * w + x] = (uint16_t)((uint16_t)(row[xl] + row[x] + row[xr]) / 3);
        }
    }
    for (int y = 0; y < h; y++) {
        const uint16_t *up = tmp + (int64_t)(y > 0 ? y - 1 : 0) * w;
        const uint16_t *mid = tmp + (int64_t)y * w;
        const uint16_t *down = tmp + (int64_t)(y < h - 1 ? y + 1 : h - 1) * w;
        for (int x = 0; x < w; x++)
            out[(int64_t)y * w + x] = (uint16_t)((uint16_t)(up[x] + mid[x] + down[x]) / 3);
    }
}

#endif
