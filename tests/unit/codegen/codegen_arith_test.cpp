// Code generation of integer and float arithmetic with Halide's semantics, checked against C++
// references: Euclidean division and modulus for every integer type (scalar, vector and
// constant divisors), casts between every pair of types, and the arithmetic intrinsics.
#include "codegen_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <tuple>
#include <type_traits>

using namespace loom;
using namespace loom::internal;
using namespace loom::internal::test;

namespace {

// ---- Euclidean division ----

template <typename T>
T ref_div(T a, T b) {
    if (b == 0) return 0;
    __int128 A = a, B = b;
    __int128 q = A / B, r = A % B;
    if (r < 0) q += B > 0 ? -1 : 1;
    return (T)q; // wraps for INT_MIN / -1
}

template <typename T>
T ref_mod(T a, T b) {
    if (b == 0) return 0;
    __int128 A = a, B = b;
    __int128 r = A % B;
    if (r < 0) r += B > 0 ? B : -B;
    return (T)r;
}

template <typename T>
std::vector<T> edge_values() {
    using L = std::numeric_limits<T>;
    std::vector<int64_t> base = {0, 1, -1, 2, -2, 3, -3, 5, -7, 8, -8, 100, -100, 127, -128};
    std::vector<T> v;
    for (int64_t b : base) v.push_back((T)b);
    v.push_back(L::min());
    v.push_back(L::max());
    v.push_back((T)(L::min() + 1));
    v.push_back((T)(L::max() - 1));
    v.push_back((T)(L::max() / 2));
    return v;
}

template <typename T>
void test_div_mod() {
    Type t = type_of<T>();
    SCOPED_TRACE(type_to_string(t));
    // All pairs of edge values, plus random pairs; padded to a multiple of 8 lanes.
    std::vector<T> as, bs;
    std::vector<T> edges = edge_values<T>();
    for (T a : edges) {
        for (T b : edges) {
            as.push_back(a);
            bs.push_back(b);
        }
    }
    std::mt19937_64 rng(42);
    while (as.size() % 8 != 0 || as.size() < edges.size() * edges.size() + 200) {
        as.push_back((T)rng());
        T b = (T)rng();
        if (rng() % 2) b = (T)(b % 64); // small divisors are the interesting ones
        bs.push_back(b);
    }
    const int n = (int)as.size();
    const std::vector<int64_t> consts = {1, 2, 3, 4, 7, 16, 100, 0, -1, -2, -3, -8, -100};

    FuncBuilder fb("div_mod_" + type_to_string(t));
    fb.buffer("a", t, 1);
    fb.buffer("b", t, 1);
    fb.buffer("out", t, 1, true);
    Expr x = var("x");
    Expr a = load(t, "a", x), b = load(t, "b", x);
    Expr r = Ramp::make(x * 8, 1, 8);
    Expr va = load(t.with_lanes(8), "a", r), vb = load(t.with_lanes(8), "b", r);
    std::vector<Stmt> scalar, vector;
    // Row layout of out: [div, mod, vdiv, vmod, (cdiv, cmod) per constant] x n.
    scalar.push_back(store("out", Div::make(a, b), x));
    scalar.push_back(store("out", Mod::make(a, b), x + n));
    vector.push_back(store("out", Div::make(va, vb), r + Broadcast::make(2 * n, 8)));
    vector.push_back(store("out", Mod::make(va, vb), r + Broadcast::make(3 * n, 8)));
    int row = 4;
    std::vector<int64_t> used;
    for (int64_t c : consts) {
        if (t.is_uint() && c < 0) continue;
        Expr ce = make_const(t, c);
        scalar.push_back(store("out", Div::make(a, ce), x + row * n));
        // The vector form of the constant divisor is a Broadcast.
        vector.push_back(store("out", Mod::make(va, Broadcast::make(ce, 8)),
                               r + Broadcast::make((row + 1) * n, 8)));
        used.push_back(c);
        row += 2;
    }
    Stmt body =
        Block::make(loop("x", 0, n, Block::make(scalar)), loop("x", 0, n / 8, Block::make(vector)));
    LoweredFunc f = fb.finish(body);
    TestBuffer A(t, {n}), B(t, {n}), O(t, {n * row});
    for (int i = 0; i < n; i++) {
        A.data<T>()[i] = as[i];
        B.data<T>()[i] = bs[i];
    }
    ASSERT_EQ(run(f, {A.raw(), B.raw(), O.raw()}), 0);
    const T *out = O.data<T>();
    int failures = 0;
    for (int i = 0; i < n && failures < 10; i++) {
        T a = as[i], b = bs[i];
        auto check = [&](T got, T want, const char *what, int64_t c) {
            if (got != want) {
                failures++;
                ADD_FAILURE() << what << " " << (int64_t)a << ", " << (int64_t)b << " (c=" << c
                              << "): got " << (int64_t)got << ", want " << (int64_t)want;
            }
        };
        check(out[i], ref_div(a, b), "div", 0);
        check(out[i + n], ref_mod(a, b), "mod", 0);
        check(out[i + 2 * n], ref_div(a, b), "vector div", 0);
        check(out[i + 3 * n], ref_mod(a, b), "vector mod", 0);
        for (size_t k = 0; k < used.size(); k++) {
            T c = (T)used[k];
            check(out[i + (4 + 2 * k) * n], ref_div(a, c), "const div", used[k]);
            check(out[i + (5 + 2 * k) * n], ref_mod(a, c), "const vector mod", used[k]);
        }
    }
}

TEST(CodegenArith, EuclideanDivModInt8) { test_div_mod<int8_t>(); }
TEST(CodegenArith, EuclideanDivModInt16) { test_div_mod<int16_t>(); }
TEST(CodegenArith, EuclideanDivModInt32) { test_div_mod<int32_t>(); }
TEST(CodegenArith, EuclideanDivModInt64) { test_div_mod<int64_t>(); }
TEST(CodegenArith, EuclideanDivModUInt8) { test_div_mod<uint8_t>(); }
TEST(CodegenArith, EuclideanDivModUInt16) { test_div_mod<uint16_t>(); }
TEST(CodegenArith, EuclideanDivModUInt32) { test_div_mod<uint32_t>(); }
TEST(CodegenArith, EuclideanDivModUInt64) { test_div_mod<uint64_t>(); }

TEST(CodegenArith, FloatDivAndMod) {
    FuncBuilder fb("float_div_mod");
    fb.buffer("a", Float(32), 1);
    fb.buffer("b", Float(32), 1);
    fb.buffer("out", Float(32), 1, true);
    Expr x = var("x");
    Expr a = load(Float(32), "a", x), b = load(Float(32), "b", x);
    LoweredFunc f = fb.finish(
        loop("x", 0, 6,
             Block::make(store("out", Div::make(a, b), x), store("out", Mod::make(a, b), x + 6))));
    float av[6] = {7.5f, -7.5f, 7.5f, -7.5f, 1.0f, 0.25f};
    float bv[6] = {2.0f, 2.0f, -2.0f, -2.0f, 0.5f, 3.0f};
    TestBuffer A(Float(32), {6}), B(Float(32), {6}), O(Float(32), {12});
    for (int i = 0; i < 6; i++) {
        A.data<float>()[i] = av[i];
        B.data<float>()[i] = bv[i];
    }
    ASSERT_EQ(run(f, {A.raw(), B.raw(), O.raw()}), 0);
    for (int i = 0; i < 6; i++) {
        EXPECT_EQ(O.data<float>()[i], av[i] / bv[i]);
        EXPECT_EQ(O.data<float>()[i + 6], av[i] - bv[i] * std::floor(av[i] / bv[i])) << i;
    }
}

// ---- Casts between every pair of types ----

template <typename T>
Type loom_type() {
    return type_of<T>();
}

template <typename From>
std::vector<From> cast_inputs() {
    std::vector<From> v;
    if constexpr (std::is_same_v<From, bool>) {
        v = {false, true};
    } else if constexpr (std::is_floating_point_v<From>) {
        const From nan = std::numeric_limits<From>::quiet_NaN();
        const From inf = std::numeric_limits<From>::infinity();
        v = {0,
             (From)-0.0,
             1.5,
             -1.5,
             0.75,
             -0.75,
             100.75,
             -100.75,
             127.9,
             -128.9,
             255.5,
             65535.5,
             -32768.5,
             2147483000.0,
             -2147483000.0,
             4294967000.0,
             1e18,
             -1e18,
             1e30,
             -1e30,
             (From)1e300,
             nan,
             inf,
             -inf,
             std::numeric_limits<From>::denorm_min()};
    } else {
        using L = std::numeric_limits<From>;
        std::vector<int64_t> base = {0,
                                     1,
                                     -1,
                                     127,
                                     128,
                                     -128,
                                     -129,
                                     255,
                                     256,
                                     32767,
                                     32768,
                                     -32768,
                                     65535,
                                     65536,
                                     100000,
                                     -100000,
                                     2147483647,
                                     -2147483647 - 1,
                                     (int64_t)4294967295LL,
                                     (int64_t)1 << 40,
                                     -((int64_t)1 << 53) - 1};
        for (int64_t b : base) v.push_back((From)b);
        v.push_back(L::min());
        v.push_back(L::max());
    }
    while (v.size() % 8 != 0) v.push_back(v[v.size() % 3]);
    return v;
}

// Whether C++'s static_cast<To>(v) is defined (float to int out of range is not, and is not
// defined in Loom either).
template <typename From, typename To>
bool cast_defined(From v) {
    if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To> &&
                  !std::is_same_v<To, bool>) {
        if (!std::isfinite(v)) return false;
        long double t = std::trunc((long double)v);
        return t >= (long double)std::numeric_limits<To>::min() &&
               t <= (long double)std::numeric_limits<To>::max();
    }
    return true;
}

