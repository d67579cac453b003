// float16_t and bfloat16_t, the host types of Float(16) and BFloat(16) (built against Loom and,
// as compat_halide_float16_halide, against Halide 21): conversions against the compiler's own
// _Float16 and against bit-level bfloat rounding, the special values, and their use in
// pipelines as Buffer elements, Params, constants and evaluate results, with arithmetic
// checked against the same operations done one rounding at a time on the host.
#include "Halide.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

using namespace Halide;

namespace {

uint16_t bits_of(_Float16 h) {
    uint16_t b;
    std::memcpy(&b, &h, 2);
    return b;
}

/// float to bfloat16 bits, rounding to nearest even on the dropped half of the float.
uint16_t bfloat_bits_reference(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if (std::isnan(f)) return (uint16_t)((u >> 16) | 0x40);
    uint32_t rounded = u + 0x7fff + ((u >> 16) & 1);
    return (uint16_t)(rounded >> 16);
}

float float_of_bfloat_bits(uint16_t b) {
    uint32_t u = (uint32_t)b << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

/// Floats covering both formats' normal, subnormal and overflowing ranges, ties included.
std::vector<float> sample_floats() {
    std::vector<float> v = {
        0.0f,     -0.0f,         1.0f,           -1.0f,          0.5f,        65504.0f,    65519.0f,
        65520.0f, 1e-8f,         5.96e-8f,       2.98e-8f,       6.1e-5f,     1e30f,       -1e38f,
        3.0e38f,  1.0009765625f, 1.00048828125f, 1.00146484375f, 1.00390625f, 1.005859375f};
    std::mt19937 rng(5);
    std::uniform_int_distribution<uint32_t> any_bits;
    for (int i = 0; i < 20000; i++) {
        uint32_t u = any_bits(rng);
        // Bias half of the samples toward half's exponent range.
        if (i % 2) u = (u & 0x8fffffffu) | 0x30000000u;
        float f;
        std::memcpy(&f, &u, 4);
        if (!std::isnan(f)) v.push_back(f);
    }
    return v;
}

} // namespace

TEST(HalideFloat16, ConversionsRoundToNearestEven) {
    for (float f : sample_floats()) {
        ASSERT_EQ(float16_t(f).to_bits(), bits_of((_Float16)f)) << f;
        ASSERT_EQ(float16_t((double)f).to_bits(), bits_of((_Float16)f)) << f;
        ASSERT_EQ(bfloat16_t(f).to_bits(), bfloat_bits_reference(f)) << f;
    }
    for (int i : {0, 1, -1, 2049, 2051, 65504, 65520, 100000, -70000}) {
        EXPECT_EQ(float16_t(i).to_bits(), bits_of((_Float16)(float)i)) << i;
        EXPECT_EQ(bfloat16_t(i).to_bits(), bfloat_bits_reference((float)i)) << i;
    }
}

TEST(HalideFloat16, EveryBitPatternReadsBackExactly) {
    for (uint32_t b = 0; b < 65536; b++) {
        float16_t h = float16_t::make_from_bits((uint16_t)b);
        _Float16 ref;
        std::memcpy(&ref, &b, 2);
        if (std::isnan((float)ref)) {
            ASSERT_TRUE(h.is_nan());
            ASSERT_TRUE(std::isnan((float)h));
            continue;
        }
        ASSERT_EQ((float)h, (float)ref) << b;
        ASSERT_EQ((double)h, (double)ref) << b;
        ASSERT_EQ(float16_t((float)h).to_bits(), b);
        bfloat16_t bf = bfloat16_t::make_from_bits((uint16_t)b);
        if (!bf.is_nan()) {
            ASSERT_EQ((float)bf, float_of_bfloat_bits((uint16_t)b));
            ASSERT_EQ(bfloat16_t((float)bf).to_bits(), b);
        }
    }
}

TEST(HalideFloat16, SpecialValuesAndComparisons) {
    EXPECT_TRUE(float16_t::make_infinity().is_infinity());
    EXPECT_FALSE(float16_t::make_infinity().is_negative());
    EXPECT_TRUE(float16_t::make_negative_infinity().is_negative());
    EXPECT_TRUE(float16_t::make_nan().is_nan());
    EXPECT_TRUE(float16_t::make_negative_zero().is_zero());
    EXPECT_TRUE(float16_t::make_negative_zero().is_negative());
    EXPECT_EQ(float16_t::make_zero(), float16_t::make_negative_zero());
    EXPECT_NE(float16_t::make_nan(), float16_t::make_nan());
    EXPECT_EQ(float16_t(70000.0f).to_bits(), float16_t::make_infinity().to_bits());
    EXPECT_EQ((-float16_t(2.0f)).to_bits(), float16_t(-2.0f).to_bits());
    EXPECT_LT(float16_t(1.0f), float16_t(1.0009765625f));
    EXPECT_GE(float16_t(3), float16_t(3.0f));
    EXPECT_EQ((int)float16_t(-2.75f), -2);
    EXPECT_TRUE(bfloat16_t::make_infinity().is_infinity());
    EXPECT_TRUE(bfloat16_t::make_nan().is_nan());
    EXPECT_TRUE(bfloat16_t::make_negative_zero().is_negative());
    EXPECT_EQ(bfloat16_t::make_zero().to_bits(), 0);
    EXPECT_EQ(bfloat16_t(1e39).to_bits(), bfloat16_t::make_infinity().to_bits());
#ifdef LOOM_COMPAT_HALIDE_H
    // Halide 21 declares these constants and the runtime's half readers but its library does
    // not define them for host code; Loom does.
    EXPECT_TRUE(bfloat16_t::nan.is_nan());
    EXPECT_EQ(bfloat16_t::infinity.to_bits(), bfloat16_t::make_infinity().to_bits());
    EXPECT_EQ(halide_float16_bits_to_float(float16_t(-0.375f).to_bits()), -0.375f);
    EXPECT_EQ(halide_float16_bits_to_double(0x7bff), 65504.0);
#endif

    // Host arithmetic rounds once per operation.
    float16_t a(1.0f), b(0.0001f);
    EXPECT_EQ((a + b).to_bits(), bits_of((_Float16)((float)a + (float)b)));
    float16_t c(3.0f);
    c /= float16_t(7.0f);
    EXPECT_EQ(c.to_bits(), bits_of((_Float16)(3.0f / 7.0f)));
    bfloat16_t d(10.0f);
    d *= bfloat16_t(0.3f);
    EXPECT_EQ(d.to_bits(), bfloat_bits_reference(10.0f * (float)bfloat16_t(0.3f)));
}

TEST(HalideFloat16, TypesOfTheHostTypes) {
    EXPECT_EQ(type_of<float16_t>(), Float(16));
    EXPECT_EQ(type_of<bfloat16_t>(), BFloat(16));
    EXPECT_EQ(Type(halide_type_of<float16_t>()), Float(16));
    EXPECT_EQ(Type(halide_type_of<bfloat16_t>()), BFloat(16));
    EXPECT_EQ(Expr(float16_t(1.5f)).type(), Float(16));
    EXPECT_EQ(Expr(bfloat16_t(1.5f)).type(), BFloat(16));
    EXPECT_EQ(ConciseCasts::f16(Expr(1)).type(), Float(16));
    EXPECT_EQ(ConciseCasts::bf16(Expr(1)).type(), BFloat(16));
    EXPECT_EQ(Buffer<float16_t>(4).type(), Float(16));
}

TEST(HalideFloat16, Float16PipelineMatchesHostArithmetic) {
    Buffer<float16_t> in(37);
    for (int i = 0; i < in.width(); i++) in(i) = float16_t(0.37f * i - 5.0f);
    Param<float16_t> scale;
    scale.set(float16_t(1.25f));
    EXPECT_EQ(scale.get(), float16_t(1.25f));

    // One operation per stored stage: within one expression, Halide and Loom both let LLVM
    // reassociate float math, so only stored results are rounded exactly once per operation.
    for (bool vectorized : {false, true}) {
        Var x("x");
        Func mul("mul"), add("add"), sub("sub"), div("div");
        mul(x) = in(x)*scale;
        add(x) = mul(x) + float16_t(0.5f);
        div(x) = in(x) / (scale + float16_t(1.75f));
        sub(x) = add(x) - div(x);
        for (Func s : {mul, add, div}) {
            s.compute_root();
            if (vectorized) s.vectorize(x, 8);
        }
        if (vectorized) sub.vectorize(x, 8);
        Buffer<float16_t> out = sub.realize({in.width()});
        for (int i = 0; i < in.width(); i++) {
            float16_t expected =
                (in(i)*float16_t(1.25f) + float16_t(0.5f)) - in(i) / float16_t(3.0f);
            EXPECT_EQ(out(i).to_bits(), expected.to_bits())
                << "x = " << i << " vectorized " << vectorized;
        }
    }
    EXPECT_EQ(evaluate<float16_t>(Expr(float16_t(2.0f)) * Expr(float16_t(0.75f))), float16_t(1.5f));
}

TEST(HalideFloat16, BFloat16StorageAndConversions) {
    Buffer<bfloat16_t> in(29);
    for (int i = 0; i < in.width(); i++) in(i) = bfloat16_t(1.7f * i - 20.0f);
    Var x("x");
    Func widen("widen"), narrow("narrow");
    widen(x) = cast<float>(in(x)) * 3.1f;
    narrow(x) = cast<bfloat16_t>(widen(x));
    Buffer<bfloat16_t> out = narrow.realize({in.width()});
    for (int i = 0; i < in.width(); i++) {
        float wide = (float)in(i)*3.1f;
        EXPECT_EQ(out(i).to_bits(), bfloat_bits_reference(wide)) << "x = " << i;
    }
    Param<bfloat16_t> p;
    p.set(bfloat16_t(0.5f));
    EXPECT_EQ(evaluate<float>(cast<float>(p)), 0.5f);
#ifdef LOOM_COMPAT_HALIDE_H
    // A Param<void> of each 16-bit type holds a representable value, given as a float or as the
    // 16-bit type (Halide 21's Param<void> refuses both).
    Param<void> half_param(Float(16)), brain_param(BFloat(16));
    half_param.set(-2.25f);
    brain_param.set(bfloat16_t(384.0f));
    EXPECT_EQ(evaluate<float>(cast<float>(half_param) + cast<float>(brain_param)), 381.75f);
    EXPECT_EQ(half_param.get<float>(), -2.25f);
    EXPECT_EQ(brain_param.get<bfloat16_t>().to_bits(), bfloat16_t(384.0f).to_bits());
#endif
}

TEST(HalideFloat16, TypeRulesOfSixteenBitFloats) {
    // A C++ float is a float32 Expr: a 16-bit float widens to it. Math functions compute a
    // bfloat16 in float32 (a float16 stays float16); round and constant integer powers keep it.
    Param<bfloat16_t> b("b");
    Param<float16_t> h("h");
    Expr be = b, he = h;
    EXPECT_EQ((be * 3.3f).type(), Float(32));
    EXPECT_EQ((3.3f * be).type(), Float(32));
    EXPECT_EQ((he + 0.5f).type(), Float(32));
    EXPECT_EQ(min(be, 1.0f).type(), Float(32));
    EXPECT_EQ((be * 2).type(), BFloat(16));
    EXPECT_EQ(clamp(be, 0.0f, 1.0f).type(), BFloat(16));
    // Between the two 16-bit floats the second operand's type wins.
    EXPECT_EQ((be * he).type(), Float(16));
    EXPECT_EQ((he * be).type(), BFloat(16));
    EXPECT_EQ(sqrt(be).type(), Float(32));
    EXPECT_EQ(floor(be).type(), Float(32));
    EXPECT_EQ(atan2(be, be).type(), Float(32));
    EXPECT_EQ(round(be).type(), BFloat(16));
    EXPECT_EQ(pow(be, 3).type(), BFloat(16));
    EXPECT_EQ(sqrt(he).type(), Float(16));
}

TEST(HalideFloat16, SixteenBitFloatMathValues) {
    // sqrt of a bfloat16 is float32's sqrt, not rounded back; f16 * 0.5f is float32 arithmetic;
    // pow(h, 3) multiplies in float16, rounding each product.
    const int n = 256;
    Buffer<bfloat16_t> a(n);
    Buffer<float16_t> h(n);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(0.0f, 9.0f);
    for (int i = 0; i < n; i++) {
        a(i) = bfloat16_t(dist(rng));
        h(i) = float16_t(dist(rng) - 4.5f);
    }
    Var x("x");
    Func f("f");
    f(x) = Tuple(cast<float>(sqrt(a(x))), cast<float>(h(x) * 0.3f), cast<float>(pow(h(x), 3)));
    Realization r = f.realize({n});
    Buffer<float> s = r[0], m = r[1], p = r[2];
    for (int i = 0; i < n; i++) {
        const float av = (float)a(i);
        const _Float16 hv = (_Float16)(float)h(i);
        EXPECT_EQ(s(i), std::sqrt(av)) << i;
        EXPECT_EQ(m(i), (float)hv * 0.3f) << i;
        const _Float16 sq = hv * hv;
        EXPECT_EQ(p(i), (float)(_Float16)(sq * hv)) << i;
    }
}
