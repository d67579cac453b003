// The Frankencamera-style camera pipeline of the 2012 Halide paper (section 6.1): from a 10-bit
// Bayer raw (green-red on even rows, blue-green on odd rows) to an 8-bit RGB image, through
// hot-pixel suppression, deinterleaving into the four Bayer channels, edge-aware demosaicking
// (green along the direction of smaller gradient, red and blue by interpolating colour
// differences with green), a fixed-point colour matrix, a tone curve through a lookup table,
// and sharpening of the 8-bit result. Integer arithmetic throughout, as in a camera, so the
// output is bit-exact. Written against Halide's API so the same source builds against Loom
// (include/compat) and Halide 21. Include "Halide.h" first.
#ifndef LOOM_APPS_CAMERA_PIPE_H
#define LOOM_APPS_CAMERA_PIPE_H

#include "camera_pipe/camera_pipe_params.h"

struct CameraPipePipeline {
    /// The raw image (x, y); the output (x, y, c) covers raw pixels from (kShiftX, kShiftY) and
    /// is 2 * kShiftX narrower and 2 * kShiftY shorter than the raw.
    Halide::ImageParam input{Halide::UInt(16), 2, "raw"};
    /// The 8.8 fixed-point colour matrix (k, c): k = 0..2 weigh r, g, b, k = 3 is the offset.
    Halide::ImageParam matrix{Halide::Int(32), 2, "matrix"};
    /// The tone curve: kCurveSize 8-bit entries indexed by the colour-corrected value.
    Halide::ImageParam curve{Halide::UInt(8), 1, "curve"};
    /// Sharpening strength in 3.5 fixed point (32 is strength 1).
    Halide::Param<int16_t> sharpen_q5{"sharpen_q5", 32};

    Halide::Func shifted{"shifted"}, denoised{"denoised"};
    /// The four Bayer channels at half resolution (x, y, c): c = 0 green on red rows, 1 red,
    /// 2 blue, 3 green on blue rows.
    Halide::Func deinterleaved{"deinterleaved"};
    /// Green interpolated at the red and the blue sites (half resolution).
    Halide::Func g_r{"g_r"}, g_b{"g_b"};
    /// The missing colours at each site (half resolution; inlined into red, green, blue).
    Halide::Func r_gr{"r_gr"}, b_gr{"b_gr"}, r_gb{"r_gb"}, b_gb{"b_gb"}, r_b{"r_b"}, b_r{"b_r"};
    /// The demosaicked channels at full resolution (int16).
    Halide::Func red{"red"}, green{"green"}, blue{"blue"};
    Halide::Func corrected{"corrected"}, curved{"curved"}, blur_y{"blur_y"}, blurred{"blurred"},
        output{"camera_pipe"};
    Halide::Var x{"x"}, y{"y"}, c{"c"};

    /// The host-side tables behind `matrix` and `curve` (set_camera fills them).
    Halide::Buffer<int32_t> matrix_table{4, 3};
    Halide::Buffer<uint8_t> curve_table{camera_pipe_detail::kCurveSize};

