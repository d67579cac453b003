// Gradients of stencils, resampling, transposes and shifts (checked against finite differences),
// and scatter-to-gather conversion: their adjoints are gathers, with no update definition
// looping over the consumer's domain (Li et al. 2018, §4.2.1).
#include <loom/loom.h>

#include "common/finite_difference.h"
#include "common/lowered_text.h"

#include <gtest/gtest.h>

using namespace loom;
using namespace loom_test;

namespace {

Var x("x"), y("y");

/// Whether the adjoint Func `g` (realized over `sizes`) has an update definition, i.e. a scatter.
bool has_scatter(const Func &g) { return g.num_update_definitions() > 0; }

} // namespace

TEST(AutodiffStencils, Blur2D) {
    Buffer<double> in = random_buffer<double>({12, 10}, 3);
    in.set_name("in");
    Func bx("bx"), by("by");
    bx(x, y) = (in(x, y) + in(x + 1, y) * 2.0 + in(x + 2, y)) / 4.0;
    by(x, y) = (bx(x, y) + bx(x, y + 1) * 2.0 + bx(x, y + 2)) / 4.0;
    Func loss = weighted_loss(by, {10, 8});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
    EXPECT_FALSE(has_scatter(d(in)));
    EXPECT_FALSE(has_scatter(d(bx)));
}

TEST(AutodiffStencils, Conv2DWithRDom) {
    Buffer<double> in = random_buffer<double>({12, 11}, 4);
    Buffer<double> k = random_buffer<double>({3, 3}, 5);
    in.set_name("in");
    k.set_name("k");
    RDom r(0, 3, 0, 3, "r");
    Func conv("conv");
    conv(x, y) = Expr(0.0);
    conv(x, y) += in(x + r.x, y + r.y) * k(r.x, r.y);
    Func loss = weighted_loss(conv, {10, 9});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
    expect_gradient(loss, k, d(k));
    EXPECT_FALSE(has_scatter(d(in)));
    EXPECT_FALSE(has_scatter(d(k)));
    std::string text = lowered(d(in));
    EXPECT_EQ(text.find("in_0_d_def__.s1"), std::string::npos) << text;
}

TEST(AutodiffStencils, Downsample) {
    Buffer<double> in = random_buffer<double>({16}, 6);
    in.set_name("in");
    Func down("down");
    down(x) = in(2 * x) * 0.25 + in(2 * x + 1) * 0.5 + in(2 * x + 2) * 0.25;
    Func loss = weighted_loss(down, {7});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
    EXPECT_FALSE(has_scatter(d(in)));
}

TEST(AutodiffStencils, Upsample) {
    Buffer<double> in = random_buffer<double>({6, 5}, 7);
    in.set_name("in");
    Func up("up");
    up(x, y) = in(x / 2, y / 3) * 0.75 + in(x / 2 + 1, y / 3) * 0.25;
    Func loss = weighted_loss(up, {10, 12});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
    EXPECT_FALSE(has_scatter(d(in)));
}

TEST(AutodiffStencils, LinearUpsampleWithParityIsAGather) {
    // A pyramid's upsampling: pixel 2i is 3/4 of sample i and 1/4 of sample i - 1, pixel
    // 2i + 1 3/4 of i and 1/4 of i + 1 (the far sample x / 2 - 1 + 2 (x % 2)). Each parity of
    // x is its own case of the gather.
    Buffer<double> in = random_buffer<double>({12, 9}, 22);
    in.set_name("in");
    Func upx("upx"), up("up");
    // (Shifted by one so that every read is inside in.)
    upx(x, y) = 0.25 * in(x / 2 + 2 * (x % 2), y + 1) + 0.75 * in(x / 2 + 1, y + 1);
    up(x, y) = 0.25 * upx(x, y / 2 - 1 + 2 * (y % 2)) + 0.75 * upx(x, y / 2);
    Func loss = weighted_loss(up, {20, 14}, 23);
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
    EXPECT_FALSE(has_scatter(d(in)));
    EXPECT_FALSE(has_scatter(d(upx)));
}

