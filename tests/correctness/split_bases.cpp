// A split's base (outer * factor + min, clamped for ShiftInwards) is a let of its own in the
// outer loop, so a Func computed inside that loop covers [base, base + factor - 1 + halo]: a
// constant-size buffer (on the stack, with constant strides) whatever the output size, as in
// Halide. Results are checked against naive loops on sizes that are not multiples of the tiles
// (the last tile shifts inwards).
#include <loom/loom.h>

#include "common/lowered_text.h"

#include <gtest/gtest.h>

#include <cstdint>

using namespace loom;

namespace {

int input_value(int x, int y) { return (x * 37 + y * 101) % 1000; }

/// The 3x3 box sum of input_value at (x, y), clamping coordinates to [0, w) x [0, h).
int box3(int x, int y, int w, int h) {
    int sum = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int cx = std::min(std::max(x + dx, 0), w - 1),
                cy = std::min(std::max(y + dy, 0), h - 1);
            sum += input_value(cx, cy);
        }
    return sum;
}

struct Box3 {
    ImageParam input{Int(32), 2, "input"};
    Func clamped{"clamped"}, rows{"rows"}, out{"out"};
    Var x{"x"}, y{"y"};
    Box3() {
        clamped = BoundaryConditions::repeat_edge(input);
        rows(x, y) = clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y);
        out(x, y) = rows(x, y - 1) + rows(x, y) + rows(x, y + 1);
    }
    void check(int w, int h) {
        Buffer<int32_t> in(w, h);
        for (int yy = 0; yy < h; yy++)
            for (int xx = 0; xx < w; xx++) in(xx, yy) = input_value(xx, yy);
        input.set(in);
        Buffer<int32_t> result = out.realize({w, h});
        for (int yy = 0; yy < h; yy++)
            for (int xx = 0; xx < w; xx++)
                ASSERT_EQ(result(xx, yy), box3(xx, yy, w, h)) << "at " << xx << ", " << yy;
    }
};

} // namespace

TEST(SplitBases, ProducerPerTileHasAConstantSize) {
    // The paper's Figure 1 schedule: rows per 64x16 tile, 64 x (16 + 2) values.
    Box3 p;
    Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
    p.out.tile(p.x, p.y, xo, yo, xi, yi, 64, 16).vectorize(xi, 8).parallel(yo);
    p.rows.compute_at(p.out, xo).vectorize(p.x, 8);
    std::string text = lowered(p.out, {p.input});
    EXPECT_NE(text.find("allocate rows[int32 * 1152]"), std::string::npos) << text;
    EXPECT_NE(text.find("out.s0.x.xi.base"), std::string::npos) << text;
    p.check(203, 77);
    p.check(64, 16);
}

TEST(SplitBases, ProducerPerFusedParallelTileHasAConstantSize) {
    // tile + fuse + parallel: the tile's bases are defined from the fused loop variable, in the
    // fused loop, ahead of the producer.
    Box3 p;
    Var xo("xo"), yo("yo"), xi("xi"), yi("yi"), t("t");
    p.out.tile(p.x, p.y, xo, yo, xi, yi, 16, 8).fuse(xo, yo, t).parallel(t);
    p.rows.compute_at(p.out, t);
    std::string text = lowered(p.out, {p.input});
    EXPECT_NE(text.find("allocate rows[int32 * 160]"), std::string::npos) << text;
    p.check(45, 29);
}

TEST(SplitBases, GuardedTailKeepsItsExactRegion) {
    // GuardWithIf: the last tile is partial and guarded, and the producer covers the tile the
    // guard lets through (not a constant, so no claim about the allocation here).
    Box3 p;
    Var yo("yo"), yi("yi");
    p.out.split(p.y, yo, yi, 8, TailStrategy::GuardWithIf);
    p.rows.compute_at(p.out, yo);
    p.check(31, 21);
}

TEST(SplitBases, ShiftInwardsVectorLoopIsPartitioned) {
    // The unshifted base is the likely case (Halide's likely_if_innermost): the innermost loop
    // runs its steady state without the min and the shifted last vector separately.
    Func f("f");
    Var x("x"), xo("xo"), xi("xi");
    f(x) = x * 3 + 1;
    f.split(x, xo, xi, 8).vectorize(xi);
    std::string text = lowered(f);
    EXPECT_NE(text.find("let f.s0.x.xi.base = ((f.s0.x.xo * 8)"), std::string::npos) << text;
    EXPECT_NE(text.find("let f.s0.x.xi.base = min("), std::string::npos) << text;
    EXPECT_NE(text.find("steady"), std::string::npos) << text;
    for (int n : {8, 13, 203}) {
        Buffer<int32_t> out = f.realize({n});
        for (int i = 0; i < n; i++) ASSERT_EQ(out(i), i * 3 + 1) << "at " << i << " of " << n;
    }
}
