// boxes_required / boxes_provided / boxes_touched on small hand-built loop nests, with the
// regions worked out by hand (and, for the first, checked by enumerating the loops).

#include "unit/analysis/analysis_test_util.h"

#include "ir/ir_equality.h"
#include "simplify/simplify.h"

#include <gtest/gtest.h>

#include <climits>

using namespace loom;
using namespace loom::analysis_test;

namespace {

/// Whether box b is exactly the constant box given as {lo, hi} pairs.
::testing::AssertionResult is_box(const Box &b,
                                  const std::vector<std::pair<int64_t, int64_t>> &want) {
    if (b.size() != want.size()) {
        return ::testing::AssertionFailure() << "box " << b << " has " << b.size() << " dims";
    }
    for (size_t i = 0; i < b.size(); i++) {
        if (!is_interval(b[i], want[i].first, want[i].second)) {
            return ::testing::AssertionFailure() << "box " << b << " differs in dimension " << i;
        }
    }
    return ::testing::AssertionSuccess();
}

bool same_value(const Expr &e, const Expr &expected) {
    if (Interval::is_pos_inf(e) || Interval::is_neg_inf(e)) return false;
    return is_const_zero(simplify(Sub::make(e, expected)));
}

} // namespace

TEST(Boxes, StencilInLoops) {
    // for y in [0, 10): for x in [0, 20): out(x, y) = f(x - 1, y) + f(x + 1, y)
    Expr x = var("x"), y = var("y");
    Stmt s = loop(
        "y", i32(0), i32(10),
        loop("x", i32(0), i32(20),
             provide("out", add(call("f", {sub(x, i32(1)), y}), call("f", {add(x, i32(1)), y})),
                     {x, y})));
    auto req = boxes_required(s);
    ASSERT_EQ(req.count("f"), 1u);
    EXPECT_EQ(req.count("out"), 0u);
    EXPECT_TRUE(is_box(req["f"], {{-1, 20}, {0, 9}}));

    // The same region by enumerating the loops.
    int64_t xmin = INT_MAX, xmax = INT_MIN;
    for (int yy = 0; yy < 10; yy++) {
        for (int xx = 0; xx < 20; xx++) {
            for (int dx : {-1, 1}) {
                xmin = std::min<int64_t>(xmin, xx + dx);
                xmax = std::max<int64_t>(xmax, xx + dx);
            }
        }
    }
    EXPECT_TRUE(is_box(req["f"], {{xmin, xmax}, {0, 9}}));

    auto prov = boxes_provided(s);
    EXPECT_EQ(prov.count("f"), 0u);
    EXPECT_TRUE(is_box(prov["out"], {{0, 19}, {0, 9}}));
    auto touched = boxes_touched(s);
    EXPECT_TRUE(is_box(touched["f"], {{-1, 20}, {0, 9}}));
    EXPECT_TRUE(is_box(touched["out"], {{0, 19}, {0, 9}}));
    EXPECT_TRUE(is_box(box_required(s, "f"), {{-1, 20}, {0, 9}}));
    EXPECT_TRUE(box_required(s, "g").empty());
    EXPECT_TRUE(is_box(box_provided(s, "out"), {{0, 19}, {0, 9}}));
    EXPECT_TRUE(is_box(box_touched(s, "out"), {{0, 19}, {0, 9}}));
}

TEST(Boxes, SymbolicLoopBounds) {
    // for x in [x.min, x.min + x.extent): out(x) = f(2 * x + 1)
    Expr x = var("x"), mn = var("x.min"), ext = var("x.extent");
    Stmt s = loop("x", mn, ext, provide("out", call("f", {add(mul(x, i32(2)), i32(1))}), {x}));
    Box b = box_required(s, "f");
    ASSERT_EQ(b.size(), 1u);
    EXPECT_TRUE(same_value(b[0].min, add(mul(mn, i32(2)), i32(1)))) << b;
    EXPECT_TRUE(same_value(b[0].max, sub(mul(add(mn, ext), i32(2)), i32(1)))) << b;

    // The caller's scope bounds the free variables.
    Scope scope = {{"x.min", Interval(i32(0), i32(0))}, {"x.extent", Interval(i32(1), i32(100))}};
    EXPECT_TRUE(is_box(box_required(s, "f", scope), {{1, 199}}));
}

