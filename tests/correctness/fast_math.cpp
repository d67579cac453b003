// Float semantics: by default the compiler may contract a * b + c into one FMA (and reassociate,
// use reciprocals, ignore the sign of zero), as Halide does; strict_float() and
// Target::StrictFloat round every operation as written. NaN and infinity are not assumed away.
#include <loom/loom.h>

#include "common/lowered_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

using namespace loom;

namespace {

const int N = 1000;

/// Inputs for which a * b + c rounded once (FMA) and twice differ for many elements.
struct Inputs {
    Buffer<float> a{N}, b{N}, c{N};
    Inputs() {
        for (int i = 0; i < N; i++) {
            a(i) = 1.0f + i * 1.1920929e-7f * 37;
            b(i) = 1.0f - i * 1.1920929e-7f * 53;
            c(i) = -1.0f + i * 3.0e-6f;
        }
    }
};

/// a * b + c with the product rounded to float first, as written.
float twice_rounded(float a, float b, float c) {
    volatile float p = a * b;
    return p + c;
}

Func mad(const Inputs &in, bool wrap_strict, int vector_width) {
    Var x("x");
    Func f("mad");
    Expr e = in.a(x) * in.b(x) + in.c(x);
    f(x) = wrap_strict ? strict_float(e) : e;
    if (vector_width > 1) f.vectorize(x, vector_width);
    return f;
}

} // namespace

TEST(FastMath, InputsTellTheRoundingsApart) {
    Inputs in;
    int differ = 0;
    for (int i = 0; i < N; i++) {
        differ += std::fma(in.a(i), in.b(i), in.c(i)) != twice_rounded(in.a(i), in.b(i), in.c(i));
    }
    EXPECT_GT(differ, N / 4);
}

TEST(FastMath, StrictFloatRoundsEachOperation) {
    Inputs in;
    Target host = get_jit_target_from_environment();
    for (int vw : {1, 4, 8, 16}) {
        // strict_float() around the expression, and the whole pipeline under StrictFloat.
        Buffer<float> wrapped = mad(in, true, vw).realize({N}, host);
        Buffer<float> target_wide =
            mad(in, false, vw).realize({N}, host.with_feature(Target::StrictFloat));
        for (int i = 0; i < N; i++) {
            float want = twice_rounded(in.a(i), in.b(i), in.c(i));
            ASSERT_EQ(wrapped(i), want) << "strict_float, vector " << vw << ", i " << i;
            ASSERT_EQ(target_wide(i), want) << "StrictFloat, vector " << vw << ", i " << i;
        }
    }
}

TEST(FastMath, DefaultRoundsOnceOrTwice) {
    Inputs in;
    for (int vw : {1, 8}) {
        Buffer<float> got = mad(in, false, vw).realize({N});
        for (int i = 0; i < N; i++) {
            float once = std::fma(in.a(i), in.b(i), in.c(i));
            float twice = twice_rounded(in.a(i), in.b(i), in.c(i));
            ASSERT_TRUE(got(i) == once || got(i) == twice)
                << "vector " << vw << ", i " << i << ": " << got(i) << " is neither " << once
                << " nor " << twice;
        }
    }
}

TEST(FastMath, ContractsWhereTheTargetHasFMA) {
    Target host = get_jit_target_from_environment();
    if (!host.has_feature(Target::FMA)) GTEST_SKIP() << "the host has no FMA";
    Inputs in;
    std::string fast = assembly(mad(in, false, 8), {}, host);
    std::string strict = assembly(mad(in, true, 8), {}, host);
    std::string target_strict =
        assembly(mad(in, false, 8), {}, host.with_feature(Target::StrictFloat));
    EXPECT_NE(fast.find("vfmadd"), std::string::npos) << fast;
    EXPECT_EQ(strict.find("vfmadd"), std::string::npos) << strict;
    EXPECT_EQ(target_strict.find("vfmadd"), std::string::npos) << target_strict;
}

TEST(FastMath, NaNAndInfinityStayExact) {
    // Fast-math here does not assume finite values: the class tests see the true value, and
    // NaN and infinity flow through arithmetic (reassociation may still decide whether an
    // intermediate overflows: x * 0 + x may become x).
    Buffer<float> in(8);
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    float vals[8] = {1.5f, nan, inf, -inf, 0.0f, -2.0f, nan, 3.0e38f};
    for (int i = 0; i < 8; i++) in(i) = vals[i];
    Var x("x");
    Func f("classes");
    Expr v = in(x)*2.0f + 1.0f;
    f(x) = select(is_nan(v), 1, 0) + select(is_inf(v), 2, 0) + select(is_finite(v), 4, 0);
    Func g("propagate");
    g(x) = in(x)*in(x)-1.0f;
    for (int vw : {1, 8}) {
        if (vw > 1) {
            f.vectorize(x, vw);
            g.vectorize(x, vw);
        }
        Buffer<int> classes = f.realize({8});
        Buffer<float> propagated = g.realize({8});
        for (int i = 0; i < 8; i++) {
            float want = vals[i] * 2.0f + 1.0f;
            int expected = std::isnan(want) ? 1 : std::isinf(want) ? 2 : 4;
            EXPECT_EQ(classes(i), expected) << "vector " << vw << ", value " << vals[i];
            float p = vals[i] * vals[i] - 1.0f;
            EXPECT_EQ(std::isnan(propagated(i)), std::isnan(p)) << "vector " << vw << ", " << i;
            if (!std::isnan(p)) EXPECT_EQ(propagated(i), p) << "vector " << vw << ", " << i;
        }
    }
}
