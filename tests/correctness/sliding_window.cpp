// Sliding window: a producer stored outside a serial loop and computed inside it computes each
// value once (counted with a pure extern), stays correct when the window moves backwards, with
// strides (downsampling and upsampling consumers) and several consumers, and does not slide
// across a parallel loop.
#include <loom/loom.h>

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <iostream>
#include <sstream>

using namespace loom;

namespace {
std::atomic<int> sw_calls{0};
}

extern "C" int32_t loomtest_sw_count(int32_t x) {
    sw_calls++;
    return x;
}
HalidePureExtern_1(int32_t, loomtest_sw_count, int32_t);

namespace {

Buffer<int32_t> make_input(int w, int h) {
    Buffer<int32_t> in(w, h);
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) in(i, j) = (i * 31 + j * 17 + (i ^ j)) % 97;
    return in;
}

Buffer<int32_t> realize_at(Func f, int w, int h, int x0, int y0) {
    Buffer<int32_t> b(w, h);
    b.set_min(x0, y0);
    f.realize(b);
    return b;
}

/// Realizes the pipeline `build(prefix, scheduled)` unscheduled and scheduled and compares.
void expect_same(const std::function<Func(const std::string &, bool)> &build, int w, int h, int x0,
                 int y0) {
    Buffer<int32_t> a = realize_at(build("ref", false), w, h, x0, y0);
    Buffer<int32_t> b = realize_at(build("sch", true), w, h, x0, y0);
    for (int j = y0; j < y0 + h; j++)
        for (int i = x0; i < x0 + w; i++) ASSERT_EQ(a(i, j), b(i, j)) << i << ", " << j;
}

} // namespace

TEST(SlidingWindow, BlurComputesEachRowOnce) {
    Var x("x"), y("y");
    Buffer<int32_t> in = make_input(50, 50);
    Func bx("swc_bx"), by("swc_by");
    Func c = BoundaryConditions::repeat_edge(in);
    bx(x, y) = loomtest_sw_count(c(x - 1, y) + c(x, y) + c(x + 1, y));
    by(x, y) = bx(x, y - 1) + bx(x, y) + bx(x, y + 1);
    bx.store_root().compute_at(by, y);
    // The loop nest shows the storage at the root and the computation inside the y loop.
    std::ostringstream captured;
    std::streambuf *old = std::cerr.rdbuf(captured.rdbuf());
    by.print_loop_nest();
    std::cerr.rdbuf(old);
    std::string nest = captured.str();
    size_t store = nest.find("store swc_bx:"), loop = nest.find("for y:"),
           produce = nest.find("produce swc_bx:");
    ASSERT_NE(store, std::string::npos) << nest;
    ASSERT_NE(produce, std::string::npos) << nest;
    EXPECT_LT(store, loop) << nest;
    EXPECT_LT(loop, produce) << nest;
    const int W = 20, H = 13;
    sw_calls = 0;
    Buffer<int32_t> out = by.realize({W, H});
    // H + 2 rows of bx, each computed once (without sliding: 3 * H rows).
    EXPECT_EQ(sw_calls.load(), W * (H + 2));
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            auto h = [&](int a, int b) {
                auto cl = [&](int p, int q) {
                    return in(std::min(std::max(p, 0), 49), std::min(std::max(q, 0), 49));
                };
                return cl(a - 1, b) + cl(a, b) + cl(a + 1, b);
            };
            ASSERT_EQ(out(i, j), h(i, j - 1) + h(i, j) + h(i, j + 1)) << i << ", " << j;
        }
}

