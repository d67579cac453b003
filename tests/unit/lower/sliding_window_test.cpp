// sliding_window: a Func stored outside a serial loop and computed inside it computes, after
// the loop's first iteration, only the values earlier iterations did not. Checked on loop nests
// built by hand (IR before -> IR expected, compared structurally: the header's formulas for an
// increasing and a decreasing window, a region that does not move, and the cases left alone:
// a parallel loop, two moving dimensions, a region moving with a loop inside the one slid over,
// a Func with an update) and on small pipelines after bounds inference (the header's blur
// example and lesson 8's per-pixel window, the bound lets evaluated per iteration).
#include "lower_test_util.h"

#include "lang/call_graph.h"
#include "lower/bounds_inference.h"
#include "lower/schedule_functions.h"
#include "lower/sliding_window.h"

using namespace loom;
using namespace loom::test;

namespace {

Stmt pc(const std::string &f, const Stmt &produce, const Stmt &consume) {
    return Block::make(ProducerConsumer::make_produce(f, produce),
                       ProducerConsumer::make_consume(f, consume));
}

Stmt serial(const std::string &v, const Expr &min, const Expr &extent, const Stmt &body,
            ForType t = ForType::Serial) {
    return For::make(v, min, extent, t, DeviceAPI::None, body);
}

/// realize f(x, y) { for (g.s0.y, ...) { <region lets> produce f {...} consume f {...} } }: f is
/// stored outside the serial loop over g.s0.y and computed inside it, over the rows
/// [ymin, ymax] and the columns [0, 9]; g reads f at rows `rows` (of its iteration).
struct SlidingNest {
    Function f = make_func("f", {"x", "y"}, {ivar("x") + ivar("y")});
    std::map<std::string, Function> env{{"f", f}};
    Expr y = ivar("g.s0.y"), loop_min = ivar("g.s0.y.loop_min");

    Stmt lets(const Expr &ymin, const Expr &ymax, const Expr &xmin, const Expr &xmax,
              const Stmt &body) const {
        Stmt s = LetStmt::make("f.s0.x.min", xmin, body);
        s = LetStmt::make("f.s0.x.max", xmax, s);
        s = LetStmt::make("f.s0.y.min", ymin, s);
        return LetStmt::make("f.s0.y.max", ymax, s);
    }

    Stmt produce_consume(const std::vector<Expr> &rows) const {
        Expr fx = ivar("f.s0.x"), fy = ivar("f.s0.y"), gx = ivar("g.s0.x");
        Expr ymin = ivar("f.s0.y.min"), xmin = ivar("f.s0.x.min");
        Stmt produce = serial("f.s0.y", ymin, ivar("f.s0.y.max") + 1 - ymin,
                              serial("f.s0.x", xmin, ivar("f.s0.x.max") + 1 - xmin,
                                     Provide::make("f", {fx + fy}, {fx, fy}, const_true())));
        Expr sum;
        for (const Expr &r : rows) {
            Expr c = f.make_call({gx, r});
            sum = sum.defined() ? sum + c : c;
        }
        Stmt consume = serial("g.s0.x", 0, 10, Provide::make("g", {sum}, {gx, y}, const_true()));
        return pc("f", produce, consume);
    }

    Stmt realize(const Stmt &body) const {
        return Realize::make("f", {Int(32)}, MemoryType::Auto,
                             {Range(ivar("f.x.min_realized"), ivar("f.x.extent_realized")),
                              Range(ivar("f.y.min_realized"), ivar("f.y.extent_realized"))},
                             const_true(), body);
    }

