// A learned relaxation of AHD demosaicking (Li et al. 2018 §5.2.1, after Hirakawa and Parks
// 2005): green is interpolated at the red and blue sites by K = 8 x B learned 5 x 5 filters
// instead of AHD's two 5 x 1 ones, blended per pixel by a softmax over the filters' local
// homogeneity (the smoother a filter's green plane around a pixel, the more it counts), and red
// and blue are the interpolated green plus a learned 5 x 5 interpolation of the colour
// differences. The loss is the mean squared error against a full-colour target over the image
// less a margin; its gradient with respect to the parameters comes from propagate_adjoints.
//
// The K filters are the 8 rotations and reflections (the dihedral group of the square) of B
// learned base filters, and the chroma filter is the symmetrized learned one: the Bayer
// neighbourhood of a red or blue site has that symmetry, and without it the filters learn the
// training image's prevailing edge orientations, which do not carry over to other images (on
// the two halves of rgb_small.png, untied filters improved the half they were trained on and
// made the other half worse; see README.md).
//
// The mosaic is GRBG, as ../shared/images/bayer_small.png: green at (even, even) and (odd, odd),
// red at (odd x, even y), blue at (even x, odd y), by absolute coordinate. Written against
// Halide's API so the same source builds against Loom (include/compat) and Halide 21. Include
// "Halide.h" first.
#ifndef LOOM_APPS_LEARNED_DEMOSAICK_H
#define LOOM_APPS_LEARNED_DEMOSAICK_H

#include "common/adam.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace learned_demosaick_detail {

/// Filter footprint (taps per side) and the symmetries each base filter is expanded by.
constexpr int kTaps = 5, kTransforms = 8;
/// Keeps log() finite where a filter's green plane is flat (images in [0, 1]).
constexpr double kEnergyEpsilon = 1e-4;

/// The initial parameters. Base filter b (tap (i, j) at offset (i - 2, j - 2)): half of
/// Hamilton-Adams' horizontal green filter (AHD's: the mean of the left and right greens plus a
/// quarter of the red or blue second difference), half the mean of the left and upper greens.
/// The lean makes its 8 transforms differ (a symmetric base would give only AHD's horizontal
/// and vertical filters, each 4 times, and gradient descent keeps the symmetry). Chroma:
/// bilinear, [1 2 1] x [1 2 1] / 4 on the sparse colour differences. Selectivity 2: the
/// weights go as energy^-2.
template <typename T>
void initial_parameters(Halide::Buffer<T> &green_bases, Halide::Buffer<T> &chroma_base,
                        Halide::Buffer<T> &selectivity) {
    green_bases.fill(0);
    for (int b = 0; b < green_bases.dim(2).extent(); b++) {
        const double ha[kTaps] = {-0.25, 0.5, 0.5, 0.5, -0.25};
        for (int i = 0; i < kTaps; i++) green_bases(i, 2, b) = (T)(0.5 * ha[i]);
        green_bases(1, 2, b) += (T)0.25; // left
        green_bases(2, 1, b) += (T)0.25; // up
    }
    chroma_base.fill(0);
    const double tent[3] = {0.5, 1, 0.5};
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) chroma_base(i + 1, j + 1) = (T)(tent[i] * tent[j]);
    selectivity.fill((T)2);
}

} // namespace learned_demosaick_detail

struct LearnedDemosaickPipeline {
    /// The Bayer mosaic (x, y), of type `type`; read mirrored beyond its edges (about the edge
    /// pixels, which keeps every site's colour).
    Halide::ImageParam mosaic;
    /// The parameters: the base green filters (i, j, b), 5 x 5 x B; the chroma filter (i, j),
    /// 5 x 5; the selectivity (b) of each base's 8 filters.
    Halide::ImageParam green_bases, chroma_base, selectivity;
    /// The full-colour target (x, y, c) of the loss, the mosaic's size.
    Halide::ImageParam target;
    Halide::Var x{"x"}, y{"y"}, c{"c"}, t{"t"}, b{"b"}, i{"i"}, j{"j"};

