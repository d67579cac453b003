// Pyramid blending, the PolyMage paper's "pyramid blending" benchmark: two RGB images are
// blended through their Laplacian pyramids, each level weighted by the same level of a Gaussian
// pyramid of the mask, and the blended pyramid is collapsed (Burt and Adelson 1983). Images are
// planar float (x, y, c); the mask (x, y) in [0, 1] is the weight of the first image. Edges are
// repeated at every level. Written against Halide's API so the same source builds against Loom
// (include/compat) and Halide 21. Include "Halide.h" first.
#ifndef LOOM_APPS_PYRAMID_BLEND_H
#define LOOM_APPS_PYRAMID_BLEND_H

#include "pyramid_blend/pyramid_blend_params.h"

#include <string>
#include <vector>

struct PyramidBlendPipeline {
    /// The two images (x, y, c), same size, sides multiples of 8.
    Halide::ImageParam a{Halide::Float(32), 3, "a"}, b{Halide::Float(32), 3, "b"};
    /// The weight of `a` per pixel, in [0, 1].
    Halide::ImageParam mask{Halide::Float(32), 2, "mask"};
    Halide::Func output{"pyramid_blend"};
    Halide::Var x{"x"}, y{"y"}, c{"c"};

    static constexpr int L = pyramid_blend_detail::kLevels;
    /// Gaussian pyramids (level 0 is the input) and the horizontal passes of their
    /// downsampling; Laplacian levels; the blended levels; the collapsed levels and the
    /// horizontal passes of the upsamplings.
    std::vector<Halide::Func> ga, gb, gm, ga_dx, gb_dx, gm_dx, la, lb, blend, collapse, up_ga_x,
        up_gb_x, up_col_x;
    /// The width and height of each level.
    std::vector<Halide::Expr> w, h;

    PyramidBlendPipeline() {
        using namespace pyramid_blend_detail;
        Halide::Func a0("ga_0"), b0("gb_0"), m0("gm_0");
        a0(x, y, c) = a(x, y, c);
        b0(x, y, c) = b(x, y, c);
        m0(x, y) = mask(x, y);
        ga.push_back(a0);
        gb.push_back(b0);
        gm.push_back(m0);
        w = {a.width()};
        h = {a.height()};
        for (int l = 1; l < L; l++) {
            w.push_back(w[l - 1] / 2);
            h.push_back(h[l - 1] / 2);
        }
        ga_dx.resize(L);
        gb_dx.resize(L);
        gm_dx.resize(L);
        for (int l = 1; l < L; l++) {
            ga.push_back(downsample(ga[l - 1], w[l - 1], h[l - 1], true, "ga_" + std::to_string(l),
                                    &ga_dx[l]));
            gb.push_back(downsample(gb[l - 1], w[l - 1], h[l - 1], true, "gb_" + std::to_string(l),
                                    &gb_dx[l]));
            gm.push_back(downsample(gm[l - 1], w[l - 1], h[l - 1], false, "gm_" + std::to_string(l),
                                    &gm_dx[l]));
        }
        la.resize(L);
        lb.resize(L);
        blend.resize(L);
        up_ga_x.resize(L);
        up_gb_x.resize(L);
        for (int l = 0; l < L; l++) {
            const std::string s = std::to_string(l);
            la[l] = Halide::Func("la_" + s);
            lb[l] = Halide::Func("lb_" + s);
            if (l == L - 1) {
                la[l](x, y, c) = ga[l](x, y, c);
                lb[l](x, y, c) = gb[l](x, y, c);
            } else {
                la[l](x, y, c) = ga[l](x, y, c) - upsample(ga[l + 1], w[l + 1], h[l + 1],
                                                           "up_ga_" + s, &up_ga_x[l])(x, y, c);
                lb[l](x, y, c) = gb[l](x, y, c) - upsample(gb[l + 1], w[l + 1], h[l + 1],
                                                           "up_gb_" + s, &up_gb_x[l])(x, y, c);
            }
            blend[l] = Halide::Func("blend_" + s);
            Halide::Expr m = gm[l](x, y);
            blend[l](x, y, c) = m * la[l](x, y, c) + (1.0f - m) * lb[l](x, y, c);
        }
        collapse.resize(L);
        up_col_x.resize(L);
        collapse[L - 1] = blend[L - 1];
        for (int l = L - 2; l >= 0; l--) {
            const std::string s = std::to_string(l);
            Halide::Func col(l == 0 ? std::string("collapse_0") : "collapse_" + s);
            col(x, y, c) = blend[l](x, y, c) + upsample(collapse[l + 1], w[l + 1], h[l + 1],
                                                        "up_col_" + s, &up_col_x[l])(x, y, c);
            collapse[l] = col;
        }
        output(x, y, c) = collapse[0](x, y, c);
    }

    /// The least schedule that lowers in reasonable time: every level of the pyramids and of
    /// the collapse computed once (compute_root) over its whole image (bound), serial and
    /// scalar; the Laplacians, blends and filter passes inlined. (With nothing scheduled the
    /// coarse levels are recomputed for every tap of every finer level.)
    void schedule_default() {
        for (int l = 1; l < L; l++) {
            whole_level(ga[l], l, true);
            whole_level(gb[l], l, true);
            whole_level(gm[l], l, false);
        }
        for (int l = 1; l < L - 1; l++) whole_level(collapse[l], l, true);
    }

