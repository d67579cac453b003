// Arithmetic of every type against C++ references with Halide's semantics: narrow and unsigned
// types wrap, integer division and modulo are Euclidean, and division or modulo by zero is zero.
#include <loom/loom.h>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

using namespace loom;

namespace {

template <typename T>
std::vector<T> interesting_values() {
    std::vector<T> v;
    using L = std::numeric_limits<T>;
    for (T x : {T(0), T(1), T(2), T(3), T(7), L::max(), L::min(), T(L::max() - 1), T(100)})
        v.push_back(x);
    if (std::is_signed<T>::value) {
        for (int x : {-1, -2, -3, -7, -100}) v.push_back((T)x);
        v.push_back(T(L::min() + 1));
    }
    std::mt19937_64 rng(sizeof(T) * 31 + std::is_signed<T>::value);
    for (int i = 0; i < 24; i++) v.push_back((T)rng());
    return v;
}

// Reference wrap-around arithmetic: compute in 64-bit unsigned and truncate.
template <typename T>
T wrap(uint64_t v) {
    return (T)v;
}

template <typename T>
T euclid_div(T a, T b) {
    if (b == 0) return 0;
    if (std::is_signed<T>::value) {
        int64_t q = (int64_t)a / (int64_t)b, r = (int64_t)a % (int64_t)b;
        if (r < 0) q += (b > 0) ? -1 : 1;
        return (T)q;
    }
    return (T)(a / b);
}

template <typename T>
T euclid_mod(T a, T b) {
    if (b == 0) return 0;
    if (std::is_signed<T>::value) {
        int64_t r = (int64_t)a % (int64_t)b;
        // Add |b| in unsigned arithmetic: |INT64_MIN| does not fit in int64.
        uint64_t magnitude = b > 0 ? (uint64_t)b : 0 - (uint64_t)b;
        if (r < 0) r = (int64_t)((uint64_t)r + magnitude);
        return (T)r;
    }
    return (T)(a % b);
}

template <typename T>
void check_integer_type() {
    std::vector<T> vals = interesting_values<T>();
    const int n = (int)vals.size();
    Buffer<T> a(n, n), b(n, n);
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            a(x, y) = vals[x];
            b(x, y) = vals[y];
            // min / -1 overflows (and traps on x86): Halide leaves it undefined, so skip it.
            if (std::is_signed<T>::value && vals[x] == std::numeric_limits<T>::min() &&
                vals[y] == (T)-1) {
                a(x, y) = std::numeric_limits<T>::min() + 1;
            }
        }
    Var x("x"), y("y");
    Func add, sub, mul, div, mod, mn, mx, lt, eq;
    add(x, y) = a(x, y) + b(x, y);
    sub(x, y) = a(x, y) - b(x, y);
    mul(x, y) = a(x, y) * b(x, y);
    div(x, y) = a(x, y) / b(x, y);
    mod(x, y) = a(x, y) % b(x, y);
    mn(x, y) = min(a(x, y), b(x, y));
    mx(x, y) = max(a(x, y), b(x, y));
    lt(x, y) = a(x, y) < b(x, y);
    eq(x, y) = a(x, y) == b(x, y);
    Buffer<T> radd = add.realize({n, n}), rsub = sub.realize({n, n}), rmul = mul.realize({n, n}),
              rdiv = div.realize({n, n}), rmod = mod.realize({n, n}), rmn = mn.realize({n, n}),
              rmx = mx.realize({n, n});
    Buffer<bool> rlt = lt.realize({n, n}), req = eq.realize({n, n});
    for (int yy = 0; yy < n; yy++)
        for (int xx = 0; xx < n; xx++) {
            T av = a(xx, yy), bv = b(xx, yy);
            SCOPED_TRACE(testing::Message()
                         << type_of<T>() << " a=" << (int64_t)av << " b=" << (int64_t)bv);
            ASSERT_EQ(radd(xx, yy), wrap<T>((uint64_t)av + (uint64_t)bv));
            ASSERT_EQ(rsub(xx, yy), wrap<T>((uint64_t)av - (uint64_t)bv));
            ASSERT_EQ(rmul(xx, yy), wrap<T>((uint64_t)av * (uint64_t)bv));
            ASSERT_EQ(rdiv(xx, yy), euclid_div(av, bv));
            ASSERT_EQ(rmod(xx, yy), euclid_mod(av, bv));
            ASSERT_EQ(rmn(xx, yy), std::min(av, bv));
            ASSERT_EQ(rmx(xx, yy), std::max(av, bv));
            ASSERT_EQ(rlt(xx, yy), av < bv);
            ASSERT_EQ(req(xx, yy), av == bv);
        }
}

} // namespace

