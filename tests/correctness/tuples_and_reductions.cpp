// Tuples, argmax/argmin, inline reductions, several update definitions and RDom::where, each
// against naive C++.
#include <loom/loom.h>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace loom;

TEST(Tuples, TwoValuedFuncRealizesTwoBuffers) {
    Func f("f");
    Var x("x"), y("y");
    f(x, y) = Tuple(x + y, cast<float>(x) * 0.5f);
    Realization r = f.realize({10, 6});
    ASSERT_EQ(r.size(), 2u);
    Buffer<int32_t> a = r[0];
    Buffer<float> b = r[1];
    for (int yy = 0; yy < 6; yy++)
        for (int xx = 0; xx < 10; xx++) {
            EXPECT_EQ(a(xx, yy), xx + yy);
            EXPECT_EQ(b(xx, yy), xx * 0.5f);
        }
}

TEST(Tuples, TupleUpdateAndElementAccess) {
    // A running (min, count of min) over a 1-D input, as a Tuple-valued reduction.
    Buffer<int32_t> in(50);
    for (int i = 0; i < 50; i++) in(i) = (i * 17) % 23 - 11;
    Func g("g");
    Var x("x");
    RDom r(0, 50);
    g(x) = Tuple(std::numeric_limits<int32_t>::max(), 0);
    Expr better = in(r) < g(x)[0];
    Expr same = in(r) == g(x)[0];
    g(x) = Tuple(select(better, in(r), g(x)[0]),
                 select(better, 1, select(same, g(x)[1] + 1, g(x)[1])));
    Realization res = g.realize({1});
    Buffer<int32_t> mn = res[0], count = res[1];
    int emin = std::numeric_limits<int32_t>::max(), ecount = 0;
    for (int i = 0; i < 50; i++) {
        if (in(i) < emin) {
            emin = in(i);
            ecount = 1;
        } else if (in(i) == emin) {
            ecount++;
        }
    }
    EXPECT_EQ(mn(0), emin);
    EXPECT_EQ(count(0), ecount);
}

TEST(Reductions, ArgmaxArgmin) {
    Buffer<float> in(20, 15);
    in.for_each_element([&](int x, int y) { in(x, y) = std::sin(x * 0.7f + y * 1.3f) * (x + 1); });
    RDom r(0, 20, 0, 15);
    Func amax("amax"), amin("amin");
    amax() = argmax(in(r.x, r.y));
    amin() = argmin(r, in(r.x, r.y));
    Realization rmax = amax.realize();
    Realization rmin = amin.realize();
    int bx = 0, by = 0, sx = 0, sy = 0;
    for (int y = 0; y < 15; y++)
        for (int x = 0; x < 20; x++) {
            if (in(x, y) > in(bx, by)) {
                bx = x;
                by = y;
            }
            if (in(x, y) < in(sx, sy)) {
                sx = x;
                sy = y;
            }
        }
    EXPECT_EQ(Buffer<int32_t>(rmax[0])(), bx);
    EXPECT_EQ(Buffer<int32_t>(rmax[1])(), by);
    EXPECT_EQ(Buffer<float>(rmax[2])(), in(bx, by));
    EXPECT_EQ(Buffer<int32_t>(rmin[0])(), sx);
    EXPECT_EQ(Buffer<int32_t>(rmin[1])(), sy);
    EXPECT_EQ(Buffer<float>(rmin[2])(), in(sx, sy));
}

TEST(Reductions, InlineSumProductMaximumMinimum) {
    Buffer<int32_t> in(30, 8);
    in.for_each_element([&](int x, int y) { in(x, y) = (x * 13 + y * 29) % 17 - 8; });
    Func s("s"), p("p"), mx("mx"), mn("mn");
    Var y("y");
    RDom r(0, 30);
    RDom r4(0, 4);
    s(y) = sum(in(r, y));
    p(y) = product(in(r4, y) + 9); // small positive factors, no overflow
    mx(y) = maximum(in(r, y));
    mn(y) = minimum(in(r, y) * 2);
    Buffer<int32_t> bs = s.realize({8}), bp = p.realize({8}), bmx = mx.realize({8}),
                    bmn = mn.realize({8});
    for (int yy = 0; yy < 8; yy++) {
        int es = 0, ep = 1, emx = std::numeric_limits<int>::min(),
            emn = std::numeric_limits<int>::max();
        for (int x = 0; x < 30; x++) {
            es += in(x, yy);
            emx = std::max(emx, in(x, yy));
            emn = std::min(emn, in(x, yy) * 2);
        }
        for (int x = 0; x < 4; x++) ep *= in(x, yy) + 9;
        EXPECT_EQ(bs(yy), es);
        EXPECT_EQ(bp(yy), ep);
        EXPECT_EQ(bmx(yy), emx);
        EXPECT_EQ(bmn(yy), emn);
    }
}

