// Vectorized selects on the parity of x, select(x % 2 == 0, a(x / 2), b(x / 2)) (camera_pipe's
// half-resolution Bayer channels put back together): the vector's lanes follow a pattern of
// period 2, which rewrite_interleavings splits into its even and odd lanes, where x / 2 is a
// dense ramp and x % 2 one value, and interleaves the two halves again (as Halide does). It
// was a gather of every lane and a per-lane select (3.6x slower than Halide on camera_pipe).
// Results are checked against naive loops (integers: exact) at many widths and offsets, odd
// mins and extents that are no multiple of the vector width included (the parity of the
// vector's first lane is then unknown or odd); the lowered statement must hold the interleave
// and dense loads, not the gathered ramp / 2.
#include <loom/loom.h>

#include "common/lowered_text.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace loom;

namespace {

/// Floor division and Euclidean remainder, as Loom (and Halide) define x / c and x % c.
int floor_div(int x, int c) { return x >= 0 ? x / c : -((-x + c - 1) / c); }
int euclid_mod(int x, int c) { return x - floor_div(x, c) * c; }

/// The two planes of the tests: a(x, y) and b(x, y) over [-64, 192) x [0, 16).
int16_t plane_a(int x, int y) { return (int16_t)(3 * x - 7 * y + 11); }
int16_t plane_b(int x, int y) { return (int16_t)(x * x % 97 + 5 * y - 40); }

Buffer<int16_t> input_plane(int16_t (*fn)(int, int)) {
    Buffer<int16_t> buf(256, 16);
    buf.set_min(-64, 0);
    for (int y = 0; y < 16; y++)
        for (int x = -64; x < 192; x++) buf(x, y) = fn(x, y);
    return buf;
}

/// Realizes f over [x0, x0 + w) x [0, h).
Buffer<int16_t> realize_at(Func f, int x0, int w, int h) {
    Buffer<int16_t> out(w, h);
    out.set_min(x0, 0);
    f.realize(out);
    return out;
}

} // namespace

// The plain form: a and b at root, f vectorized by 4 to 32 (ShiftInwards tails), over mins of
// either parity and extents that are no multiple of the width.
TEST(InterleaveRegressions, SelectOnParityMatchesNaive) {
    Buffer<int16_t> in_a = input_plane(plane_a), in_b = input_plane(plane_b);
    for (int lanes : {4, 8, 16, 32}) {
        // One pipeline per width (JIT-compiled once), realized at every offset and extent.
        ImageParam pa(Int(16), 2, "pa"), pb(Int(16), 2, "pb");
        Func a("a"), b("b"), f("f");
        Var x("x"), y("y");
        a(x, y) = pa(x, y) + 1;
        b(x, y) = pb(x, y) * 2;
        f(x, y) = select(x % 2 == 0, a(x / 2, y), b(x / 2, y));
        a.compute_root();
        b.compute_root();
        f.vectorize(x, lanes);
        pa.set(in_a);
        pb.set(in_b);
        for (int x0 : {0, 1, 3, -5, 6}) {
            for (int w : {lanes, 3 * lanes + 1, 67}) {
                Buffer<int16_t> out = realize_at(f, x0, w, 3);
                for (int yy = 0; yy < 3; yy++)
                    for (int xx = x0; xx < x0 + w; xx++) {
                        int h = floor_div(xx, 2);
                        int expect = euclid_mod(xx, 2) == 0 ? (int16_t)(plane_a(h, yy) + 1)
                                                            : (int16_t)(plane_b(h, yy) * 2);
                        ASSERT_EQ(out(xx, yy), expect) << "lanes " << lanes << " x0 " << x0 << " w "
                                                       << w << " at " << xx << ", " << yy;
                    }
            }
        }
    }
}

