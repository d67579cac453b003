// Non-local means denoising (Buades, Coll and Morel 2005), the 2016 autoscheduling paper's
// "non-local means" benchmark: every output pixel is the weighted mean of the pixels in its 7 x 7
// search window, each weighted by how similar the 7 x 7 patch around it is to the patch around
// the output pixel. Written against Halide's API so the same source builds against Loom
// (include/compat) and Halide 21. Include "Halide.h" first.
#ifndef LOOM_APPS_NL_MEANS_H
#define LOOM_APPS_NL_MEANS_H

#include "nl_means/nl_means_params.h"

struct NlMeansPipeline {
    /// Planar RGB float input (x, y, c), values in [0, 1]; edges are repeated.
    Halide::ImageParam input{Halide::Float(32), 3, "input"};
    /// The filtering parameter (see nl_means_params.h).
    Halide::Param<float> sigma{"sigma", nl_means_detail::kDefaultSigma};
    Halide::Func clamped{"clamped"}, with_one{"with_one"}, diff{"diff"}, patch_y{"patch_y"},
        patch_dist{"patch_dist"}, weight{"weight"}, weighted_sum{"weighted_sum"},
        output{"nl_means"};
    Halide::Var x{"x"}, y{"y"}, c{"c"}, dx{"dx"}, dy{"dy"};
    Halide::RDom search;

    /// The radii are constants of the compiled pipeline: 3 and 3 (7 x 7 patches, 7 x 7 search
    /// window) in the benchmark; smaller ones keep the unscheduled pipeline's code small in tests.
    explicit NlMeansPipeline(int patch_radius = nl_means_detail::kPatchRadius,
                             int search_radius = nl_means_detail::kSearchRadius) {
        using namespace nl_means_detail;
        const int pr = patch_radius, sr = search_radius;
        using Halide::Expr;
        clamped = Halide::BoundaryConditions::repeat_edge(input);
        // Channel 3 is a constant 1, so the sum of the weights accumulates beside the weighted
        // colours in the same reduction.
        with_one(x, y, c) = Halide::select(c < 3, clamped(x, y, Halide::min(c, 2)), 1.0f);
        // Squared colour difference between the pixel and the one at offset (dx, dy), summed
        // over the channels in order 0, 1, 2.
        Expr d0 = clamped(x, y, 0) - clamped(x + dx, y + dy, 0);
        Expr d1 = clamped(x, y, 1) - clamped(x + dx, y + dy, 1);
        Expr d2 = clamped(x, y, 2) - clamped(x + dx, y + dy, 2);
        diff(x, y, dx, dy) = d0 * d0 + d1 * d1 + d2 * d2;
        // The patch distance: a separable 7 x 7 box sum of diff, taps in order from the most
        // negative offset (vertical first).
        Expr sy = diff(x, y - pr, dx, dy);
        for (int i = 1; i <= 2 * pr; i++) sy = sy + diff(x, y + i - pr, dx, dy);
        patch_y(x, y, dx, dy) = sy;
        Expr sx = patch_y(x - pr, y, dx, dy);
        for (int i = 1; i <= 2 * pr; i++) sx = sx + patch_y(x + i - pr, y, dx, dy);
        patch_dist(x, y, dx, dy) = sx;
        // weight = exp(-(mean squared difference over the patch's 147 values) / sigma^2).
        Expr scale = -1.0f / (sigma * sigma * (float)patch_values(pr));
        weight(x, y, dx, dy) = Halide::exp(patch_dist(x, y, dx, dy) * scale);
        // Weighted sums over the search window, offsets in row-major order from (-3, -3).
        search = Halide::RDom(-sr, 2 * sr + 1, -sr, 2 * sr + 1, "search");
        weighted_sum(x, y, c) = 0.0f;
        weighted_sum(x, y, c) +=
            weight(x, y, search.x, search.y) * with_one(x + search.x, y + search.y, c);
        output(x, y, c) = weighted_sum(x, y, c) / weighted_sum(x, y, 3);
    }

    /// No schedule: every stage but the sum inlined (the patch distances recomputed per channel).
    void schedule_default() {}

    /// Output tiles of 64 x 16 pixels, rows of tiles in parallel, channels unrolled inside
    /// 8-wide vectors. Per tile the four sums (three colours and the weight) live in a 64 x 16 x 4
    /// buffer; per offset of the search window the squared differences (with the 3-pixel patch
    /// halo), the vertical box sum and the weights are computed over the tile only (each a few
    /// KiB, so they stay in L1), vectorized by 8 floats, and accumulated into the sums at once.
    void schedule_cpu() {
        Halide::Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        output.reorder(c, x, y)
            .bound(c, 0, 3)
            .unroll(c)
            .tile(x, y, xo, yo, xi, yi, 64, 16)
            .parallel(yo)
            .vectorize(xi, 8);
        weighted_sum.compute_at(output, xo)
            .reorder(c, x, y)
            .bound(c, 0, 4)
            .unroll(c)
            .vectorize(x, 8);
        weighted_sum.update().reorder(c, x, y, search.x, search.y).unroll(c).vectorize(x, 8);
        diff.compute_at(weighted_sum, search.x).vectorize(x, 8);
        patch_y.compute_at(weighted_sum, search.x).vectorize(x, 8);
        weight.compute_at(weighted_sum, search.x).vectorize(x, 8);
    }

    /// GPU schedule (a target with CUDA or OpenCL), two kernels. The vertical box sums of the
    /// squared differences at root for every offset of the search window (the differences
    /// inlined), one pixel per GPU thread in 32 x 8 tiles, each thread looping over the offsets.
    /// Then the output, one pixel per thread in 16 x 8 tiles (edge tiles guarded so any size
    /// works): each thread accumulates its pixel's four sums (compute_at the thread, channels
    /// unrolled) over the search window serially, computing each offset's weight once
    /// (horizontal box sum and exponential) for the four channels.
    void schedule_gpu() {
        Halide::Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        patch_y.compute_root().reorder(dx, dy, x, y).gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
        output.reorder(c, x, y).bound(c, 0, 3).unroll(c).gpu_tile(
            x, y, xo, yo, xi, yi, 16, 8, Halide::TailStrategy::GuardWithIf);
        weighted_sum.compute_at(output, xi).reorder(c, x, y).bound(c, 0, 4).unroll(c);
        weighted_sum.update().reorder(c, x, y, search.x, search.y).unroll(c);
        weight.compute_at(weighted_sum, search.x);
    }
};

#endif
