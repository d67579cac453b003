// The C back end (compile_to_c): pipelines and schedules compiled to C99, built with gcc and
// clang with each SIMD mapping, and compared with the JIT (the LLVM back end) value for value.
#include "common/c_backend_harness.h"

// Intrinsics without a front-end constructor (rounding_mul_shift_right).
#include "ir/ir.h"

#include <loom/loom.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>

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
        bool same = a == b || (a != a && b != b) ||
                    (tolerance > 0 && std::abs((double)a - (double)b) <=
                                          tolerance * std::max(1.0, std::abs((double)a)));
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

TEST_P(CBackend, StrictFloatIsRoundedAsWritten) {
    // The generated file lets the C compiler fuse a * b + c, as the LLVM back end does, unless
    // the pipeline is strict: strict_float(), Target::StrictFloat, or -DLOOM_C_STRICT_FLOAT.
    // Each strict form must round the product and the sum separately, even with -std=gnu99
    // (GCC contracts everywhere by default) and with Clang (it contracts within expressions).
    const int n = 256;
    Buffer<float> in = random_buffer<float>({n + 2}, 11);
    Buffer<float> reference(n);
    int fused_differs = 0;
    for (int i = 0; i < n; i++) {
        float a = in(i), b = in(i + 1), c = in(i + 2);
        // A product of floats is exact in double, and double rounding of one float operation
        // through double is correct: these are the separately rounded results.
        float product = (float)((double)a * b);
        reference(i) = (float)((double)product + c);
        fused_differs += reference(i) != std::fma(a, b, c);
    }
    ASSERT_GT(fused_differs, 0) << "the inputs must tell a fused result from a rounded one";
    struct Case {
        const char *what;
        bool strict_expr;
        Target target;
        const char *flags;
    };
    const Target host = get_host_target();
    for (const Case &k :
         {Case{"strict_float()", true, host, "-std=gnu99"},
          Case{"Target::StrictFloat", false, host.with_feature(Target::StrictFloat), "-std=gnu99"},
          Case{"-DLOOM_C_STRICT_FLOAT", false, host, "-DLOOM_C_STRICT_FLOAT"}}) {
        SCOPED_TRACE(k.what);
        for (int lanes : {1, 8}) {
            SCOPED_TRACE(lanes);
            ImageParam input(Float(32), 1, "input");
            Var x("x");
            Func f("mul_add");
            Expr e = input(x) * input(x + 1) + input(x + 2);
            f(x) = k.strict_expr ? strict_float(e) : e;
            if (lanes > 1) f.vectorize(x, lanes);
            CBackendRun c(Pipeline(f), {input}, GetParam(), "mul_add", k.flags, k.target);
            ASSERT_TRUE(c.ok());
            Buffer<float> actual(n);
            ASSERT_EQ(c.call({(void *)in.raw_buffer(), (void *)actual.raw_buffer()}), 0)
                << c.errors();
            expect_same(reference, actual);
        }
    }
}

