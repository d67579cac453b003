// Regressions of the math functions' code generation (src/codegen/llvm/codegen_intrinsics.cpp):
// the inline vector sin/cos that replaced LLVM's per-lane sinf/cosf calls (apps/snake), checked
// against double-precision libm over a dense sweep, large arguments and the special values; and
// of the code of the apps' loops (CodegenRegressions: the instructions a loop must or must not
// contain, and its values against plain loops).
#include <loom/loom.h>

#include "common/lowered_text.h"
#include "common/ulp_distance.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using namespace loom;

namespace {

/// The bound of the vector sin/cos against the correctly rounded result, in units in the last
/// place of the result, for |x| <= kAccurateRange. The Cephes polynomials are within about 1 ulp
/// on [-pi/4, pi/4]; the reduction adds at most about one rounding of r.
constexpr int64_t kMaxUlp = 2;
constexpr double kAccurateRange = 1e6;

/// sin or cos of every element of `in`, vectorized by `lanes` (1: scalar), for `target`.
Buffer<float> run(const Buffer<float> &in, bool is_cos, int lanes,
                  const Target &target = get_jit_target_from_environment()) {
    ImageParam p(Float(32), 1, "p");
    Func f("f");
    Var x("x");
    f(x) = is_cos ? cos(p(x)) : sin(p(x));
    if (lanes > 1) f.vectorize(x, lanes);
    p.set(in);
    return f.realize({in.width()}, target);
}

/// A fixed-seed generator (independent of the test order).
struct Lcg {
    uint64_t s;
    uint32_t next() {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return (uint32_t)(s >> 33);
    }
    double uniform() { return next() / 2147483648.0; }
};

/// The inputs: a dense sweep of [-10, 10], random magnitudes up to kAccurateRange, the floats
/// around multiples of pi/2 (where x - k pi/2 cancels most), tiny and subnormal values, padded
/// to a multiple of 16 lanes.
std::vector<float> accurate_inputs() {
    std::vector<float> xs;
    for (int i = -20000; i <= 20000; i++) xs.push_back((float)(i * 5e-4));
    Lcg g{12345};
    for (int i = 0; i < 40000; i++) {
        double m = std::pow(10.0, -3.0 + 9.0 * g.uniform()); // 1e-3 .. 1e6
        xs.push_back((float)((g.next() & 1) ? m : -m));
    }
    for (int k = 1; k < 600000; k = k * 5 / 4 + 1) {
        float c = (float)(k * M_PI / 2);
        if (std::fabs(c) > kAccurateRange) break;
        for (float v : {c, std::nextafter(c, 0.0f), std::nextafter(c, 2 * c)}) {
            xs.push_back(v);
            xs.push_back(-v);
        }
    }
    // Floats closest to multiples of pi/2 in a range: the hardest reductions.
    for (float v : {355.0f, 710.0f, 103993.0f, 104348.0f, 833719.0f, 1.5707964f, 3.1415927f,
                    4.712389f, 6.2831855f, 1e-20f, -1e-30f, 1e-40f, -3e-45f,
                    std::numeric_limits<float>::min(), 0.7853982f, 0.7853981f})
        xs.push_back(v);
    while (xs.size() % 16) xs.push_back(0.25f);
    return xs;
}

Buffer<float> to_buffer(const std::vector<float> &xs) {
    Buffer<float> in((int)xs.size());
    for (size_t i = 0; i < xs.size(); i++) in((int)i) = xs[i];
    return in;
}

/// The largest ulp distance of out from the correctly rounded sin/cos of xs (all finite).
int64_t worst_ulp(const std::vector<float> &xs, const Buffer<float> &out, bool is_cos,
                  std::string *where) {
    int64_t worst = 0;
    for (size_t i = 0; i < xs.size(); i++) {
        double x = xs[i];
        float want = (float)(is_cos ? std::cos(x) : std::sin(x));
        float got = out((int)i);
        int64_t d = std::isfinite(got) ? ulp_distance(got, want) : INT64_MAX;
        if (d > worst) {
            worst = d;
            char buf[160];
            std::snprintf(buf, sizeof buf, "%s(%.9g) = %.9g, want %.9g", is_cos ? "cos" : "sin", x,
                          got, want);
            *where = buf;
        }
    }
    return worst;
}

/// The assembly of a vectorized sin + cos pipeline.
std::string vector_assembly(const Target &target) {
    ImageParam p(Float(32), 1, "p");
    Func f("f");
    Var x("x");
    f(x) = sin(p(x)) + cos(p(x));
    f.vectorize(x, 8);
    return assembly(f, {p}, target);
}

} // namespace

