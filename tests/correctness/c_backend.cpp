// The C back end (compile_to_c): pipelines and schedules compiled to C99, built with gcc and
// clang with each SIMD mapping, and compared with the JIT (the LLVM back end) value for value.
#include "common/c_backend_harness.h"

#include <loom/loom.h>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

using namespace loom;
using c_backend_test::CBackendRun;
using c_backend_test::CConfig;

namespace {

class CBackend : public ::testing::TestWithParam<CConfig> {};

/// Deterministic pseudo-random contents covering the type's whole range.
template <typename T>
Buffer<T> random_buffer(std::vector<int> sizes, uint32_t seed) {
    Buffer<T> b(sizes);
    uint64_t s = seed * 2654435761u + 1;
    b.for_each_value([&](T &v) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t bits = s >> 11;
        if constexpr (std::is_floating_point_v<T>) {
            v = (T)((double)(bits % 2000001) / 1000.0 - 1000.0);
        } else {
            std::memcpy(&v, &bits, sizeof(T));
        }
    });
    return b;
}

template <typename T>
void expect_same(const Buffer<T> &jit, const Buffer<T> &c, double tolerance = 0) {
    ASSERT_EQ(jit.dimensions(), c.dimensions());
    int mismatches = 0;
    jit.for_each_element([&](const int *pos) {
        T a = jit(pos), b = c(pos);
        bool same = tolerance > 0 ? std::abs((double)a - (double)b) <=
                                        tolerance * std::max(1.0, std::abs((double)a))
                                  : (a == b || (a != a && b != b));
        if (!same && mismatches++ < 5) {
            ADD_FAILURE() << "at (" << pos[0] << (jit.dimensions() > 1 ? ", " : "")
                          << (jit.dimensions() > 1 ? std::to_string(pos[1]) : "") << "): JIT " << +a
                          << ", C " << +b;
        }
    });
    EXPECT_EQ(mismatches, 0);
}

/// Runs one-input, one-output `out` through the JIT and the C back end and compares.
template <typename In, typename Out>
void check_unary(const CConfig &config, Func out, ImageParam input, const Buffer<In> &in,
                 std::vector<int> sizes, double tolerance = 0) {
    input.set(in);
    Buffer<Out> expected = out.realize(sizes);
    CBackendRun c(Pipeline(out), {input}, config);
    ASSERT_TRUE(c.ok());
    Buffer<Out> actual(sizes);
    ASSERT_EQ(c.call({(void *)in.raw_buffer(), (void *)actual.raw_buffer()}), 0) << c.errors();
    expect_same(expected, actual, tolerance);
}

TEST_P(CBackend, BrightenWithParamAndSchedules) {
    Buffer<uint8_t> in = random_buffer<uint8_t>({37, 19}, 1);
    for (int schedule = 0; schedule < 3; schedule++) {
        ImageParam input(UInt(8), 2, "input");
        Param<float> gain("gain", 1.7f);
        Func f("bright");
        Var x("x"), y("y"), xi("xi");
        f(x, y) = cast<uint8_t>(min(input(x, y) * gain, 255.0f));
        if (schedule == 1) f.vectorize(x, 16);
        if (schedule == 2)
            f.split(x, x, xi, 8, TailStrategy::GuardWithIf).vectorize(xi).parallel(y);
        input.set(in);
        Buffer<uint8_t> expected = f.realize({37, 19});
        CBackendRun c(Pipeline(f), {input, gain}, GetParam());
        ASSERT_TRUE(c.ok());
        Buffer<uint8_t> actual(37, 19);
        float g = 1.7f;
        ASSERT_EQ(c.call({(void *)in.raw_buffer(), &g, (void *)actual.raw_buffer()}), 0)
            << c.errors();
        expect_same(expected, actual);
    }
}