    CameraPipePipeline() {
        using namespace camera_pipe_detail;
        using Halide::cast;
        using Halide::Expr;
        using Halide::select;
        set_camera(kColorTemp, kGamma, kContrast, kSharpen);

        shifted(x, y) = cast<int16_t>(input(x + kShiftX, y + kShiftY));

        // Hot pixels: no pixel may exceed the brightest of its four same-colour neighbours.
        Expr neighbours = Halide::max(Halide::max(shifted(x - 2, y), shifted(x + 2, y)),
                                      Halide::max(shifted(x, y - 2), shifted(x, y + 2)));
        denoised(x, y) = Halide::min(shifted(x, y), neighbours);

        deinterleaved(x, y, c) =
            select(c == 0, denoised(2 * x, 2 * y), c == 1, denoised(2 * x + 1, 2 * y), c == 2,
                   denoised(2 * x, 2 * y + 1), denoised(2 * x + 1, 2 * y + 1));
        Halide::Func g_gr{"g_gr"}, r_r{"r_r"}, b_b{"b_b"}, g_gb{"g_gb"};
        g_gr(x, y) = deinterleaved(x, y, 0);
        r_r(x, y) = deinterleaved(x, y, 1);
        b_b(x, y) = deinterleaved(x, y, 2);
        g_gb(x, y) = deinterleaved(x, y, 3);

        auto avg = [](Expr a, Expr b) { return (a + b) >> 1; };
        // The one of two interpolations whose pair of samples differs less (the second on a
        // tie): interpolate along edges, not across them.
        auto pick = [&](Expr a0, Expr a1, Expr b0, Expr b1) {
            return select(Halide::absd(a0, a1) < Halide::absd(b0, b1), avg(a0, a1), avg(b0, b1));
        };
        // Green at red sites (neighbours left/right are green-red, up/down green-blue) and at
        // blue sites (left/right green-blue, up/down green-red).
        g_r(x, y) = pick(g_gr(x, y), g_gr(x + 1, y), g_gb(x, y - 1), g_gb(x, y));
        g_b(x, y) = pick(g_gb(x - 1, y), g_gb(x, y), g_gr(x, y), g_gr(x, y + 1));

        // Red and blue where they were not sampled: the two neighbouring samples' average plus
        // the green detail at this site (colour differences vary slowly).
        auto diff = [&](Expr green_here, Expr gn0, Expr gn1, Expr cn0, Expr cn1) {
            return green_here - avg(gn0, gn1) + avg(cn0, cn1);
        };
        r_gr(x, y) = diff(g_gr(x, y), g_r(x - 1, y), g_r(x, y), r_r(x - 1, y), r_r(x, y));
        b_gr(x, y) = diff(g_gr(x, y), g_b(x, y - 1), g_b(x, y), b_b(x, y - 1), b_b(x, y));
        r_gb(x, y) = diff(g_gb(x, y), g_r(x, y), g_r(x, y + 1), r_r(x, y), r_r(x, y + 1));
        b_gb(x, y) = diff(g_gb(x, y), g_b(x, y), g_b(x + 1, y), b_b(x, y), b_b(x + 1, y));
        // Red at blue sites and blue at red sites: along the diagonal (up-right/down-left
        // first) whose two samples differ less.
        auto diagonal = [&](Expr green_here, Expr gp0, Expr gp1, Expr cp0, Expr cp1, Expr gn0,
                            Expr gn1, Expr cn0, Expr cn1) {
            return select(Halide::absd(cp0, cp1) < Halide::absd(cn0, cn1),
                          diff(green_here, gp0, gp1, cp0, cp1),
                          diff(green_here, gn0, gn1, cn0, cn1));
        };
        r_b(x, y) = diagonal(g_b(x, y), g_r(x, y), g_r(x - 1, y + 1), r_r(x, y), r_r(x - 1, y + 1),
                             g_r(x - 1, y), g_r(x, y + 1), r_r(x - 1, y), r_r(x, y + 1));
        b_r(x, y) = diagonal(g_r(x, y), g_b(x, y), g_b(x + 1, y - 1), b_b(x, y), b_b(x + 1, y - 1),
                             g_b(x + 1, y), g_b(x, y - 1), b_b(x + 1, y), b_b(x, y - 1));

        // Back to full resolution: per channel, a select on the pixel's parity between its
        // four half-resolution values (a 2 x 2 interleave).
        auto interleave = [&](Halide::Func at_gr, Halide::Func at_r, Halide::Func at_b,
                              Halide::Func at_gb) {
            Expr xh = x / 2, yh = y / 2;
            return select(y % 2 == 0, select(x % 2 == 0, at_gr(xh, yh), at_r(xh, yh)),
                          select(x % 2 == 0, at_b(xh, yh), at_gb(xh, yh)));
        };
        red(x, y) = interleave(r_gr, r_r, r_b, r_gb);
        green(x, y) = interleave(g_gr, g_r, g_b, g_gb);
        blue(x, y) = interleave(b_gr, b_r, b_b, b_gb);

        // Colour correction in 8.8 fixed point.
        Expr r = cast<int32_t>(red(x, y)), g = cast<int32_t>(green(x, y)),
             b = cast<int32_t>(blue(x, y));
        corrected(x, y, c) = cast<int16_t>(
            (matrix(0, c) * r + matrix(1, c) * g + matrix(2, c) * b + matrix(3, c)) >> 8);

        // Tone curve (gamma and contrast) through the lookup table.
        curved(x, y, c) =
            curve(cast<int32_t>(Halide::clamp(corrected(x, y, c), 0, kCurveSize - 1)));

        // Sharpening: the 8-bit image plus strength times its difference from a 3 x 3
        // [1 2 1] x [1 2 1] / 16 blur (rounded).
        Expr cu = cast<uint16_t>(curved(x, y, c));
        blur_y(x, y, c) =
            cast<uint16_t>(curved(x, y - 1, c)) + 2 * cu + cast<uint16_t>(curved(x, y + 1, c));
        blurred(x, y, c) =
            (blur_y(x - 1, y, c) + 2 * blur_y(x, y, c) + blur_y(x + 1, y, c) + 8) >> 4;
        Expr detail = cast<int16_t>(cu) - cast<int16_t>(blurred(x, y, c));
        Expr sharp = cast<int16_t>(cu) + ((detail * sharpen_q5) >> 5);
        output(x, y, c) = cast<uint8_t>(Halide::clamp(sharp, 0, 255));
    }