// snake: a vectorized cos was llvm.cos on a vector, which x86 LLVM scalarizes into one cosf call
// per lane (a third of the app's time). It is now an inline polynomial with an FMA range
// reduction; it must stay within kMaxUlp of the correctly rounded result for |x| <= 1e6, at
// every vector width.
TEST(MathRegressions, VectorSinCosAreAccurate) {
    std::vector<float> xs = accurate_inputs();
    Buffer<float> in = to_buffer(xs);
    for (bool is_cos : {false, true}) {
        for (int lanes : {4, 8, 16, 32}) {
            std::string where;
            int64_t worst = worst_ulp(xs, run(in, is_cos, lanes), is_cos, &where);
            EXPECT_LE(worst, kMaxUlp) << "lanes " << lanes << ": " << where;
        }
    }
}

// The vector and scalar (libm) versions agree within the same bound, lane for lane.
TEST(MathRegressions, VectorAndScalarSinCosAgree) {
    std::vector<float> xs = accurate_inputs();
    Buffer<float> in = to_buffer(xs);
    for (bool is_cos : {false, true}) {
        Buffer<float> scalar = run(in, is_cos, 1), vec = run(in, is_cos, 8);
        int64_t worst = 0;
        for (size_t i = 0; i < xs.size(); i++) {
            worst = std::max(worst, ulp_distance(scalar((int)i), vec((int)i)));
        }
        // Each is within kMaxUlp of the correctly rounded value (libm within 1).
        EXPECT_LE(worst, kMaxUlp + 1) << (is_cos ? "cos" : "sin");
    }
}

// Zeros, infinities and NaN: sin(+-0) = +-0 (the sign kept), cos(+-0) = 1, anything of an
// infinity or a NaN is NaN; beyond the accurate range the results stay in [-1, 1].
TEST(MathRegressions, VectorSinCosSpecialValues) {
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> xs = {0.0f,     -0.0f, inf,    -inf,  nan,    -nan, 1e7f, -3e8f,
                             1.234e9f, 4e9f,  -1e12f, 3e38f, -3e38f, 1.0f, 2.0f, 16777216.0f};
    Buffer<float> in = to_buffer(xs);
    for (int lanes : {8, 16}) {
        Buffer<float> s = run(in, false, lanes), c = run(in, true, lanes);
        EXPECT_EQ(s(0), 0.0f);
        EXPECT_FALSE(std::signbit(s(0)));
        EXPECT_EQ(s(1), 0.0f);
        EXPECT_TRUE(std::signbit(s(1))) << "sin(-0) must be -0";
        EXPECT_EQ(c(0), 1.0f);
        EXPECT_EQ(c(1), 1.0f);
        for (int i = 2; i < 6; i++) {
            EXPECT_TRUE(std::isnan(s(i))) << "sin(" << xs[i] << ") = " << s(i);
            EXPECT_TRUE(std::isnan(c(i))) << "cos(" << xs[i] << ") = " << c(i);
        }
        for (int i = 6; i < (int)xs.size(); i++) {
            EXPECT_LE(std::fabs(s(i)), 1.0f) << "sin(" << xs[i] << ")";
            EXPECT_LE(std::fabs(c(i)), 1.0f) << "cos(" << xs[i] << ")";
        }
        EXPECT_LE(ulp_distance(s(13), (float)std::sin(1.0)), kMaxUlp);
        EXPECT_LE(ulp_distance(c(14), (float)std::cos(2.0)), kMaxUlp);
    }
}