TEST_P(CBackend, BlurScheduledManyWays) {
    Buffer<uint16_t> in = random_buffer<uint16_t>({45, 33}, 2);
    for (int schedule = 0; schedule < 5; schedule++) {
        ImageParam input(UInt(16), 2, "input");
        Func clamped = BoundaryConditions::repeat_edge(input);
        Func bx("blur_x"), by("blur_y");
        Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
        bx(x, y) = (clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y)) / 3;
        by(x, y) = (bx(x, y - 1) + bx(x, y) + bx(x, y + 1)) / 3;
        switch (schedule) {
        case 0:
            break;
        case 1:
            bx.compute_root();
            break;
        case 2:
            by.tile(x, y, xo, yo, xi, yi, 16, 8).vectorize(xi, 8).parallel(yo);
            bx.compute_at(by, xo).vectorize(x, 8);
            break;
        case 3:
            // Vectors of 3 lanes are structs of lanes in every mapping.
            by.vectorize(x, 3).unroll(y, 2);
            bx.store_root().compute_at(by, y).vectorize(x, 3);
            break;
        case 4:
            by.split(y, yo, yi, 4).parallel(yo).vectorize(x, 4);
            bx.compute_at(by, yi);
            break;
        }
        SCOPED_TRACE("schedule " + std::to_string(schedule));
        check_unary<uint16_t, uint16_t>(GetParam(), by, input, in, {45, 33});
    }
}

TEST_P(CBackend, HistogramAndSumReductions) {
    Buffer<uint8_t> in = random_buffer<uint8_t>({64, 24}, 3);
    ImageParam input(UInt(8), 2, "input");
    RDom r(0, 64, 0, 24);
    Func hist("hist"), sum_rows("sum_rows"), out("out");
    Var x("x");
    hist(x) = 0;
    hist(clamp(cast<int>(input(r.x, r.y)) / 8, 0, 31)) += 1;
    RDom k(0, 64);
    sum_rows(x) = 0;
    sum_rows(x) += cast<int>(input(k, x));
    out(x) = hist(x % 32) * 1000 + sum_rows(x % 24);
    hist.compute_root();
    sum_rows.compute_root().update().vectorize(x, 8);
    out.vectorize(x, 8);
    check_unary<uint8_t, int>(GetParam(), out, input, in, {48});
}

/// Integer operations with Halide's semantics, for one type, scalar and vectorized.
template <typename T>
void check_integer_ops(const CConfig &config) {
    Type t = type_of<T>();
    Buffer<T> a = random_buffer<T>({64}, 4), b = random_buffer<T>({64}, 5);
    for (bool vectorize : {false, true}) {
        ImageParam pa(t, 1, "a"), pb(t, 1, "b");
        Var x("x");
        Expr va = pa(x), vb = pb(x);
        Func f("ops");
        Expr shift = cast(t, vb % (t.bits() + 3)) - 1; // -1 .. bits + 1
        Expr e = va / vb + va % vb * 3 - min(va, vb) + max(va, vb) / 2;
        e = e + (va << shift) + (va >> shift) + absd(va, vb) / 2;
        e = e + saturating_add(va, vb) - saturating_sub(va, vb);
        e = e + select(va < vb, va ^ vb, va & ~vb) + (va | vb) / 3;
        e = e + cast(t, abs(va) / 2) + halving_add(va, vb) + rounding_halving_add(va, vb);
        if (t.bits() <= 32) e = e + lerp(va, vb, cast(t.with_code(Type::UInt), vb));
        e = e + cast(t, popcount(va)) + cast(t, count_leading_zeros(vb));
        e = e + saturating_cast(t, cast<double>(va) * 1.5) + cast(t, cast<float>(va) * 0.25f);
        f(x) = e;
        if (vectorize) f.vectorize(x, 8);
        pa.set(a);
        pb.set(b);
        Buffer<T> expected = f.realize({64});
        CBackendRun c(Pipeline(f), {pa, pb}, config);
        ASSERT_TRUE(c.ok());
        Buffer<T> actual(64);
        ASSERT_EQ(
            c.call({(void *)a.raw_buffer(), (void *)b.raw_buffer(), (void *)actual.raw_buffer()}),
            0)
            << c.errors();
        SCOPED_TRACE(std::string(vectorize ? "vectorized " : "scalar ") + type_to_string(t));
        expect_same(expected, actual);
    }
}