TEST_P(CBackend, StridedLoadsPowerOfTwoDivisorsExpSinCos) {
    // The C back end's own forms: loads of stride 2 and 4 as two dense loads and a shuffle
    // (the last lane at the buffer's end: nothing read past it), Euclidean division and modulus
    // by 2^k as a shift and a mask (negative values), and the generic mapping's inline exp, sin
    // and cos and its square roots.
    Buffer<int16_t> in = random_buffer<int16_t>({4 * 64 + 1}, 8);
    for (int lanes : {8, 16}) {
        SCOPED_TRACE(lanes);
        ImageParam input(Int(16), 1, "input");
        Var x("x");
        Func f("strided_div");
        Expr a = input(2 * x) + input(2 * x + 1) * 3, b = input(4 * x + 1);
        f(x) = a / 8 + a % 16 + (b - 100) / 256 + b % 128 + cast<int16_t>(x) / 2;
        f.vectorize(x, lanes);
        check_unary<int16_t, int16_t>(GetParam(), f, input, in, {64});
    }
    Buffer<float> v(64);
    for (int i = 0; i < 64; i++) v(i) = -120.0f + 3.4f * i;
    v(0) = NAN;
    v(1) = INFINITY;
    v(2) = -INFINITY;
    v(3) = -0.0f;
    ImageParam input(Float(32), 1, "input");
    Var x("x");
    Func e("vector_exp");
    e(x) = exp(input(x));
    e.vectorize(x, 8);
    check_unary<float, float>(GetParam(), e, input, v, {64}, 1e-6);
    // sin and cos (the generic mapping's inline polynomials) on the same special values and
    // on arguments up to 1e6, where the JIT's own inline forms are accurate too.
    Buffer<float> w(64);
    for (int i = 0; i < 64; i++) w(i) = (i % 2 ? -1.0f : 1.0f) * std::pow(1.3f, (float)i) * 0.01f;
    for (int i = 0; i < 4; i++) w(i) = v(i);
    w(4) = 1e6f;
    // 2 lanes: narrower than any register (the FMA reduction's zero-padded form).
    for (bool is_cos : {false, true}) {
        for (int lanes : {8, 2}) {
            SCOPED_TRACE(std::string(is_cos ? "cos" : "sin") + " x " + std::to_string(lanes));
            Func t(is_cos ? "vector_cos" : "vector_sin");
            t(x) = is_cos ? cos(input(x)) : sin(input(x));
            t.vectorize(x, lanes);
            check_unary<float, float>(GetParam(), t, input, w, {64}, 1e-6);
        }
    }
    // A broadcast keeps the sign of -0.0 (1 / -0.0 is -inf; 0 + a would make it +inf).
    Func z("broadcast_negative_zero");
    z(x) = 1.0f / select(input(x) > 1e30f, input(x), -0.0f);
    z.vectorize(x, 8);
    check_unary<float, float>(GetParam(), z, input, v, {64});
    // Square roots (on x86 the generic mapping's instruction) of floats and doubles, exactly:
    // negative values, NaN, infinities and -0.0 included.
    Func r("vector_sqrt");
    r(x) = sqrt(input(x));
    r.vectorize(x, 8);
    check_unary<float, float>(GetParam(), r, input, v, {64});
    Buffer<double> vd(64);
    vd.for_each_element([&](int i) { vd(i) = v(i); });
    ImageParam input64(Float(64), 1, "input64");
    Func rd("vector_sqrt64");
    rd(x) = sqrt(input64(x));
    rd.vectorize(x, 4);
    check_unary<double, double>(GetParam(), rd, input64, vd, {64});
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

/// outs (the outputs of p, whose arguments args read inputs) built with config and run; empty
/// after a failure.
std::vector<Buffer<>> c_outputs(const CConfig &config, const Pipeline &p,
                                const std::vector<Argument> &args,
                                const std::vector<Buffer<>> &inputs, const std::vector<Func> &outs,
                                const std::vector<int> &sizes) {
    CBackendRun c(p, args, config);
    if (!c.ok()) return {};
    std::vector<Buffer<>> actual;
    std::vector<void *> call;
    for (const Buffer<> &b : inputs) call.push_back((void *)b.raw_buffer());
    for (const Func &f : outs) actual.emplace_back(f.types()[0], sizes);
    for (const Buffer<> &b : actual) call.push_back((void *)b.raw_buffer());
    int r = c.call(call);
    if (r != 0) {
        ADD_FAILURE() << config.name() << ": the pipeline returned " << r << ": " << c.errors();
        return {};
    }
    return actual;
}

/// A multi-output pipeline through the JIT and the C back end, every output compared bit for
/// bit (any NaN matches any NaN; -0.0 does not match 0.0). params[i] reads inputs[i]. The JIT's
/// outputs are computed once per key, for all configurations. With a reference configuration,
/// the outputs are compared with its outputs instead of the JIT's.
void check_outputs_exact(const CConfig &config, const std::string &key,
                         const std::vector<Func> &outs, std::vector<ImageParam> params,
                         const std::vector<Buffer<>> &inputs, const std::vector<int> &sizes,
                         const CConfig *reference = nullptr) {
    // At most 20 outputs a pipeline: they are one C function, and C compilers take more than
    // twice as long for one twice as large (register allocation).
    const size_t most = 20;
    if (outs.size() > most) {
        for (size_t i = 0; i < outs.size(); i += most) {
            std::vector<Func> part(outs.begin() + i,
                                   outs.begin() + std::min(outs.size(), i + most));
            check_outputs_exact(config, key + " " + std::to_string(i / most), part, params, inputs,
                                sizes, reference);
        }
        return;
    }
    std::vector<Argument> args;
    for (size_t i = 0; i < params.size(); i++) {
        params[i].set(inputs[i]);
        args.push_back(params[i]);
    }
    Pipeline p(outs);
    static std::map<std::string, std::vector<Buffer<>>> jit_outputs;
    std::vector<Buffer<>> reference_outputs;
    if (reference) reference_outputs = c_outputs(*reference, p, args, inputs, outs, sizes);
    std::vector<Buffer<>> &expected = reference ? reference_outputs : jit_outputs[key];
    if (expected.empty() && !reference) {
        Realization r = p.realize(sizes);
        for (size_t i = 0; i < outs.size(); i++) expected.push_back(r[i]);
    }
    std::vector<Buffer<>> actual = c_outputs(config, p, args, inputs, outs, sizes);
    ASSERT_EQ(expected.size(), outs.size());
    ASSERT_EQ(actual.size(), outs.size());
    const std::string expected_name = reference ? reference->name() : "JIT";
    for (size_t i = 0; i < outs.size(); i++) {
        Type t = expected[i].type();
        int bytes = t.bytes();
        const uint8_t *e = (const uint8_t *)expected[i].data(),
                      *a = (const uint8_t *)actual[i].data();
        int mismatches = 0;
        for (size_t k = 0; k < expected[i].size_in_bytes() / bytes; k++) {
            if (std::memcmp(e + k * bytes, a + k * bytes, bytes) == 0) continue;
            if (t == Float(32)) {
                float x, y;
                std::memcpy(&x, e + k * bytes, 4);
                std::memcpy(&y, a + k * bytes, 4);
                if (std::isnan(x) && std::isnan(y)) continue;
            }
            if (t == Float(64)) {
                double x, y;
                std::memcpy(&x, e + k * bytes, 8);
                std::memcpy(&y, a + k * bytes, 8);
                if (std::isnan(x) && std::isnan(y)) continue;
            }
            if (mismatches++ < 3) {
                uint64_t x = 0, y = 0;
                std::memcpy(&x, e + k * bytes, bytes);
                std::memcpy(&y, a + k * bytes, bytes);
                ADD_FAILURE() << outs[i].name() << " (" << t << ") at " << k % sizes[0] << ", "
                              << k / sizes[0] << ": " << expected_name << " bits 0x" << std::hex
                              << x << ", " << config.name() << " 0x" << y << std::dec;
            }
        }
        EXPECT_EQ(mismatches, 0) << outs[i].name();
    }
}

std::vector<Func> vectorized_outputs(const std::vector<Expr> &es, Var x, int lanes) {
    std::vector<Func> outs;
    for (size_t i = 0; i < es.size(); i++) {
        Func f("out" + std::to_string(i));
        f(x, Var("y")) = es[i];
        f.vectorize(x, lanes);
        outs.push_back(f);
    }
    return outs;
}

/// Special values first (every pair of them in the first rows), then random bits.
template <typename T>
Buffer<T> special_buffer(std::vector<int> sizes, const std::vector<T> &special, bool by_column,
                         uint32_t seed) {
    Buffer<T> b = random_buffer<T>(sizes, seed);
    int n = (int)special.size();
    for (int y = 0; y < std::min(n, sizes[1]); y++) {
        for (int x = 0; x < sizes[0]; x++) b(x, y) = special[by_column ? y : x % n];
    }
    return b;
}

/// The operations the target mappings (loom_simd_avx2.h, loom_simd_sse41.h, loom_simd_neon.h)
/// define with intrinsics, on the lane counts they accelerate: 8-bit operations on every pair
/// of values, 16- and 32-bit ones and float rounding, square roots, min and max on special
/// values (NaN, -0.0, infinities, halves, denormals), conversions, comparisons, selects and
/// gathers; f64 ones for the sse41 mapping.
TEST_P(CBackend, SimdMappingOperationsMatchTheJitExactly) {
    Var x("x"), y("y");
    // The sse41 mapping's 32 lanes of 8 bits are its 16-lane operations on each half, so 32
    // lanes check both (the 16-lane conversions from 8 bits are in the 16-bit part); it also
    // has f64 operations.
    // The generic mapping for the host's ISA widens and takes differences by instructions one
    // register wide, up to 64 bytes.
    const bool sse41 = GetParam().mapping == "sse41";
    const bool native = GetParam().suffix == "_native";
    const std::vector<int> lanes8 = sse41    ? std::vector<int>{32, 8}
                                    : native ? std::vector<int>{32, 16, 8}
                                             : std::vector<int>{16, 8};
    std::vector<Expr> es;
    auto add = [&](std::initializer_list<Expr> l) { es.insert(es.end(), l); };
    // 8 bits: a and b take every pair of values.
    Buffer<uint8_t> a8(256, 256), b8(256, 256), w8 = random_buffer<uint8_t>({256, 256}, 9);
    a8.for_each_element([&](int i, int j) { a8(i, j) = (uint8_t)i; });
    b8.for_each_element([&](int i, int j) { b8(i, j) = (uint8_t)j; });
    Buffer<float> f8(256, 256);
    f8.for_each_element(
        [&](int i, int j) { f8(i, j) = (float)((i * 37 + j * 11) % 1280) * 0.2f - 0.99f; });
    for (int lanes : lanes8) {
        SCOPED_TRACE("8-bit lanes, vectorized by " + std::to_string(lanes));
        ImageParam pa(UInt(8), 2, "a"), pb(UInt(8), 2, "b"), pw(UInt(8), 2, "w");
        ImageParam pf(Float(32), 2, "f");
        Expr a = pa(x, y), b = pb(x, y), w = pw(x, y), f = pf(x, y);
        Expr sa = cast<int8_t>(a), sb = cast<int8_t>(b);
        es.clear();
        add({saturating_add(a, b), saturating_sub(a, b), halving_add(a, b)});
        add({rounding_halving_add(a, b), absd(a, b), min(a, b), max(a, b), lerp(a, b, w)});
        add({saturating_add(sa, sb), saturating_sub(sa, sb), halving_add(sa, sb)});
        add({rounding_halving_add(sa, sb), absd(sa, sb), abs(sa), min(sa, sb), max(sa, sb)});
        add({lerp(sa, sb, w), select(a < b, a, b + 1), select(sa <= sb, sa, sb - 1)});
        // Conversions, to and from float, wider and narrower.
        add({cast<float>(a) * 0.5f, cast<float>(sb) + 0.25f, cast<uint8_t>(f)});
        add({cast<int8_t>(f - 128.0f), cast<uint16_t>(a) + cast<uint16_t>(b) * 256});
        add({cast<uint8_t>((cast<uint16_t>(a) * b) >> 4), cast<int>(a) - cast<int>(sb)});
        add({cast<uint8_t>(cast<int>(a) * 3 + cast<int>(b)), cast<int16_t>(sa) * 3});
        add({cast<uint16_t>(sb) + 1, cast<int8_t>(cast<int16_t>(a) * 3)});
        add({cast<uint32_t>(sa) + cast<uint32_t>(b), cast<uint8_t>(cast<int16_t>(sa) * 5)});
        add({cast<int8_t>(cast<uint16_t>(a) * 7)});
        check_outputs_exact(GetParam(), "8-bit " + std::to_string(lanes),
                            vectorized_outputs(es, x, lanes), {pa, pb, pw, pf}, {a8, b8, w8, f8},
                            {256, 256});
    }
    // 16 bits.
    std::vector<uint16_t> special16 = {0,      1,      2,      0x7F,   0x80, 0xFF, 0x7FFF,
                                       0x8000, 0x8001, 0xFFFF, 0xFFFE, 16,   15};
    Buffer<uint16_t> a16 = special_buffer<uint16_t>({256, 64}, special16, false, 10);
    Buffer<uint16_t> b16 = special_buffer<uint16_t>({256, 64}, special16, true, 11);
    Buffer<uint16_t> q16(256, 64);
    q16.for_each_element([&](int i, int j) { q16(i, j) = (uint16_t)((i * 7 + j) % 37); });
    Buffer<uint8_t> c8 = random_buffer<uint8_t>({256, 64}, 26);
    for (int lanes : {16, 8}) {
        SCOPED_TRACE("16-bit lanes, vectorized by " + std::to_string(lanes));
        ImageParam pa(UInt(16), 2, "a"), pb(UInt(16), 2, "b"), pq(UInt(16), 2, "q"),
            pc(UInt(8), 2, "c");
        Expr a = pa(x, y), b = pb(x, y), q = pq(x, y), c = pc(x, y), sc = cast<int8_t>(c);
        Expr sa = cast<int16_t>(a), sb = cast<int16_t>(b);
        es.clear();
        add({saturating_add(a, b), saturating_sub(a, b), halving_add(a, b)});
        add({rounding_halving_add(a, b), absd(a, b), min(a, b), max(a, b)});
        add({saturating_add(sa, sb), saturating_sub(sa, sb), halving_add(sa, sb)});
        add({rounding_halving_add(sa, sb), absd(sa, sb), abs(sa), min(sa, sb), max(sa, sb)});
        // Multiplications keeping the high half: any shift, and the ones of PMULHW / SQDMULH.
        add({mul_shift_right(a, b, q), mul_shift_right(a, b, 16), mul_shift_right(sa, sb, q)});
        add({mul_shift_right(sa, sb, 15), cast<uint16_t>((cast<uint32_t>(a) * b + 32768) >> 16)});
        add({cast<int16_t>(clamp((cast<int32_t>(sa) * sb + 16384) >> 15, -32768, 32767))});
        // One amount in every lane, other than the single instructions' 15 and 16, and the
        // rounding form with each lane's own amount.
        add({mul_shift_right(a, b, 7), mul_shift_right(sa, sb, 3), mul_shift_right(a, b, 40)});
        add({cast<uint16_t>(min((cast<uint32_t>(a) * b + 64) >> 7, 65535))});
        add({internal::Call::make(UInt(16), "rounding_mul_shift_right", {a, b, q},
                                  internal::Call::PureIntrinsic),
             internal::Call::make(Int(16), "rounding_mul_shift_right", {sa, sb, q},
                                  internal::Call::PureIntrinsic)});
        add({select(a < b, a, b + 1), select(sa <= sb, sa, sb - 1), select(a == b, a, b * 3)});
        add({select(sa < sb, sa, sb), select(sa == sb, a, b), select(a != b, sa, sb)});
        add({select(sa < sb, a, b), select(sa != sb, a, b), select(a <= b, sa, sb)});
        add({cast<float>(a) * 0.5f, cast<float>(sa), cast<uint8_t>(a), cast<int8_t>(sa)});
        add({cast<int>(sa) * 3, cast<uint32_t>(a) * 3, cast<int16_t>(cast<int>(a) * 5)});
        add({cast<uint16_t>(cast<uint32_t>(sa) * 7), cast<uint16_t>(a * 0.75f)});
        add({cast<int16_t>(cast<float>(sa) * 0.75f), cast<int8_t>(cast<int>(a) * 5)});
        add({cast<uint16_t>(cast<int>(sa) * 5 + 1), cast<uint8_t>(sa >> 1)});
        add({cast<int16_t>(cast<uint32_t>(a) * 7 + 1)});
        // From and to 8 bits at these lane counts.
        add({cast<uint16_t>(c) * 3, cast<int16_t>(sc) * 3, cast<uint16_t>(sc) + a});
        add({cast<int16_t>(c) - sa, cast<int>(c) * 3, cast<float>(sc) * 0.5f, cast<int>(sc) * 3});
        add({cast<float>(c) * 0.5f, cast<uint8_t>(cast<int>(a) * 3), cast<int8_t>(sa >> 2)});
        // In range: out of it, a float's conversion to an integer is undefined (the JIT's
        // saturates on some CPUs).
        add({cast<uint8_t>(cast<float>(a >> 8) * 0.75f),
             cast<int8_t>(cast<float>(sa >> 8) * 0.25f)});
        add({select(a < b, c, c + 1), select(sa <= sb, sc, sc - 1)});
        add({cast<uint16_t>(x * 3 + y) + a}); // a ramp of i32 lanes
        check_outputs_exact(GetParam(), "16-bit " + std::to_string(lanes),
                            vectorized_outputs(es, x, lanes), {pa, pb, pq, pc}, {a16, b16, q16, c8},
                            {256, 64});
    }
    // 32 bits and floats.
    const float nan = std::numeric_limits<float>::quiet_NaN(),
                inf = std::numeric_limits<float>::infinity();
    std::vector<float> specialf = {0.0f,   -0.0f,   1.0f,        -1.0f,      0.5f, -0.5f, 1.5f,
                                   -1.5f,  2.5f,    -2.5f,       3.5f,       nan,  inf,   -inf,
                                   1e-40f, -1e-40f, 0.49999997f, 8388609.0f, 3e9f, -3e9f, 1e30f};
    Buffer<float> fa = special_buffer<float>({250, 32}, specialf, false, 12);
    Buffer<float> fb = special_buffer<float>({250, 32}, specialf, true, 13);
    std::vector<int32_t> special32 = {0,   1,   -1, 2,  31,         32,        33,           -31,
                                      -32, -33, 16, 15, 0x7FFFFFFF, INT32_MIN, INT32_MIN + 1};
    Buffer<int32_t> ia = special_buffer<int32_t>({250, 32}, special32, false, 14);
    Buffer<int32_t> ib = special_buffer<int32_t>({250, 32}, special32, true, 15);
    Buffer<int32_t> lut = random_buffer<int32_t>({1024}, 16);
    Buffer<float> flut = random_buffer<float>({1024}, 17);
    Buffer<uint8_t> n8 = random_buffer<uint8_t>({250, 32}, 20);
    Buffer<int16_t> n16 = random_buffer<int16_t>({250, 32}, 21);
    for (int lanes : {8, 4}) {
        SCOPED_TRACE("32-bit lanes, vectorized by " + std::to_string(lanes));
        ImageParam pfa(Float(32), 2, "fa"), pfb(Float(32), 2, "fb"), pia(Int(32), 2, "ia"),
            pib(Int(32), 2, "ib"), plut(Int(32), 1, "lut"), pflut(Float(32), 1, "flut"),
            pn8(UInt(8), 2, "n8"), pn16(Int(16), 2, "n16");
        Expr a = pfa(x, y), b = pfb(x, y), i = pia(x, y), j = pib(x, y);
        Expr c8 = pn8(x, y), s8 = cast<int8_t>(c8), s16 = pn16(x, y), c16 = cast<uint16_t>(s16);
        Expr u = cast<uint32_t>(i), v = cast<uint32_t>(j);
        es.clear();
        add({floor(a), ceil(a), trunc(a), round(a), sqrt(a), abs(a), min(a, b), max(a, b)});
        add({select(is_nan(a), 1.0f, 0.0f), select(a < b, a, b * 2.0f), select(a <= b, 1.0f, b)});
        add({select(a == b, 1.0f, 0.0f), select(a != b, a, 0.0f), select(a < b, u, v)});
        add({cast<int>(clamp(a, -1e9f, 1e9f)), cast<uint32_t>(clamp(a, 0.0f, 4e9f))});
        add({cast<uint8_t>(clamp(a, 0.0f, 255.0f)), cast<int16_t>(clamp(a, -32768.0f, 32767.0f))});
        add({cast<float>(i), cast<float>(u), cast<uint16_t>(u), cast<int8_t>(i)});
        add({cast<float>(cast<uint8_t>(i)), cast<float>(cast<int8_t>(j)),
             cast<int>(cast<uint16_t>(i))});
        // Float % on operands whose b * floor(a / b) is exact: the JIT's and C's agree.
        Expr m = (cast<float>(i & 1023) - 512.0f) * 0.25f, d = cast<float>(j & 15) + 0.5f;
        add({cast<float>(cast<int16_t>(j)), cast<uint32_t>(cast<int8_t>(i)), m % d});
        // From 8 and 16 bits to 32, and from u32 to 8 and 16 bits.
        add({cast<int>(c8), cast<uint32_t>(c8) * 3, cast<float>(c8) * 0.5f, cast<int>(s8)});
        add({cast<uint32_t>(s8) * 3, cast<float>(s8) * 0.5f, cast<int>(s16), cast<float>(c16)});
        add({cast<uint32_t>(s16) * 3, cast<float>(s16) * 0.5f, cast<int>(c16) * 3});
        add({cast<uint32_t>(c16) * 3, cast<uint8_t>(u >> 1), cast<int8_t>(u >> 2)});
        add({cast<uint16_t>(u >> 1), cast<int16_t>(u >> 3), cast<int64_t>(i) * 3});
        add({cast<uint64_t>(u) * 5});
        add({cast<int8_t>(clamp(a, -128.0f, 127.0f)), cast<uint16_t>(clamp(a, 0.0f, 65535.0f))});
        add({saturating_add(i, j), saturating_sub(i, j), halving_add(i, j)});
        add({rounding_halving_add(i, j), absd(i, j), abs(i), min(i, j), max(i, j)});
        add({saturating_add(u, v), saturating_sub(u, v), halving_add(u, v)});
        add({rounding_halving_add(u, v), absd(u, v), min(u, v), max(u, v)});
        // Shifts by any amount (negative, 32 and more), then comparisons and gathers.
        add({i << j, i >> j, u << (v % 40), u >> (v % 40)});
        add({select(i < j, 1, 0), select(u <= v, i, j), select(i == j, u, v)});
        add({select(u != v, i, j), select(u < v, u, v + 1)});
        add({cast<int>(i != j) + cast<int>((u >> 1) == (v >> 1))});
        add({plut(i & 1023), pflut(j & 1023), cast<uint32_t>(pflut(j & 1023) + 1000.0f)});
        std::vector<Func> outs = vectorized_outputs(es, x, lanes);
        // A tail that is not a whole vector: predicated (masked) gathers.
        Func tail("tail");
        Var xo("xo"), xi("xi");
        tail(x, y) = plut(i & 1023) + cast<int>(pflut(j & 1023));
        tail.split(x, xo, xi, lanes, TailStrategy::GuardWithIf).vectorize(xi);
        outs.push_back(tail);
        check_outputs_exact(GetParam(), "32-bit " + std::to_string(lanes), outs,
                            {pfa, pfb, pia, pib, plut, pflut, pn8, pn16},
                            {fa, fb, ia, ib, lut, flut, n8, n16}, {250, 32});
    }
    // f64.
    if (!sse41) return;
    std::vector<double> speciald;
    for (float v : specialf) speciald.push_back(v);
    speciald.push_back(4503599627370497.0); // 2^52 + 1
    speciald.push_back(1e-310);             // denormal
    Buffer<double> da = special_buffer<double>({250, 32}, speciald, false, 18);
    Buffer<double> db = special_buffer<double>({250, 32}, speciald, true, 19);
    for (int lanes : {4, 2}) {
        SCOPED_TRACE("f64 lanes, vectorized by " + std::to_string(lanes));
        ImageParam pda(Float(64), 2, "da"), pdb(Float(64), 2, "db");
        Expr a = pda(x, y), b = pdb(x, y);
        Expr ia = reinterpret<int64_t>(a), ib = reinterpret<int64_t>(b);
        Expr zero = cast(Float(64), 0), one = cast(Float(64), 1), two = cast(Float(64), 2);
        es.clear();
        add({floor(a), ceil(a), trunc(a), round(a), sqrt(a), abs(a), min(a, b), max(a, b)});
        add({select(is_nan(a), one, zero), select(a < b, a, b * two), select(a <= b, one, b)});
        Expr m = (cast(Float(64), ia & 1023) - 512) * cast(Float(64), 0.25f);
        add({select(a == b, one, zero), select(a != b, a, zero),
             m % (cast(Float(64), ib & 15) + 0.5f)});
        add({select(a < b, ia, ib + 1), select(a <= b, cast<uint64_t>(ib), cast<uint64_t>(ia))});
        check_outputs_exact(GetParam(), "f64 " + std::to_string(lanes),
                            vectorized_outputs(es, x, lanes), {pda, pdb}, {da, db}, {250, 32});
    }
}

/// What the JIT computes otherwise (fast_inverse approximately, float % of operands whose
/// b * floor(a / b) rounds) or cannot be asked for (inverse_f32): the target mappings against
/// the generic one built by the same compiler with the same options, bit for bit.
TEST_P(CBackend, TargetMappingsMatchTheGenericOneExactly) {
    if (GetParam().mapping == "generic" || GetParam().mapping == "scalar") {
        GTEST_SKIP() << "not a target mapping";
    }
    // Without contraction: Clang fuses a - b * floor(a / b) into an FMA where the target has
    // one (-mfma), in the generic code but not across intrinsics.
    CConfig config = GetParam();
    config.flags += " -ffp-contract=off";
    const CConfig generic = {config.compiler, "generic", config.flags};
    Var x("x"), y("y");
    const float nan = std::numeric_limits<float>::quiet_NaN(),
                inf = std::numeric_limits<float>::infinity();
    std::vector<float> specialf = {0.0f,   -0.0f,   1.0f,  -1.0f, 0.5f,  -0.5f,  1.5f,
                                   -1.5f,  2.5f,    -2.5f, 3.5f,  nan,   inf,    -inf,
                                   1e-40f, -1e-40f, 3e9f,  -3e9f, 1e30f, 1e-30f, 7.0f};
    Buffer<float> fa = special_buffer<float>({250, 32}, specialf, false, 22);
    Buffer<float> fb = special_buffer<float>({250, 32}, specialf, true, 23);
    std::vector<double> speciald(specialf.begin(), specialf.end());
    speciald.push_back(4503599627370497.0);
    Buffer<double> da = special_buffer<double>({250, 32}, speciald, false, 24);
    Buffer<double> db = special_buffer<double>({250, 32}, speciald, true, 25);
    for (int lanes : {8, 4}) {
        SCOPED_TRACE("vectorized by " + std::to_string(lanes));
        ImageParam pfa(Float(32), 2, "fa"), pfb(Float(32), 2, "fb");
        ImageParam pda(Float(64), 2, "da"), pdb(Float(64), 2, "db");
        Expr a = pfa(x, y), b = pfb(x, y), c = pda(x, y), d = pdb(x, y);
        auto math = [](const char *name, Expr e) {
            return internal::Call::make(Float(32), name, {std::move(e)},
                                        internal::Call::PureExtern);
        };
        std::vector<Expr> es = {fast_inverse(a),
                                fast_inverse_sqrt(a),
                                math("inverse_f32", a),
                                math("inverse_sqrt_f32", a),
                                a % b,
                                c % d};
        // f64 at half the lanes as well: 4 and 2.
        std::vector<Func> outs = vectorized_outputs(es, x, lanes);
        Func half("f64_half");
        half(x, y) = d % c;
        half.vectorize(x, lanes / 2);
        outs.push_back(half);
        check_outputs_exact(config, "", outs, {pfa, pfb, pda, pdb}, {fa, fb, da, db}, {250, 32},
                            &generic);
    }
}

INSTANTIATE_TEST_SUITE_P(Configs, CBackend, ::testing::ValuesIn(c_backend_test::configs()),
                         [](const ::testing::TestParamInfo<CConfig> &info) {
                             return info.param.name();
                         });

} // namespace