// The vectorized loop calls no libm sin/cos (the regression: eight calls per vector).
TEST(MathRegressions, VectorSinCosCallNoLibm) {
    std::string s = vector_assembly(Target("x86-64-linux-sse41-avx-avx2-fma"));
    EXPECT_EQ(s.find("sinf"), std::string::npos) << s;
    EXPECT_EQ(s.find("cosf"), std::string::npos) << s;
    EXPECT_NE(s.find("vfmadd"), std::string::npos);
}

namespace {

/// The vertical maximum over rows y - r .. y + r of a float image with edges repeated, the
/// rows' loop a reduction inside an 8-wide vector loop (apps/max_filter's first pass).
Func vertical_max(ImageParam in, Param<int> r) {
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func vmax("vmax");
    Var x("x"), y("y");
    RDom dv(-r, 2 * r + 1, "dv");
    vmax(x, y) = clamped(x, y - r);
    vmax(x, y) = max(vmax(x, y), clamped(x, y + dv));
    vmax.vectorize(x, 8);
    vmax.update().vectorize(x, 8);
    return vmax;
}

} // namespace

// max_filter: LLVM's runtime unroller copied the 52-tap vector reduction (a runtime trip count
// once loop partitioning peels the clamped taps) 8 times, each copy with its own sign-extended
// row offset, partly spilled: 1.2x slower than Halide. LLVM's unrollers now run only with
// Target::EnableLLVMLoopOpt, as in Halide; the result must not change.
TEST(CodegenRegressions, VectorReductionIsNotRuntimeUnrolled) {
    ImageParam in(Float(32), 2, "in");
    Param<int> r("r");
    const Target avx2("x86-64-linux-sse41-avx-avx2-fma");
    int plain = count_in_assembly(vertical_max(in, r), {in, r}, "vmaxps", avx2);
    int unrolled = count_in_assembly(vertical_max(in, r), {in, r}, "vmaxps",
                                     avx2.with_feature(Target::EnableLLVMLoopOpt));
    // One vmaxps per tap loop: the steady rows' (one per x partition) and the edge rows', and
    // the pure definition's none; LLVM's unroller copies the steady loop's 4 times or more.
    EXPECT_LE(plain, 8) << "the reduction loops were unrolled (" << plain << " vmaxps)";
    EXPECT_GE(unrolled, plain + 3) << "the contrast case should unroll (" << unrolled << " vmaxps)";

    // The result, against a direct maximum over the clamped rows (max is exact: bit-exact).
    const int w = 48, h = 37; // whole vectors: the update is vectorized on the output
    Buffer<float> input(w, h);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) input(x, y) = (float)((x * 7919 + y * 104729) % 1000) * 0.5f;
    }
    in.set(input);
    for (int radius : {0, 3, 26}) {
        r.set(radius);
        Buffer<float> out = vertical_max(in, r).realize({w, h});
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                float want = -INFINITY;
                for (int d = -radius; d <= radius; d++) {
                    want = std::max(want, input(x, std::min(std::max(y + d, 0), h - 1)));
                }
                ASSERT_EQ(out(x, y), want) << "r " << radius << " at " << x << ", " << y;
            }
        }
    }
}

