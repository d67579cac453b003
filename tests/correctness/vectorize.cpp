// vectorize(): many pipelines of every element type, vectorized by 4/8/16/32 with every
// TailStrategy, over widths that are and are not multiples of the vector width, must agree bit
// for bit with the unscheduled pipeline; and the lowered statement shows real vector code (Ramp
// loads/stores, no Vectorized loop left, predicated tails).
#include <loom/loom.h>

#include "common/lowered_text.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <unistd.h>
#include <vector>

using namespace loom;

namespace {

const TailStrategy all_tails[] = {TailStrategy::RoundUp,        TailStrategy::GuardWithIf,
                                  TailStrategy::ShiftInwards,   TailStrategy::Predicate,
                                  TailStrategy::PredicateLoads, TailStrategy::PredicateStores};
const char *tail_name(TailStrategy t) {
    switch (t) {
    case TailStrategy::RoundUp:
        return "RoundUp";
    case TailStrategy::GuardWithIf:
        return "GuardWithIf";
    case TailStrategy::ShiftInwards:
        return "ShiftInwards";
    case TailStrategy::Predicate:
        return "Predicate";
    case TailStrategy::PredicateLoads:
        return "PredicateLoads";
    case TailStrategy::PredicateStores:
        return "PredicateStores";
    default:
        return "Auto";
    }
}

/// Random input values, with negative ones for signed types.
template <typename T>
Buffer<T> random_input(int w, int h, int seed) {
    Buffer<T> b(w, h);
    std::mt19937 rng(seed);
    b.for_each_value([&](T &v) {
        int r = (int)(rng() % 2001) - 1000;
        if (std::is_floating_point<T>::value) {
            v = (T)(r * 0.37);
        } else if (std::is_signed<T>::value) {
            v = (T)r;
        } else {
            v = (T)(rng() & 0xffff);
        }
    });
    return b;
}

/// A pipeline: the Func to vectorize (x is its innermost var), from the input.
template <typename T>
using Pipeline = std::function<Func(const Buffer<T> &in, Var x, Var y)>;

/// `out(x, y) = f(x, y)` with f scheduled by `schedule` (compute_root, so RoundUp may compute
/// past the output's edge), or unscheduled (inlined) when schedule is null. One Func realized
/// at several sizes compiles once.
template <typename T>
Func build(const Pipeline<T> &p, const Buffer<T> &in,
           const std::function<void(Func &, Var, Var)> &schedule) {
    Var x("x"), y("y");
    Func f = p(in, x, y);
    Func out("out");
    out(x, y) = f(x, y);
    if (schedule) {
        f.compute_root();
        schedule(f, x, y);
    }
    return out;
}

/// Float results of the default (fast-math) code may differ between schedules by rounding:
/// a * b + c contracted into an FMA in one loop and not in another, sums reassociated. They
/// must agree to a few ulp of the largest value (intermediates are about as large).
template <typename T>
void expect_close(const Buffer<T> &a, const Buffer<T> &b, const std::string &what) {
    double scale = 1;
    for (int y = 0; y < a.height(); y++) {
        for (int x = 0; x < a.width(); x++) scale = std::max(scale, std::fabs((double)a(x, y)));
    }
    const double tol = 16 * std::numeric_limits<T>::epsilon() * scale;
    for (int y = 0; y < a.height(); y++) {
        for (int x = 0; x < a.width(); x++) {
            ASSERT_NEAR(a(x, y), b(x, y), tol) << what << " at " << x << ", " << y;
        }
    }
}

template <typename T>
void expect_same(const Buffer<T> &a, const Buffer<T> &b, const std::string &what) {
    for (int y = 0; y < a.height(); y++) {
        for (int x = 0; x < a.width(); x++) {
            // Compare bits: NaN == NaN and -0.0 != 0.0.
            T va = a(x, y), vb = b(x, y);
            ASSERT_EQ(0, memcmp(&va, &vb, sizeof(T)))
                << what << " at " << x << ", " << y << ": " << +va << " vs " << +vb;
        }
    }
}

/// Three of the vector widths, each over two output widths (a multiple of every vector width,
/// and an odd one), the widths and tail strategies rotating with the seed so that every
/// (width, tail) pair is covered across the pipelines and types while each binary stays fast.
template <typename T>
void differential(const char *name, const Pipeline<T> &p, int seed) {
    // The input is wider than any output so RoundUp's extra lanes read inside it.
    Buffer<T> in = random_input<T>(256, 8, seed);
    const int widths[] = {4, 8, 16, 32};
    const int sizes[] = {64, 37};
    // Float pipelines run twice: with Target::StrictFloat, where every schedule must give the
    // same bits, and with the default fast-math code, where they must agree to rounding.
    const bool is_float = std::is_floating_point<T>::value;
    Target fast = get_jit_target_from_environment();
    for (bool strict : is_float ? std::vector<bool>{true, false} : std::vector<bool>{false}) {
        Target t = strict ? fast.with_feature(Target::StrictFloat) : fast;
        Func ref = build<T>(p, in, nullptr);
        Buffer<T> expected[2] = {ref.realize({sizes[0], 5}, t), ref.realize({sizes[1], 5}, t)};
        for (int i = 0; i < 3; i++) {
            int vw = widths[(seed + i) % 4];
            TailStrategy tail = all_tails[(seed + i) % 6];
            Func f = build<T>(p, in, [&](Func &g, Var x, Var) { g.vectorize(x, vw, tail); });
            for (int k = 0; k < 2; k++) {
                Buffer<T> got = f.realize({sizes[k], 5}, t);
                std::string what = std::string(name) + " width " + std::to_string(sizes[k]) +
                                   " vectorize " + std::to_string(vw) + " " + tail_name(tail) +
                                   (strict ? " strict" : "");
                if (is_float && !strict) {
                    expect_close(expected[k], got, what);
                } else {
                    expect_same(expected[k], got, what);
                }
                if (::testing::Test::HasFatalFailure()) return;
            }
        }
    }
}

template <typename T>
Pipeline<T> arithmetic() {
    return [](const Buffer<T> &in, Var x, Var y) {
        Func f("arith");
        Expr v = in(x, y), u = in(x + 1, y);
        f(x, y) = cast<T>(v * 3 + u / 7 - (v % 5) + (u - v) / cast<T>(x % 4 + 1));
        return f;
    };
}

template <typename T>
Pipeline<T> selects() {
    return [](const Buffer<T> &in, Var x, Var y) {
        Func f("sel");
        Expr v = in(x, y), u = in(x + 2, y);
        Expr k = cast<T>(10);
        f(x, y) = select(v > u, min(v, k), max(u, k) - v) + select(x % 3 == 0, v, u);
        return f;
    };
}

template <typename T>
Pipeline<T> boundary() {
    return [](const Buffer<T> &in, Var x, Var y) {
        Func f("edge");
        Func c = BoundaryConditions::repeat_edge(in, {{0, 40}, {0, 8}});
        f(x, y) = c(x - 3, y) + c(x + 5, y - 1) + c(x, y + 9);
        return f;
    };
}

template <typename T>
Pipeline<T> strided() {
    return [](const Buffer<T> &in, Var x, Var y) {
        Func f("strided");
        f(x, y) = in(2 * x, y) + in(3 * x + 1, y) + in(x / 2, y) - in(100 - x, y);
        return f;
    };
}

template <typename T>
Pipeline<T> gather() {
    return [](const Buffer<T> &in, Var x, Var y) {
        Func f("gather");
        Expr i = clamp(cast<int>(in(x, y)) & 63, 0, 63);
        f(x, y) = in(i, (y + 1) % 8) + in(x, y);
        return f;
    };
}

template <typename T>
Pipeline<T> casts() {
    return [](const Buffer<T> &in, Var x, Var y) {
        Func f("casts");
        Expr v = in(x, y);
        Expr d = cast<double>(v) * 0.75 + cast<float>(x) * 0.5f;
        f(x, y) = cast<T>(d) + cast<T>(cast<int16_t>(v)) + cast<T>(v > cast<T>(3));
        return f;
    };
}

template <typename T>
void all_pipelines(int seed) {
    differential<T>("arithmetic", arithmetic<T>(), seed);
    differential<T>("selects", selects<T>(), seed + 3);
    differential<T>("boundary", boundary<T>(), seed + 6);
    differential<T>("strided", strided<T>(), seed + 9);
    differential<T>("gather", gather<T>(), seed + 12);
    differential<T>("casts", casts<T>(), seed + 15);
}

} // namespace

