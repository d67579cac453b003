#ifndef LOOM_FLOAT16_H
#define LOOM_FLOAT16_H

/// \file The 16-bit floating-point scalar types of the host language (Halide's float16_t and
/// bfloat16_t): IEEE binary16 and the brain float format (float32's exponent, 7 mantissa bits).
/// Each holds only its raw bits, so a Buffer<float16_t> has two-byte elements. Conversions from
/// float, double and int round to nearest, ties to even; out-of-range values become infinities.
/// Arithmetic is done in double and rounded back, which is exact for these formats.

#include <loom/type.h>

#include <cstdint>
#include <type_traits>

namespace loom {

/// IEEE 754 binary16: 5 exponent bits, 10 mantissa bits (Float(16) in a pipeline).
struct float16_t {
    static const int mantissa_bits = 10;
    static const uint16_t sign_mask = 0x8000;
    static const uint16_t exponent_mask = 0x7c00;
    static const uint16_t mantissa_mask = 0x03ff;

    /// Positive zero.
    float16_t() = default;
    explicit float16_t(float value);
    explicit float16_t(double value);
    explicit float16_t(int value);

    explicit operator float() const;
    explicit operator double() const;
    /// Truncates toward zero, as a C cast does.
    explicit operator int() const;

    static float16_t make_zero();
    static float16_t make_negative_zero();
    static float16_t make_infinity();
    static float16_t make_negative_infinity();
    static float16_t make_nan();
    static float16_t make_from_bits(uint16_t bits);

    /// Flips the sign bit (so -NaN and -0 are well defined).
    float16_t operator-() const;
    float16_t operator+(float16_t rhs) const;
    float16_t operator-(float16_t rhs) const;
    float16_t operator*(float16_t rhs) const;
    float16_t operator/(float16_t rhs) const;
    float16_t operator+=(float16_t rhs) { return *this = *this + rhs; }
    float16_t operator-=(float16_t rhs) { return *this = *this - rhs; }
    float16_t operator*=(float16_t rhs) { return *this = *this * rhs; }
    float16_t operator/=(float16_t rhs) { return *this = *this / rhs; }

    /// IEEE comparisons: NaN compares unequal to everything, -0 equals +0.
    bool operator==(float16_t rhs) const;
    bool operator!=(float16_t rhs) const { return !(*this == rhs); }
    bool operator>(float16_t rhs) const;
    bool operator<(float16_t rhs) const;
    bool operator>=(float16_t rhs) const { return *this > rhs || *this == rhs; }
    bool operator<=(float16_t rhs) const { return *this < rhs || *this == rhs; }

    bool is_nan() const;
    bool is_infinity() const;
    bool is_negative() const;
    bool is_zero() const;

    uint16_t to_bits() const { return data; }

private:
    uint16_t data = 0;
};
static_assert(sizeof(float16_t) == 2, "float16_t must occupy two bytes");

/// bfloat16: 8 exponent bits, 7 mantissa bits (BFloat(16) in a pipeline).
struct bfloat16_t {
    static const int mantissa_bits = 7;
    static const uint16_t sign_mask = 0x8000;
    static const uint16_t exponent_mask = 0x7f80;
    static const uint16_t mantissa_mask = 0x007f;

    static const bfloat16_t zero, negative_zero, infinity, negative_infinity, nan;

    /// Positive zero.
    bfloat16_t() = default;
    explicit bfloat16_t(float value);
    explicit bfloat16_t(double value);
    explicit bfloat16_t(int value);

    explicit operator float() const;
    explicit operator double() const;
    /// Truncates toward zero, as a C cast does.
    explicit operator int() const;

    static bfloat16_t make_zero();
    static bfloat16_t make_negative_zero();
    static bfloat16_t make_infinity();
    static bfloat16_t make_negative_infinity();
    static bfloat16_t make_nan();
    static bfloat16_t make_from_bits(uint16_t bits);

    bfloat16_t operator-() const;
    bfloat16_t operator+(bfloat16_t rhs) const;
    bfloat16_t operator-(bfloat16_t rhs) const;
    bfloat16_t operator*(bfloat16_t rhs) const;
    bfloat16_t operator/(bfloat16_t rhs) const;
    bfloat16_t operator+=(bfloat16_t rhs) { return *this = *this + rhs; }
    bfloat16_t operator-=(bfloat16_t rhs) { return *this = *this - rhs; }
    bfloat16_t operator*=(bfloat16_t rhs) { return *this = *this * rhs; }
    bfloat16_t operator/=(bfloat16_t rhs) { return *this = *this / rhs; }

    bool operator==(bfloat16_t rhs) const;
    bool operator!=(bfloat16_t rhs) const { return !(*this == rhs); }
    bool operator>(bfloat16_t rhs) const;
    bool operator<(bfloat16_t rhs) const;
    bool operator>=(bfloat16_t rhs) const { return *this > rhs || *this == rhs; }
    bool operator<=(bfloat16_t rhs) const { return *this < rhs || *this == rhs; }

    bool is_nan() const;
    bool is_infinity() const;
    bool is_negative() const;
    bool is_zero() const;

    uint16_t to_bits() const { return data; }

private:
    uint16_t data = 0;
};
static_assert(sizeof(bfloat16_t) == 2, "bfloat16_t must occupy two bytes");

namespace internal {
template <>
struct TypeOf<float16_t> {
    static Type get() { return Float(16); }
};
template <>
struct TypeOf<bfloat16_t> {
    static Type get() { return BFloat(16); }
};

/// Whether T is one of the 16-bit float classes (which are not std::is_arithmetic).
template <typename T>
constexpr bool is_float16_class =
    std::is_same<T, float16_t>::value || std::is_same<T, bfloat16_t>::value;
} // namespace internal

} // namespace loom

template <>
struct loom_halide_type_of_impl<loom::float16_t> {
    static halide_type_t get() { return halide_type_t(halide_type_float, 16); }
};
template <>
struct loom_halide_type_of_impl<loom::bfloat16_t> {
    static halide_type_t get() { return halide_type_t(halide_type_bfloat, 16); }
};

#endif
