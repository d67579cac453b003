// Storage folding: a Func stored outside a serial loop and computed inside it gets a circular
// buffer of the smallest power of two >= its per-iteration footprint (the paper's blur: 4 rows
// of blur_x), or the factor fold_storage forces; results equal the unscheduled pipeline.
#include <loom/loom.h>

#include "common/expect_error.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "lower/lower.h"

#include <gtest/gtest.h>

#include <functional>

using namespace loom;
using namespace loom::internal;

namespace {

Buffer<int32_t> make_input(int w, int h) {
    Buffer<int32_t> in(w, h);
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) in(i, j) = (i * 13 + j * 29 + (i * j) % 5) % 89;
    return in;
}

Buffer<int32_t> realize_at(Func f, int w, int h, int x0, int y0) {
    Buffer<int32_t> b(w, h);
    b.set_min(x0, y0);
    f.realize(b);
    return b;
}

void expect_same(const std::function<Func(const std::string &, bool)> &build, int w, int h, int x0,
                 int y0) {
    Buffer<int32_t> a = realize_at(build("ref", false), w, h, x0, y0);
    Buffer<int32_t> b = realize_at(build("sch", true), w, h, x0, y0);
    for (int j = y0; j < y0 + h; j++)
        for (int i = x0; i < x0 + w; i++) ASSERT_EQ(a(i, j), b(i, j)) << i << ", " << j;
}

/// The extents of the Allocate named `name` in the lowered pipeline of `out`.
std::vector<Expr> allocation_extents(Func out, const std::string &name) {
    LoweredFunc lf = lower({out.function()}, "fold", get_host_target());
    class V : public IRVisitor {
    public:
        std::string name;
        std::vector<Expr> extents;

    protected:
        using IRVisitor::visit;
        void visit(const Allocate *op) override {
            if (op->name == name) extents = op->extents;
            IRVisitor::visit(op);
        }
    } v;
    v.name = name;
    v.dispatch(lf.body);
    return v.extents;
}

struct Blur {
    Var x{"x"}, y{"y"};
    Func bx, by;
    Buffer<int32_t> in = make_input(64, 64);
    explicit Blur(const std::string &p) : bx(p + "_bx"), by(p + "_by") {
        Func c = BoundaryConditions::repeat_edge(in);
        bx(x, y) = c(x - 1, y) + c(x, y) + c(x + 1, y);
        by(x, y) = bx(x, y - 1) + bx(x, y) + bx(x, y + 1);
    }
};

} // namespace

TEST(StorageFolding, PaperBlurFoldsToFourRows) {
    Blur b("fb");
    b.bx.store_root().compute_at(b.by, b.y);
    std::vector<Expr> ext = allocation_extents(b.by, "fb_bx");
    ASSERT_EQ(ext.size(), 2u);
    EXPECT_TRUE(is_const(ext[1], 4)) << ext[1];
    auto build = [](const std::string &p, bool sched) {
        Blur *b = new Blur(p);
        if (sched) b->bx.store_root().compute_at(b->by, b->y);
        Func r = b->by;
        delete b;
        return r;
    };
    expect_same(build, 20, 17, 0, 0);
    expect_same(build, 9, 31, -4, 6);
}

TEST(StorageFolding, FiveTapFoldsToEight) {
    Var x("x"), y("y");
    Buffer<int32_t> in = make_input(64, 64);
    auto build = [&](const std::string &p, bool sched) {
        Func f(p + "_f"), o(p + "_o");
        Func c = BoundaryConditions::repeat_edge(in);
        f(x, y) = c(x, y) * 2 + c(x + 1, y);
        o(x, y) = f(x, y - 2) + f(x, y - 1) + f(x, y) * 3 + f(x, y + 1) - f(x, y + 2);
        if (sched) f.store_root().compute_at(o, y);
        return o;
    };
    std::vector<Expr> ext = allocation_extents(build("f5", true), "f5_f");
    ASSERT_EQ(ext.size(), 2u);
    EXPECT_TRUE(is_const(ext[1], 8)) << ext[1];
    expect_same(build, 13, 21, 0, 0);
    expect_same(build, 8, 9, 5, -11);
}