template <typename From, typename To>
To ref_cast(From v) {
    if constexpr (std::is_same_v<To, bool>)
        return v != 0;
    else
        return static_cast<To>(v);
}

template <typename To>
bool same_value(To a, To b) {
    if constexpr (std::is_floating_point_v<To>) {
        if (std::isnan(a) && std::isnan(b)) return true;
        return a == b && std::signbit(a) == std::signbit(b);
    }
    return a == b;
}

template <typename From, typename... Tos>
void test_casts_from() {
    Type ft = loom_type<From>();
    SCOPED_TRACE("from " + type_to_string(ft));
    std::vector<From> vals = cast_inputs<From>();
    const int n = (int)vals.size();
    std::vector<Type> tos = {loom_type<Tos>()...};
    FuncBuilder fb("casts_from_" + type_to_string(ft));
    fb.buffer("in", ft, 1);
    for (size_t k = 0; k < tos.size(); k++) fb.buffer("out" + std::to_string(k), tos[k], 1, true);
    Expr x = var("x");
    Expr r = Ramp::make(x * 8, 1, 8);
    std::vector<Stmt> scalar, vector;
    for (size_t k = 0; k < tos.size(); k++) {
        std::string o = "out" + std::to_string(k);
        // First n elements: scalar casts; next n: 8-lane vector casts.
        scalar.push_back(store(o, Cast::make(tos[k], load(ft, "in", x)), x));
        vector.push_back(store(o, Cast::make(tos[k].with_lanes(8), load(ft.with_lanes(8), "in", r)),
                               r + Broadcast::make(n, 8)));
    }
    LoweredFunc f = fb.finish(Block::make(loop("x", 0, n, Block::make(scalar)),
                                          loop("x", 0, n / 8, Block::make(vector))));
    TestBuffer in(ft, {n});
    for (int i = 0; i < n; i++) in.data<From>()[i] = vals[i];
    std::vector<std::unique_ptr<TestBuffer>> outs;
    std::vector<void *> args = {in.raw()};
    for (Type t : tos) {
        outs.emplace_back(new TestBuffer(t, {2 * n}));
        args.push_back(outs.back()->raw());
    }
    ASSERT_EQ(run(f, args), 0);
    size_t k = 0;
    auto check = [&](auto tag) {
        using To = decltype(tag);
        TestBuffer &o = *outs[k++];
        for (int i = 0; i < n; i++) {
            if (!cast_defined<From, To>(vals[i])) continue;
            To want = ref_cast<From, To>(vals[i]);
            for (int half = 0; half < 2; half++) {
                To got;
                std::memcpy(&got, o.data<uint8_t>() + (half * n + i) * sizeof(To), sizeof(To));
                if (std::is_same_v<To, bool>) got = (bool)(*(o.data<uint8_t>() + half * n + i));
                EXPECT_TRUE(same_value(got, want))
                    << "cast of " << (double)vals[i] << " to " << type_to_string(loom_type<To>())
                    << (half ? " (vector)" : " (scalar)") << ": got " << (double)got << ", want "
                    << (double)want;
            }
        }
    };
    (check(Tos{}), ...);
}

