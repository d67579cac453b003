// Gradients through update definitions (checked against finite differences): sum, product and
// maximum reductions, a scan, a histogram-style scatter, partial updates, Params as inputs.
#include <loom/loom.h>

#include "common/finite_difference.h"
#include "common/lowered_text.h"
#include "common/stored_values.h"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace loom;
using namespace loom_test;

namespace {
Var x("x"), y("y");
}

TEST(AutodiffUpdates, SumReduction) {
    Buffer<double> in = random_buffer<double>({6, 5}, 21);
    in.set_name("in");
    RDom r(0, 5, "r");
    Func rows("rows");
    rows(x) = Expr(1.0);
    rows(x) += in(x, r) * in(x, r);
    Func loss = weighted_loss(rows, {6});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
    EXPECT_TRUE(d(rows, 0).defined());
    EXPECT_TRUE(d(rows, -1).defined());
}

TEST(AutodiffUpdates, ProductReduction) {
    Buffer<double> in = random_buffer<double>({4, 5}, 22, 0.5, 1.5);
    in.set_name("in");
    RDom r(0, 5, "r");
    Func prod("prod");
    prod(x) = in(x, 0);
    prod(x) = prod(x) * in(x, r);
    Func loss = weighted_loss(prod, {4});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
}

TEST(AutodiffUpdates, MaxReductionWithSelect) {
    Buffer<double> in = random_buffer<double>({4, 3, 2}, 23);
    in.set_name("in");
    RDom r(0, 3, 0, 2, "r");
    Func mx("mx");
    mx(x) = Expr(-10.0);
    mx(x) = select(in(x, r.x, r.y) > mx(x), in(x, r.x, r.y), mx(x));
    Func loss = weighted_loss(mx, {4});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
}

TEST(AutodiffUpdates, InlineReductions) {
    Buffer<double> in = random_buffer<double>({5, 4}, 24);
    in.set_name("in");
    RDom r(0, 4, "r");
    Func f("f");
    f(x) = sum(in(x, r) * 2.0) + maximum(in(x, r)) * product(in(x, r) + 2.0);
    Func loss = weighted_loss(f, {5});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
}

TEST(AutodiffUpdates, Scan) {
    Buffer<double> in = random_buffer<double>({8}, 25);
    in.set_name("in");
    RDom r(1, 7, "r");
    Func scan("scan");
    scan(x) = in(x);
    scan(r) = scan(r - 1) * 0.5 + sin(scan(r)) * in(r - 1);
    Func loss = weighted_loss(scan, {8});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
}

TEST(AutodiffUpdates, Scan2D) {
    // A recursive filter down the columns of each row.
    Buffer<double> in = random_buffer<double>({4, 6}, 26);
    in.set_name("in");
    RDom r(1, 5, "r");
    Func f("f");
    f(x, y) = in(x, y);
    f(x, r) = f(x, r - 1) * 0.7 + f(x, r) * f(x, r);
    Func loss = weighted_loss(f, {4, 6});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
}

TEST(AutodiffUpdates, Histogram) {
    // A weighted histogram: h(bin(i)) += w(i) is a scatter; its adjoint gathers.
    Buffer<double> vals = random_buffer<double>({20}, 27, 0.0, 1.0);
    Buffer<double> w = random_buffer<double>({20}, 28);
    vals.set_name("vals");
    w.set_name("w");
    RDom r(0, 20, "r");
    Func hist("hist");
    hist(x) = Expr(0.0);
    Expr bin = clamp(cast<int>(vals(r) * 8.0), 0, 7);
    hist(bin) += w(r) * vals(r);
    Func loss = weighted_loss(hist, {8});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, w, d(w));
    expect_gradient(loss, vals, d(vals), 1e-6, -1, 1e-7);
}

TEST(AutodiffUpdates, PartialUpdate) {
    // g(1) overwrites one point: no adjoint reaches f(1) through it (§4.2.2).
    Buffer<double> in = random_buffer<double>({6}, 29);
    in.set_name("in");
    Func f("f"), g("g"), h("h");
    f(x) = in(x)*in(x);
    g(x) = f(x);
    g(1) = Expr(2.0);
    g(3) = g(3) * in(0);
    h(x) = g(x) + g(x + 1);
    Func loss = weighted_loss(h, {5});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
}

TEST(AutodiffUpdates, RDomUpdateOfARange) {
    Buffer<double> in = random_buffer<double>({8}, 30);
    in.set_name("in");
    RDom r(2, 3, "r");
    Func f("f");
    f(x) = in(x);
    f(r) = exp(f(r)) + in(r + 1);
    Func loss = weighted_loss(f, {8});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
}

