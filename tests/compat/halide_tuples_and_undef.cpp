// Tuple-valued select and mux, select of calls, undef as a select branch (the element is left
// unchanged where that branch is taken) and in Tuple updates, and inline reductions held in a
// given Func or saturating (built against Loom and, as compat_halide_tuples_and_undef_halide,
// against Halide 21). Each result is checked against naive C++.
#include "Halide.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

using namespace Halide;

TEST(HalideTuplesAndUndef, UndefBranchOfASelectLeavesTheValue) {
    Var x("x");
    Func f("f");
    f(x) = x;
    f(x) = select(x < 5, undef<int>(), f(x) * 10);
    Buffer<int> a = f.realize({8});
    for (int i = 0; i < 8; i++) EXPECT_EQ(a(i), i < 5 ? i : i * 10) << i;

    // The undef branch second, nested selects, and a vectorized update (a predicated store).
    Func g("g");
    g(x) = -x;
    g(x) = select(x % 3 == 0, g(x) + 100, x > 10, undef<int>(), g(x) * 2);
    g.update().vectorize(x, 8);
    Buffer<int> b = g.realize({24});
    for (int i = 0; i < 24; i++) {
        int want = i % 3 == 0 ? -i + 100 : (i > 10 ? -i : -2 * i);
        EXPECT_EQ(b(i), want) << i;
    }
}

TEST(HalideTuplesAndUndef, PartialTupleUpdates) {
    Var x("x");
    Func g("g");
    g(x) = Tuple(x, x * 2);
    g(x) = Tuple(undef<int>(), g(x)[1] + 1);
    Realization r = g.realize({6});
    Buffer<int> a = r[0], b = r[1];
    for (int i = 0; i < 6; i++) {
        EXPECT_EQ(a(i), i);
        EXPECT_EQ(b(i), 2 * i + 1);
    }

    // Conditionally-undef elements share their condition ...
    Func h("h");
    h(x) = Tuple(x, x * 2);
    Expr odd = x % 2 == 1;
    h(x) = Tuple(select(odd, h(x)[0] + 100, undef<int>()),
                 select(odd, h(x)[1] + h(x)[0], undef<int>()));
    Realization s = h.realize({6});
    Buffer<int> c = s[0], d = s[1];
    for (int i = 0; i < 6; i++) {
        EXPECT_EQ(c(i), i % 2 ? i + 100 : i) << i;
        EXPECT_EQ(d(i), i % 2 ? 3 * i : 2 * i) << i;
    }

    // ... or the Tuple is refused, as Halide refuses it.
    Func bad("bad");
    bad(x) = Tuple(x, x * 2);
    bad(x) = Tuple(select(x % 2 == 0, undef<int>(), bad(x)[0] + 100), bad(x)[1] + 1);
    try {
        bad.realize({6});
        ADD_FAILURE() << "expected a CompileError";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find(
                      "onditionally-undef values in a Tuple should have the same conditions"),
                  std::string::npos)
            << e.what();
    }
}

TEST(HalideTuplesAndUndef, TupleSelectAndMux) {
    Var x("x");
    Func k("k");
    k(x) = select(x > 2, Tuple(x, 1.5f), x == 0, Tuple(7, 0.5f), Tuple(-x, 2.5f));
    Realization r = k.realize({5});
    Buffer<int> a = r[0];
    Buffer<float> b = r[1];
    for (int i = 0; i < 5; i++) {
        EXPECT_EQ(a(i), i > 2 ? i : (i == 0 ? 7 : -i)) << i;
        EXPECT_EQ(b(i), i > 2 ? 1.5f : (i == 0 ? 0.5f : 2.5f)) << i;
    }

    // A Tuple of conditions selects element by element.
    Func e("e");
    e(x) = select(Tuple(x < 2, x >= 2), Tuple(x, x * 10), Tuple(-1, -2));
    Realization er = e.realize({4});
    Buffer<int> e0 = er[0], e1 = er[1];
    for (int i = 0; i < 4; i++) {
        EXPECT_EQ(e0(i), i < 2 ? i : -1);
        EXPECT_EQ(e1(i), i >= 2 ? i * 10 : -2);
    }

    Func m("m");
    m(x) = mux(x, {Tuple(x, 10), Tuple(x * 2, 20), Tuple(x * 3, 30)});
    Realization mr = m.realize({5});
    Buffer<int> m0 = mr[0], m1 = mr[1];
    for (int i = 0; i < 5; i++) {
        int k2 = std::min(i, 2);
        EXPECT_EQ(m0(i), i * (k2 + 1)) << i;
        EXPECT_EQ(m1(i), 10 * (k2 + 1)) << i;
    }

    // mux over a Tuple's elements, and over calls.
    Func p("p"), q("q"), u("u"), v("v");
    p(x) = x + 1;
    q(x) = x * 7;
    u(x) = mux(x % 3, Tuple(x, 100, 200));
    v(x) = mux(x % 2, {p(x), q(x)}) + select(x < 2, p(x), q(x));
    Buffer<int> ub = u.realize({6});
    Buffer<int> vb = v.realize({6});
    for (int i = 0; i < 6; i++) {
        EXPECT_EQ(ub(i), i % 3 == 0 ? i : (i % 3 == 1 ? 100 : 200)) << i;
        EXPECT_EQ(vb(i), (i % 2 == 0 ? i + 1 : i * 7) + (i < 2 ? i + 1 : i * 7)) << i;
    }
}

