// The "Li2018" autoscheduler (src/autoschedule/li2018) on gradient pipelines: each scheduled
// pipeline computes what the unscheduled one computes (and, for the stencil loss, what naive C++
// loops compute), and the schedule takes the paper's decisions: roots for reductions, scatters
// and Funcs read twice, 16 x 16 parallel tiles, rfactor for a large reduction into few points
// (a scalar loss, a convolution weight's gradient), scatters parallel over an RVar that writes
// distinct elements. The forward pipelines of tests/autoschedule are checked under Li2018 in
// tests/correctness/autoschedule.cpp.
#include <loom/loom.h>

#include "common/finite_difference.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <functional>
#include <regex>
#include <string>

using namespace loom;
using namespace loom_test;

namespace {

Var x("x"), y("y"), c("c");

/// Outputs of one build of a pipeline (a fresh set of Funcs per call), and the Funcs a test
/// looks up in the schedule source by their name in the algorithm (a process names the second
/// Func "bx" "bx$2").
struct Built {
    std::vector<Func> outputs;
    std::map<std::string, Func> funcs;
};

/// The identifier the schedule source gives Func f.
std::string ident(const Func &f) {
    std::string s = f.name();
    for (char &ch : s) {
        if (!std::isalnum((unsigned char)ch)) ch = '_';
    }
    return s;
}

/// Applies Li2018 to one build, realizes both builds over `sizes` (one entry per output) and
/// returns the scheduled build's schedule source (and the build, in `scheduled_out`). `tolerance`
/// is relative to the largest magnitude of each output (reductions are summed in another order).
std::string check_against_unscheduled(const std::function<Built()> &build,
                                      const std::vector<std::vector<int>> &sizes, double tolerance,
                                      const std::map<std::string, std::string> &extra = {},
                                      Built *scheduled_out = nullptr) {
    Built scheduled = build(), reference = build();
    if (scheduled_out) *scheduled_out = scheduled;
    AutoSchedulerResults r =
        Pipeline(scheduled.outputs).apply_autoscheduler(Target("host"), {"Li2018", extra});
    for (size_t i = 0; i < scheduled.outputs.size(); i++) {
        Buffer<double> got = scheduled.outputs[i].realize(sizes[i]);
        Buffer<double> want = reference.outputs[i].realize(sizes[i]);
        double scale = 0, worst = 0;
        want.for_each_value([&](double v) { scale = std::max(scale, std::fabs(v)); });
        for (int k = 0; k < (int)want.number_of_elements(); k++) {
            worst = std::max(worst, std::fabs(got.data()[k] - want.data()[k]));
        }
        EXPECT_LE(worst, tolerance * std::max(scale, 1e-30))
            << scheduled.outputs[i].name() << " (largest magnitude " << scale << ")\n"
            << r.schedule_source;
    }
    return r.schedule_source;
}

/// The text of the schedule chain that starts with `head` (e.g. "d_in\n" or "loss.update(0)"),
/// up to its ';'; empty when there is none.
std::string chain(const std::string &source, const std::string &head) {
    const size_t at = source.find("    " + head);
    if (at == std::string::npos) return "";
    return source.substr(at, source.find(';', at) - at);
}

constexpr int W = 203, H = 141;

/// A separable [1 2 1]/4 blur of repeat_edge(in), and loss() = sum(blur * weight) over W x H.
struct StencilLoss {
    Buffer<double> in = random_buffer<double>({W, H}, 11);
    Buffer<double> weight = random_buffer<double>({W, H}, 12);

    Built build() const {
        Func e = BoundaryConditions::repeat_edge(in);
        Func bx("bx"), by("by"), loss("loss");
        bx(x, y) = (e(x - 1, y) + 2.0 * e(x, y) + e(x + 1, y)) / 4.0;
        by(x, y) = (bx(x, y - 1) + 2.0 * bx(x, y) + bx(x, y + 1)) / 4.0;
        RDom r(0, W, 0, H, "r");
        loss() = Expr(0.0);
        loss() += by(r.x, r.y) * weight(r.x, r.y);
        Derivative d = propagate_adjoints(loss);
        Func d_in = d(in);
        loss.set_estimates({});
        d_in.set_estimates({{0, W}, {0, H}});
        return {{loss, d_in}, {{"bx", bx}, {"by", by}, {"loss", loss}, {"d_in", d_in}}};
    }
};

} // namespace