TEST(Types, Int8) { check_integer_type<int8_t>(); }
TEST(Types, Int16) { check_integer_type<int16_t>(); }
TEST(Types, Int32) { check_integer_type<int32_t>(); }
TEST(Types, Int64) { check_integer_type<int64_t>(); }
TEST(Types, UInt8) { check_integer_type<uint8_t>(); }
TEST(Types, UInt16) { check_integer_type<uint16_t>(); }
TEST(Types, UInt32) { check_integer_type<uint32_t>(); }
TEST(Types, UInt64) { check_integer_type<uint64_t>(); }

TEST(Types, EuclideanDivisionByConstants) {
    // Constant divisors take the code generator's fast paths; check them too, both signs.
    Func f, g;
    Var x("x");
    Expr v = x - 50;
    f(x) = Tuple(v / 7, v % 7, v / -7, v % -7, v / 8, v % 8, v / 0, v % 0);
    Realization r = f.realize({101});
    for (int i = 0; i < 101; i++) {
        int a = i - 50;
        EXPECT_EQ(Buffer<int>(r[0])(i), euclid_div(a, 7)) << a;
        EXPECT_EQ(Buffer<int>(r[1])(i), euclid_mod(a, 7)) << a;
        EXPECT_EQ(Buffer<int>(r[2])(i), euclid_div(a, -7)) << a;
        EXPECT_EQ(Buffer<int>(r[3])(i), euclid_mod(a, -7)) << a;
        EXPECT_EQ(Buffer<int>(r[4])(i), euclid_div(a, 8)) << a;
        EXPECT_EQ(Buffer<int>(r[5])(i), euclid_mod(a, 8)) << a;
        EXPECT_EQ(Buffer<int>(r[6])(i), 0);
        EXPECT_EQ(Buffer<int>(r[7])(i), 0);
    }
}

TEST(Types, FloatAndDouble) {
    Buffer<float> a(64);
    Buffer<double> b(64);
    for (int i = 0; i < 64; i++) {
        a(i) = (i - 32) * 0.37f;
        b(i) = (i - 20) * 1.1;
    }
    Func f("f");
    Var x("x");
    f(x) = Tuple(a(x) * a(x) - 1.5f, a(x) / 3.0f, sqrt(abs(a(x))), floor(a(x)),
                 b(x) * Expr(2.0) + Expr(0.25), cast<double>(a(x)) + b(x), cast<int>(a(x)),
                 round(a(x)));
    Realization r = f.realize({64});
    for (int i = 0; i < 64; i++) {
        // Fused multiply-adds may round once instead of twice.
        EXPECT_FLOAT_EQ(Buffer<float>(r[0])(i), a(i) * a(i) - 1.5f);
        // Halide may turn division by a constant into multiplication by its reciprocal.
        EXPECT_FLOAT_EQ(Buffer<float>(r[1])(i), a(i) / 3.0f);
        EXPECT_FLOAT_EQ(Buffer<float>(r[2])(i), std::sqrt(std::fabs(a(i))));
        EXPECT_EQ(Buffer<float>(r[3])(i), std::floor(a(i)));
        EXPECT_DOUBLE_EQ(Buffer<double>(r[4])(i), b(i) * 2.0 + 0.25);
        EXPECT_EQ(Buffer<double>(r[5])(i), (double)a(i) + b(i));
        EXPECT_EQ(Buffer<int>(r[6])(i), (int)a(i));
        EXPECT_EQ(Buffer<float>(r[7])(i), std::nearbyint(a(i)));
    }
}

TEST(Types, BoolAndCasts) {
    Func f("f");
    Var x("x");
    // Narrowing casts wrap; widening casts sign- or zero-extend by the source type.
    f(x) = Tuple(cast<uint8_t>(x * 37), cast<int8_t>(x * 37), cast<int16_t>(cast<int8_t>(x * 37)),
                 cast<uint16_t>(cast<uint8_t>(x * 37)), (x % 3 == 0) && (x % 2 == 0));
    Realization r = f.realize({100});
    for (int i = 0; i < 100; i++) {
        EXPECT_EQ(Buffer<uint8_t>(r[0])(i), (uint8_t)(i * 37));
        EXPECT_EQ(Buffer<int8_t>(r[1])(i), (int8_t)(i * 37));
        EXPECT_EQ(Buffer<int16_t>(r[2])(i), (int16_t)(int8_t)(i * 37));
        EXPECT_EQ(Buffer<uint16_t>(r[3])(i), (uint16_t)(uint8_t)(i * 37));
        EXPECT_EQ(Buffer<bool>(r[4])(i), i % 6 == 0);
    }
}
