// Level-set segmentation ("snake"): distance regularized level set evolution (Li, Xu, Gui and
// Fox 2010), an application of the 2012 Halide paper. A fixed number of iterations of the
// update of the level set function phi, unrolled as a chain of Funcs, driven by an edge
// indicator computed once from the smoothed image. Written against Halide's API so the same
// source builds against Loom (include/compat) and Halide 21. Include "Halide.h" first.
#ifndef LOOM_APPS_SNAKE_H
#define LOOM_APPS_SNAKE_H

#include "snake/snake_params.h"

#include <string>
#include <vector>

struct SnakePipeline {
    /// Gray float input (x, y), values in [0, 1]; edges are repeated.
    Halide::ImageParam input{Halide::Float(32), 2, "input"};
    /// The level set function to start from, the size of `input`: read only by a pipeline made
    /// with `from_initial_phi` (the demo's run to convergence, which feeds each realization's
    /// output back in).
    Halide::ImageParam initial_phi{Halide::Float(32), 2, "initial_phi"};
    Halide::Func clamped{"clamped"}, blur_y{"blur_y"}, blurred{"blurred"}, edge{"edge"},
        phi0{"phi0"};
    /// phi[k] is the level set function after k iterations (phi[0] the step function); phi.back()
    /// is the output. nx[k], ny[k]: the unit normal grad phi / |grad phi| of phi[k].
    std::vector<Halide::Func> phi, nx, ny;
    Halide::Func output;
    Halide::Var x{"x"}, y{"y"};
    int iterations;

    /// `iterations` updates of phi are unrolled into the pipeline: 5 in the benchmark; fewer keep
    /// the unscheduled (fully inlined) pipeline's code small in tests. phi0 is the step function
    /// of the initial rectangle, or, with `from_initial_phi`, the `initial_phi` image (the
    /// benchmark's pipeline is the default one).
    explicit SnakePipeline(int iterations = snake_detail::kIterations,
                           bool from_initial_phi = false)
        : iterations(iterations) {
        using namespace snake_detail;
        using Halide::Expr;
        using Halide::Func;
        const GaussWeights gw = gauss_weights();
        const int r = kGaussRadius;
        const Expr w = input.width(), h = input.height();
        clamped = Halide::BoundaryConditions::repeat_edge(input);
        // Separable Gaussian of the image in [0, 255], vertical first, taps from the most
        // negative offset.
        Expr sy = gw.w[0] * (clamped(x, y - r) * kIntensityScale);
        for (int i = 1; i <= 2 * r; i++)
            sy = sy + gw.w[i] * (clamped(x, y + i - r) * kIntensityScale);
        blur_y(x, y) = sy;
        Expr sx = gw.w[0] * blur_y(x - r, y);
        for (int i = 1; i <= 2 * r; i++) sx = sx + gw.w[i] * blur_y(x + i - r, y);
        blurred(x, y) = sx;
        // The edge indicator g = 1 / (1 + |grad(G * I)|^2), central differences.
        Expr bx = (blurred(x + 1, y) - blurred(x - 1, y)) * 0.5f;
        Expr by = (blurred(x, y + 1) - blurred(x, y - 1)) * 0.5f;
        edge(x, y) = 1.0f / (1.0f + (bx * bx + by * by));
        // The initial level set function: a step, -c0 inside the rectangle, c0 outside (or the
        // given one).
        if (from_initial_phi)
            phi0(x, y) = initial_phi(x, y);
        else
            phi0(x, y) = Halide::select(x >= w / 8 && x < w - w / 8 && y >= h / 8 && y < h - h / 8,
                                        -kC0, kC0);
        phi.push_back(phi0);
        const float half_over_eps = 1.0f / (2.0f * kEpsilon), pi_over_eps = kPi / kEpsilon;
        for (int k = 0; k < iterations; k++) {
            Func prev = phi[k];
            // phi[k] with its edges repeated (the Neumann boundary condition).
            auto p = [&](Expr xx, Expr yy) {
                return prev(Halide::clamp(xx, 0, w - 1), Halide::clamp(yy, 0, h - 1));
            };
            Func fx("nx_" + std::to_string(k)), fy("ny_" + std::to_string(k));
            Expr px = (p(x + 1, y) - p(x - 1, y)) * 0.5f;
            Expr py = (p(x, y + 1) - p(x, y - 1)) * 0.5f;
            Expr s = Halide::sqrt(px * px + py * py) + kSmall;
            fx(x, y) = px / s;
            fy(x, y) = py / s;
            nx.push_back(fx);
            ny.push_back(fy);
            // div(grad phi / |grad phi|).
            Expr curv = (fx(x + 1, y) - fx(x - 1, y)) * 0.5f + (fy(x, y + 1) - fy(x, y - 1)) * 0.5f;
            Expr c = p(x, y);
            Expr lap = ((p(x - 1, y) + p(x + 1, y)) + (p(x, y - 1) + p(x, y + 1))) - 4.0f * c;
            Expr dirac =
                Halide::select(Halide::abs(c) <= kEpsilon,
                               half_over_eps * (1.0f + Halide::cos(c * pi_over_eps)), 0.0f);
            Expr g = edge(x, y);
            Expr gx = (edge(x + 1, y) - edge(x - 1, y)) * 0.5f;
            Expr gy = (edge(x, y + 1) - edge(x, y - 1)) * 0.5f;
            // Single-well regularisation: div((1 - 1/|grad phi|) grad phi) = lap - curv. The
            // length term dirac * div(g N) = dirac * (grad g . N + g curv); the area term
            // dirac * g.
            Expr dist_reg = lap - curv;
            Expr length = dirac * ((gx * fx(x, y) + gy * fy(x, y)) + g * curv);
            Expr area = dirac * g;
            Func next(k + 1 == iterations ? std::string("snake") : "phi_" + std::to_string(k + 1));
            next(x, y) = c + kTimestep * ((kMu * dist_reg + kLambda * length) + kAlpha * area);
            phi.push_back(next);
        }
        output = phi.back();
    }

    /// No schedule: everything inlined into the output (the iterations recomputed per pixel).
    void schedule_default() {}

    /// The edge indicator and every iteration at root (each reads its predecessor at clamped
    /// coordinates, so it needs the whole previous image anyway), in parallel strips of 16 rows
    /// vectorized by 8 floats; the normals of the previous iteration computed per strip (with
    /// their one-row halo) and the Gaussian's passes per strip of the edge indicator. The root
    /// stages' regions come from the clamped reads of their consumers (no bound() needed: the
    /// union of a clamped stencil's taps simplifies to one clamp, and large bounds are named
    /// rather than substituted along the chain).
    void schedule_cpu() {
        Halide::Var yo("yo"), yi("yi");
        const int strip = 16, vec = 8;
        edge.compute_root().split(y, yo, yi, strip).parallel(yo).vectorize(x, vec);
        blurred.compute_at(edge, yo).vectorize(x, vec);
        blur_y.compute_at(edge, yo).vectorize(x, vec);
        for (int k = 0; k < iterations; k++) {
            Halide::Func next = phi[k + 1];
            if (k + 1 < iterations) next.compute_root();
            next.split(y, yo, yi, strip).parallel(yo).vectorize(x, vec);
            nx[k].compute_at(next, yo).vectorize(x, vec);
            ny[k].compute_at(next, yo).vectorize(x, vec);
        }
    }
};

#endif