    /// The nest with f's region over rows [ymin, ymax] and columns [xmin, xmax] in each
    /// iteration of g.s0.y (a loop of kind `t`).
    Stmt nest(const Expr &ymin, const Expr &ymax, const Expr &xmin, const Expr &xmax,
              const std::vector<Expr> &rows, ForType t = ForType::Serial) const {
        return realize(serial("g.s0.y", loop_min, ivar("g.s0.y.loop_extent"),
                              lets(ymin, ymax, xmin, xmax, produce_consume(rows)), t));
    }
};

Stmt lower_to_sliding_window(const Function &out) {
    CallGraph g = build_call_graph({out});
    Stmt s = bounds_inference(schedule_functions(g), g);
    return sliding_window(s, g.env);
}

/// blur_y(x, y) = bx(x, y + d0) + bx(x, y + d1) + bx(x, y + d2) (with `sign` = -1: rows
/// -y + d), blur_x store_root and compute_at(blur_y, y), blur_y's y loop of kind `t`.
Function blur(const std::string &bx_name, int sign, ForType t = ForType::Serial) {
    Expr x = ivar("x"), y = ivar("y");
    Function bx = make_func(bx_name, {"x", "y"}, {x * 2 + y});
    bx.schedule().store_level = LoopLevelSpec::root();
    bx.schedule().store_level_set = true;
    bx.schedule().compute_level = loop_level("blur_y", "y");
    Expr row = sign * y;
    Function by = make_func(
        "blur_y", {"x", "y"},
        {bx.make_call({x, row - 1}) + bx.make_call({x, row}) + bx.make_call({x, row + 1})});
    if (t != ForType::Serial) {
        for (Dim &d : by.definition().schedule.dims) {
            if (d.var == "y") d.for_type = t;
        }
    }
    return by;
}

/// The output blur_y over [0, 10) x [0, 8), at row `y` of its loop (in the one iteration of
/// its __outermost loop, which the pass slides over too: a select that is always false there).
std::map<std::string, Expr> at_row(int y) {
    return {{"blur_y.min.0", Expr(0)}, {"blur_y.extent.0", Expr(10)},
            {"blur_y.min.1", Expr(0)}, {"blur_y.extent.1", Expr(8)},
            {"blur_y.s0.y", Expr(y)},  {"blur_y.s0.__outermost", Expr(0)}};
}

} // namespace

TEST(SlidingWindow, IncreasingWindowComputesOnlyNewRows) {
    // The header's example by hand: f over rows [y - 1, y + 1] in iteration y of g.s0.y.
    SlidingNest n;
    Expr y = n.y;
    Stmt before = n.nest(y - 1, y + 1, 0, 9, {y - 1, y, y + 1});
    Stmt after = sliding_window(before, n.env);
    // increasing: min' = select(L > L.min, max(min, max(L - 1) + 1), min)
    Expr min_after = Select::make(y > n.loop_min, Max::make(y - 1, ((y - 1) + 1) + 1), y - 1);
    Stmt expected = n.nest(min_after, y + 1, 0, 9, {y - 1, y, y + 1});
    EXPECT_IR_EQ(after, expected);
    // Simplified, as the header writes it: one new row per iteration.
    EXPECT_IR_EQ(simplify(min_after), simplify(Select::make(y > n.loop_min, y + 1, y - 1)));
}

TEST(SlidingWindow, DecreasingWindowComputesOnlyNewRows) {
    // f over rows [-y - 1, -y + 1]: the window moves down as y grows, so the max is clipped.
    SlidingNest n;
    Expr y = n.y, ny = 0 - y;
    Stmt before = n.nest(ny - 1, ny + 1, 0, 9, {ny - 1, ny, ny + 1});
    Stmt after = sliding_window(before, n.env);
    // decreasing: max' = select(L > L.min, min(max, min(L - 1) - 1), max)
    Expr max_after =
        Select::make(y > n.loop_min, Min::make(ny + 1, ((0 - (y - 1)) - 1) - 1), ny + 1);
    Stmt expected = n.nest(ny - 1, max_after, 0, 9, {ny - 1, ny, ny + 1});
    EXPECT_IR_EQ(after, expected);
    EXPECT_IR_EQ(simplify(max_after), simplify(Select::make(y > n.loop_min, ny - 1, ny + 1)));
}