    /// Sets the camera's parameters: the colour matrix for `temperature` (K), the tone curve for
    /// `gamma` and `contrast`, the sharpening `strength` (0 to 4).
    void set_camera(float temperature, float gamma, float contrast, float strength) {
        int32_t m[3][4];
        camera_pipe_detail::colour_matrix_q8(temperature, m);
        for (int ch = 0; ch < 3; ch++)
            for (int k = 0; k < 4; k++) matrix_table(k, ch) = m[ch][k];
        camera_pipe_detail::tone_curve(gamma, contrast, curve_table.data());
        matrix.set(matrix_table);
        curve.set(curve_table);
        sharpen_q5.set((int16_t)camera_pipe_detail::sharpen_q5(strength));
    }

    /// No schedule: everything inlined into the output (the demosaic recomputed for every tap
    /// of the sharpening blur). Serial, scalar.
    void schedule_default() {}

    /// Strips of 32 output rows in parallel; per strip the Bayer channels, the green
    /// interpolations, the demosaicked image and the tone-mapped image (with the halos their
    /// consumers need) computed once, vectorized; per row the vertical blur of the sharpening.
    void schedule_cpu() {
        Halide::Var yo("yo"), yi("yi"), xo("xo"), xi("xi");
        const int vec8 = 32, vec16 = 16;
        output.bound(c, 0, 3).reorder(x, c, y).split(y, yo, yi, 32).parallel(yo).vectorize(x, vec8);
        deinterleaved.compute_at(output, yo).reorder(x, c, y).unroll(c).vectorize(x, vec16);
        g_r.compute_at(output, yo).vectorize(x, vec16);
        g_b.compute_at(output, yo).vectorize(x, vec16);
        // The full-resolution channels in pairs of columns: each pair's even and odd pixel
        // come from dense half-resolution vectors, and the two strided stores merge into one.
        // (The plain `.align_bounds(x, 2).vectorize(x, 32)` now compiles to the same dense
        // loads and interleave in both libraries, but measured ~5% slower in Loom: README.)
        for (Halide::Func f : {red, green, blue})
            f.compute_at(output, yo)
                .align_bounds(x, 2)
                .split(x, xo, xi, 2, Halide::TailStrategy::RoundUp)
                .reorder(xi, xo, y)
                .unroll(xi)
                .vectorize(xo, vec16);
        curved.compute_at(output, yo).reorder(x, c, y).unroll(c).vectorize(x, vec8);
        blur_y.compute_at(output, yi).reorder(x, c, y).vectorize(x, vec16);
    }

    /// GPU schedule (a target with CUDA or OpenCL): one kernel per stage worth keeping, each in
    /// 32 x 8 tiles of GPU threads, one pixel per thread. The hot-pixel suppression at root; the
    /// four Bayer channels at root (the channels unrolled in each thread); the two green
    /// interpolations at root; the tone-mapped image at root, each thread computing its pixel's
    /// red, green and blue once (compute_at the thread) for its three unrolled channels; the
    /// output with the sharpening blur inlined, channels unrolled, edge tiles guarded so any
    /// size works. The colour-difference interpolations and the colour matrix are inlined.
    void schedule_gpu() {
        Halide::Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        output.bound(c, 0, 3).reorder(c, x, y).unroll(c).gpu_tile(
            x, y, xo, yo, xi, yi, 32, 8, Halide::TailStrategy::GuardWithIf);
        curved.compute_root().reorder(c, x, y).unroll(c).gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
        for (Halide::Func f : {red, green, blue}) f.compute_at(curved, xi);
        g_r.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
        g_b.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
        deinterleaved.compute_root().reorder(c, x, y).unroll(c);
        deinterleaved.gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
        denoised.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
    }
};

#endif