TEST(SlidingWindow, UpdateStagesSlideWithThePureStage) {
    // bx(x, y) = in(x, y); bx(x, y) += in(x + r, y) * r: each stage computes each row once (as
    // in Halide: H + 2 rows of the pure stage, 3 * (H + 2) evaluations of the update). With an
    // update that writes fixed rows (f(x, r) = ...) nothing slides, and the values stay right.
    Var x("x"), y("y");
    Buffer<int32_t> in = make_input(40, 40);
    Func c = BoundaryConditions::repeat_edge(in);
    auto window = [&](int i, int j) {
        auto cl = [&](int p, int q) {
            return in(std::min(std::max(p, 0), 39), std::min(std::max(q, 0), 39));
        };
        int v = cl(i, j);
        for (int r = 0; r < 3; r++) v += cl(i + r, j) * r;
        return v;
    };
    const int W = 16, H = 11;
    for (bool scan : {false, true}) {
        Func bx(scan ? "swu_scan" : "swu_bx"), by(scan ? "swu_scan_by" : "swu_by");
        RDom r(0, 3, "swu_r");
        bx(x, y) = loomtest_sw_count(c(x, y));
        if (scan) {
            bx(x, r) += bx(x, r) * 0;
        }
        bx(x, y) += loomtest_sw_count(c(x + r, y)) * r;
        by(x, y) = bx(x, y - 1) + bx(x, y) + bx(x, y + 1);
        bx.store_root().compute_at(by, y);
        sw_calls = 0;
        Buffer<int32_t> out = by.realize({W, H});
        if (!scan) EXPECT_EQ(sw_calls.load(), W * (H + 2) * (1 + 3));
        for (int j = 0; j < H; j++) {
            for (int i = 0; i < W; i++) {
                ASSERT_EQ(out(i, j), window(i, j - 1) + window(i, j) + window(i, j + 1))
                    << i << ", " << j << (scan ? " scan" : "");
            }
        }
    }
}

TEST(SlidingWindow, NoSlidingAcrossParallelLoop) {
    Var x("x"), y("y");
    Buffer<int32_t> in = make_input(50, 50);
    Func bx("swp_bx"), by("swp_by");
    Func c = BoundaryConditions::repeat_edge(in);
    bx(x, y) = loomtest_sw_count(c(x, y) * 3);
    by(x, y) = bx(x, y - 1) + bx(x, y) + bx(x, y + 1);
    by.parallel(y);
    bx.store_root().compute_at(by, y);
    sw_calls = 0;
    Buffer<int32_t> out = by.realize({10, 8});
    EXPECT_EQ(sw_calls.load(), 10 * 8 * 3); // every iteration computes its 3 rows
    for (int j = 0; j < 8; j++)
        for (int i = 0; i < 10; i++) {
            auto v = [&](int q) { return in(i, std::min(std::max(q, 0), 49)) * 3; };
            ASSERT_EQ(out(i, j), v(j - 1) + v(j) + v(j + 1));
        }
}

TEST(SlidingWindow, Backwards) {
    Var x("x"), y("y");
    Buffer<int32_t> in = make_input(64, 64);
    auto build = [&](const std::string &p, bool sched) {
        Func f(p + "_f"), o(p + "_o");
        Func c = BoundaryConditions::mirror_interior(in);
        f(x, y) = c(x, y) + c(x + 1, y) * 2;
        // As y increases the window moves down (towards smaller rows of f).
        o(x, y) = f(x, 20 - y) + f(x, 21 - y) + f(x, 22 - y);
        if (sched) f.store_root().compute_at(o, y);
        return o;
    };
    expect_same(build, 15, 11, -3, 2);
    expect_same(build, 7, 30, 4, -5);
}

TEST(SlidingWindow, BackwardsCountsOnce) {
    Var x("x"), y("y");
    Func f("swb_f"), o("swb_o");
    f(x, y) = loomtest_sw_count(x + y * 100);
    o(x, y) = f(x, -y) + f(x, 1 - y);
    f.store_root().compute_at(o, y);
    sw_calls = 0;
    Buffer<int32_t> out = o.realize({6, 9});
    EXPECT_EQ(sw_calls.load(), 6 * 10);
    for (int j = 0; j < 9; j++)
        for (int i = 0; i < 6; i++) ASSERT_EQ(out(i, j), (i - j * 100) + (i + (1 - j) * 100));
}

TEST(SlidingWindow, DownsampleAndUpsample) {
    Var x("x"), y("y");
    Buffer<int32_t> in = make_input(64, 64);
    auto down = [&](const std::string &p, bool sched) {
        Func f(p + "_f"), o(p + "_o");
        Func c = BoundaryConditions::repeat_edge(in);
        f(x, y) = c(x, y) * 5 - c(x, y + 1);
        o(x, y) = f(x, 2 * y - 1) + f(x, 2 * y) * 2 + f(x, 2 * y + 1);
        if (sched) f.store_root().compute_at(o, y);
        return o;
    };
    expect_same(down, 13, 9, 0, 0);
    expect_same(down, 6, 17, -2, -3);
    auto up = [&](const std::string &p, bool sched) {
        Func f(p + "_f"), o(p + "_o");
        Func c = BoundaryConditions::repeat_edge(in);
        f(x, y) = c(x, y) * 5 - c(x + 1, y);
        o(x, y) = f(x, y / 2) + f(x, y / 2 + 1) * 3;
        if (sched) f.store_root().compute_at(o, y);
        return o;
    };
    expect_same(up, 13, 19, 0, 0);
    expect_same(up, 5, 12, 3, -7);
}

