// The learned demosaick app (apps/learned_demosaick): the forward pass and loss against the
// plain-loops reference in double, the gradient with respect to every parameter against central
// finite differences of the reference's loss, the CPU and Li2018 schedules against the
// breadth-first one (every stage at root: with no schedule at all the stages are inlined and a
// 26 x 22 forward pass takes minutes), and a short Adam run that lowers the loss at every step
// and raises the PSNR (measured by the reference). On a synthetic scene: the tests link no PNG
// library (apps/learned_demosaick/train.cpp trains on the photograph). LOOM_APP_REPORT=1 prints
// the training run's loss and PSNR.
#include "Halide.h"

#include "learned_demosaick/learned_demosaick.h"
#include "learned_demosaick/reference.h"

#include "common/finite_difference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

using namespace Halide;
using namespace learned_demosaick_detail;
using loom_test::to_buffer;
using loom_test::to_vector;

namespace {

/// A deterministic w x h x 3 scene in [0.05, 0.95] with what demosaicking finds hard: a zone
/// plate (fine rings at every orientation), a sharp diagonal edge between two colours, and
/// thin coloured lines, over smooth colour ramps.
std::vector<double> make_scene(int w, int h, uint32_t seed) {
    std::vector<double> rgb((size_t)w * h * 3);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> phase(0, 6.28);
    const double p = phase(rng), q = phase(rng);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double r2 = ((x - 0.3 * w) * (x - 0.3 * w) + (y - 0.6 * h) * (y - 0.6 * h)) / w;
            double ring = 0.5 + 0.5 * std::cos(1.1 * r2 + p);
            bool beyond = 2 * x + y > w + h / 2;
            double base[3] = {0.2 + 0.5 * x / w, 0.3 + 0.3 * std::sin(0.2 * y + q),
                              0.7 - 0.4 * y / h};
            for (int c = 0; c < 3; c++) {
                double v = 0.6 * base[c] + 0.4 * ring * (c == 1 ? 1.0 : 0.8);
                if (beyond) v = 1 - 0.8 * v;
                if (x % 11 == 3 && c != 2) v = 0.9;
                rgb[((size_t)c * h + y) * w + x] = std::min(0.95, std::max(0.05, v));
            }
        }
    return rgb;
}

/// The parameters: the initial ones, optionally perturbed (so no filter keeps a symmetry and
/// the chroma base is not symmetric; the pipeline must symmetrize it).
template <typename T>
struct Params {
    Buffer<T> green, chroma, selectivity;
    Params(int bases, double perturbation, uint32_t seed)
        : green(5, 5, bases), chroma(5, 5), selectivity(bases) {
        initial_parameters(green, chroma, selectivity);
        std::mt19937 rng(seed);
        std::uniform_real_distribution<double> d(-perturbation, perturbation);
        for (Buffer<T> *p : {&green, &chroma, &selectivity})
            for (size_t e = 0; e < p->number_of_elements(); e++) p->data()[e] += (T)d(rng);
    }
    template <typename U>
    Params<U> as() const {
        Params<U> out(selectivity.dim(0).extent(), 0, 0);
        out.green = to_buffer<U>(to_vector(green), {5, 5, green.dim(2).extent()});
        out.chroma = to_buffer<U>(to_vector(chroma), {5, 5});
        out.selectivity = to_buffer<U>(to_vector(selectivity), {selectivity.dim(0).extent()});
        return out;
    }
};

/// A crop of the scene, its mosaic, and the pipeline bound to both.
struct Case {
    int w, h;
    std::vector<double> rgb, mosaic;
    Case(int w_, int h_, uint32_t seed) : w(w_), h(h_), rgb(make_scene(w_, h_, seed)) {
        mosaic = mosaic_reference(rgb.data(), w, h);
    }
    std::vector<double> reference(const Params<double> &p) const {
        std::vector<double> out(rgb.size());
        learned_demosaick_reference(mosaic.data(), w, h, p.green.data(), p.green.dim(2).extent(),
                                    p.chroma.data(), p.selectivity.data(), out.data());
        return out;
    }
    double reference_loss(const Params<double> &p, int margin) const {
        std::vector<double> out = reference(p);
        return loss_reference(out.data(), rgb.data(), w, h, margin);
    }
    template <typename T>
    void bind(LearnedDemosaickPipeline &pipe, const Params<T> &p, Buffer<T> &mosaic_buf,
              Buffer<T> &target_buf) const {
        mosaic_buf = to_buffer<T>(mosaic, {w, h});
        target_buf = to_buffer<T>(rgb, {w, h, 3});
        pipe.mosaic.set(mosaic_buf);
        pipe.target.set(target_buf);
        pipe.green_bases.set(p.green);
        pipe.chroma_base.set(p.chroma);
        pipe.selectivity.set(p.selectivity);
    }
};

