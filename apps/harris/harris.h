// Harris corner detection, the 2016 autoscheduling paper's "Harris" benchmark: the luma of the
// RGB float input, its Sobel gradients Ix and Iy, the structure tensor (Ix^2, Iy^2, Ix*Iy)
// summed over 3x3 boxes, and the corner response det - k * trace^2 with k = 0.04 (Harris and
// Stephens 1988). Written against Halide's API so the same source builds against Loom
// (include/compat) and Halide 21. Include "Halide.h" first.
#ifndef LOOM_APPS_HARRIS_H
#define LOOM_APPS_HARRIS_H

#include "harris/harris_params.h"

struct HarrisPipeline {
    /// Planar RGB float input (x, y, c), values in [0, 1]; edges are repeated.
    Halide::ImageParam input{Halide::Float(32), 3, "input"};
    Halide::Func clamped{"clamped"}, gray{"gray"}, Ix{"Ix"}, Iy{"Iy"}, Ixx{"Ixx"}, Iyy{"Iyy"},
        Ixy{"Ixy"}, Sxx{"Sxx"}, Syy{"Syy"}, Sxy{"Sxy"}, output{"harris"};
    Halide::Var x{"x"}, y{"y"};

    HarrisPipeline() {
        using namespace harris_detail;
        clamped = Halide::BoundaryConditions::repeat_edge(input);
        gray(x, y) =
            kLumaR * clamped(x, y, 0) + kLumaG * clamped(x, y, 1) + kLumaB * clamped(x, y, 2);
        // Sobel: right column minus left column (weights 1, 2, 1 from top to bottom), and
        // bottom row minus top row (1, 2, 1 from left to right).
        Ix(x, y) = ((gray(x + 1, y - 1) + 2.0f * gray(x + 1, y) + gray(x + 1, y + 1)) -
                    (gray(x - 1, y - 1) + 2.0f * gray(x - 1, y) + gray(x - 1, y + 1))) *
                   kSobelScale;
        Iy(x, y) = ((gray(x - 1, y + 1) + 2.0f * gray(x, y + 1) + gray(x + 1, y + 1)) -
                    (gray(x - 1, y - 1) + 2.0f * gray(x, y - 1) + gray(x + 1, y - 1))) *
                   kSobelScale;
        Ixx(x, y) = Ix(x, y) * Ix(x, y);
        Iyy(x, y) = Iy(x, y) * Iy(x, y);
        Ixy(x, y) = Ix(x, y) * Iy(x, y);
        // 3x3 box sums, row by row from the top left.
        auto box = [&](Halide::Func f) {
            Halide::Expr s = f(x - 1, y - 1);
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    if (dy != -1 || dx != -1) s = s + f(x + dx, y + dy);
            return s;
        };
        Sxx(x, y) = box(Ixx);
        Syy(x, y) = box(Iyy);
        Sxy(x, y) = box(Ixy);
        Halide::Expr det = Sxx(x, y) * Syy(x, y) - Sxy(x, y) * Sxy(x, y);
        Halide::Expr trace = Sxx(x, y) + Syy(x, y);
        output(x, y) = det - kHarrisK * (trace * trace);
    }

    /// No schedule: every stage inlined into the response (the luma is recomputed for each of
    /// the 9 x 6 reads of it). Serial, scalar.
    void schedule_default() {}

    /// Strips of 32 rows in parallel; per strip the luma (2-row halo) and the two gradients
    /// (1-row halo) computed once, vectorized; the products, box sums and response inlined into
    /// the vectorized output.
    void schedule_cpu() {
        Halide::Var yo("yo"), yi("yi");
        output.split(y, yo, yi, 32).parallel(yo).vectorize(x, 8);
        gray.compute_at(output, yo).vectorize(x, 8);
        Ix.compute_at(output, yo).vectorize(x, 8);
        Iy.compute_at(output, yo).vectorize(x, 8);
    }

    /// GPU schedule (a target with CUDA or OpenCL): the luma and the two gradients at root, each
    /// its own kernel in 32 x 8 tiles of GPU threads, one pixel per thread; the products, box sums
    /// and response inlined into the output's kernel (same tiles, edge tiles guarded so any
    /// image size works).
    void schedule_gpu() {
        Halide::Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        gray.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
        Ix.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
        Iy.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
        output.gpu_tile(x, y, xo, yo, xi, yi, 32, 8, Halide::TailStrategy::GuardWithIf);
    }
};

#endif