TEST_P(CBackend, IntegerSemanticsEveryType) {
    check_integer_ops<int8_t>(GetParam());
    check_integer_ops<uint8_t>(GetParam());
    check_integer_ops<int16_t>(GetParam());
    check_integer_ops<uint16_t>(GetParam());
    check_integer_ops<int32_t>(GetParam());
    check_integer_ops<uint32_t>(GetParam());
    check_integer_ops<int64_t>(GetParam());
    check_integer_ops<uint64_t>(GetParam());
}

TEST_P(CBackend, FloatMath) {
    Buffer<float> in = random_buffer<float>({50}, 6);
    for (bool vectorize : {false, true}) {
        ImageParam input(Float(32), 1, "input");
        Var x("x");
        Expr v = input(x);
        Func f("math");
        f(x) = sqrt(abs(v)) + exp(v / 500.0f) + sin(v) * cos(v) + floor(v / 7) + round(v / 3) +
               pow(abs(v) / 100.0f, 1.5f) + log(abs(v) + 1.0f) + atan2(v, 3.0f) +
               select(is_nan(v), 0.0f, 1.0f) + cast<float>(cast<int>(v)) + (v % 7.5f) +
               fast_inverse(v + 2000.0f) * 100.0f;
        if (vectorize) f.vectorize(x, 8);
        SCOPED_TRACE(vectorize ? "vectorized" : "scalar");
        check_unary<float, float>(GetParam(), f, input, in, {50}, 1e-5);
    }
}

TEST_P(CBackend, TuplesStructsAndLets) {
    Buffer<int32_t> in = random_buffer<int32_t>({40}, 7);
    ImageParam input(Int(32), 1, "input");
    Var x("x");
    Func argmax("argmax"), out("out");
    RDom r(0, 40);
    argmax() = Tuple(0, input(0));
    argmax() = Tuple(select(input(r) > argmax()[1], r, argmax()[0]), max(input(r), argmax()[1]));
    Expr e = input(x) % 1000;
    out(x) = e * e + argmax()[0] + (argmax()[1] >> 20);
    argmax.compute_root();
    out.parallel(x, 8);
    check_unary<int32_t, int32_t>(GetParam(), out, input, in, {40});
}

TEST_P(CBackend, InputErrorsReachTheRuntimeErrorHandler) {
    ImageParam input(Float(32), 2, "input");
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = input(x, y) * 2.0f;
    CBackendRun c(Pipeline(f), {input}, GetParam());
    ASSERT_TRUE(c.ok());
    // A 1-D buffer where the pipeline wants 2 dimensions.
    Buffer<float> wrong(10), out(10, 10);
    int r = c.call({(void *)wrong.raw_buffer(), (void *)out.raw_buffer()});
    EXPECT_NE(r, 0);
    EXPECT_NE(c.errors().find("input"), std::string::npos) << c.errors();
    // Too small an input for the region the output needs.
    Buffer<float> small(5, 5);
    r = c.call({(void *)small.raw_buffer(), (void *)out.raw_buffer()});
    EXPECT_NE(r, 0);
    EXPECT_NE(c.errors().find("input"), std::string::npos) << c.errors();
    // And a good call afterwards.
    Buffer<float> good = random_buffer<float>({10, 10}, 8);
    ASSERT_EQ(c.call({(void *)good.raw_buffer(), (void *)out.raw_buffer()}), 0) << c.errors();
    out.for_each_element([&](int i, int j) { ASSERT_EQ(out(i, j), good(i, j) * 2.0f); });
}

INSTANTIATE_TEST_SUITE_P(Configs, CBackend, ::testing::ValuesIn(c_backend_test::configs()),
                         [](const ::testing::TestParamInfo<CConfig> &info) {
                             return info.param.name();
                         });

} // namespace
