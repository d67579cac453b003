// Multi-scale interpolation, the 2016 autoscheduling paper's "interpolate" benchmark: fills the
// transparent parts of an RGBA image from their surroundings at every scale. The premultiplied
// image (rgb * alpha, alpha) is reduced 9 times by a [1 2 1] / 4 filter and a factor of 2; then,
// from the coarsest level down, each level keeps its own (premultiplied) colour and takes the
// rest, (1 - alpha), from the bilinear upsampling of the level above; finally the colour is
// divided by the alpha. Written against Halide's API so the same source builds against Loom
// (include/compat) and Halide 21. Include "Halide.h" first.
#ifndef LOOM_APPS_INTERPOLATE_H
#define LOOM_APPS_INTERPOLATE_H

#include "interpolate/interpolate_params.h"

#include <string>
#include <vector>

struct InterpolatePipeline {
    /// Planar RGBA float input (x, y, c), colour in [0, 1] and alpha in [0, 1] (not
    /// premultiplied). Outside the image everything is transparent black.
    Halide::ImageParam input{Halide::Float(32), 3, "input"};
    Halide::Func clamped{"clamped"}, output{"interpolate"};
    /// Per level: the horizontal reduction, the premultiplied pyramid, the same transparent black
    /// outside the level's support, the horizontal and the full bilinear upsampling of the level
    /// above, and the interpolated level.
    std::vector<Halide::Func> down_x, downsampled, bordered, up_x, upsampled, interpolated;
    /// Per level, the size of its support: level 0 is the input; a level's [1 2 1] reduction is
    /// nonzero up to index floor(n / 2) of a support of n samples, so n_l = n_{l-1} / 2 + 1.
    std::vector<Halide::Expr> width, height;
    Halide::Var x{"x"}, y{"y"}, c{"c"};

    /// Pyramid levels (a constant of the compiled pipeline): 10 in the benchmark; the tests
    /// also use fewer, which keeps the unscheduled (all inlined) pipeline small.
    int levels;

    explicit InterpolatePipeline(int levels = interpolate_detail::kLevels) : levels(levels) {
        using namespace interpolate_detail;
        using Halide::Expr;
        using Halide::Func;
        auto named = [](const char *base, int l) { return Func(base + std::to_string(l)); };
        for (int l = 0; l < levels; l++) {
            down_x.push_back(named("down_x_", l));
            downsampled.push_back(named("downsampled_", l));
            bordered.push_back(named("bordered_", l));
            up_x.push_back(named("up_x_", l));
            upsampled.push_back(named("upsampled_", l));
            interpolated.push_back(named("interpolated_", l));
        }
        clamped = Halide::BoundaryConditions::constant_exterior(input, 0.0f);
        // Level 0: premultiplied colour, alpha in channel 3.
        Expr alpha = clamped(x, y, 3);
        downsampled[0](x, y, c) = Halide::select(c < 3, clamped(x, y, c) * alpha, alpha);
        width.push_back(input.width());
        height.push_back(input.height());
        for (int l = 1; l < levels; l++) {
            width.push_back(width[l - 1] / 2 + 1);
            height.push_back(height[l - 1] / 2 + 1);
        }
        // Every level is read through its support: outside it the level is exactly zero anyway
        // (all its taps are), but saying so bounds what the levels above make the schedule
        // compute (otherwise each level's region would grow by the footprint of every level
        // above it) and keeps bounds inference's expressions from nesting level by level.
        bordered[0] = downsampled[0];
        // Reduction: [1 2 1] / 4 horizontally then vertically, keeping every other sample.
        for (int l = 1; l < levels; l++) {
            Func prev = bordered[l - 1];
            down_x[l](x, y, c) =
                (prev(2 * x - 1, y, c) + 2.0f * prev(2 * x, y, c) + prev(2 * x + 1, y, c)) * 0.25f;
            downsampled[l](x, y, c) = (down_x[l](x, 2 * y - 1, c) + 2.0f * down_x[l](x, 2 * y, c) +
                                       down_x[l](x, 2 * y + 1, c)) *
                                      0.25f;
            bordered[l] = Halide::BoundaryConditions::constant_exterior(
                downsampled[l], 0.0f, {{0, width[l]}, {0, height[l]}, {0, 4}});
        }
        // Interpolation from the coarsest level down. Bilinear upsampling by 2 with pixel
        // centres aligned: output sample x lies between samples lo = floor((x - 1) / 2) and
        // hi = floor((x + 1) / 2) of the level above, 1/4 of the way from lo for an odd x and
        // 3/4 for an even one; horizontally, then vertically. (The indices are affine in x up to
        // the division, so bounds inference sees plain intervals; the parity only picks the
        // weights.)
        interpolated[levels - 1](x, y, c) = bordered[levels - 1](x, y, c);
        for (int l = levels - 2; l >= 0; l--) {
            Func above = interpolated[l + 1];
            Expr wx = Halide::select(x % 2 == 0, 0.25f, 0.75f);
            up_x[l](x, y, c) =
                wx * above((x - 1) / 2, y, c) + (1.0f - wx) * above((x + 1) / 2, y, c);
            Expr wy = Halide::select(y % 2 == 0, 0.25f, 0.75f);
            upsampled[l](x, y, c) =
                wy * up_x[l](x, (y - 1) / 2, c) + (1.0f - wy) * up_x[l](x, (y + 1) / 2, c);
            interpolated[l](x, y, c) =
                bordered[l](x, y, c) + (1.0f - bordered[l](x, y, 3)) * upsampled[l](x, y, c);
        }
        output(x, y, c) =
            interpolated[0](x, y, c) / Halide::max(interpolated[0](x, y, 3), kMinAlpha);
    }