TEST(AutodiffUpdates, Params) {
    Buffer<double> in = random_buffer<double>({6}, 31, 0.5, 1.5);
    in.set_name("in");
    Param<double> gamma("gamma", 1.7), gain("gain", 0.3);
    Func f("f");
    f(x) = pow(in(x), gamma) * gain + gain * gain;
    Func loss = weighted_loss(f, {6});
    Derivative d = propagate_adjoints(loss);
    expect_param_gradient(loss, gamma, d(gamma));
    expect_param_gradient(loss, gain, d(gain));
    expect_gradient(loss, in, d(in));
}

TEST(AutodiffUpdates, BufferAdjointEntryPoint) {
    Buffer<double> in = random_buffer<double>({6}, 32);
    in.set_name("in");
    Func f("f");
    f(x) = in(x)*in(x + 1);
    Buffer<float> adj(5);
    for (int i = 0; i < 5; i++) adj(i) = (float)(i + 1);
    Derivative d = propagate_adjoints(f, adj);
    Buffer<double> g = d(in).realize({6});
    for (int i = 0; i < 6; i++) {
        double e = (i < 5 ? (i + 1) * in(i + 1) : 0.0) + (i > 0 ? i * in(i - 1) : 0.0);
        EXPECT_NEAR(g(i), e, 1e-12) << i;
    }
}

TEST(AutodiffUpdates, HessianVectorProduct) {
    // Second order: the gradient Funcs are ordinary Funcs, so they differentiate again.
    // loss = sum_i w_i * in(i)^3; grad_i = 3 w_i in(i)^2; v . grad's gradient = 6 w_i in(i) v_i.
    Buffer<double> in = random_buffer<double>({6}, 33);
    Buffer<double> v = random_buffer<double>({6}, 34);
    in.set_name("in");
    Func f("f");
    f(x) = in(x)*in(x)*in(x);
    Func loss = weighted_loss(f, {6});
    Derivative d = propagate_adjoints(loss);
    Func grad = d(in);
    RDom r(0, 6, "r");
    Func gv("gv");
    gv() = Expr(0.0);
    gv() += grad(r) * v(r);
    Derivative d2 = propagate_adjoints(gv);
    Buffer<double> hv = d2(in).realize({6});
    Buffer<double> w = random_buffer<double>({6}, 7);
    for (int i = 0; i < 6; i++) EXPECT_NEAR(hv(i), 6 * w(i) * in(i)*v(i), 1e-10) << i;
}

TEST(AutodiffUpdates, HessianVectorProductOfAConvolution) {
    // E = sum conv(x, y, f)^2, two 3 x 3 filters over an RDom (18 taps: the gradient is a sum
    // whose clamped reads split into edge cases). E is quadratic, so the gradient's directional
    // change, (g(in + h v) - g(in - h v)) / 2h, is H v exactly (up to rounding). The second
    // derivative's edge cases sum over the few points beyond each edge, not over whole rows:
    // no reduction loops over the image's width.
    const int W = 14, H = 11;
    Buffer<double> taps = random_buffer<double>({3, 3, 2}, 35);
    Buffer<double> v = random_buffer<double>({W, H}, 36);
    Buffer<double> in = random_buffer<double>({W, H}, 37);
    Var f("f");
    auto gradient = [&](const Buffer<double> &image, Func *energy_out) {
        Func conv("conv"), energy("energy");
        RDom r(0, 3, 0, 3, "r"), all(0, W - 2, 0, H - 2, 0, 2, "all");
        conv(x, y, f) = Expr(0.0);
        conv(x, y, f) += taps(r.x, r.y, f) * image(x + r.x, y + r.y);
        energy() = Expr(0.0);
        energy() += conv(all.x, all.y, all.z) * conv(all.x, all.y, all.z);
        if (energy_out) *energy_out = energy;
        return propagate_adjoints(energy)(image);
    };
    Func g = gradient(in, nullptr);
    RDom p(0, W, 0, H, "p");
    Func gv("gv");
    gv() = Expr(0.0);
    gv() += g(p.x, p.y) * v(p.x, p.y);
    Func hv = propagate_adjoints(gv)(in);
    Buffer<double> got = hv.realize({W, H});

    const double h = 1e-3;
    Buffer<double> up(W, H), down(W, H);
    for (int yy = 0; yy < H; yy++)
        for (int xx = 0; xx < W; xx++) {
            up(xx, yy) = in(xx, yy) + h * v(xx, yy);
            down(xx, yy) = in(xx, yy) - h * v(xx, yy);
        }
    Buffer<double> g_up = gradient(up, nullptr).realize({W, H});
    Buffer<double> g_down = gradient(down, nullptr).realize({W, H});
    double largest = 0;
    for (int yy = 0; yy < H; yy++)
        for (int xx = 0; xx < W; xx++) {
            const double want = (g_up(xx, yy) - g_down(xx, yy)) / (2 * h);
            largest = std::max(largest, std::fabs(want));
            EXPECT_NEAR(got(xx, yy), want, 1e-9 * std::max(1.0, std::fabs(want)))
                << xx << ", " << yy;
        }
    EXPECT_GT(largest, 0.1);
    // Reduction loops (their names carry the RDom's, "_r") never span a dimension of the image.
    const std::string nest = lowered(hv);
    const std::regex image_wide_reduction("for \\([^,]*_r[^,]*, [^,]*, (" + std::to_string(W - 2) +
                                          "|" + std::to_string(H - 2) + "|" + std::to_string(W) +
                                          "|" + std::to_string(H) + ")\\)");
    EXPECT_FALSE(std::regex_search(nest, image_wide_reduction)) << nest;
}