/// max |got - expected| / max(floor, |expected|).
double max_error(const std::vector<double> &got, const std::vector<double> &expected,
                 double floor = 1.0) {
    EXPECT_EQ(got.size(), expected.size());
    double worst = 0;
    for (size_t e = 0; e < expected.size(); e++)
        worst = std::max(worst,
                         std::fabs(got[e] - expected[e]) / std::max(floor, std::fabs(expected[e])));
    return worst;
}

template <typename T>
struct Gradient {
    double loss;
    Buffer<T> green, chroma, selectivity;
    std::vector<double> all() const {
        std::vector<double> v = to_vector(green), c = to_vector(chroma), s = to_vector(selectivity);
        v.insert(v.end(), c.begin(), c.end());
        v.insert(v.end(), s.begin(), s.end());
        return v;
    }
};

template <typename T>
Gradient<T> run_training_pipeline(Pipeline &pipeline, int bases) {
    Gradient<T> g{0, Buffer<T>(5, 5, bases), Buffer<T>(5, 5), Buffer<T>(bases)};
    Buffer<T> loss = Buffer<T>::make_scalar();
    pipeline.realize({loss, g.green, g.chroma, g.selectivity});
    g.loss = loss();
    return g;
}

} // namespace

TEST(LearnedDemosaickApp, ForwardMatchesReferenceInDouble) {
    // Two bases (16 filters), perturbed: every symmetry and both base indices are exercised.
    const int bases = 2, margin = 6;
    Case k(26, 22, 1);
    Params<double> params(bases, 0.05, 2);
    LearnedDemosaickPipeline p(Float(64), bases, margin);
    p.schedule_root();
    Buffer<double> mosaic, target;
    k.bind(p, params, mosaic, target);
    Buffer<double> out = p.output.realize({k.w, k.h, 3});
    std::vector<double> expected = k.reference(params);
    EXPECT_LE(max_error(to_vector(out), expected), 1e-12);
    Buffer<double> loss = p.loss.realize();
    double expected_loss = loss_reference(expected.data(), k.rgb.data(), k.w, k.h, margin);
    EXPECT_NEAR(loss(), expected_loss, 1e-12 * expected_loss);
    // Not vacuous: the demosaick is imperfect (the loss is not zero) yet close to the scene.
    EXPECT_GT(expected_loss, 1e-5);
    EXPECT_GT(psnr_reference(expected.data(), k.rgb.data(), k.w, k.h, margin), 20);
}

TEST(LearnedDemosaickApp, GradientMatchesFiniteDifferencesInDouble) {
    // Every parameter: central differences of the reference's loss (the loss is smooth in all
    // of them: the sites are fixed selects, the softmax is smooth, and its max-subtraction
    // cancels), step 1e-6.
    const int bases = 1, margin = 6;
    Case k(20, 18, 3);
    Params<double> params(bases, 0.05, 4);
    LearnedDemosaickPipeline p(Float(64), bases, margin);
    p.schedule_root();
    Buffer<double> mosaic, target;
    k.bind(p, params, mosaic, target);
    Pipeline training = p.training_pipeline();
    Gradient<double> g = run_training_pipeline<double>(training, bases);
    EXPECT_NEAR(g.loss, k.reference_loss(params, margin), 1e-12 * g.loss);

    std::vector<double> fd;
    const double step = 1e-6;
    for (Buffer<double> *b : {&params.green, &params.chroma, &params.selectivity})
        for (size_t e = 0; e < b->number_of_elements(); e++) {
            double saved = b->data()[e];
            b->data()[e] = saved + step;
            double up = k.reference_loss(params, margin);
            b->data()[e] = saved - step;
            double down = k.reference_loss(params, margin);
            b->data()[e] = saved;
            fd.push_back((up - down) / (2 * step));
        }
    std::vector<double> got = g.all();
    double largest = 0;
    for (double v : fd) largest = std::max(largest, std::fabs(v));
    // Relative to the largest component (seen: 2e-10): rounding in the differences is about
    // 1e-16 * loss / step, the truncation step^2 times the third derivative.
    EXPECT_LE(max_error(got, fd, largest), 1e-8);
    EXPECT_GT(largest, 1e-4);
}