TEST(SlidingWindow, RegionNotMovingIsComputedInTheFirstIterationOnly) {
    // f over rows [0, 3] in every iteration: later iterations get an empty region (max < min)
    // in the first dimension.
    SlidingNest n;
    Stmt before = n.nest(0, 3, 0, 9, {Expr(0), Expr(3)});
    Stmt after = sliding_window(before, n.env);
    Expr xmax_after = Select::make(n.y > n.loop_min, Expr(0) - 1, Expr(9));
    EXPECT_IR_EQ(after, n.nest(0, 3, 0, xmax_after, {Expr(0), Expr(3)}));
}

TEST(SlidingWindow, ParallelLoopIsLeftAlone) {
    // Iterations of a parallel loop run in any order: none may rely on another's values.
    SlidingNest n;
    Expr y = n.y;
    Stmt before = n.nest(y - 1, y + 1, 0, 9, {y - 1, y + 1}, ForType::Parallel);
    EXPECT_TRUE(sliding_window(before, n.env).same_as(before));
}

TEST(SlidingWindow, TwoMovingDimensionsAreLeftAlone) {
    SlidingNest n;
    Expr y = n.y;
    Stmt before = n.nest(y - 1, y + 1, y, y + 9, {y - 1, y + 1});
    EXPECT_TRUE(sliding_window(before, n.env).same_as(before));
}

TEST(SlidingWindow, FuncWithUpdateIsLeftAlone) {
    // An update may read and rewrite values of earlier iterations: computing only new rows
    // would skip it there.
    SlidingNest n;
    n.f.define_update({ivar("x"), ivar("y")}, {n.f.make_call({ivar("x"), ivar("y")}) + 1});
    Expr y = n.y;
    Stmt before = n.nest(y - 1, y + 1, 0, 9, {y - 1, y + 1});
    EXPECT_TRUE(sliding_window(before, n.env).same_as(before));
}

TEST(SlidingWindow, RegionMovingWithAnInnerLoopSlidesOnlyOverThatLoop) {
    // for g.s0.y { for g.s0.x { f over rows [y + x, y + x] } }: the rows move with both loops.
    // Over the inner loop they slide; over the outer one they can't (the previous iteration's
    // region would depend on where the inner loop ended).
    SlidingNest n;
    Expr y = n.y, x = ivar("g.s0.x"), xmin = ivar("g.s0.x.loop_min");
    auto nest = [&](const Expr &ymin) {
        Stmt inner = n.lets(ymin, y + x, 0, 9, n.produce_consume({y + x}));
        Stmt xloop = serial("g.s0.x", xmin, ivar("g.s0.x.loop_extent"), inner);
        return n.realize(serial("g.s0.y", n.loop_min, ivar("g.s0.y.loop_extent"), xloop));
    };
    Stmt after = sliding_window(nest(y + x), n.env);
    Expr slid = Select::make(x > xmin, Max::make(y + x, (y + (x - 1)) + 1), y + x);
    EXPECT_IR_EQ(after, nest(slid));
}

TEST(SlidingWindow, BlurStoredAtRootComputesOneNewRowPerIteration) {
    // The header's example through the lowering: after the first row, each iteration of
    // blur_y.s0.y computes the one row blur_x.s0.y + 1 no earlier iteration computed.
    Stmt s = lower_to_sliding_window(blur("sw_bx_up", 1));
    auto lets = let_bindings(s);
    EXPECT_EQ(eval_let(lets, "sw_bx_up.s0.y.min", at_row(0)), -1);
    EXPECT_EQ(eval_let(lets, "sw_bx_up.s0.y.max", at_row(0)), 1);
    for (int y : {1, 5, 7}) {
        EXPECT_EQ(eval_let(lets, "sw_bx_up.s0.y.min", at_row(y)), y + 1) << "row " << y;
        EXPECT_EQ(eval_let(lets, "sw_bx_up.s0.y.max", at_row(y)), y + 1) << "row " << y;
    }
    // The columns are not clipped.
    EXPECT_EQ(eval_let(lets, "sw_bx_up.s0.x.min", at_row(5)), 0);
    EXPECT_EQ(eval_let(lets, "sw_bx_up.s0.x.max", at_row(5)), 9);
}