// nl_means: CSE lifted the ramp index shared by weighted_sum[t] and weight[t] (two buffers of
// one shape, at the same place) into a Let, and code generation, which sees a dense access
// only in a Ramp index, gathered both. They must stay dense loads; the values must not change.
TEST(CodegenRegressions, SharedRampIndexIsNotGathered) {
    ImageParam in(Float(32), 1, "in");
    Var x("x"), xo("xo"), xi("xi");
    RDom r(0, 3, "r");
    Func weight("weight"), sum("sum"), out("out");
    weight(x) = in(x)*2.0f;
    sum(x) = 0.0f;
    sum(x) += weight(x) * in(x + r);
    out(x) = sum(x);
    out.split(x, xo, xi, 16).vectorize(xi, 8);
    sum.compute_at(out, xo).vectorize(x, 8);
    // As nl_means: the reduction outside, each iteration's weights computed over the tile.
    sum.update().reorder(x, r).vectorize(x, 8);
    weight.compute_at(sum, r).vectorize(x, 8);
    const Target avx512("x86-64-linux-sse41-avx-avx2-fma-avx512-avx512_skylake");
    EXPECT_EQ(count_in_assembly(out, {in}, "vgather", avx512), 0);

    const int n = 48;
    Buffer<float> input(n + 2);
    for (int i = 0; i < n + 2; i++) input(i) = 0.5f * (float)(i % 9) - 1.0f;
    in.set(input);
    Buffer<float> got = out.realize({n});
    // Exact: every product and partial sum is a multiple of 1/4 of small magnitude.
    for (int i = 0; i < n; i++) {
        float want = 0.0f;
        for (int k = 0; k < 3; k++) want += input(i) * 2.0f * input(i + k);
        ASSERT_EQ(got(i), want) << "at " << i;
    }
}

// nl_means: a load's Int(32) index, the inner loop's ramp base plus a sum of loop invariants,
// was computed in 32 bits and sign-extended at the end. LLVM reassociates the sum to hoist its
// invariant part and drops the no-signed-wrap flags doing so, so the sign extension stayed in
// the loop: a lea and a movslq per load, where an index computed in 64 bits leaves one pointer
// bump. The loop of the differences must have no sign extension; the values must not change.
TEST(CodegenRegressions, LoadIndicesAreNotSignExtendedInTheLoop) {
    ImageParam in(Float(32), 3, "in");
    Param<int> dx("dx"), dy("dy");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func diff("diff"), out("out");
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    // As nl_means: the squared difference of two pixels over 3 channels, per tile, vectorized.
    Expr sum = 0.0f;
    for (int c = 0; c < 3; c++) {
        Expr d = clamped(x, y, c) - clamped(x + dx, y + dy, c);
        sum += d * d;
    }
    diff(x, y) = sum;
    out(x, y) = diff(x, y) + diff(x + 1, y + 1);
    out.tile(x, y, xo, yo, xi, yi, 64, 16).vectorize(xi, 8);
    diff.compute_at(out, xo).vectorize(x, 8);
    int loops = 0;
    for (const std::string &body :
         innermost_loop_bodies(out, {in, dx, dy}, Target("x86-64-linux-sse41-avx-avx2-fma"))) {
        // The steady loops of the differences (the edges' loops clamp vectors of coordinates,
        // vpminsd, and load lane by lane).
        if (body.find("vsubps") == std::string::npos || body.find("vpminsd") != std::string::npos) {
            continue;
        }
        loops++;
        EXPECT_EQ(body.find("movslq"), std::string::npos) << body;
    }
    EXPECT_GT(loops, 0);

    const int w = 128, h = 32;
    Buffer<float> input(w, h, 3);
    input.for_each_element([&](int i, int j, int c) {
        input(i, j, c) = 0.25f * (float)((i * 7 + j * 3 + c * 5) % 11);
    });
    in.set(input);
    dx.set(3);
    dy.set(-2);
    Buffer<float> got = out.realize({w, h});
    auto at = [&](int i, int j, int c) {
        return input(std::min(std::max(i, 0), w - 1), std::min(std::max(j, 0), h - 1), c);
    };
    // Exact: every difference, square and sum is a small multiple of 1/16.
    for (int j = 0; j < h; j++) {
        for (int i = 0; i < w; i++) {
            float want = 0.0f;
            for (int k = 0; k <= 1; k++) {
                float s = 0.0f;
                for (int c = 0; c < 3; c++) {
                    float d = at(i + k, j + k, c) - at(i + k + 3, j + k - 2, c);
                    s += d * d;
                }
                want += s;
            }
            ASSERT_EQ(got(i, j), want) << "at " << i << ", " << j;
        }
    }
}