#define LOOM_ALL_TYPES                                                                             \
    bool, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, float, double

TEST(CodegenArith, CastsFromBool) { test_casts_from<bool, LOOM_ALL_TYPES>(); }
TEST(CodegenArith, CastsFromInt8) { test_casts_from<int8_t, LOOM_ALL_TYPES>(); }
TEST(CodegenArith, CastsFromInt16) { test_casts_from<int16_t, LOOM_ALL_TYPES>(); }
TEST(CodegenArith, CastsFromInt32) { test_casts_from<int32_t, LOOM_ALL_TYPES>(); }
TEST(CodegenArith, CastsFromInt64) { test_casts_from<int64_t, LOOM_ALL_TYPES>(); }
TEST(CodegenArith, CastsFromUInt8) { test_casts_from<uint8_t, LOOM_ALL_TYPES>(); }
TEST(CodegenArith, CastsFromUInt16) { test_casts_from<uint16_t, LOOM_ALL_TYPES>(); }
TEST(CodegenArith, CastsFromUInt32) { test_casts_from<uint32_t, LOOM_ALL_TYPES>(); }
TEST(CodegenArith, CastsFromUInt64) { test_casts_from<uint64_t, LOOM_ALL_TYPES>(); }
TEST(CodegenArith, CastsFromFloat) { test_casts_from<float, LOOM_ALL_TYPES>(); }
TEST(CodegenArith, CastsFromDouble) { test_casts_from<double, LOOM_ALL_TYPES>(); }