    /// The mosaic, mirrored beyond its edges.
    Halide::Func input;
    /// Filter (t, b): base b under symmetry t (i, j, t, b); the symmetrized chroma filter (i, j).
    Halide::Func green_filters{"ld_green_filters"}, chroma_filter{"ld_chroma_filter"};
    /// Filter (t, b)'s green everywhere (x, y, t, b), and its plane: the mosaic at green sites.
    Halide::Func candidate{"ld_candidate"}, candidate_plane{"ld_candidate_plane"};
    /// The plane's squared central differences, their 3 x 3 mean, and the softmax's exponent.
    Halide::Func gradient_energy{"ld_gradient_energy"}, energy{"ld_energy"}, logit{"ld_logit"};
    /// exp(logit - the pixel's largest logit), and the pixel's sum of them.
    Halide::Func exp_logit{"ld_exp_logit"}, normalizer{"ld_normalizer"};
    /// The weighted sum of the candidates, and the green plane (x, y).
    Halide::Func blended{"ld_blended"}, green{"ld_green"};
    /// The colour differences (mosaic - green) at the red (c = 0) and blue (c = 1) sites, zero
    /// elsewhere, and their interpolation (x, y, c).
    Halide::Func difference{"ld_difference"}, chroma{"ld_chroma"};
    /// The demosaicked image (x, y, c), c = 0, 1, 2 for red, green, blue.
    Halide::Func output{"learned_demosaick"};
    /// The mean squared error against `target` over the pixels at least `margin` from an edge.
    Halide::Func loss{"ld_loss"};
    /// d loss / d parameters, of the parameters' shapes.
    Halide::Func d_green_bases, d_chroma_base, d_selectivity;

    /// The filters' taps (i, j) and the filters (t, b), as the sums run over them.
    Halide::RDom r, rk;

    int bases, margin;
    /// Every adjoint propagate_adjoints made (for the schedules; a pointer because Halide's
    /// Derivative cannot be assigned).
    std::shared_ptr<const Halide::Derivative> derivative;