TEST(AutodiffUpdates, ThirdOrderThroughARepeatEdgeConvolution) {
    // The deconvolution app's training differentiates Hessian-vector products: third
    // derivatives of an energy over a convolution of an image read through repeat_edge. Here
    // s(in) = u . H(in) v with E = sum conv^4 / 4 (18 taps: the gradient's gathers are inline
    // reductions, split into edge cases by the clamp), and ds/din is checked against finite
    // differences of s. Its cost must grow with the image, not with its square: the adjoints'
    // edge-case reductions, inlined into consumers reading them along an edge, were recomputed
    // over the whole image at every point (the deconvolution's training step took 1.75 s at
    // 64 x 64 that way, 29 ms without). Counted as the values stored at two sizes.
    struct Third {
        Buffer<double> in;
        Func s, t;
    };
    auto third_order = [](int W, int H) {
        Third r;
        Buffer<double> taps = random_buffer<double>({3, 3, 2}, 51);
        Buffer<double> u = random_buffer<double>({W, H}, 52);
        Buffer<double> v = random_buffer<double>({W, H}, 53);
        r.in = random_buffer<double>({W, H}, 54);
        r.in.set_name("in");
        Var f("f");
        Func padded = BoundaryConditions::repeat_edge(r.in);
        Func conv("conv"), energy("energy");
        RDom k(0, 3, 0, 3, "k"), all(0, W, 0, H, 0, 2, "all"), p(0, W, 0, H, "p");
        conv(x, y, f) = Expr(0.0);
        conv(x, y, f) += taps(k.x, k.y, f) * padded(x + k.x - 1, y + k.y - 1);
        Expr c = conv(all.x, all.y, all.z);
        energy() = Expr(0.0);
        energy() += c * c * c * c / 4;
        // The forward Func is scheduled, as any real schedule would: the adjoints read it at
        // the image's edges (in select cases), so left to its default it would be recomputed
        // over the image at every point of its consumer. The Funcs propagate_adjoints makes
        // for itself, which the user never sees, must not need such help.
        conv.compute_root();
        Func g("g"), gv("gv"), hv("hv");
        r.s = Func("s");
        g(x, y) = propagate_adjoints(energy)(r.in)(x, y);
        gv() = Expr(0.0);
        gv() += g(p.x, p.y) * v(p.x, p.y);
        hv(x, y) = propagate_adjoints(gv)(r.in)(x, y);
        r.s() = Expr(0.0);
        r.s() += hv(p.x, p.y) * u(p.x, p.y);
        r.t = propagate_adjoints(r.s)(r.in);
        return r;
    };
    Third small = third_order(12, 10);
    expect_gradient(small.s, small.in, small.t, 1e-6);

    auto stores = [&](Third &p, int W, int H) {
        Pipeline pipeline(p.t);
        return values_stored(pipeline, [&] { pipeline.realize({W, H}); });
    };
    Third large = third_order(24, 20);
    const int64_t at_small = stores(small, 12, 10), at_large = stores(large, 24, 20);
    EXPECT_GT(at_small, 0);
    // Linear: at most 4 times the values for 4 times the pixels (the edges' part only twice).
    EXPECT_LE(at_large, 4 * at_small) << at_small << " values stored at 12 x 10, " << at_large
                                      << " at 24 x 20 (4 times the pixels)";
    // The adjoints' edge cases at a corner (x == 11 && y == 9) are sums over that corner's
    // terms, not over the whole domain masked down to them: no reduction loop spans the image.
    const std::string nest = lowered(small.t);
    const std::regex image_wide_reduction("for \\([^,]*_r[^,]*, [^,]*, (10|12)\\)");
    EXPECT_FALSE(std::regex_search(nest, image_wide_reduction)) << nest;
}