TEST(HalideTuplesAndUndef, InlineReductionsInAGivenFunc) {
    Var x("x");
    RDom r(0, 10, "r");
    Func in("in");
    in(x) = cast<uint8_t>((x * 37) % 101 + 60);
    Func total("total"), peak("peak"), out("out");
    out(x) = cast<int>(sum(cast<int>(in(x + r)), total)) + cast<int>(maximum(in(x + r), peak));
    total.compute_at(out, x);
    peak.compute_root();
    Buffer<int> o = out.realize({16});
    for (int i = 0; i < 16; i++) {
        int s = 0, m = 0;
        for (int j = 0; j < 10; j++) {
            int v = (i + j) * 37 % 101 + 60;
            s += v;
            m = std::max(m, v);
        }
        EXPECT_EQ(o(i), s + m) << i;
    }

    // saturating_sum clamps to the type's range at each step.
    Func sat("sat"), wrap("wrap");
    sat(x) = saturating_sum(in(x + r));
    wrap(x) = sum(in(x + r));
    Buffer<uint8_t> sb = sat.realize({4});
    Buffer<uint8_t> wb = wrap.realize({4});
    for (int i = 0; i < 4; i++) {
        int s = 0, w = 0;
        for (int j = 0; j < 10; j++) {
            int v = (i + j) * 37 % 101 + 60;
            s = std::min(255, s + v);
            w = (w + v) & 255;
        }
        EXPECT_EQ(sb(i), s) << i;
        EXPECT_EQ(wb(i), w) << i;
    }

    Func where("where_max");
    Func am("am");
    am() = argmax(r, in(r), where);
    Realization ar = am.realize();
    Buffer<int> idx = ar[0];
    int best = 0;
    for (int j = 1; j < 10; j++) {
        if ((j * 37 % 101 + 60) > (best * 37 % 101 + 60)) best = j;
    }
    EXPECT_EQ(idx(), best);
}

TEST(HalideTuplesAndUndef, ConditionallyUndefTupleOfAFuncComputedInsideItsConsumer) {
    // f1 (with an update, so computed at f3's innermost loop) keeps both elements where x is
    // even; the second element's kept value is itself a select, and the boundary condition's
    // reads inlined into both give the values shared lets.
    Var x("x"), y("y");
    Buffer<int16_t> input(6, 4);
    input.for_each_element([&](int i, int j) { input(i, j) = (int16_t)(i * 3 - j * 2); });
    Func in = BoundaryConditions::constant_exterior(input, 7);
    Func f1("cu_f1"), f3("cu_f3");
    f1(x, y) = Tuple(x + y, x - y);
    Expr v = cast<int32_t>(in(x, y));
    f1(x, y) = Tuple(select(x % 2 == 0, undef<int32_t>(), (f1(x, y)[0] * v) & 0x7fff),
                     select(x % 2 == 0, undef<int32_t>(),
                            select(f1(x, y)[1] < v, v - f1(x, y)[1], f1(x, y)[1])));
    f3(x, y) = f1(x, y)[1] & f1(x, y)[0];
    Buffer<int> r = f3.realize({8, 5});
    for (int j = 0; j < 5; j++) {
        for (int i = 0; i < 8; i++) {
            int a = i + j, b = i - j;
            if (i % 2 != 0) {
                int w = (i < 6 && j < 4) ? input(i, j) : 7;
                a = (a * w) & 0x7fff;
                b = b < w ? w - b : b;
            }
            ASSERT_EQ(r(i, j), b & a) << i << ", " << j;
        }
    }
}