TEST(SlidingWindow, BlurReadingRowsBackwardsComputesOneNewRowPerIteration) {
    // blur_y(x, y) reads rows -y - 1 .. -y + 1: the window moves towards lower rows.
    Stmt s = lower_to_sliding_window(blur("sw_bx_down", -1));
    auto lets = let_bindings(s);
    EXPECT_EQ(eval_let(lets, "sw_bx_down.s0.y.min", at_row(0)), -1);
    EXPECT_EQ(eval_let(lets, "sw_bx_down.s0.y.max", at_row(0)), 1);
    for (int y : {1, 5, 7}) {
        EXPECT_EQ(eval_let(lets, "sw_bx_down.s0.y.min", at_row(y)), -y - 1) << "row " << y;
        EXPECT_EQ(eval_let(lets, "sw_bx_down.s0.y.max", at_row(y)), -y - 1) << "row " << y;
    }
}

TEST(SlidingWindow, BlurOverParallelRowsIsLeftAlone) {
    Function by = blur("sw_bx_par", 1, ForType::Parallel);
    CallGraph g = build_call_graph({by});
    Stmt s = bounds_inference(schedule_functions(g), g);
    EXPECT_TRUE(sliding_window(s, g.env).same_as(s));
}

TEST(SlidingWindow, StoredAtRootComputedPerPixelSlidesOverBothLoops) {
    // Lesson 8: g(x, y) = f(x, y) + f(x + 1, y) + f(x, y + 1), f store_root, compute_at(g, x).
    // In iteration (x, y) after the first of its row and the first row, f computes one value.
    Expr x = ivar("x"), y = ivar("y");
    Function f = make_func("sw_px", {"x", "y"}, {x + y});
    f.schedule().store_level = LoopLevelSpec::root();
    f.schedule().store_level_set = true;
    f.schedule().compute_level = loop_level("sw_g", "x");
    Function g =
        make_func("sw_g", {"x", "y"},
                  {f.make_call({x, y}) + f.make_call({x + 1, y}) + f.make_call({x, y + 1})});
    auto lets = let_bindings(lower_to_sliding_window(g));
    auto at = [](int xv, int yv) {
        return std::map<std::string, Expr>{
            {"sw_g.min.0", Expr(0)},         {"sw_g.extent.0", Expr(6)}, {"sw_g.min.1", Expr(0)},
            {"sw_g.extent.1", Expr(4)},      {"sw_g.s0.x", Expr(xv)},    {"sw_g.s0.y", Expr(yv)},
            {"sw_g.s0.__outermost", Expr(0)}};
    };
    auto region = [&](int xv, int yv) {
        return std::vector<int64_t>{eval_let(lets, "sw_px.s0.x.min", at(xv, yv)),
                                    eval_let(lets, "sw_px.s0.x.max", at(xv, yv)),
                                    eval_let(lets, "sw_px.s0.y.min", at(xv, yv)),
                                    eval_let(lets, "sw_px.s0.y.max", at(xv, yv))};
    };
    EXPECT_EQ(region(0, 0), (std::vector<int64_t>{0, 1, 0, 1}));
    EXPECT_EQ(region(3, 0), (std::vector<int64_t>{4, 4, 0, 1}));
    EXPECT_EQ(region(0, 2), (std::vector<int64_t>{0, 1, 3, 3}));
    EXPECT_EQ(region(3, 2), (std::vector<int64_t>{4, 4, 3, 3}));
}