TEST(CodegenArith, ReinterpretAndComparisons) {
    FuncBuilder fb("reinterpret_cmp");
    fb.buffer("f", Float(32), 1);
    fb.buffer("u", UInt(8), 1);
    fb.buffer("out", UInt(32), 1, true);
    Expr fv = load(Float(32, 4), "f", Ramp::make(0, 1, 4));
    Expr u0 = load(UInt(8), "u", 0), u1 = load(UInt(8), "u", 1);
    Expr s0 = Reinterpret::make(Int(8), u0), s1 = Reinterpret::make(Int(8), u1);
    Expr f0 = load(Float(32), "f", 3); // NaN
    auto b2u = [](Expr e) { return Cast::make(UInt(32), e); };
    Stmt body = Block::make(
        {store("out", Reinterpret::make(UInt(32, 4), fv), Ramp::make(0, 1, 4)),
         // 16 bytes of the four floats as one u8x16 vector, re-read as u32x4
         store("out", Reinterpret::make(UInt(32, 4), Reinterpret::make(UInt(8, 16), fv)),
               Ramp::make(4, 1, 4)),
         // 200 > 100 unsigned, but as int8 -56 < 100
         store("out", b2u(GT::make(u0, u1)), 8), store("out", b2u(LT::make(s0, s1)), 9),
         store("out", b2u(LE::make(s0, s0)), 10), store("out", b2u(GE::make(u1, u0)), 11),
         // NaN compares unordered: only != is true
         store("out", b2u(EQ::make(f0, f0)), 12), store("out", b2u(NE::make(f0, f0)), 13),
         store("out", b2u(LT::make(f0, 1.0f)), 14), store("out", b2u(GE::make(f0, 1.0f)), 15)});
    LoweredFunc f = fb.finish(body);
    TestBuffer F(Float(32), {4}), U(UInt(8), {2}), O(UInt(32), {16});
    float fs[4] = {1.0f, -2.5f, 3.75e-20f, std::nanf("")};
    for (int i = 0; i < 4; i++) F.data<float>()[i] = fs[i];
    U.data<uint8_t>()[0] = 200;
    U.data<uint8_t>()[1] = 100;
    ASSERT_EQ(run(f, {F.raw(), U.raw(), O.raw()}), 0);
    const uint32_t *o = O.data<uint32_t>();
    for (int i = 0; i < 4; i++) {
        uint32_t bits;
        std::memcpy(&bits, &fs[i], 4);
        EXPECT_EQ(o[i], bits);
        EXPECT_EQ(o[4 + i], bits);
    }
    EXPECT_EQ(o[8], 1u);
    EXPECT_EQ(o[9], 1u);
    EXPECT_EQ(o[10], 1u);
    EXPECT_EQ(o[11], 0u);
    EXPECT_EQ(o[12], 0u);
    EXPECT_EQ(o[13], 1u);
    EXPECT_EQ(o[14], 0u);
    EXPECT_EQ(o[15], 0u);
}