TEST(AutoscheduleLi2018, StencilLossMatchesNaiveLoops) {
    StencilLoss p;
    Built b = p.build();
    Pipeline(b.outputs).apply_autoscheduler(Target("host"), {"Li2018"});
    Buffer<double> loss = b.outputs[0].realize(std::vector<int>{});
    Buffer<double> d_in = b.outputs[1].realize({W, H});

    // Naive loops: the forward sum, and each point's weight scattered through the two blurs'
    // taps into the clamped input pixel it reads.
    auto clampi = [](int v, int hi) { return std::min(std::max(v, 0), hi - 1); };
    const double taps[3] = {0.25, 0.5, 0.25};
    double want_loss = 0;
    std::vector<double> want_d(W * H, 0.0);
    for (int yy = 0; yy < H; yy++) {
        for (int xx = 0; xx < W; xx++) {
            double blurred = 0;
            for (int ty = -1; ty <= 1; ty++) {
                for (int tx = -1; tx <= 1; tx++) {
                    const int sx = clampi(xx + tx, W), sy = clampi(yy + ty, H);
                    const double k = taps[tx + 1] * taps[ty + 1];
                    blurred += k * p.in(sx, sy);
                    want_d[sy * W + sx] += k * p.weight(xx, yy);
                }
            }
            want_loss += blurred * p.weight(xx, yy);
        }
    }
    EXPECT_NEAR(loss(), want_loss, 1e-9 * std::fabs(want_loss));
    int bad = 0;
    for (int yy = 0; yy < H; yy++) {
        for (int xx = 0; xx < W; xx++) {
            if (std::fabs(d_in(xx, yy) - want_d[yy * W + xx]) > 1e-12 && bad++ < 5) {
                ADD_FAILURE() << "d_in(" << xx << ", " << yy << ") = " << d_in(xx, yy)
                              << ", naive loops " << want_d[yy * W + xx];
            }
        }
    }
}

TEST(AutoscheduleLi2018, StencilLossSchedule) {
    StencilLoss p;
    Built b;
    std::string src =
        check_against_unscheduled([&] { return p.build(); }, {{}, {W, H}}, 1e-12, {}, &b);
    // The loss is a scalar: its reduction over W x H becomes a parallel rfactor.
    const std::string loss = ident(b.funcs["loss"]);
    EXPECT_NE(chain(src, loss + ".update(0)").find(".split("), std::string::npos) << src;
    EXPECT_NE(src.find("= " + loss + ".update(0).rfactor({"), std::string::npos) << src;
    const std::string intm = chain(src, loss + "_intm.update(0)");
    EXPECT_NE(intm.find(".parallel(strip)"), std::string::npos) << src;
    EXPECT_NE(intm.find(".vectorize(lane)"), std::string::npos) << src;
    // The input's gradient is an output: tiled 16 x 16 (its Vars are the Buffer's, _0 and _1
    // in the source), vectorized, parallel.
    const std::string d = chain(src, ident(b.funcs["d_in"]) + "\n");
    EXPECT_NE(d.find(".compute_root()"), std::string::npos) << src;
    const size_t first = d.find("_i, 16, ");
    ASSERT_NE(first, std::string::npos) << src;
    EXPECT_NE(d.find("_i, 16, ", first + 1), std::string::npos) << src;
    EXPECT_NE(d.find(".vectorize("), std::string::npos) << src;
    EXPECT_NE(d.find(".parallel("), std::string::npos) << src;
    // bx and by are read by one Func each: inlined (not scheduled at all).
    EXPECT_EQ(src.find("    " + ident(b.funcs["bx"]) + "\n"), std::string::npos) << src;
    EXPECT_EQ(src.find("    " + ident(b.funcs["by"]) + "\n"), std::string::npos) << src;
}