TEST(Boxes, InnerLoopDependsOnOuter) {
    // for y in [0, 4): for x in [y, y + 3): out(x, y) = f(x, y)
    Expr x = var("x"), y = var("y");
    Stmt s =
        loop("y", i32(0), i32(4), loop("x", y, i32(3), provide("out", call("f", {x, y}), {x, y})));
    EXPECT_TRUE(is_box(box_required(s, "f"), {{0, 5}, {0, 3}}));
}

TEST(Boxes, ReductionOverRVar) {
    // for r in [3, 3 + 5): hist(clamp(in(r), 0, 255)) = hist(clamp(in(r), 0, 255)) + 1
    Expr r = var("r");
    Expr bin = clamp(image("in", Int(32), {r}), i32(0), i32(255));
    Stmt s = loop("r", i32(3), i32(5), provide("hist", add(call("hist", {bin}), i32(1)), {bin}));
    auto req = boxes_required(s);
    EXPECT_TRUE(is_box(req["in"], {{3, 7}}));
    EXPECT_TRUE(is_box(req["hist"], {{0, 255}}));
    EXPECT_TRUE(is_box(box_provided(s, "hist"), {{0, 255}}));
}

TEST(Boxes, ClampedDataDependentIndex) {
    // for x in [0, 10): out(x) = f(clamp(g(x), 0, 99)) + h(lut(x))  with lut uint8 data
    Expr x = var("x");
    Expr idx = clamp(call("g", {x}), i32(0), i32(99));
    Expr lut = cast(Int(32), image("lut", UInt(8), {x}));
    Stmt s =
        loop("x", i32(0), i32(10), provide("out", add(call("f", {idx}), call("h", {lut})), {x}));
    auto req = boxes_required(s);
    EXPECT_TRUE(is_box(req["f"], {{0, 99}}));
    EXPECT_TRUE(is_box(req["g"], {{0, 9}}));
    EXPECT_TRUE(is_box(req["h"], {{0, 255}}));
    EXPECT_TRUE(is_box(req["lut"], {{0, 9}}));

    // Without the clamp the region of f is unbounded.
    Stmt u = loop("x", i32(0), i32(10), provide("out", call("f", {call("g", {x})}), {x}));
    Box b = box_required(u, "f");
    ASSERT_EQ(b.size(), 1u);
    EXPECT_FALSE(box_is_bounded(b));
    EXPECT_TRUE(box_is_bounded(box_required(u, "g")));
}

TEST(Boxes, LetsAndConditions) {
    Expr x = var("x"), t = var("t");
    // for x in [0, 20): let t = x * 2 in out(x) = f(t + 1)
    Stmt s =
        loop("x", i32(0), i32(20),
             LetStmt::make("t", mul(x, i32(2)), provide("out", call("f", {add(t, i32(1))}), {x})));
    EXPECT_TRUE(is_box(box_required(s, "f"), {{1, 39}}));
    // A Let expression inside the value.
    Stmt l = loop("x", i32(0), i32(20),
                  provide("out", Let::make("t", sub(x, i32(3)), call("f", {t})), {x}));
    EXPECT_TRUE(is_box(box_required(l, "f"), {{-3, 16}}));

    // for x in [0, 100): if (x < 10) out(x) = f(x) else out(x) = g(x - 10)
    Stmt c = loop("x", i32(0), i32(100),
                  IfThenElse::make(lt(x, i32(10)), provide("out", call("f", {x}), {x}),
                                   provide("out", call("g", {sub(x, i32(10))}), {x})));
    auto req = boxes_required(c);
    EXPECT_TRUE(is_box(req["f"], {{0, 9}}));
    EXPECT_TRUE(is_box(req["g"], {{0, 89}}));
    EXPECT_TRUE(is_box(box_provided(c, "out"), {{0, 99}}));

    // select(x < 5, f(x), f(5)) reads f over [0, 5] only.
    Stmt sel =
        loop("x", i32(0), i32(100),
             provide("out", select(lt(x, i32(5)), call("f", {x}), call("f", {i32(5)})), {x}));
    EXPECT_TRUE(is_box(box_required(sel, "f"), {{0, 5}}));
    // A likely() condition narrows the same way (loop partitioning produces these).
    Stmt lk = loop("x", i32(0), i32(100),
                   IfThenElse::make(intrin(Bool(), Call::likely, {ge(x, i32(90))}),
                                    provide("out", call("f", {x}), {x})));
    EXPECT_TRUE(is_box(box_required(lk, "f"), {{90, 99}}));
}