TEST(StorageFolding, BackwardsAndDownsample) {
    Var x("x"), y("y");
    Buffer<int32_t> in = make_input(64, 64);
    auto back = [&](const std::string &p, bool sched) {
        Func f(p + "_f"), o(p + "_o");
        Func c = BoundaryConditions::repeat_edge(in);
        f(x, y) = c(x, y) - c(x + 2, y);
        o(x, y) = f(x, 10 - y) + f(x, 12 - y);
        if (sched) f.store_root().compute_at(o, y);
        return o;
    };
    std::vector<Expr> ext = allocation_extents(back("fbk", true), "fbk_f");
    ASSERT_EQ(ext.size(), 2u);
    EXPECT_TRUE(is_const(ext[1], 4)) << ext[1];
    expect_same(back, 9, 25, 0, 0);
    expect_same(back, 9, 14, 2, -9);
    auto down = [&](const std::string &p, bool sched) {
        Func f(p + "_f"), o(p + "_o");
        Func c = BoundaryConditions::repeat_edge(in);
        f(x, y) = c(x, y) + 3 * c(x, y + 1);
        o(x, y) = f(x, 2 * y) + f(x, 2 * y + 1) + f(x, 2 * y + 2);
        if (sched) f.store_root().compute_at(o, y);
        return o;
    };
    expect_same(down, 11, 13, 0, 0);
    expect_same(down, 11, 6, -3, 4);
}

TEST(StorageFolding, ExplicitFactor) {
    Var x("x"), y("y");
    Buffer<int32_t> in = make_input(64, 64);
    auto build = [&](const std::string &p, bool sched) {
        Func f(p + "_f"), o(p + "_o");
        Func c = BoundaryConditions::repeat_edge(in);
        f(x, y) = c(x, y) * 7 + c(x + 1, y);
        o(x, y) = f(x, y - 1) + f(x, y + 1);
        if (sched) f.store_root().compute_at(o, y).fold_storage(y, 3);
        return o;
    };
    std::vector<Expr> ext = allocation_extents(build("fx", true), "fx_f");
    ASSERT_EQ(ext.size(), 2u);
    EXPECT_TRUE(is_const(ext[1], 3)) << ext[1];
    expect_same(build, 10, 19, 0, 0);
    expect_same(build, 10, 7, 1, -6);
}

TEST(StorageFolding, NoFoldAcrossParallelLoop) {
    Blur b("fp");
    b.by.parallel(b.y);
    b.bx.store_root().compute_at(b.by, b.y);
    std::vector<Expr> ext = allocation_extents(b.by, "fp_bx");
    ASSERT_EQ(ext.size(), 2u);
    EXPECT_FALSE(is_const(ext[1], 4)) << ext[1];
    Buffer<int32_t> out = b.by.realize({12, 10});
    Blur r("fpr");
    Buffer<int32_t> ref = r.by.realize({12, 10});
    for (int j = 0; j < 10; j++)
        for (int i = 0; i < 12; i++) ASSERT_EQ(out(i, j), ref(i, j));
}

TEST(StorageFolding, StoreAtTileFolds) {
    Var x("x"), y("y");
    Buffer<int32_t> in = make_input(64, 64);
    auto build = [&](const std::string &p, bool sched) {
        Func f(p + "_f"), o(p + "_o");
        Func c = BoundaryConditions::repeat_edge(in);
        f(x, y) = c(x, y) + c(x - 1, y);
        o(x, y) = f(x, y - 1) + f(x, y) + f(x, y + 1);
        if (sched) {
            Var yo("yo"), yi("yi");
            o.split(y, yo, yi, 8).parallel(yo);
            f.store_at(o, yo).compute_at(o, yi);
        }
        return o;
    };
    expect_same(build, 14, 29, 0, 0);
    expect_same(build, 5, 13, -2, 3);
}

TEST(StorageFolding, FactorTooSmallIsCompileError) {
    Blur b("fs");
    b.bx.store_root().compute_at(b.by, b.y).fold_storage(b.y, 2);
    loom_test::expect_error(
        [&] {
            b.by.realize({10, 10});
        },
        {"The fold factor (2) of dimension y of fs_bx is too small to store "
         "the required region accessed by loop fs_by.s0.y (3)"});
}

// Stored at root and computed per pixel, the window slides along the row and down the image:
// the rows are folded (two of them), not the columns of one row, which the next row still reads.
TEST(StorageFolding, PerPixelComputeFoldsRowsNotColumns) {
    Var x("x"), y("y");
    Buffer<int32_t> in = make_input(64, 64);
    auto build = [&](const std::string &p, bool sched) {
        Func f(p + "_f"), o(p + "_o");
        Func c = BoundaryConditions::repeat_edge(in);
        f(x, y) = c(x, y) * 3 - c(x, y + 1);
        o(x, y) = f(x, y) + f(x + 1, y) * 2 + f(x, y + 1) * 5 + f(x + 1, y + 1);
        if (sched) f.store_root().compute_at(o, x);
        return o;
    };
    std::vector<Expr> ext = allocation_extents(build("fxy", true), "fxy_f");
    ASSERT_EQ(ext.size(), 2u);
    EXPECT_FALSE(is_const(ext[0])) << ext[0];
    EXPECT_TRUE(is_const(ext[1], 2)) << ext[1];
    expect_same(build, 13, 21, 0, 0);
    expect_same(build, 8, 9, 5, -11);
}