TEST(SlidingWindow, UpsampleCountsOnce) {
    Var x("x"), y("y");
    Func f("swu_f"), o("swu_o");
    f(x, y) = loomtest_sw_count(x * 3 + y);
    o(x, y) = f(x, y / 2) + f(x, y / 2 + 1);
    f.store_root().compute_at(o, y);
    sw_calls = 0;
    Buffer<int32_t> out = o.realize({4, 10});
    EXPECT_EQ(sw_calls.load(), 4 * 6); // rows 0..5
    for (int j = 0; j < 10; j++)
        for (int i = 0; i < 4; i++) ASSERT_EQ(out(i, j), 2 * i * 3 + j / 2 + j / 2 + 1);
}

TEST(SlidingWindow, SeveralConsumersAndChains) {
    Var x("x"), y("y");
    Buffer<int32_t> in = make_input(64, 64);
    auto build = [&](const std::string &p, bool sched) {
        Func f(p + "_f"), g(p + "_g"), a(p + "_a"), o(p + "_o");
        Func c = BoundaryConditions::constant_exterior(in, 7);
        f(x, y) = c(x, y) + c(x, y + 1);
        g(x, y) = f(x, y - 1) * 2 + f(x, y + 2);
        a(x, y) = f(x, y + 1) - g(x, y - 2);
        o(x, y) = a(x, y) + g(x, y + 1) * 3;
        if (sched) {
            f.store_root().compute_at(o, y);
            g.store_root().compute_at(o, y);
            a.compute_at(o, y);
        }
        return o;
    };
    expect_same(build, 11, 17, 0, 0);
    expect_same(build, 9, 13, -4, 5);
}

TEST(SlidingWindow, InnerLoopOfTile) {
    Var x("x"), y("y");
    Buffer<int32_t> in = make_input(64, 64);
    auto build = [&](const std::string &p, bool sched) {
        Func f(p + "_f"), o(p + "_o");
        Func c = BoundaryConditions::repeat_edge(in);
        f(x, y) = c(x - 1, y) + c(x + 1, y) * 2;
        o(x, y) = f(x, y - 1) + f(x, y) + f(x, y + 1);
        if (sched) {
            Var yo("yo"), yi("yi");
            o.split(y, yo, yi, 5).parallel(yo);
            f.store_at(o, yo).compute_at(o, yi);
        }
        return o;
    };
    expect_same(build, 16, 23, 0, 0);
    expect_same(build, 7, 11, 3, -9);
}

TEST(SlidingWindow, SameRegionEveryIterationComputedOnce) {
    Var x("x"), y("y");
    Func f("swk_f"), o("swk_o");
    f(x) = loomtest_sw_count(x * 7);
    o(x, y) = f(x) + f(x + 1) + y;
    f.store_root().compute_at(o, y);
    sw_calls = 0;
    Buffer<int32_t> out = o.realize({5, 6});
    EXPECT_EQ(sw_calls.load(), 6);
    for (int j = 0; j < 6; j++)
        for (int i = 0; i < 5; i++) ASSERT_EQ(out(i, j), i * 7 + (i + 1) * 7 + j);
}

// Tutorial lesson 8's store_root().compute_at(consumer, x): the window slides along x inside a
// row and along y across rows, so each producer value is computed once.
TEST(SlidingWindow, AlongBothLoopsComputesEachValueOnce) {
    Var x("x"), y("y");
    auto build = [&](const std::string &p, bool sched) {
        Func f(p + "_f"), o(p + "_o");
        f(x, y) = loomtest_sw_count(x * 5 + y * 3);
        o(x, y) = f(x, y) + f(x + 1, y) * 2 + f(x, y + 1) * 3 + f(x + 1, y + 1) * 4;
        if (sched) f.store_root().compute_at(o, x);
        return o;
    };
    expect_same(build, 9, 7, 0, 0);
    expect_same(build, 4, 12, -3, 5);
    sw_calls = 0;
    build("swxy_count", true).realize({9, 7});
    EXPECT_EQ(sw_calls.load(), 10 * 8);
}