TEST(AutodiffStencils, TransposeAndShift) {
    Buffer<double> in = random_buffer<double>({9, 7}, 8);
    in.set_name("in");
    Func t("t");
    t(x, y) = in(y + 1, x) * in(y, x + 2);
    Func loss = weighted_loss(t, {5, 8});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
    EXPECT_FALSE(has_scatter(d(in)));
}

TEST(AutodiffStencils, Diagonal) {
    // in(x, x): each point on the diagonal gets the adjoint; the others none (Halide 21
    // gives a wrong gradient here).
    Buffer<double> in = random_buffer<double>({6, 6}, 9);
    in.set_name("in");
    Func diag("diag");
    diag(x) = in(x, x) * in(x, x) + in(x + 1, x);
    Func loss = weighted_loss(diag, {5});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
}

TEST(AutodiffStencils, Broadcast) {
    // A Var the producer does not depend on becomes a reduction over the consumer's range.
    Buffer<double> in = random_buffer<double>({5}, 10);
    in.set_name("in");
    Func b("b");
    b(x, y) = in(x)*cast<double>(y + 1);
    Func loss = weighted_loss(b, {5, 4});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
}

TEST(AutodiffStencils, RepeatEdge) {
    Buffer<double> in = random_buffer<double>({8, 6}, 11);
    in.set_name("in");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func blur("blur");
    blur(x, y) =
        clamped(x - 1, y) + clamped(x + 1, y) * 2.0 + clamped(x, y - 2) * clamped(x, y + 1);
    Func loss = weighted_loss(blur, {8, 6});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
    EXPECT_FALSE(has_scatter(d(in)));
}

TEST(AutodiffStencils, WideRepeatEdgeSumsAlongTheEdge) {
    // A 21-tap box over repeat_edge: each edge case of the clamp sums over the overhang
    // (more points than are written out term by term), and is nonzero only on the edge's
    // line, where the sum is taken; corners sum over both overhangs.
    Buffer<double> in = random_buffer<double>({9, 7}, 20);
    in.set_name("in");
    Func clamped = BoundaryConditions::repeat_edge(in);
    RDom r(-10, 21, -3, 7, "r");
    Func box("box");
    box(x, y) = Expr(0.0);
    box(x, y) += clamped(x + r.x, y + r.y) * (1.0 + 0.1 * r.x - 0.05 * r.y);
    Func loss = weighted_loss(box, {9, 7});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
    EXPECT_FALSE(has_scatter(d(in)));
}

TEST(AutodiffStencils, TiledReadIsADirectGather) {
    // A splat's read in(8 x + r.x + 1, ...), r.x in [0, 8): each input point belongs to one
    // tile and one tap, so its adjoint reads one point, with no sum over the 64 taps (solving
    // for x alone would sum over them, all but one masked out). With 7 taps per tile, every
    // eighth input point is read by none.
    for (int taps : {8, 7}) {
        Buffer<double> in = random_buffer<double>({26, 18}, 21);
        in.set_name("in");
        RDom r(0, taps, 0, taps, "r");
        Func splat("splat");
        splat(x, y) = Expr(0.0);
        splat(x, y) += sin(in(8 * x + r.x + 1, 8 * y + r.y + 1)) * (1.0 + r.x + 0.5 * r.y);
        Func loss = weighted_loss(splat, {3, 2});
        Derivative d = propagate_adjoints(loss);
        expect_gradient(loss, in, d(in));
        EXPECT_FALSE(has_scatter(d(in)));
        d(in).compute_root();
        std::string text = lowered(d(in));
        EXPECT_EQ(text.find("_sum"), std::string::npos) << text;
    }
}

TEST(AutodiffStencils, ConstantExterior) {
    Buffer<double> in = random_buffer<double>({8, 6}, 12);
    in.set_name("in");
    Func bounded = BoundaryConditions::constant_exterior(in, Expr(0.5));
    Func blur("blur");
    blur(x, y) = bounded(x - 2, y) * bounded(x + 1, y + 1);
    Func loss = weighted_loss(blur, {8, 6});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
}

TEST(AutodiffStencils, MirrorImage) {
    Buffer<double> in = random_buffer<double>({7, 5}, 13);
    in.set_name("in");
    Func m = BoundaryConditions::mirror_image(in);
    Func blur("blur");
    blur(x, y) = m(x - 2, y) + m(x + 3, y - 1) * 2.0;
    Func loss = weighted_loss(blur, {7, 5});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
}