    /// Levels 1-3 of the three Gaussian pyramids and of the collapse computed once each
    /// (compute_root) over their whole image, in strips of 8 rows in parallel, vectorized by
    /// 16; each downsampling's horizontal pass and each upsampling's horizontal pass computed
    /// per strip of its consumer. The output (level 0: both Laplacians, the blend and the last
    /// collapse step inlined) in strips of 32 rows in parallel, channels inside rows.
    void schedule_cpu() {
        Halide::Var yo("yo"), yi("yi");
        auto strips = [&](Halide::Func f, int l, bool color) {
            whole_level(f, l, color);
            if (color) f.reorder(x, c, y);
            f.split(y, yo, yi, 8).parallel(yo).vectorize(x, 16);
        };
        for (int l = 1; l < L; l++) {
            strips(ga[l], l, true);
            strips(gb[l], l, true);
            strips(gm[l], l, false);
            ga_dx[l].compute_at(ga[l], yo).vectorize(x, 16);
            gb_dx[l].compute_at(gb[l], yo).vectorize(x, 16);
            gm_dx[l].compute_at(gm[l], yo).vectorize(x, 16);
        }
        for (int l = 1; l < L - 1; l++) strips(collapse[l], l, true);
        output.reorder(x, c, y).split(y, yo, yi, 32).parallel(yo).vectorize(x, 16);
        for (int l = 0; l < L - 1; l++) {
            Halide::Func consumer = l == 0 ? output : collapse[l];
            up_ga_x[l].compute_at(consumer, yo).vectorize(x, 16);
            up_gb_x[l].compute_at(consumer, yo).vectorize(x, 16);
            up_col_x[l].compute_at(consumer, yo).vectorize(x, 16);
        }
    }

private:
    /// f computed once over the whole of level l: the region its consumers read through the
    /// clamps (no bound() on x and y needed; c is bounded for a constant channel loop).
    void whole_level(Halide::Func f, int l, bool color) {
        f.compute_root();
        if (color) f.bound(c, 0, 3);
    }

    /// f (of size w x h) read at (xx, yy) with both clamped into the image.
    Halide::Expr at(Halide::Func f, Halide::Expr xx, Halide::Expr yy, Halide::Expr w,
                    Halide::Expr h, bool color) {
        xx = Halide::clamp(xx, 0, w - 1);
        yy = Halide::clamp(yy, 0, h - 1);
        return color ? f(xx, yy, c) : f(xx, yy);
    }

    /// The 5-tap binomial filter of f (w x h, edges repeated) at every other pixel: a
    /// (w / 2) x (h / 2) level. The horizontal pass goes to *dx.
    Halide::Func downsample(Halide::Func f, Halide::Expr w, Halide::Expr h, bool color,
                            const std::string &name, Halide::Func *dx) {
        using namespace pyramid_blend_detail;
        *dx = Halide::Func(name + "_dx");
        Halide::Func d(name);
        auto tap = [&](Halide::Func g, int i, bool vertical, Halide::Expr ww, Halide::Expr hh) {
            return vertical ? at(g, x, 2 * y + i, ww, hh, color)
                            : at(g, 2 * x + i, y, ww, hh, color);
        };
        auto filter = [&](Halide::Func g, bool vertical, Halide::Expr ww, Halide::Expr hh) {
            Halide::Expr v =
                (tap(g, -2, vertical, ww, hh) + tap(g, 2, vertical, ww, hh)) * kTapOuter +
                (tap(g, -1, vertical, ww, hh) + tap(g, 1, vertical, ww, hh)) * kTapNear +
                tap(g, 0, vertical, ww, hh) * kTapCenter;
            return v * kNorm;
        };
        // dx is w / 2 wide and h tall; the vertical pass clamps its rows into [0, h).
        if (color) {
            (*dx)(x, y, c) = filter(f, false, w, h);
            d(x, y, c) = filter(*dx, true, w / 2, h);
        } else {
            (*dx)(x, y) = filter(f, false, w, h);
            d(x, y) = filter(*dx, true, w / 2, h);
        }
        return d;
    }

    /// f (of size w x h) at twice the resolution by linear interpolation, edges repeated. The
    /// horizontal pass goes to *ux.
    Halide::Func upsample(Halide::Func f, Halide::Expr w, Halide::Expr h, const std::string &name,
                          Halide::Func *ux) {
        using namespace pyramid_blend_detail;
        *ux = Halide::Func(name + "_x");
        Halide::Func u(name);
        (*ux)(x, y, c) = kUpFar * at(f, x / 2 - 1 + 2 * (x % 2), y, w, h, true) +
                         kUpNear * at(f, x / 2, y, w, h, true);
        u(x, y, c) = kUpFar * at(*ux, x, y / 2 - 1 + 2 * (y % 2), 2 * w, h, true) +
                     kUpNear * at(*ux, x, y / 2, 2 * w, h, true);
        return u;
    }
};

#endif
