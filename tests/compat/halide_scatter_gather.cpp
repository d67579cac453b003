// scatter and gather in update definitions (built against Loom and, as
// compat_halide_scatter_gather_halide, against Halide 21): several stores per update point, all
// values computed before any store, stores left to right, against naive C++.
#include "Halide.h"

#include <gtest/gtest.h>

using namespace Halide;

TEST(HalideScatterGather, StoresToSeveralPlacesPerPoint) {
    for (int schedule = 0; schedule < 3; schedule++) {
        Var x("x"), y("y");
        Func f("sg_rows");
        f(x, y) = x + 10 * y;
        f(x, scatter(3, 4)) = gather(1, 2) * x;
        if (schedule == 1) f.update().vectorize(x, 4);
        if (schedule == 2) f.update().parallel(x);
        Buffer<int> r = f.realize({9, 6});
        for (int j = 0; j < 6; j++) {
            for (int i = 0; i < 9; i++) {
                int want = j == 3 ? i : j == 4 ? 2 * i : i + 10 * j;
                ASSERT_EQ(r(i, j), want) << i << ", " << j << " schedule " << schedule;
            }
        }
    }
}

TEST(HalideScatterGather, SwapUnderAParam) {
    // Both elements are read before either is written.
    for (bool swap : {true, false}) {
        Var x("x");
        Param<bool> p("sg_p");
        Func g("sg_swap");
        g(x) = x * x;
        g(scatter(3, 5)) = g(select(p, gather(5, 3), gather(3, 5)));
        p.set(swap);
        Buffer<int> r = g.realize({8});
        for (int i = 0; i < 8; i++) {
            int want = i * i;
            if (swap && i == 3) want = 25;
            if (swap && i == 5) want = 9;
            ASSERT_EQ(r(i), want) << i << (swap ? " swapped" : "");
        }
    }
}

TEST(HalideScatterGather, RepeatedPlaceKeepsTheLastStore) {
    Var x("x");
    Func h("sg_last");
    h(x) = 0;
    h(scatter(2, 2)) = gather(3, 5);
    Buffer<int> r = h.realize({4});
    for (int i = 0; i < 4; i++) EXPECT_EQ(r(i), i == 2 ? 5 : 0) << i;
}

TEST(HalideScatterGather, OperationsDistributeOverAnRDom) {
    // k(rx + {1,0,0}, ry + {0,1,0}, {0,0,1}) = 2 * {rx, ry, 7}, over a 2x2 RDom in order.
    Var x("x"), y("y"), c("c");
    Func k("sg_rdom");
    k(x, y, c) = 0;
    RDom r(0, 2, 0, 2, "sg_r");
    k(r.x + scatter(1, 0, 0), r.y + scatter(0, 1, 0), scatter(0, 0, 1)) = 2 * gather(r.x, r.y, 7);
    Buffer<int> o = k.realize({3, 3, 2});
    int want[3][3][2] = {};
    for (int ry = 0; ry < 2; ry++) {
        for (int rx = 0; rx < 2; rx++) {
            want[rx + 1][ry][0] = 2 * rx;
            want[rx][ry + 1][0] = 2 * ry;
            want[rx][ry][1] = 14;
        }
    }
    for (int cc = 0; cc < 2; cc++) {
        for (int j = 0; j < 3; j++) {
            for (int i = 0; i < 3; i++) ASSERT_EQ(o(i, j, cc), want[i][j][cc]) << i << j << cc;
        }
    }
}