TEST(LearnedDemosaickApp, SchedulesMatchBreadthFirst) {
    // Float, as trained: the CPU schedule against breadth-first, and the float forward against
    // the double reference. Then in double, "Li2018" (estimates at 48 x 40, large enough for its
    // 16 x 16 tiles and parallel reductions) against breadth-first: the same sums in other
    // orders.
    const int bases = 1, margin = 8;
    {
        Case k(45, 38, 5);
        Params<float> params(bases, 0.05, 6);
        Gradient<float> g[2];
        for (int scheduled = 0; scheduled < 2; scheduled++) {
            LearnedDemosaickPipeline p(Float(32), bases, margin);
            if (scheduled)
                p.schedule_cpu(8);
            else
                p.schedule_root();
            Buffer<float> mosaic, target;
            k.bind(p, params, mosaic, target);
            Pipeline training = p.training_pipeline();
            g[scheduled] = run_training_pipeline<float>(training, bases);
            Buffer<float> out = p.output.realize({k.w, k.h, 3});
            EXPECT_LE(max_error(to_vector(out), k.reference(params.as<double>())), 2e-6);
        }
        EXPECT_NEAR(g[1].loss, g[0].loss, 1e-5 * g[0].loss);
        std::vector<double> a = g[0].all(), b = g[1].all();
        double largest = 0;
        for (double v : a) largest = std::max(largest, std::fabs(v));
        EXPECT_LE(max_error(b, a, largest), 1e-5);
    }
    {
        const int w = 48, h = 40;
        Case k(w, h, 7);
        Params<double> params(bases, 0.05, 8);
        Gradient<double> g[2];
        for (int scheduled = 0; scheduled < 2; scheduled++) {
            LearnedDemosaickPipeline p(Float(64), bases, margin);
            Pipeline training = p.training_pipeline();
            if (scheduled) {
                p.mosaic.set_estimates({{0, w}, {0, h}});
                p.target.set_estimates({{0, w}, {0, h}, {0, 3}});
                p.green_bases.set_estimates({{0, 5}, {0, 5}, {0, bases}});
                p.chroma_base.set_estimates({{0, 5}, {0, 5}});
                p.selectivity.set_estimates({{0, bases}});
                p.d_green_bases.set_estimates({{0, 5}, {0, 5}, {0, bases}});
                p.d_chroma_base.set_estimates({{0, 5}, {0, 5}});
                p.d_selectivity.set_estimates({{0, bases}});
                p.loss.set_estimates({});
                const std::string source =
                    training
                        .apply_autoscheduler(
                            get_host_target(),
                            {"Li2018", {{"compute_root", p.li2018_compute_root()}}})
                        .schedule_source;
                EXPECT_NE(source.find(".rfactor({"), std::string::npos) << source;
            } else {
                p.schedule_root();
            }
            Buffer<double> mosaic, target;
            k.bind(p, params, mosaic, target);
            g[scheduled] = run_training_pipeline<double>(training, bases);
        }
        EXPECT_NEAR(g[1].loss, g[0].loss, 1e-12 * g[0].loss);
        std::vector<double> a = g[0].all(), b = g[1].all();
        double largest = 0;
        for (double v : a) largest = std::max(largest, std::fabs(v));
        EXPECT_LE(max_error(b, a, largest), 1e-12);
        EXPECT_GT(largest, 1e-4);
    }
}

TEST(LearnedDemosaickApp, TrainingLowersTheLossAndRaisesThePsnr) {
    // A few Adam steps in float (the CPU schedule) from the initial parameters on a crop of the
    // scene: the pipeline's loss falls at every step, and the reference, run on the parameters
    // before and after, measures a higher PSNR against the scene.
    const int bases = 1, margin = 8, steps = 8;
    Case k(40, 40, 9);
    Params<float> params(bases, 0, 0);
    const double before = -10 * std::log10(k.reference_loss(params.as<double>(), margin));
    LearnedDemosaickPipeline p(Float(32), bases, margin);
    p.schedule_cpu(8);
    Buffer<float> mosaic, target;
    k.bind(p, params, mosaic, target);
    Pipeline training = p.training_pipeline();
    AdamMoments moments[3];
    std::vector<double> losses;
    for (int step = 1; step <= steps; step++) {
        Gradient<float> g = run_training_pipeline<float>(training, bases);
        losses.push_back(g.loss);
        adam_step(params.green, g.green, moments[0], step, 2e-3);
        adam_step(params.chroma, g.chroma, moments[1], step, 2e-3);
        adam_step(params.selectivity, g.selectivity, moments[2], step, 2e-3);
    }
    losses.push_back(run_training_pipeline<float>(training, bases).loss);
    for (int step = 1; step <= steps; step++)
        EXPECT_LT(losses[step], losses[step - 1]) << "step " << step;
    const double after = -10 * std::log10(k.reference_loss(params.as<double>(), margin));
    EXPECT_GT(after, before + 0.1) << "PSNR " << before << " -> " << after;
    if (std::getenv("LOOM_APP_REPORT"))
        std::printf("loss %.6g -> %.6g, PSNR %.3f -> %.3f dB\n", losses.front(), losses.back(),
                    before, after);
}