TEST(CodegenArith, MinMaxWrappingArithmetic) {
    FuncBuilder fb("min_max");
    fb.buffer("a", Int(8), 1);
    fb.buffer("b", Int(8), 1);
    fb.buffer("out", Int(8), 1, true);
    Expr x = var("x");
    Expr a = load(Int(8, 8), "a", Ramp::make(0, 1, 8)),
         b = load(Int(8, 8), "b", Ramp::make(0, 1, 8));
    Stmt body = Block::make({store("out", Min::make(a, b), Ramp::make(0, 1, 8)),
                             store("out", Max::make(a, b), Ramp::make(8, 1, 8)),
                             store("out", a + b, Ramp::make(16, 1, 8)),
                             store("out", a * b, Ramp::make(24, 1, 8)),
                             store("out", a - b, Ramp::make(32, 1, 8))});
    LoweredFunc f = fb.finish(body);
    int8_t av[8] = {-128, 127, 0, -1, 100, -100, 5, 64};
    int8_t bv[8] = {127, -128, 0, 1, 100, 50, -5, 2};
    TestBuffer A(Int(8), {8}), B(Int(8), {8}), O(Int(8), {40});
    for (int i = 0; i < 8; i++) {
        A.data<int8_t>()[i] = av[i];
        B.data<int8_t>()[i] = bv[i];
    }
    ASSERT_EQ(run(f, {A.raw(), B.raw(), O.raw()}), 0);
    for (int i = 0; i < 8; i++) {
        const int8_t *o = O.data<int8_t>();
        EXPECT_EQ(o[i], std::min(av[i], bv[i]));
        EXPECT_EQ(o[8 + i], std::max(av[i], bv[i]));
        EXPECT_EQ(o[16 + i], (int8_t)(av[i] + bv[i]));
        EXPECT_EQ(o[24 + i], (int8_t)(av[i] * bv[i]));
        EXPECT_EQ(o[32 + i], (int8_t)(av[i] - bv[i]));
    }
}

} // namespace