TEST(Vectorize, Uint8) { all_pipelines<uint8_t>(1); }
TEST(Vectorize, Int16) { all_pipelines<int16_t>(10); }
TEST(Vectorize, Int32) { all_pipelines<int32_t>(20); }
TEST(Vectorize, Float) { all_pipelines<float>(30); }
TEST(Vectorize, Double) { all_pipelines<double>(40); }

TEST(Vectorize, LoweredStatementHasVectorCode) {
    ImageParam in(Int(32), 2, "in");
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = in(x, y) * 2 + in(x + 1, y);
    f.vectorize(x, 8, TailStrategy::GuardWithIf);
    std::string s = lowered(f, {in});
    EXPECT_EQ(s.find("vectorized"), std::string::npos) << s;
    // Dense 8-lane loads and stores, and a predicated tail.
    EXPECT_NE(s.find("ramp("), std::string::npos) << s;
    EXPECT_NE(s.find("x8"), std::string::npos) << s;
    EXPECT_NE(s.find("if ("), std::string::npos) << s;
    EXPECT_EQ(s.find("for (f.s0.x.v"), std::string::npos) << s;

    // RoundUp: no tail at all.
    Func g("g");
    g(x, y) = in(x, y) + 1;
    g.vectorize(x, 16, TailStrategy::RoundUp);
    std::string t = lowered(g, {in});
    EXPECT_NE(t.find("x16"), std::string::npos) << t;
    EXPECT_EQ(t.find("vectorized"), std::string::npos) << t;
}