TEST(Reductions, NestedInlineSumIsConvolution) {
    // A 5x5 box sum with an inline reduction inside a pure Func: the register-accumulator case.
    Buffer<uint8_t> in(40, 30);
    in.for_each_element([&](int x, int y) { in(x, y) = (uint8_t)(x * y + x); });
    Func conv("conv");
    Var x("x"), y("y");
    RDom k(-2, 5, -2, 5);
    Func clamped = BoundaryConditions::repeat_edge(in);
    conv(x, y) = sum(cast<uint16_t>(clamped(x + k.x, y + k.y)));
    Buffer<uint16_t> out = conv.realize({40, 30});
    for (int yy = 0; yy < 30; yy++)
        for (int xx = 0; xx < 40; xx++) {
            int e = 0;
            for (int dy = -2; dy <= 2; dy++)
                for (int dx = -2; dx <= 2; dx++) {
                    int cx = std::min(39, std::max(0, xx + dx)),
                        cy = std::min(29, std::max(0, yy + dy));
                    e += in(cx, cy);
                }
            ASSERT_EQ(out(xx, yy), (uint16_t)e) << xx << ", " << yy;
        }
}

TEST(Reductions, InlineSumWhoseWhereReadsAPureVar) {
    // A prefix sum: the RDom's where() reads x, which the summed expression does not, so x is
    // a free variable of the reduction all the same.
    Buffer<int32_t> in(20);
    for (int i = 0; i < 20; i++) in(i) = (i * 7) % 9 - 4;
    Var x("x");
    RDom r(0, 20, "r");
    r.where(r <= x);
    Func prefix("prefix");
    prefix(x) = sum(r, in(r));
    Buffer<int32_t> out = prefix.realize({20});
    int32_t running = 0;
    for (int i = 0; i < 20; i++) {
        running += in(i);
        EXPECT_EQ(out(i), running) << i;
    }
}

TEST(Updates, SeveralUpdatesAndWhere) {
    Func f("f");
    Var x("x");
    f(x) = x * 2; // pure
    f(3) = 100;   // point update
    RDom r(0, 20);
    r.where(r % 3 == 0);
    f(r) = f(r) + 1000; // predicated update
    RDom q(1, 19);
    f(q) = f(q) + f(q - 1); // scan, depends on the previous updates
    Buffer<int32_t> out = f.realize({20});
    int e[20];
    for (int i = 0; i < 20; i++) e[i] = i * 2;
    e[3] = 100;
    for (int i = 0; i < 20; i++)
        if (i % 3 == 0) e[i] += 1000;
    for (int i = 1; i < 20; i++) e[i] += e[i - 1];
    for (int i = 0; i < 20; i++) EXPECT_EQ(out(i), e[i]) << i;
}

TEST(Updates, TwoDimensionalWhereTriangle) {
    Func f("f");
    Var x("x"), y("y");
    f(x, y) = 0;
    RDom r(0, 10, 0, 10);
    r.where(r.x <= r.y);
    f(r.x, r.y) += r.x + r.y;
    Buffer<int32_t> out = f.realize({10, 10});
    for (int yy = 0; yy < 10; yy++)
        for (int xx = 0; xx < 10; xx++) EXPECT_EQ(out(xx, yy), xx <= yy ? xx + yy : 0);
}

TEST(Pipelines, MultiOutput) {
    Func a("a"), b("b");
    Var x("x"), y("y");
    Func common("common");
    common(x, y) = x * 10 + y;
    common.compute_root();
    a(x, y) = common(x, y) + 1;
    b(x, y) = cast<float>(common(x, y)) * 0.5f;
    Pipeline p({a, b});
    Buffer<int32_t> ba(8, 5);
    Buffer<float> bb(8, 5);
    p.realize({ba, bb});
    for (int yy = 0; yy < 5; yy++)
        for (int xx = 0; xx < 8; xx++) {
            EXPECT_EQ(ba(xx, yy), xx * 10 + yy + 1);
            EXPECT_EQ(bb(xx, yy), (xx * 10 + yy) * 0.5f);
        }
    Realization r = p.realize({4, 3});
    ASSERT_EQ(r.size(), 2u);
    Buffer<int32_t> ra = r[0];
    EXPECT_EQ(ra(3, 2), 33);
}