TEST(AutoscheduleLi2018, ConvolutionWeightGradientIsAParallelReduction) {
    // out(x, y, co) = sum over (kx, ky, ci) of w(kx, ky, ci, co) * in(x + kx - 1, y + ky - 1, ci),
    // the input zero outside; loss = sum(out * out) / 2. d_w has 3 x 3 x 4 x 3 points, each a
    // sum over the image: rfactor'd. d_in is an image: tiled. (A small image: the unscheduled
    // reference recomputes the input's gathered adjoint over the whole image per point.)
    const int W = 48, H = 40, Ci = 4, Co = 3;
    Buffer<double> in = random_buffer<double>({W, H, Ci}, 21);
    Buffer<double> w = random_buffer<double>({3, 3, Ci, Co}, 22);
    auto build = [&] {
        Func e = BoundaryConditions::constant_exterior(in, Expr(0.0));
        RDom k(0, 3, 0, 3, 0, Ci, "k");
        Func conv("conv"), loss("loss");
        conv(x, y, c) = Expr(0.0);
        conv(x, y, c) += w(k.x, k.y, k.z, c) * e(x + k.x - 1, y + k.y - 1, k.z);
        RDom r(0, W, 0, H, 0, Co, "r");
        loss() = Expr(0.0);
        loss() += conv(r.x, r.y, r.z) * conv(r.x, r.y, r.z) / 2.0;
        Derivative d = propagate_adjoints(loss);
        Func d_w = d(w), d_in = d(in);
        loss.set_estimates({});
        d_w.set_estimates({{0, 3}, {0, 3}, {0, Ci}, {0, Co}});
        d_in.set_estimates({{0, W}, {0, H}, {0, Ci}});
        return Built{{loss, d_w, d_in}, {{"loss", loss}, {"conv", conv}}};
    };
    Built b;
    std::string src = check_against_unscheduled(build, {{}, {3, 3, Ci, Co}, {W, H, Ci}}, 1e-12,
                                                {{"parallelism", "4"}}, &b);
    EXPECT_NE(src.find("= " + ident(b.funcs["loss"]) + ".update(0).rfactor({"), std::string::npos)
        << src;
    // conv has an update: a root, tiled.
    EXPECT_NE(chain(src, ident(b.funcs["conv"]) + "\n").find(".parallel("), std::string::npos)
        << src;
    // The weight gradient's sums over the image are rfactor'd too.
    size_t rfactors = 0;
    for (size_t at = src.find(".rfactor("); at != std::string::npos;
         at = src.find(".rfactor(", at + 1)) {
        rfactors++;
    }
    EXPECT_GE(rfactors, 2u) << src;
}

TEST(AutoscheduleLi2018, LongReductionKeepsItsTileInsideTheRVars) {
    // A 1 x 1 convolution with 32 channels in and out over a 64 x 64 image: the weight's
    // gradient, d_w(ci, co) = sum over the pixels of in(x, y, ci) * d_out(x, y, co), has 32 x 32
    // points (two 16-point tiles each way), each a sum over 4096 pixels. The tile's second loop
    // runs inside the RVars (one sweep of the image per tile, its 16 x 16 accumulators kept),
    // not outside them (16 sweeps per tile).
    const int W = 64, H = 64, C = 32;
    Buffer<double> in = random_buffer<double>({W, H, C}, 23);
    Buffer<double> w = random_buffer<double>({C, C}, 24);
    auto build = [&] {
        RDom k(0, C, "k");
        Func conv("pointwise"), loss("loss");
        conv(x, y, c) = Expr(0.0);
        conv(x, y, c) += w(k, c) * in(x, y, k);
        RDom r(0, W, 0, H, 0, C, "r");
        loss() = Expr(0.0);
        loss() += conv(r.x, r.y, r.z) * conv(r.x, r.y, r.z) / 2.0;
        Func d_w = propagate_adjoints(loss)(w);
        loss.set_estimates({});
        d_w.set_estimates({{0, C}, {0, C}});
        return Built{{loss, d_w}, {{"loss", loss}}};
    };
    // (Parallelism 2: four tiles are enough tasks, so the sum is tiled, not rfactor'd.)
    std::string src = check_against_unscheduled(build, {{}, {C, C}}, 1e-12, {{"parallelism", "2"}});
    // The sum's update: reorder(<one tile loop>_i, <the other>_i, the RVars..., outer loops).
    const std::regex tile_inside(
        "\\.reorder\\((x0|x1)_i, (x0|x1)_i, [A-Za-z0-9_]*_r_x, [A-Za-z0-9_]*_r_y");
    EXPECT_TRUE(std::regex_search(src, tile_inside)) << src;
}