    explicit LearnedDemosaickPipeline(Halide::Type type = Halide::Float(32), int bases_ = 1,
                                      int margin_ = 8)
        : mosaic(type, 2, "ld_mosaic"), green_bases(type, 3, "ld_green_bases"),
          chroma_base(type, 2, "ld_chroma_base"), selectivity(type, 1, "ld_selectivity"),
          target(type, 3, "ld_target"), bases(bases_), margin(margin_) {
        using namespace learned_demosaick_detail;
        using Halide::cast;
        using Halide::Expr;
        using Halide::select;
        const int K = kTransforms * bases;
        auto constant = [&](double v) { return cast(type, Expr(v)); };
        input = Halide::BoundaryConditions::mirror_interior(mosaic);
        Expr green_site = (x + y) % 2 == 0;
        Expr red_site = x % 2 == 1 && y % 2 == 0, blue_site = x % 2 == 0 && y % 2 == 1;

        // The 8 symmetries of the square: transpose when t >= 4, then mirror i (t odd) and j
        // (t & 2). Each branch reads the base at an affine index, so its adjoint is a gather.
        std::vector<Expr> branches;
        for (int s = 0; s < kTransforms; s++) {
            Expr u = s >= 4 ? j : i, v = s >= 4 ? i : j;
            branches.push_back(
                green_bases(s & 1 ? kTaps - 1 - u : u, s & 2 ? kTaps - 1 - v : v, b));
        }
        Expr filter = branches.back();
        for (int s = kTransforms - 2; s >= 0; s--) filter = select(t == s, branches[s], filter);
        green_filters(i, j, t, b) = filter;
        Expr symmetric = constant(0);
        for (int s = 0; s < kTransforms; s++) {
            Expr u = s >= 4 ? j : i, v = s >= 4 ? i : j;
            symmetric += chroma_base(s & 1 ? kTaps - 1 - u : u, s & 2 ? kTaps - 1 - v : v);
        }
        chroma_filter(i, j) = symmetric / kTransforms;

        r = Halide::RDom(0, kTaps, 0, kTaps, "ld_r");
        candidate(x, y, t, b) = constant(0);
        candidate(x, y, t, b) += green_filters(r.x, r.y, t, b) * input(x + r.x - 2, y + r.y - 2);
        candidate_plane(x, y, t, b) = select(green_site, input(x, y), candidate(x, y, t, b));

        // AHD keeps the direction whose interpolation is locally most homogeneous; relaxed, each
        // filter's weight falls as a power of its plane's local gradient energy.
        Expr dx = candidate_plane(x + 1, y, t, b) - candidate_plane(x - 1, y, t, b);
        Expr dy = candidate_plane(x, y + 1, t, b) - candidate_plane(x, y - 1, t, b);
        gradient_energy(x, y, t, b) = dx * dx + dy * dy;
        Expr box = constant(0);
        for (int v = -1; v <= 1; v++)
            for (int u = -1; u <= 1; u++) box += gradient_energy(x + u, y + v, t, b);
        energy(x, y, t, b) = box / 9;
        logit(x, y, t, b) =
            -selectivity(b) * Halide::log(energy(x, y, t, b) + constant(kEnergyEpsilon));
        // The softmax less the pixel's largest exponent, so exp cannot overflow.
        Expr largest = logit(x, y, 0, 0);
        for (int k = 1; k < K; k++)
            largest = Halide::max(largest, logit(x, y, k % kTransforms, k / kTransforms));
        exp_logit(x, y, t, b) = Halide::exp(logit(x, y, t, b) - largest);
        rk = Halide::RDom(0, kTransforms, 0, bases, "ld_rk");
        normalizer(x, y) = constant(0);
        normalizer(x, y) += exp_logit(x, y, rk.x, rk.y);
        blended(x, y) = constant(0);
        blended(x, y) += exp_logit(x, y, rk.x, rk.y) * candidate(x, y, rk.x, rk.y);
        green(x, y) = select(green_site, input(x, y), blended(x, y) / normalizer(x, y));

        // Red and blue: green plus the interpolated colour differences (which vary slowly).
        Expr site = select(c == 0, red_site, blue_site);
        difference(x, y, c) = select(site, input(x, y) - green(x, y), constant(0));
        chroma(x, y, c) = constant(0);
        chroma(x, y, c) += chroma_filter(r.x, r.y) * difference(x + r.x - 2, y + r.y - 2, c);
        output(x, y, c) =
            green(x, y) + select(c == 0, chroma(x, y, 0), c == 2, chroma(x, y, 1), constant(0));

        Expr w = mosaic.dim(0).extent(), h = mosaic.dim(1).extent();
        Halide::RDom p(margin, w - 2 * margin, margin, h - 2 * margin, 0, 3, "ld_p");
        Expr e = output(p.x, p.y, p.z) - target(p.x, p.y, p.z);
        loss() = constant(0);
        loss() += e * e / cast(type, 3 * (w - 2 * margin) * (h - 2 * margin));

        derivative = std::make_shared<const Halide::Derivative>(Halide::propagate_adjoints(loss));
        const Halide::Derivative &d = *derivative;
        d_green_bases = d(green_bases.name());
        d_chroma_base = d(chroma_base.name());
        d_selectivity = d(selectivity.name());
    }

    /// The forward stages, producers first (the output and the loss apart).
    std::vector<Halide::Func> stages() const {
        return {input,           green_filters, chroma_filter, candidate, candidate_plane,
                gradient_energy, energy,        logit,         exp_logit, normalizer,
                blended,         green,         difference,    chroma};
    }

    /// The adjoints of the forward stages, the output and the loss that propagate_adjoints made
    /// (those of every definition), consumers first.
    std::vector<Halide::Func> adjoints() const {
        std::vector<Halide::Func> forward = stages();
        forward.push_back(output);
        forward.push_back(loss);
        std::vector<Halide::Func> out;
        std::set<std::string> seen;
        for (auto f = forward.rbegin(); f != forward.rend(); ++f)
            for (int u = f->num_update_definitions() - 1; u >= -1; u--) {
                Halide::Func a = (*derivative)(*f, u);
                if (a.defined() && seen.insert(a.name()).second) out.push_back(a);
            }
        return out;
    }