// Tuple-valued Funcs: each float element has its adjoint, and d(t) is the Tuple of them (zero
// for elements that are not floats), as in Halide 21.
TEST(AutodiffUpdates, TupleValuedProducer) {
    Buffer<double> in = random_buffer<double>({9}, 41);
    in.set_name("in");
    Func t("pair"), g("g");
    t(x) = Tuple(in(x)*in(x + 1), sin(in(x)), cast<int>(x % 3));
    g(x) = t(x)[0] * t(x)[1] + t(x)[1] * cast<double>(t(x)[2]);
    Func loss = weighted_loss(g, {8});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
    // The same pipeline with one Func per element gives the element adjoints independently.
    Func a("a"), b("b"), c("c"), h("h");
    a(x) = in(x)*in(x + 1);
    b(x) = sin(in(x));
    c(x) = cast<int>(x % 3);
    h(x) = a(x) * b(x) + b(x) * cast<double>(c(x));
    Derivative e = propagate_adjoints(weighted_loss(h, {8}));
    ASSERT_EQ(d(t).outputs(), 3);
    Realization got = d(t).realize({8});
    Buffer<double> da = e(a).realize({8}), db = e(b).realize({8});
    Buffer<double> got0 = got[0], got1 = got[1];
    Buffer<int> got2 = got[2];
    for (int i = 0; i < 8; i++) {
        EXPECT_NEAR(got0(i), da(i), 1e-12) << i;
        EXPECT_NEAR(got1(i), db(i), 1e-12) << i;
        EXPECT_EQ(got2(i), 0) << i;
        EXPECT_NE(da(i), 0.0) << i;
    }
}

TEST(AutodiffUpdates, TupleUpdateAddingToEachElement) {
    Buffer<double> in = random_buffer<double>({5, 4}, 42);
    in.set_name("in");
    RDom r(0, 4, "r");
    Func s("moments");
    s(x) = Tuple(Expr(0.0), Expr(1.0));
    s(x) = Tuple(s(x)[0] + in(x, r), s(x)[1] + in(x, r) * in(x, r));
    Func m("m");
    m(x) = s(x)[0] * s(x)[1];
    Func loss = weighted_loss(m, {5});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
    EXPECT_EQ(d(s, 0).outputs(), 2);
}

TEST(AutodiffUpdates, TupleScan) {
    // A scan of a Tuple: a damped rotation (a complex first-order IIR filter), each element
    // reading both elements of the previous point and of its own point, plus an input; and
    // the result read through one element at a time. Then a 2-D Tuple scan down columns with
    // an integer element carried along (it gets no adjoint) and a second update after it.
    {
        Buffer<double> in = random_buffer<double>({9}, 44);
        in.set_name("in");
        RDom r(1, 8, "r");
        Func z("iir");
        z(x) = Tuple(in(x), 0.5 * in(x));
        Expr c = 0.8 * cos(0.3 + in(r - 1)), s = Expr(0.8 * std::sin(0.3));
        z(r) = Tuple(z(r - 1)[0] * c - z(r - 1)[1] * s + z(r)[0] * z(r)[1],
                     z(r - 1)[0] * s + z(r - 1)[1] * c + sin(z(r)[0]));
        Func m("iir_mix");
        m(x) = z(x)[0] * 0.7 + z(x)[1] * z(x)[1];
        Func loss = weighted_loss(m, {9});
        Derivative d = propagate_adjoints(loss);
        expect_gradient(loss, in, d(in));
    }
    {
        Buffer<double> in = random_buffer<double>({4, 6}, 45);
        in.set_name("in");
        RDom r(1, 5, "r");
        Func f("cols");
        f(x, y) = Tuple(in(x, y), in(x, y) * in(x, y), y);
        f(x, r) = Tuple(f(x, r - 1)[1] * 0.6 + f(x, r)[0], f(x, r - 1)[0] * f(x, r)[1] * 0.5,
                        f(x, r - 1)[2] + 1);
        f(x, 0) = Tuple(f(x, 0)[0] * 2.0, f(x, 0)[1], f(x, 0)[2]);
        Func m("cols_mix");
        m(x, y) = f(x, y)[0] + f(x, y)[1] * cast<double>(f(x, y)[2]);
        Func loss = weighted_loss(m, {4, 6});
        Derivative d = propagate_adjoints(loss);
        expect_gradient(loss, in, d(in));
    }
}

TEST(AutodiffUpdates, TupleUpdateReadingOtherElements) {
    // A pointwise update whose elements read each other's earlier values (the rotation of a
    // complex number by itself), then a partial update swapping the elements at one point.
    Buffer<double> in = random_buffer<double>({7}, 43);
    in.set_name("in");
    Func z("z");
    z(x) = Tuple(in(x), in(x + 1));
    z(x) = Tuple(z(x)[0] * z(x)[0] - z(x)[1] * z(x)[1], 2.0 * z(x)[0] * z(x)[1]);
    z(2) = Tuple(z(2)[1], z(2)[0] * 3.0);
    Func m("zm");
    m(x) = z(x)[0] + 0.5 * z(x)[1];
    Func loss = weighted_loss(m, {6});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
}