TEST(AutoscheduleLi2018, ScatterRunsInParallelOverItsChannelRVar) {
    // A warp by a data-dependent flow: the input's gradient is a scatter over the output's
    // points, whose channel RVar writes distinct planes: parallel over it, results exact.
    const int C = 5;
    Buffer<double> in = random_buffer<double>({W, H, C}, 31);
    Buffer<double> flow = random_buffer<double>({W, H}, 32, -3.0, 3.0);
    auto build = [&] {
        Func warped("warped"), loss("loss");
        Expr sx = clamp(x + cast<int>(floor(flow(x, y))), 0, W - 1);
        Expr sy = clamp(y - cast<int>(floor(flow(x, y))), 0, H - 1);
        warped(x, y, c) = in(sx, sy, c) * (1.0 + c);
        RDom r(0, W, 0, H, 0, C, "r");
        loss() = Expr(0.0);
        loss() += warped(r.x, r.y, r.z) * warped(r.x, r.y, r.z);
        Derivative d = propagate_adjoints(loss);
        Func d_in = d(in);
        loss.set_estimates({});
        d_in.set_estimates({{0, W}, {0, H}, {0, C}});
        return Built{{loss, d_in}, {{"d_in", d_in}}};
    };
    Built b;
    std::string src = check_against_unscheduled(build, {{}, {W, H, C}}, 1e-12, {}, &b);
    // Some update of the input's gradient is parallel over an RVar (the scatter's channel).
    const Func d_in = b.funcs["d_in"];
    ASSERT_GT(d_in.num_update_definitions(), 0);
    bool parallel_scatter = false;
    for (int u = 0; u < d_in.num_update_definitions(); u++) {
        const std::string text = chain(src, ident(d_in) + ".update(" + std::to_string(u) + ")");
        parallel_scatter |= text.find(".parallel(") != std::string::npos;
    }
    EXPECT_TRUE(parallel_scatter) << src;
}

TEST(AutoscheduleLi2018, BilinearScatterUnrollsItsTapsInnermost) {
    // A bilinear warp read through a 2 x 2 tap RDom: the input's gradient is one scatter over
    // the output's points and the taps; the taps (a constant 2 x 2) run innermost, unrolled,
    // the channels in parallel, and the result is exact.
    const int C = 3;
    Buffer<double> in = random_buffer<double>({W, H, C}, 33);
    Buffer<double> flow = random_buffer<double>({W, H}, 34, -3.0, 3.0);
    auto build = [&] {
        Func sample("sample"), loss("loss");
        Expr sx = x + flow(x, y), fx = floor(sx);
        Expr ix = cast<int>(fx), wx = sx - fx;
        RDom tap(0, 2, 0, 2, "tap");
        sample(x, y, c) = Expr(0.0);
        sample(x, y, c) += select(tap.x == 0, 1 - wx, wx) * (tap.y + 1.0) *
                           in(clamp(ix + tap.x, 0, W - 1), clamp(y + tap.y, 0, H - 1), c);
        RDom r(0, W, 0, H, 0, C, "r");
        loss() = Expr(0.0);
        loss() += sample(r.x, r.y, r.z) * sample(r.x, r.y, r.z);
        Derivative d = propagate_adjoints(loss);
        Func d_in = d(in);
        loss.set_estimates({});
        d_in.set_estimates({{0, W}, {0, H}, {0, C}});
        return Built{{loss, d_in}, {{"d_in", d_in}}};
    };
    Built b;
    std::string src = check_against_unscheduled(build, {{}, {W, H, C}}, 1e-12, {}, &b);
    const Func d_in = b.funcs["d_in"];
    ASSERT_EQ(d_in.num_update_definitions(), 1) << "one scatter for the four taps";
    // The scatter's RVars are autodiff's: find the two unrolled ones, first in the reorder.
    const std::string text = chain(src, ident(d_in) + ".update(0)");
    std::vector<std::string> unrolled;
    for (size_t at = text.find(".unroll("); at != std::string::npos;
         at = text.find(".unroll(", at + 1)) {
        const size_t open = at + 8;
        unrolled.push_back(text.substr(open, text.find(')', open) - open));
    }
    ASSERT_EQ(unrolled.size(), 2u) << src;
    const size_t reorder = text.find(".reorder(");
    ASSERT_NE(reorder, std::string::npos) << src;
    const std::string innermost = text.substr(reorder + 9, text.find(',', reorder) - reorder - 9);
    EXPECT_TRUE(innermost == unrolled[0] || innermost == unrolled[1]) << src;
    EXPECT_NE(text.find(".parallel("), std::string::npos) << src;
}