TEST(Boxes, ManyTapsThroughLetChains) {
    // An inlined pipeline's shape: hundreds of accesses, each through Lets (a coordinate let,
    // a pixel-value let that no coordinate uses), few distinct; and a Let that matters only
    // through the condition narrowing a coordinate.
    Expr x = var("x"), n = var("n");
    Expr sum = i32(0);
    for (int k = 0; k < 300; k++) {
        std::string c = "c" + std::to_string(k), v = "v" + std::to_string(k);
        Expr tap = Let::make(c, add(x, i32(k % 5 - 2)), call("f", {var(c)}));
        sum = add(sum, Let::make(v, mul(tap, i32(3)), add(var(v), call("g", {x}))));
    }
    Stmt s = loop("x", i32(0), i32(50), provide("out", sum, {x}));
    auto req = boxes_required(s);
    EXPECT_TRUE(is_box(req["f"], {{-2, 51}}));
    EXPECT_TRUE(is_box(req["g"], {{0, 49}}));
    // let n = 7 in select(x < n, f(x), 0): n is bounded because the condition narrows x.
    Stmt cond =
        loop("x", i32(0), i32(100),
             provide("out", Let::make("n", i32(7), select(lt(x, n), call("f", {x}), i32(0))), {x}));
    EXPECT_TRUE(is_box(box_required(cond, "f"), {{0, 6}}));
}

TEST(Boxes, NestedCallsVectorsAndExprs) {
    Expr x = var("x");
    // f(g(x)) with g returning uint8: f over [0, 255], g over the loop.
    Stmt s = loop("x", i32(0), i32(8),
                  provide("out", call("f", {cast(Int(32), call("g", {x}, UInt(8)))}), {x}));
    auto req = boxes_required(s);
    EXPECT_TRUE(is_box(req["f"], {{0, 255}}));
    EXPECT_TRUE(is_box(req["g"], {{0, 7}}));

    // A vectorized access: f(ramp(x * 4, 1, 4)) for x in [0, 3).
    Stmt v = loop("x", i32(0), i32(3),
                  provide("out", call("f", {Ramp::make(mul(x, i32(4)), i32(1), 4)}, Int(32, 4)),
                          {Ramp::make(mul(x, i32(4)), i32(1), 4)}));
    EXPECT_TRUE(is_box(box_required(v, "f"), {{0, 11}}));
    EXPECT_TRUE(is_box(box_provided(v, "out"), {{0, 11}}));

    // The Expr form, with the scope giving the variables' bounds.
    Expr e = add(call("f", {x, i32(2)}), call("f", {mul(x, i32(3)), i32(-1)}));
    auto er = boxes_required(e, Scope({{"x", Interval(i32(-2), i32(2))}}));
    EXPECT_TRUE(is_box(er["f"], {{-6, 6}, {-1, 2}}));
}

TEST(Boxes, BoxOperations) {
    Box a = {Interval(i32(0), i32(4)), Interval(i32(2), i32(3))};
    Box b = {Interval(i32(-1), i32(2)), Interval(i32(5), i32(9))};
    EXPECT_TRUE(is_box(box_union(a, b), {{-1, 4}, {2, 9}}));
    EXPECT_TRUE(is_box(box_union(Box(), b), {{-1, 2}, {5, 9}}));
    EXPECT_TRUE(is_box(box_union(a, Box()), {{0, 4}, {2, 3}}));
    EXPECT_TRUE(is_box(box_intersection(a, b), {{0, 2}, {5, 3}}));
    EXPECT_TRUE(box_is_bounded(a));
    EXPECT_FALSE(box_is_bounded({Interval(i32(0), Interval::pos_inf())}));
}
