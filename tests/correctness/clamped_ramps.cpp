// Hand-written boundary conditions in vectorized loops: f(clamp(2 * x + k, 0, w - 1)) must give
// the naive result at every width and edge, and the loop must get a steady state whose loads
// are dense or strided ramps, not gathers through the clamp (lower/mark_clamped_ramps.h).
#include <loom/loom.h>

#include "common/lowered_text.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using namespace loom;

namespace {

int clampi(int v, int lo, int hi) { return std::min(std::max(v, lo), hi); }

/// out(x, y) = in(clamp(2x - 1)) + 2 in(clamp(2x + 1)) + 3 in(clamp(x - 3)) + in(clamp(x + 5)),
/// every x clamped into [0, W - 1] by hand.
struct Stencil {
    ImageParam in{Int(32), 2, "in"};
    Var x{"x"}, y{"y"};
    Func out{"out"};
    Stencil() {
        Expr w = in.width();
        auto at = [&](Expr xx) { return in(clamp(xx, 0, w - 1), y); };
        out(x, y) = at(2 * x - 1) + 2 * at(2 * x + 1) + 3 * at(x - 3) + at(x + 5);
    }
    static int reference(const Buffer<int> &b, int x, int y) {
        int W = b.width();
        auto at = [&](int xx) { return b(clampi(xx, 0, W - 1), y); };
        return at(2 * x - 1) + 2 * at(2 * x + 1) + 3 * at(x - 3) + at(x + 5);
    }
};

} // namespace

TEST(ClampedRamps, VectorizedMatchesNaiveAtEveryEdge) {
    for (int W : {5, 40, 97}) {
        Buffer<int> input(W, 3);
        for (int y = 0; y < 3; y++) {
            for (int x = 0; x < W; x++) input(x, y) = (x * 37 + y * 11) % 101 - 50;
        }
        for (int vw : {4, 8, 16}) {
            for (TailStrategy tail : {TailStrategy::GuardWithIf, TailStrategy::ShiftInwards}) {
                Stencil s;
                s.out.vectorize(s.x, vw, tail);
                s.in.set(input);
                // Outputs narrower and wider than the input, starting left of it.
                for (int out_w : {W / 2 + 3, W + 9}) {
                    if (tail == TailStrategy::ShiftInwards && out_w < vw) continue;
                    Buffer<int> got(out_w, 3);
                    got.set_min(-4, 0);
                    s.out.realize(got);
                    for (int y = 0; y < 3; y++) {
                        for (int x = got.min(0); x < got.min(0) + out_w; x++) {
                            ASSERT_EQ(got(x, y), Stencil::reference(input, x, y))
                                << "W " << W << " vector " << vw << " out_w " << out_w << " at "
                                << x << ", " << y;
                        }
                    }
                }
            }
        }
    }
}

TEST(ClampedRamps, SteadyStateLoadsAreRamps) {
    Stencil s;
    s.out.vectorize(s.x, 8);
    std::string text = lowered(s.out, {s.in});
    // The steady state reads in[ramp(...)] directly; without the partition every load of `in`
    // goes through max(min(ramp(...))).
    EXPECT_NE(text.find("in[ramp("), std::string::npos) << text;
    EXPECT_NE(text.find("steady"), std::string::npos) << text;
}

namespace {

/// Linear 2x upsampling with the edges repeated by hand, as pyramid_blend's and interpolate's
/// horizontal passes: out(x) = in(clamp(x / 2 - 1 + 2 * (x % 2))) + 3 in(clamp(x / 2)). Once
/// vectorized, x / 2 and x % 2 split the vector into its even and odd lanes, and each phase's
/// clamps are clamps of dense ramps.
struct Upsample {
    ImageParam in{Int(32), 2, "in"};
    Var x{"x"}, y{"y"};
    Func out{"out"};
    Upsample() {
        Expr w = in.width();
        auto at = [&](Expr xx) { return in(clamp(xx, 0, w - 1), y); };
        out(x, y) = at(x / 2 - 1 + 2 * (x % 2)) + 3 * at(x / 2);
    }
    static int reference(const Buffer<int> &b, int x, int y) {
        int W = b.width();
        auto at = [&](int xx) { return b(clampi(xx, 0, W - 1), y); };
        // Floor division and remainder, as in the algorithm.
        int half = (x >= 0 ? x : x - 1) / 2, parity = x - 2 * half;
        return at(half - 1 + 2 * parity) + 3 * at(half);
    }
};

} // namespace

TEST(ClampedRamps, UpsamplingMatchesNaiveAtEveryEdge) {
    for (int W : {3, 17, 64}) {
        Buffer<int> input(W, 2);
        for (int y = 0; y < 2; y++) {
            for (int x = 0; x < W; x++) input(x, y) = (x * 29 + y * 7) % 53 - 20;
        }
        for (int vw : {8, 16}) {
            for (TailStrategy tail : {TailStrategy::GuardWithIf, TailStrategy::ShiftInwards}) {
                Upsample u;
                u.out.vectorize(u.x, vw, tail);
                u.in.set(input);
                // Outputs of odd and even mins, narrower and wider than twice the input.
                for (int out_min : {-5, 0, 3}) {
                    for (int out_w : {2 * W - 3, 2 * W + 11}) {
                        if (out_w < vw) continue;
                        Buffer<int> got(out_w, 2);
                        got.set_min(out_min, 0);
                        u.out.realize(got);
                        for (int y = 0; y < 2; y++) {
                            for (int x = out_min; x < out_min + out_w; x++) {
                                ASSERT_EQ(got(x, y), Upsample::reference(input, x, y))
                                    << "W " << W << " vector " << vw << " out " << out_min << " + "
                                    << out_w << " at " << x << ", " << y;
                            }
                        }
                    }
                }
            }
        }
    }
}

TEST(ClampedRamps, UpsamplingSteadyStateHasNoClamps) {
    Upsample u;
    u.out.vectorize(u.x, 16);
    std::string s = lowered(u.out, {u.in});
    // Both taps of both phases read dense ramps in the steady state: no clamp there mentions
    // the input's width (the remainder in the first tap is relaxed to both parities when the
    // loop is partitioned).
    size_t steady = s.find("for (out.s0.x.x, out.s0.x.x.steady_min");
    ASSERT_NE(steady, std::string::npos) << s;
    size_t end = s.find("for (out.s0.x.x, out.s0.x.x.steady_end", steady);
    ASSERT_NE(end, std::string::npos) << s;
    std::string body = s.substr(steady, end - steady);
    EXPECT_NE(body.find("interleave_vectors"), std::string::npos) << body;
    EXPECT_EQ(body.find("in.extent.0"), std::string::npos) << body;
    EXPECT_EQ(body.find("max("), std::string::npos) << body;
}