TEST(AutoscheduleLi2018, ScanStaysSerialAndCorrect) {
    // A recursive filter (a scan over an RVar) and its reversed-scan gradient.
    const int N = 3000;
    Buffer<double> in = random_buffer<double>({N}, 41);
    auto build = [&] {
        Func f("f"), loss("loss");
        RDom s(1, N - 1, "s");
        f(x) = in(x);
        f(s) = f(s - 1) * 0.9 + in(s);
        RDom r(0, N, "r");
        loss() = Expr(0.0);
        loss() += f(r) * f(r);
        Derivative d = propagate_adjoints(loss);
        Func d_in = d(in);
        loss.set_estimates({});
        d_in.set_estimates({{0, N}});
        return Built{{loss, d_in}};
    };
    check_against_unscheduled(build, {{}, {N}}, 1e-12);
}

TEST(AutoscheduleLi2018, UserOverridesInlineAndComputeRoot) {
    StencilLoss p;
    // The names the next build gives bx and by.
    Built probe = p.build();
    const std::string last = probe.funcs["bx"].name();
    const int next = (last == "bx" ? 0 : std::stoi(last.substr(3))) + 1;
    const std::string bx = "bx$" + std::to_string(next), by = "by$" + std::to_string(next);
    Built b;
    std::string src =
        check_against_unscheduled([&] { return p.build(); }, {{}, {W, H}}, 1e-12,
                                  {{"compute_root", bx}, {"inline", by}, {"parallelism", "4"}}, &b);
    ASSERT_EQ(b.funcs["bx"].name(), bx);
    EXPECT_NE(chain(src, ident(b.funcs["bx"]) + "\n").find(".compute_root()"), std::string::npos)
        << src;
    EXPECT_NE(src.find("parallelism=4"), std::string::npos) << src;
}

TEST(AutoscheduleLi2018, ArgminStaysSerialAndCorrect) {
    // argmin over a large domain into one point: associative, but it keeps the first minimum
    // in loop order, so it is not rfactor'd into lanes (which would change which one it keeps).
    const int N = 20000;
    Buffer<double> in = random_buffer<double>({N}, 51);
    for (int i = 0; i < N; i += 1000) in(i) = -5.0; // ties: the first one must win
    auto build = [&] {
        RDom r(0, N, "r");
        Func best("best");
        best() = argmin(r, in(r));
        Func index("index");
        index() = cast<double>(best()[0]);
        index.set_estimates({});
        return Built{{index}, {}};
    };
    std::string src = check_against_unscheduled(build, {{}}, 0);
    EXPECT_EQ(src.find(".rfactor("), std::string::npos) << src;
    Built b = build();
    Buffer<double> first = b.outputs[0].realize(std::vector<int>{});
    EXPECT_EQ(first(), 0.0);
}

TEST(AutoscheduleLi2018, ExponentialInliningIsCheckpointed) {
    // Each level reads the one below at two points and has one consumer: inlined all the way,
    // the last level's body would hold 2^14 reads of the input. Li2018 puts the levels where
    // the inlined body grows past its limit at root, and the result is unchanged.
    const int levels = 14, n = 64;
    auto build = [&] {
        Buffer<double> in = random_buffer<double>({n + 2 * levels}, 31);
        std::vector<Func> f(levels + 1);
        f[0](x) = in(x + levels);
        for (int j = 1; j <= levels; j++) {
            f[j] = Func("level" + std::to_string(j));
            f[j](x) = 0.5 * f[j - 1](x - 1) + 0.25 * f[j - 1](x + 1);
        }
        f[levels].set_estimates({{0, n}});
        Built b{{f[levels]}, {}};
        for (int j = 1; j <= levels; j++) b.funcs["level" + std::to_string(j)] = f[j];
        return b;
    };
    Built scheduled;
    std::string source = check_against_unscheduled(build, {{n}}, 1e-12, {}, &scheduled);
    int roots = 0;
    for (int j = 1; j < levels; j++) {
        roots += chain(source, ident(scheduled.funcs["level" + std::to_string(j)]) + "\n")
                     .find("compute_root") != std::string::npos;
    }
    // The body doubles with each level, so a level at root about every 11 (2^11 > 2000 nodes).
    EXPECT_GE(roots, 1) << source;
    EXPECT_LE(roots, 3) << source;
}
