// Allocations inside a vectorized loop are widened (one slot per lane, as in Halide): an inline
// reduction (argmin, sum, maximum, a Tuple argmax) or a Func computed at the vector loop runs
// its update on whole vectors instead of lane by lane. Each pipeline is checked against naive
// loops at several vector widths, tail strategies and output widths, and its lowered statement
// must have no serial loop over the lanes and a widened allocation.
#include <loom/loom.h>

#include "common/lowered_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <sstream>
#include <string>

using namespace loom;

namespace {

/// The cost volume of the lens_blur reproducer (apps/lens_blur/README.md).
int cost(int x, int y, int d) { return (uint16_t)(x * 7 + y * 3 + d * 11) % 17; }

Expr cost_expr(Expr x, Expr y, Expr d) { return cast<uint16_t>(x * 7 + y * 3 + d * 11) % 17; }

/// A pipeline under test: the output Func (x innermost), which `vectorize` schedules.
struct Case {
    const char *name;
    /// Builds the pipeline; `vw` > 0 vectorizes it by vw with `tail`.
    std::function<Func(Var x, Var y, int vw, TailStrategy tail)> build;
    /// The expected value at (x, y).
    std::function<double(int x, int y)> reference;
    /// The allocation that must appear widened in the lowered statement (a prefix of its
    /// unique name), and its elements per lane.
    const char *widened;
    int elements;
};

/// `g(x, y) = argmin(r, f(x, y, r))[0]`, first index on ties.
Case inline_argmin() {
    return {"argmin",
            [](Var x, Var y, int vw, TailStrategy tail) {
                Var d("d");
                Func f("f");
                f(x, y, d) = cost_expr(x, y, d);
                RDom r(0, 32);
                Func g("g");
                g(x, y) = argmin(r, f(x, y, r))[0];
                if (vw) g.vectorize(x, vw, tail);
                return g;
            },
            [](int x, int y) {
                int best = 0;
                for (int d = 1; d < 32; d++) {
                    if (cost(x, y, d) < cost(x, y, best)) best = d;
                }
                return (double)best;
            },
            "argmin", 1};
}

/// Several inline reductions in one definition, one of them Tuple-valued (argmax's index and
/// value both used).
Case inline_tuple() {
    return {"sum_maximum_argmax",
            [](Var x, Var y, int vw, TailStrategy tail) {
                RDom r(0, 13);
                Tuple am = argmax(r, cost_expr(x, y, r + 2));
                Func g("g");
                g(x, y) = sum(cast<int>(cost_expr(x, y, r)) * (r + 1)) -
                          maximum(cast<int>(cost_expr(y, x, r))) * 1000 + am[0] * 100000 +
                          cast<int>(am[1]) * 10000000;
                if (vw) g.vectorize(x, vw, tail);
                return g;
            },
            [](int x, int y) {
                int s = 0, m = INT32_MIN, ai = 0, av = -1;
                for (int r = 0; r < 13; r++) {
                    s += cost(x, y, r) * (r + 1);
                    m = std::max(m, cost(y, x, r));
                    if (cost(x, y, r + 2) > av) av = cost(x, y, r + 2), ai = r;
                }
                return (double)(s - m * 1000 + ai * 100000 + av * 10000000);
            },
            "sum", 1};
}

/// An explicit reduction Func and a three-element Func computed per lane of the vector loop.
Case computed_at_lane() {
    return {"compute_at_lane",
            [](Var x, Var y, int vw, TailStrategy tail) {
                Var k("k");
                RDom r(0, 9);
                Func h("h");
                h(x, y) = cast<uint32_t>(0);
                h(x, y) += cast<uint32_t>(cost_expr(x, y, r)) * cast<uint32_t>(r + 1);
                Func c("c");
                c(x, y, k) = cast<int>(cost_expr(x + k, y, k)) - k;
                Func g("g");
                g(x, y) = cast<int>(h(x, y)) * 3 + c(x, y, 0) * c(x, y, 2) - c(x, y, 1);
                if (vw) {
                    Var xo("xo"), xi("xi");
                    g.split(x, xo, xi, vw, tail).vectorize(xi);
                    h.compute_at(g, xi);
                    c.compute_at(g, xi);
                }
                return g;
            },
            [](int x, int y) {
                uint32_t h = 0;
                for (int r = 0; r < 9; r++) h += (uint32_t)cost(x, y, r) * (uint32_t)(r + 1);
                auto c = [&](int k) { return cost(x + k, y, k) - k; };
                return (double)((int)h * 3 + c(0) * c(2) - c(1));
            },
            "c", 3};
}

/// A float inline sum over a float input (integer-valued, so every partial sum is exact, but
/// fast-math contraction may fuse the multiply-add: compared within 1e-6 relative).
Case float_sum() {
    return {"float_sum",
            [](Var x, Var y, int vw, TailStrategy tail) {
                RDom r(0, 7);
                Func g("g");
                g(x, y) = sum(cast<float>(cost_expr(x, y, r)) * 0.5f + cast<float>(r)) /
                          (1.0f + cast<float>(y));
                if (vw) g.vectorize(x, vw, tail);
                return g;
            },
            [](int x, int y) {
                double s = 0;
                for (int r = 0; r < 7; r++) s += cost(x, y, r) * 0.5 + r;
                return s / (1.0 + y);
            },
            "sum", 1};
}

template <typename T>
void check(const Case &c, Func g, int width, int height, const std::string &what) {
    Buffer<T> out = g.realize({width, height});
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            double want = c.reference(x, y), got = (double)out(x, y);
            ASSERT_LE(std::fabs(got - want), 1e-6 * std::max(1.0, std::fabs(want)))
                << what << " at " << x << ", " << y << ": " << got << " vs " << want;
        }
    }
}

