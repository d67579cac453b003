// Which schedules Halide 21 accepts and refuses, beyond the obvious (built against Loom and, as
// compat_halide_schedule_legality_halide, against Halide): fusing loops that are not adjacent
// (the fused loop stands where the inner one was), and parallel or vectorized RVars whose
// iterations provably touch distinct elements (f(2 * r) = r), while races stay refused. Every
// accepted schedule is checked against naive C++.
#include "Halide.h"

#include <gtest/gtest.h>

#include <string>

using namespace Halide;

namespace {

/// Whether f() throws a CompileError.
template <typename F>
bool refused(F f) {
    try {
        f();
    } catch (const CompileError &) {
        return true;
    }
    return false;
}

} // namespace

TEST(HalideScheduleLegality, FuseLoopsThatAreNotAdjacent) {
    Var x("x"), y("y"), z("z"), t("t");
    Func f("fuse_xz");
    f(x, y, z) = x + 10 * y + 100 * z;
    f.fuse(x, z, t).parallel(y);
    Buffer<int> a = f.realize({3, 4, 5});
    Func g("fuse_yx");
    g(x, y) = x + 10 * y;
    g.fuse(y, x, t).vectorize(t, 4);
    Buffer<int> b = g.realize({3, 4});
    for (int k = 0; k < 5; k++) {
        for (int j = 0; j < 4; j++) {
            for (int i = 0; i < 3; i++) ASSERT_EQ(a(i, j, k), i + 10 * j + 100 * k);
        }
    }
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 3; i++) ASSERT_EQ(b(i, j), i + 10 * j);
    }

    // RVars of a commutative reduction fuse in any order.
    Func s("fuse_rvars");
    RDom r(0, 3, 0, 4, 0, 2, "fr");
    s(x) = 0;
    s(x) += r.x + r.y * r.z + x;
    s.update().fuse(r.x, r.z, RVar("rxz"));
    Buffer<int> c = s.realize({2});
    for (int i = 0; i < 2; i++) {
        int want = 0;
        for (int k = 0; k < 2; k++) {
            for (int j = 0; j < 4; j++) {
                for (int m = 0; m < 3; m++) want += m + j * k + i;
            }
        }
        EXPECT_EQ(c(i), want);
    }
}

TEST(HalideScheduleLegality, ParallelRVarsThatWriteDistinctElements) {
    Var x("x"), y("y");
    RDom r(0, 10, "pr");
    Func even("par_even");
    even(x) = -1;
    even(2 * r) = r;
    even.update().parallel(r);
    Buffer<int> a = even.realize({20});
    for (int i = 0; i < 20; i++) EXPECT_EQ(a(i), i % 2 ? -1 : i / 2) << i;

    Func shifted("par_shifted");
    shifted(x) = x;
    shifted(r + 3) = shifted(r + 3) * 2 + r;
    shifted.update().parallel(r);
    Buffer<int> b = shifted.realize({20});
    for (int i = 0; i < 20; i++) EXPECT_EQ(b(i), i >= 3 && i < 13 ? i * 2 + (i - 3) : i) << i;

    RDom q(0, 4, 0, 4, "pq");
    Func swapped("par_swapped");
    swapped(x, y) = 0;
    swapped(q.y, q.x) = q.x * 10 + q.y;
    swapped.update().parallel(q.x).vectorize(q.y, 4);
    Buffer<int> c = swapped.realize({4, 4});
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 4; i++) EXPECT_EQ(c(i, j), j * 10 + i);
    }

    Func rows("par_rows");
    rows(x) = 0;
    rows(q.x) += q.y;
    rows.update().parallel(q.x);
    Buffer<int> d = rows.realize({4});
    for (int i = 0; i < 4; i++) EXPECT_EQ(d(i), 0 + 1 + 2 + 3);

    // Shifted in both coordinates: iterations with different r.x differ in the first one,
    // whatever r.y is (Loom's joint proof over both coordinates once missed this).
    RDom s(0, 16, 0, 5, "ps");
    Func shifted2d("par_shifted2d");
    shifted2d(x, y) = x * 100 + y;
    shifted2d(s.x + 1, s.y + 2) += s.x * s.y + 7;
    shifted2d.update().parallel(s.x).vectorize(s.y, 4);
    Buffer<int> e = shifted2d.realize({17, 7});
    for (int j = 0; j < 7; j++) {
        for (int i = 0; i < 17; i++) {
            const int added = (i >= 1 && j >= 2) ? (i - 1) * (j - 2) + 7 : 0;
            EXPECT_EQ(e(i, j), i * 100 + j + added) << i << ", " << j;
        }
    }
}

TEST(HalideScheduleLegality, RacingRVarsAreRefused) {
    Var x("x");
    RDom r(0, 10, "rr"), r1(1, 9, "rr1");
    RDom q(0, 4, 0, 4, "rq");
    Func wraps("race_mod"), scan("race_scan"), total("race_total"), cols("race_cols");
    wraps(x) = 0;
    wraps(r % 5) = r;
    scan(x) = x;
    scan(r1) = scan(r1 - 1) + 1;
    total(x) = 0;
    total(0) += r;
    cols(x) = 0;
    cols(q.x) += q.y;
    EXPECT_TRUE(refused([&] { wraps.update().parallel(r); }));
    EXPECT_TRUE(refused([&] { scan.update().parallel(r1); }));
    EXPECT_TRUE(refused([&] { total.update().parallel(r); }));
    EXPECT_TRUE(refused([&] { cols.update().parallel(q.y); }));
}

TEST(HalideScheduleLegality, UnrollAndVectorizeLoopsASpecializationMakesConstant) {
    // Inside specialize(width == c) the loop over x has the constant extent c, so it may be
    // unrolled or vectorized whole; the general case keeps the serial loop.
    ImageParam in(Int(32), 2, "spec_in");
    Var x("x"), y("y");
    Func f("spec_unroll"), g("spec_vector");
    f(x, y) = in(x, y) * 3 + y;
    f.specialize(f.output_buffer().width() == 4 && f.output_buffer().height() == 3)
        .unroll(x)
        .unroll(y);
    g(x, y) = in(x, y) - x;
    g.specialize(g.output_buffer().width() == 8).vectorize(x);
    for (int w : {4, 8, 5}) {
        Buffer<int> input(w, 3);
        input.for_each_element([&](int i, int j) { input(i, j) = i * 7 - j * 5; });
        in.set(input);
        Buffer<int> a = f.realize({w, 3});
        Buffer<int> b = g.realize({w, 3});
        for (int j = 0; j < 3; j++) {
            for (int i = 0; i < w; i++) {
                ASSERT_EQ(a(i, j), input(i, j) * 3 + j) << "width " << w;
                ASSERT_EQ(b(i, j), input(i, j) - i) << "width " << w;
            }
        }
    }
}