// The other tails: predicated loads and stores narrow with the lanes; GuardWithIf's scalar tail
// is untouched. A dense tap of the input (split between the even and odd lanes, regrouped) and
// an offset half-resolution read (x / 2 + 1) in the same value.
TEST(InterleaveRegressions, TailStrategiesMatchNaive) {
    Buffer<int16_t> in = input_plane(plane_b);
    for (TailStrategy tail : {TailStrategy::Predicate, TailStrategy::GuardWithIf,
                              TailStrategy::PredicateLoads, TailStrategy::PredicateStores}) {
        for (int lanes : {8, 16}) {
            ImageParam p(Int(16), 2, "p");
            Func f("f");
            Var x("x"), y("y"), xo("xo"), xi("xi");
            f(x, y) = select(x % 2 == 0, p(x / 2, y) + 3, p(x / 2 + 1, y) * 2) + p(x, y);
            f.split(x, xo, xi, lanes, tail).vectorize(xi);
            p.set(in);
            for (int x0 : {0, 1, -3}) {
                for (int w : {2 * lanes + 3, 37}) {
                    Buffer<int16_t> out = realize_at(f, x0, w, 3);
                    for (int yy = 0; yy < 3; yy++)
                        for (int xx = x0; xx < x0 + w; xx++) {
                            int h = floor_div(xx, 2);
                            int16_t v = euclid_mod(xx, 2) == 0 ? (int16_t)(in(h, yy) + 3)
                                                               : (int16_t)(in(h + 1, yy) * 2);
                            ASSERT_EQ(out(xx, yy), (int16_t)(v + in(xx, yy)))
                                << "tail " << (int)tail << " lanes " << lanes << " x0 " << x0
                                << " w " << w << " at " << xx << ", " << yy;
                        }
                }
            }
        }
    }
}

// camera_pipe's 2 x 2 form: the select on y % 2 outside the one on x % 2, four inline
// half-resolution planes, computed per row of a consumer with aligned or unaligned bounds, plus
// a dense tap of the full-resolution input in the same expression (its loads are split between
// the even and the odd lanes and must be regrouped).
TEST(InterleaveRegressions, BayerTwoByTwoMatchesNaive) {
    Buffer<int16_t> in_a = input_plane(plane_a), in_b = input_plane(plane_b);
    auto naive_full = [&](int xx, int yy) {
        int xh = floor_div(xx, 2), yh = floor_div(yy, 2);
        int v;
        if (euclid_mod(yy, 2) == 0) {
            v = euclid_mod(xx, 2) == 0 ? in_a(xh, yh) : in_b(xh, yh);
        } else {
            v = euclid_mod(xx, 2) == 0 ? (int16_t)(in_a(xh + 1, yh) - in_b(xh, yh))
                                       : (int16_t)(floor_div(in_a(xh, yh), 2) + in_b(xh + 1, yh));
        }
        return (int16_t)(v + in_a(xx, yy));
    };
    for (bool aligned : {false, true}) {
        for (int lanes : {8, 16}) {
            ImageParam pa(Int(16), 2, "pa"), pb(Int(16), 2, "pb");
            Func c0("c0"), c1("c1"), c2("c2"), c3("c3"), full("full"), out("out");
            Var x("x"), y("y");
            c0(x, y) = pa(x, y);
            c1(x, y) = pb(x, y);
            c2(x, y) = pa(x + 1, y) - pb(x, y);
            c3(x, y) = pa(x, y) / 2 + pb(x + 1, y);
            Expr xh = x / 2, yh = y / 2;
            full(x, y) = select(y % 2 == 0, select(x % 2 == 0, c0(xh, yh), c1(xh, yh)),
                                select(x % 2 == 0, c2(xh, yh), c3(xh, yh))) +
                         pa(x, y);
            out(x, y) = full(x, y) + full(x + 1, y);
            Var yo("yo"), yi("yi");
            out.split(y, yo, yi, 4).vectorize(x, lanes);
            full.compute_at(out, yo).vectorize(x, lanes);
            if (aligned) full.align_bounds(x, 2);
            pa.set(in_a);
            pb.set(in_b);
            for (int x0 : {0, 1, -3}) {
                for (int w : {2 * lanes, 45}) {
                    Buffer<int16_t> result = realize_at(out, x0, w, 12);
                    for (int yy = 0; yy < 12; yy++)
                        for (int xx = x0; xx < x0 + w; xx++) {
                            int16_t expect = (int16_t)(naive_full(xx, yy) + naive_full(xx + 1, yy));
                            ASSERT_EQ(result(xx, yy), expect)
                                << "aligned " << aligned << " lanes " << lanes << " x0 " << x0
                                << " w " << w << " at " << xx << ", " << yy;
                        }
                }
            }
        }
    }
}