template <typename T>
void run(const Case &c) {
    const int widths[] = {4, 8, 16};
    const TailStrategy tails[] = {TailStrategy::ShiftInwards, TailStrategy::GuardWithIf,
                                  TailStrategy::Predicate};
    Var x("x"), y("y");
    check<T>(c, c.build(x, y, 0, TailStrategy::Auto), 21, 5, std::string(c.name) + " unscheduled");
    if (::testing::Test::HasFatalFailure()) return;
    for (int i = 0; i < 3; i++) {
        int vw = widths[i];
        for (TailStrategy tail : tails) {
            Func g = c.build(x, y, vw, tail);
            std::string what = std::string(c.name) + " vectorize " + std::to_string(vw) + " tail " +
                               std::to_string((int)tail);
            // A multiple of every width, and an odd width (the tail).
            check<T>(c, g, 64, 3, what);
            if (::testing::Test::HasFatalFailure()) return;
            check<T>(c, g, 37, 4, what);
            if (::testing::Test::HasFatalFailure()) return;
        }
    }
}

/// The steady-state lowered statement has no loop over the vector lanes, and the allocation
/// named `c.widened...` holds one slot per lane for each of its elements.
void expect_widened(const Case &c, int vw, TailStrategy tail = TailStrategy::ShiftInwards) {
    Var x("x"), y("y");
    std::string text = lowered(c.build(x, y, vw, tail));
    // A vectorized loop left serial keeps its name (g.s0.x.v<N> or g.s0.xi).
    EXPECT_EQ(text.find("for (g.s0.x.v"), std::string::npos) << text;
    EXPECT_EQ(text.find("for (g.s0.xi"), std::string::npos) << text;
    size_t at = text.find(std::string("allocate ") + c.widened);
    ASSERT_NE(at, std::string::npos) << text;
    std::string line = text.substr(at, text.find('\n', at) - at);
    EXPECT_NE(line.find(" * " + std::to_string(c.elements * vw) + "]"), std::string::npos) << line;
    // Its accesses are whole vectors: ramps over the lanes' slots of one element.
    std::string name = line.substr(9, line.find('[') - 9);
    EXPECT_NE(text.find(name + "[ramp("), std::string::npos) << name << "\n" << text;
}

} // namespace

TEST(VectorizeWiden, InlineArgmin) {
    run<int>(inline_argmin());
    expect_widened(inline_argmin(), 8);
    expect_widened(inline_argmin(), 16);
    // The tail's guard is inside the per-lane allocation: the tail is a predicated vector too.
    expect_widened(inline_argmin(), 8, TailStrategy::GuardWithIf);
}

TEST(VectorizeWiden, InlineTupleReductions) {
    run<int>(inline_tuple());
    expect_widened(inline_tuple(), 8);
}

TEST(VectorizeWiden, FuncsComputedPerLane) {
    run<int>(computed_at_lane());
    expect_widened(computed_at_lane(), 8);
}

TEST(VectorizeWiden, FloatSum) {
    run<float>(float_sum());
    expect_widened(float_sum(), 4);
}

// The last vector of a ShiftInwards split (an edge of the split's min) still loses its boundary
// clamps in the tiles that are inside the input: the edge loops of an innermost loop are
// partitioned once more (lens_blur's per-tile colour differences gathered every lane of that
// vector, a ninth of the stage). Results against naive loops; the lowered statement has a
// shifted vector with dense loads.
TEST(VectorizeWiden, ShiftedLastVectorLosesItsClamps) {
    const int w = 150, h = 21;
    Buffer<uint8_t> in({w, h}, "in");
    in.for_each_element([&](int x, int y) { in(x, y) = (uint8_t)(x * 13 + y * 29 + x * y); });
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func c = BoundaryConditions::repeat_edge(in);
    Func p("p");
    p(x, y) = cast<uint16_t>(c(x - 3, y)) + c(x + 4, y - 1) * 2;
    Func out("out");
    out(x, y) = p(x - 2, y) + p(x + 2, y + 1);
    // 20-wide tiles: p needs 24 columns per tile (3 vectors of 8), its last one shifted.
    out.tile(x, y, xo, yo, xi, yi, 20, 4).vectorize(xi, 4);
    p.compute_at(out, xo).vectorize(x, 8);
    std::string text = lowered(out);
    bool dense_shifted = false;
    std::istringstream lines(text);
    std::string line, prev;
    while (std::getline(lines, line)) {
        // A vector of p (in the tiles inside the input, where the tile loops' partition
        // proves the shift a no-op or keeps its min) loads `in` as plain ramps.
        if (prev.find("let p.s0.x.v") != std::string::npos &&
            line.find("in[ramp(") != std::string::npos &&
            line.find("max(min(ramp") == std::string::npos) {
            dense_shifted = true;
        }
        prev = line;
    }
    EXPECT_TRUE(dense_shifted) << text;
    auto cl = [&](int v, int n) { return std::min(std::max(v, 0), n - 1); };
    // As in the pipeline, the doubled tap wraps in 8 bits before the sum widens it.
    auto pv = [&](int px, int py) {
        return (uint16_t)(in(cl(px - 3, w), cl(py, h)) +
                          (uint8_t)(in(cl(px + 4, w), cl(py - 1, h)) * 2));
    };
    for (int ow : {100, 80, 60}) {
        Buffer<uint16_t> got = out.realize({ow, 16});
        for (int yy = 0; yy < 16; yy++) {
            for (int xx = 0; xx < ow; xx++) {
                ASSERT_EQ(got(xx, yy), (uint16_t)(pv(xx - 2, yy) + pv(xx + 2, yy + 1)))
                    << xx << ", " << yy << " of width " << ow;
            }
        }
    }
}