TEST(AutodiffStencils, DataDependentClampedRead) {
    // A warp: the read position is data-dependent, bounded by a clamp. Halide 21 refuses this
    // ("can only differentiate bounded accesses"); Loom scatters over the consumer's domain.
    Buffer<double> in = random_buffer<double>({10}, 14);
    Buffer<double> flow = random_buffer<double>({8}, 15, -3.0, 3.0);
    in.set_name("in");
    flow.set_name("flow");
    Func warp("warp");
    Expr pos = x + flow(x);
    Expr i = cast<int>(floor(pos));
    Expr frac = pos - floor(pos);
    Func clamped = BoundaryConditions::repeat_edge(in);
    warp(x) = clamped(i) * (1.0 - frac) + clamped(i + 1) * frac;
    Func loss = weighted_loss(warp, {8});
    Derivative d = propagate_adjoints(loss);
    expect_gradient(loss, in, d(in));
    expect_gradient(loss, flow, d(flow));
}

TEST(AutodiffStencils, DataDependentReadPlusAnRVarScatters) {
    // in(idx(x) + t): solving for the RVar t leaves x summed over its whole range for every
    // point of the adjoint (quadratic); it must be one linear scatter instead, still correct.
    // (The clamp bounds the scatter, as for any data-dependent index.)
    Buffer<double> in = random_buffer<double>({12}, 17);
    Buffer<int> idx(10);
    for (int i = 0; i < 10; i++) idx(i) = (i * 7) % 11;
    in.set_name("in");
    RDom t(0, 2, "t");
    Func taps("taps");
    taps(x) = Expr(0.0);
    taps(x) += in(clamp(idx(x) + t, 0, 11)) * (t + 1.5);
    Func loss = weighted_loss(taps, {10});
    Derivative d = propagate_adjoints(loss);
    EXPECT_TRUE(has_scatter(d(in)));
    expect_gradient(loss, in, d(in));
}

TEST(AutodiffStencils, SliceAtADataDependentPlaneScatters) {
    // A bilateral grid's slice, grid(x / 4, y / 4, z(x, y)): solved for x and y, each cell's
    // adjoint would sum its 16 pixels once per plane, masked by z (all but one plane's terms
    // wasted); the scatter visits each pixel once. Both are correct.
    Buffer<double> in = random_buffer<double>({12, 8}, 18, 0.0, 0.99);
    Buffer<double> grid = random_buffer<double>({3, 2, 4}, 19);
    in.set_name("in");
    grid.set_name("grid");
    Func z("z"), slice("slice");
    z(x, y) = cast<int>(in(x, y) * 4.0);
    slice(x, y) = grid(x / 4, y / 4, clamp(z(x, y), 0, 3)) * in(x, y);
    Func loss = weighted_loss(slice, {12, 8});
    Derivative d = propagate_adjoints(loss);
    EXPECT_TRUE(has_scatter(d(grid)));
    expect_gradient(loss, grid, d(grid));
    expect_gradient(loss, in, d(in));
}

TEST(AutodiffStencils, ImageParamInput) {
    ImageParam im(Float(64), 1, "im");
    Func f("f");
    f(x) = im(x) * im(x + 1);
    Func loss = weighted_loss(f, {6});
    Derivative d = propagate_adjoints(loss);
    Buffer<double> in = random_buffer<double>({7}, 16);
    in.set_name("im_buf");
    im.set(in);
    Func g = d(im.name());
    ASSERT_TRUE(g.defined());
    // d(im) converts the ImageParam to its Func: the same adjoint.
    ASSERT_TRUE(d(im).defined());
    EXPECT_EQ(d(im).name(), g.name());
    Buffer<double> grad = g.realize({7});
    // d/d in(i) = w(i) * in(i + 1) + w(i - 1) * in(i - 1).
    Buffer<double> w = random_buffer<double>({6}, 7);
    for (int i = 0; i < 7; i++) {
        double e = (i < 6 ? w(i) * in(i + 1) : 0.0) + (i > 0 ? w(i - 1) * in(i - 1) : 0.0);
        EXPECT_NEAR(grad(i), e, 1e-12) << i;
    }
}