    /// No schedule: every level inlined into the output. Each level reads 9 samples of the one
    /// below, so this is only usable with few levels (the tests use 2).
    void schedule_default() {}

    /// Every level of both pyramids at root, all four channels per pixel (channels unrolled
    /// inside 8-wide vectors across x). The big levels (1 to kBigLevels - 1): the pyramid in
    /// parallel strips of 8 rows with its horizontal reduction per strip, the interpolated
    /// levels in parallel rows (their upsampling inlined); the small levels serial and scalar,
    /// everything else inlined. The output in parallel strips of 32 rows: per strip the
    /// horizontal upsampling of level 1, per row the interpolated level 0 (level 0 of the
    /// pyramid, the premultiplied input, inlined).
    void schedule_cpu() {
        using namespace interpolate_detail;
        Halide::Var yo("yo"), yi("yi");
        output.reorder(c, x, y).bound(c, 0, 3).unroll(c);
        output.split(y, yo, yi, 32).parallel(yo).vectorize(x, 8);
        interpolated[0].compute_at(output, yi).reorder(c, x, y).bound(c, 0, 4).unroll(c);
        interpolated[0].vectorize(x, 8);
        if (levels == 1) return;
        up_x[0].compute_at(output, yo).reorder(c, x, y).bound(c, 0, 4).unroll(c).vectorize(x, 8);
        for (int l = 1; l < levels; l++) {
            // No bound(): each level is computed over what is read of it (the pyramid within
            // its support, through bordered's clamp). The interpolated levels run in rows with
            // GuardWithIf vectors, so no level is rounded up to whole strips of the one below.
            for (Halide::Func f : {downsampled[l], interpolated[l]}) {
                f.compute_root().reorder(c, x, y).bound(c, 0, 4).unroll(c);
            }
            if (l < kBigLevels) {
                downsampled[l].split(y, yo, yi, 8).parallel(yo).vectorize(x, 8);
                interpolated[l].parallel(y).vectorize(x, 8, Halide::TailStrategy::GuardWithIf);
            }
            if (l < kBigLevels) {
                down_x[l].compute_at(downsampled[l], yo).reorder(c, x, y).bound(c, 0, 4);
                down_x[l].unroll(c).vectorize(x, 8);
            }
        }
    }

    /// GPU schedule (a target with CUDA or OpenCL), as Halide's GPU schedule of this app: every
    /// level of both pyramids (levels 1 up) at root, each its own kernel, one pixel per GPU
    /// thread with the four channels unrolled in it, in 16 x 16 tiles (8 x 8 from level
    /// kBigLevels on, where the levels are small); the reductions' horizontal passes and the
    /// upsamplings inlined. The output in 32 x 8 tiles, edge tiles guarded so any size works,
    /// each thread computing its pixel's four channels of interpolated level 0 once (compute_at
    /// the thread) for its three unrolled colour channels.
    void schedule_gpu() {
        using namespace interpolate_detail;
        Halide::Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        output.reorder(c, x, y).bound(c, 0, 3).unroll(c).gpu_tile(
            x, y, xo, yo, xi, yi, 32, 8, Halide::TailStrategy::GuardWithIf);
        interpolated[0].compute_at(output, xi).reorder(c, x, y).bound(c, 0, 4).unroll(c);
        for (int l = 1; l < levels; l++) {
            const int tile = l < kBigLevels ? 16 : 8;
            for (Halide::Func f : {downsampled[l], interpolated[l]}) {
                f.compute_root().reorder(c, x, y).bound(c, 0, 4).unroll(c).gpu_tile(
                    x, y, xo, yo, xi, yi, tile, tile);
            }
        }
    }
};

#endif
