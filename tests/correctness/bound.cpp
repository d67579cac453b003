// bound, bound_extent, align_bounds, align_extent, bound_storage, align_storage: the computed
// region becomes exactly the bound (constant loop extents in the lowered statement), aligned
// regions round outward, results match naive loops, and a bound too small for the consumers
// fails at run time with Halide's message.
#include <loom/loom.h>

#include "common/expect_error.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "lower/lower.h"

#include <gtest/gtest.h>

#include <atomic>

using namespace loom;
using namespace loom::internal;

namespace {
std::atomic<int> bound_calls{0};
}

extern "C" int32_t loomtest_bound_count(int32_t x) {
    bound_calls++;
    return x;
}
HalidePureExtern_1(int32_t, loomtest_bound_count, int32_t);

namespace {

/// The extent of the first For named `name` in the lowered pipeline.
Expr loop_extent(Func out, const std::string &name) {
    LoweredFunc lf = lower({out.function()}, "bound", get_host_target());
    class V : public IRVisitor {
    public:
        std::string name;
        Expr extent;

    protected:
        using IRVisitor::visit;
        void visit(const For *op) override {
            if (op->name == name && !extent.defined()) extent = op->extent;
            IRVisitor::visit(op);
        }
    } v;
    v.name = name;
    v.dispatch(lf.body);
    return v.extent;
}

} // namespace

TEST(Bound, OutputBoundGivesConstantLoops) {
    Var x("x"), y("y");
    Func f("bd_f");
    f(x, y) = x * 3 + y;
    f.bound(x, 0, 16).bound(y, 2, 5);
    Expr ex = loop_extent(f, "bd_f.s0.x");
    ASSERT_TRUE(ex.defined());
    EXPECT_TRUE(is_const(ex, 16)) << ex;
    EXPECT_TRUE(is_const(loop_extent(f, "bd_f.s0.y"), 5));
    Buffer<int32_t> out(16, 5);
    out.set_min(0, 2);
    f.realize(out);
    for (int j = 2; j < 7; j++)
        for (int i = 0; i < 16; i++) ASSERT_EQ(out(i, j), i * 3 + j);
}

TEST(Bound, ProducerBoundComputesExactlyThat) {
    Var x("x"), y("y");
    Func f("bp_f"), g("bp_g");
    f(x, y) = loomtest_bound_count(x + 10 * y);
    g(x, y) = f(x, y) + f(x + 1, y);
    f.compute_root().bound(x, -2, 12);
    Expr ex = loop_extent(g, "bp_f.s0.x");
    EXPECT_TRUE(is_const(ex, 12)) << ex;
    bound_calls = 0;
    Buffer<int32_t> out = g.realize({8, 3});
    EXPECT_EQ(bound_calls.load(), 12 * 3);
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 8; i++) ASSERT_EQ(out(i, j), 2 * i + 1 + 20 * j);
}

TEST(Bound, BoundTooSmallFailsAtRunTime) {
    Var x("x");
    Func f("bs_f"), g("bs_g");
    f(x) = x;
    g(x) = f(x);
    f.compute_root().bound(x, 0, 5);
    loom_test::expect_error<RuntimeError>([&] { g.realize({10}); },
                                          {"Bounds given for bs_f in x (from 0 to 4) do not "
                                           "cover required region (from 0 to 9)"});
}

TEST(Bound, BoundExtent) {
    Var x("x"), y("y");
    Func f("be_f"), g("be_g");
    f(x, y) = loomtest_bound_count(x * y);
    g(x, y) = f(x, y) + f(x + 2, y);
    f.compute_at(g, y).bound_extent(x, 16);
    Expr ex = loop_extent(g, "be_f.s0.x");
    EXPECT_TRUE(is_const(ex, 16)) << ex;
    bound_calls = 0;
    Buffer<int32_t> out = g.realize({10, 4});
    EXPECT_EQ(bound_calls.load(), 16 * 4);
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 10; i++) ASSERT_EQ(out(i, j), i * j + (i + 2) * j);
    loom_test::expect_error<RuntimeError>([&] { g.realize({20, 4}); }, {"be_f", "do not cover"});
}

TEST(Bound, AlignBoundsRoundsOutward) {
    Var x("x");
    Func f("ba_f"), g("ba_g");
    f(x) = loomtest_bound_count(x * 5);
    g(x) = f(x) - f(x + 1);
    f.compute_root().align_bounds(x, 8, 3);
    bound_calls = 0;
    Buffer<int32_t> out(9);
    out.set_min(4);
    g.realize(out); // needs f over [4, 13]: aligned to [3, 18] (16 values)
    EXPECT_EQ(bound_calls.load(), 16);
    for (int i = 4; i < 13; i++) ASSERT_EQ(out(i), -5);
}

TEST(Bound, AlignExtentKeepsMin) {
    Var x("x");
    Func f("bx_f"), g("bx_g");
    f(x) = loomtest_bound_count(x * 5);
    g(x) = f(x) + f(x + 2);
    f.compute_root().align_extent(x, 4);
    bound_calls = 0;
    Buffer<int32_t> out = g.realize({7}); // needs [0, 8]: 9 values, rounded to 12
    EXPECT_EQ(bound_calls.load(), 12);
    for (int i = 0; i < 7; i++) ASSERT_EQ(out(i), i * 5 + (i + 2) * 5);
}

TEST(Bound, BoundAndAlignStorage) {
    Var x("x"), y("y");
    Func f("bst_f"), g("bst_g");
    f(x, y) = x + y * 7;
    g(x, y) = f(x, y) + f(x + 1, y);
    f.compute_root().align_storage(x, 16).bound_storage(y, 8);
    LoweredFunc lf = lower({g.function()}, "bst", get_host_target());
    class V : public IRVisitor {
    public:
        std::vector<Expr> extents;

    protected:
        using IRVisitor::visit;
        void visit(const Allocate *op) override {
            if (op->name == "bst_f") extents = op->extents;
            IRVisitor::visit(op);
        }
    } v;
    v.dispatch(lf.body);
    ASSERT_EQ(v.extents.size(), 2u);
    EXPECT_TRUE(is_const(v.extents[1], 8)) << v.extents[1];
    Buffer<int32_t> out = g.realize({13, 6});
    for (int j = 0; j < 6; j++)
        for (int i = 0; i < 13; i++) ASSERT_EQ(out(i, j), 2 * i + 1 + 14 * j);
    loom_test::expect_error<RuntimeError>([&] { g.realize({13, 9}); }, {"bst_f", "too small"});
}