    /// No schedule: every stage inlined into its consumers, the reductions computed where they
    /// are used. Each output pixel then re-evaluates every filter's 25 taps some 20 000 times
    /// (the chroma taps, the softmax over K filters, the energies' 36 plane reads): correct, but
    /// far too slow to use (minutes for a 26 x 22 image's forward pass).
    void schedule_default() {}

    /// Breadth-first: every forward stage and every adjoint at root, serial and scalar; nothing
    /// recomputed. The baseline the other schedules are checked against.
    void schedule_root() {
        for (Halide::Func f : stages()) f.compute_root();
        output.compute_root();
        for (Halide::Func f : adjoints()) f.compute_root();
    }

    /// The CPU schedule of the training step (forward and backward; images at least `vec`
    /// pixels wide). Breadth-first, as schedule_root, each stage over the whole image: rows in
    /// parallel, vectors of `vec` pixels along x, every filter (t, b) of a row in one task. The
    /// mirrored mosaic is computed once (dense loads for the 25 taps); the candidate planes
    /// (a select) and the 3 x 3 energy box are inlined into their single consumers, as is the
    /// colour difference into the chroma sums. The backward pass mirrors it: every image-shaped
    /// adjoint at root in the same order; the parameter-gradient wrappers at root, parallel
    /// over their taps, each tap's sum over the image serial (its reduction is a Func
    /// propagate_adjoints makes and does not return).
    void schedule_cpu(int vec = 8, int rows_per_task = 8) {
        green_filters.compute_root();
        chroma_filter.compute_root();
        input.compute_root().parallel(input.args()[1]).vectorize(input.args()[0], vec);
        auto rows = [&](Halide::Func f) {
            std::vector<Halide::Var> a = f.args();
            Halide::Func g = f.compute_root();
            if (a.size() > 2) {
                std::vector<Halide::VarOrRVar> order(a.begin(), a.end());
                order.erase(order.begin() + 1);
                order.push_back(a[1]);
                g.reorder(order);
            }
            g.parallel(a[1], rows_per_task).vectorize(a[0], vec);
        };
        for (Halide::Func f : {candidate, gradient_energy, logit, exp_logit, normalizer, blended,
                               green, chroma, output})
            rows(f);
        candidate.update()
            .reorder(x, r.x, r.y, t, b, y)
            .parallel(y, rows_per_task)
            .vectorize(x, vec);
        normalizer.update().reorder(x, rk.x, rk.y, y).parallel(y, rows_per_task).vectorize(x, vec);
        blended.update().reorder(x, rk.x, rk.y, y).parallel(y, rows_per_task).vectorize(x, vec);
        chroma.update().reorder(x, r.x, r.y, c, y).parallel(y, rows_per_task).vectorize(x, vec);

        const std::vector<std::string> parameters = {
            (*derivative)(green_filters).name(), (*derivative)(chroma_filter).name(),
            d_green_bases.name(), d_chroma_base.name(), d_selectivity.name()};
        for (Halide::Func f : adjoints()) {
            std::vector<Halide::Var> a = f.args();
            bool parameter =
                std::find(parameters.begin(), parameters.end(), f.name()) != parameters.end();
            if (a.size() < 2) {
                f.compute_root();
            } else if (parameter) {
                f.compute_root().parallel(a[1]);
            } else {
                rows(f);
            }
        }
        for (Halide::Func f : {d_green_bases, d_chroma_base, d_selectivity}) f.compute_root();
    }

    /// The Li2018 autoscheduler's "compute_root" parameter for the training pipeline: the
    /// adjoints of the candidates and of the gradient energy. Li2018 would inline them (each
    /// has one consumer), and the sum over the image that makes each of the 25 x K filter taps'
    /// gradient would then recompute the chain behind them (the energy box, the differences,
    /// the softmax) for every tap: 11x slower at 96 x 320.
    std::string li2018_compute_root() const {
        return (*derivative)(candidate, 0).name() + "," + (*derivative)(gradient_energy).name();
    }

    /// The loss and its gradient in one pipeline (one training step's forward and backward).
    Halide::Pipeline training_pipeline() {
        return Halide::Pipeline({loss, d_green_bases, d_chroma_base, d_selectivity});
    }
};

#endif