TEST(Vectorize, BoolAndTupleAndUpdate) {
    Buffer<int16_t> in = random_input<int16_t>(80, 4, 7);
    Var x("x"), y("y");
    // A bool Func vectorized, consumed by a select.
    Func b("b"), out("out");
    b(x, y) = in(x, y) > in(x + 1, y);
    out(x, y) = select(b(x, y), in(x, y), cast<int16_t>(-1));
    b.compute_root().vectorize(x, 16);
    out.vectorize(x, 8, TailStrategy::GuardWithIf);
    Buffer<int16_t> o = out.realize({61, 4});
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 61; i++) {
            int16_t e = in(i, j) > in(i + 1, j) ? in(i, j) : (int16_t)-1;
            ASSERT_EQ(o(i, j), e) << i << ", " << j;
        }
    }
    // A Tuple and an update over a vectorized pure var.
    Func t("t");
    t(x, y) = Tuple(cast<int32_t>(in(x, y)) * 3, cast<float>(in(x, y)) * 0.5f);
    t(x, y) = Tuple(t(x, y)[0] + x, t(x, y)[1] - cast<float>(y));
    t.vectorize(x, 4, TailStrategy::GuardWithIf);
    t.update().vectorize(x, 8, TailStrategy::GuardWithIf);
    Realization r = t.realize({37, 4});
    Buffer<int32_t> a = r[0];
    Buffer<float> c = r[1];
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 37; i++) {
            ASSERT_EQ(a(i, j), in(i, j) * 3 + i);
            ASSERT_EQ(c(i, j), (float)in(i, j) * 0.5f - (float)j);
        }
    }
}

TEST(Vectorize, MathAndInterleave) {
    Buffer<float> in(3, 64); // chunky RGB: channel innermost
    for (int i = 0; i < 64; i++) {
        for (int c = 0; c < 3; c++) in(c, i) = (float)(i * 3 + c) * 0.25f;
    }
    Var x("x"), c("c");
    Func planar("planar");
    planar(x, c) = sqrt(in(c, x)) + exp(-in(c, x)) + sin(in(c, x));
    planar.vectorize(x, 8, TailStrategy::GuardWithIf);
    Buffer<float> p = planar.realize({61, 3});
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 61; i++) {
            float v = in(k, i);
            ASSERT_NEAR(p(i, k), std::sqrt(v) + std::exp(-v) + std::sin(v), 1e-5f) << i;
        }
    }
}