// Periods 4 and 3 (x / 4 with x % 4, x / 3 with x % 3), and a nearest-neighbour upsampling that
// only divides (no select).
TEST(InterleaveRegressions, OtherPeriodsMatchNaive) {
    Buffer<int16_t> in_a = input_plane(plane_a), in_b = input_plane(plane_b);
    struct Case {
        int period, lanes;
        bool select;
    };
    for (Case cs : {Case{4, 16, true}, Case{4, 8, false}, Case{3, 12, true}, Case{2, 16, false}}) {
        ImageParam pa(Int(16), 2, "pa"), pb(Int(16), 2, "pb");
        Func f("f");
        Var x("x"), y("y");
        Expr q = x / cs.period;
        if (cs.select) {
            f(x, y) = select(x % cs.period == 0, pa(q, y), x % cs.period == 1, pb(q, y),
                             cast<int16_t>(pa(q, y) + x % cs.period));
        } else {
            f(x, y) = pa(q, y) - pb(q + 1, y);
        }
        f.vectorize(x, cs.lanes);
        pa.set(in_a);
        pb.set(in_b);
        for (int x0 : {0, 2, -7}) {
            const int w = 5 * cs.lanes + 3;
            Buffer<int16_t> out = realize_at(f, x0, w, 2);
            for (int yy = 0; yy < 2; yy++)
                for (int xx = x0; xx < x0 + w; xx++) {
                    int qq = floor_div(xx, cs.period), r = euclid_mod(xx, cs.period);
                    int16_t expect;
                    if (cs.select) {
                        expect = r == 0   ? plane_a(qq, yy)
                                 : r == 1 ? plane_b(qq, yy)
                                          : (int16_t)(plane_a(qq, yy) + r);
                    } else {
                        expect = (int16_t)(plane_a(qq, yy) - plane_b(qq + 1, yy));
                    }
                    ASSERT_EQ(out(xx, yy), expect) << "period " << cs.period << " lanes "
                                                   << cs.lanes << " x0 " << x0 << " at " << xx;
                }
        }
    }
}

// The generated code: the vectorized select is an interleave of dense loads, no ramp / 2 or
// ramp % 2 (a gather and a per-lane select) is left; with the bounds aligned to 2 the select on
// the parity is gone altogether from the steady state.
TEST(InterleaveRegressions, LoweredHasInterleaveNotGather) {
    for (bool aligned : {false, true}) {
        ImageParam pa(Int(16), 2, "pa"), pb(Int(16), 2, "pb");
        Func a("a"), b("b"), f("f"), g("g");
        Var x("x"), y("y");
        a(x, y) = pa(x, y) + 1;
        b(x, y) = pb(x, y) * 2;
        f(x, y) = select(x % 2 == 0, a(x / 2, y), b(x / 2, y));
        g(x, y) = f(x, y) + 1;
        a.compute_root();
        b.compute_root();
        f.compute_root().vectorize(x, 16);
        if (aligned) f.align_bounds(x, 2);
        g.vectorize(x, 16);
        std::string text = lowered(g, {pa, pb});
        size_t begin = text.find("produce f"), end = text.find("consume f");
        ASSERT_NE(begin, std::string::npos) << text;
        ASSERT_NE(end, std::string::npos) << text;
        std::string body = text.substr(begin, end - begin);
        EXPECT_NE(body.find("interleave_vectors("), std::string::npos) << body;
        EXPECT_NE(body.find("a[ramp("), std::string::npos) << body;
        EXPECT_NE(body.find("b[ramp("), std::string::npos) << body;
        EXPECT_EQ(body.find("/ x16(2)"), std::string::npos) << body;
        EXPECT_EQ(body.find("% x16(2)"), std::string::npos) << body;
        if (aligned) {
            // The steady state (the first loop over f.s0.x.x) selects nothing.
            size_t loop = body.find("for (f.s0.x.x");
            size_t next = body.find("for (f.s0.x.x", loop + 1);
            ASSERT_NE(loop, std::string::npos) << body;
            std::string steady =
                body.substr(loop, next == std::string::npos ? std::string::npos : next - loop);
            EXPECT_EQ(steady.find("select("), std::string::npos) << steady;
        }
    }
}
