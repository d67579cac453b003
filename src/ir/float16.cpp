// The 16-bit float classes of the public API: encoding and decoding by exact scaling, so the
// rounding is correct for every double (no double rounding through float).

#include <loom/float16.h>

#include <cmath>

namespace loom {

namespace {

/// A binary floating-point format of 16 bits: exponent and mantissa widths.
struct Format16 {
    int exponent_bits, mantissa_bits;
    int bias() const { return (1 << (exponent_bits - 1)) - 1; }
    uint16_t exponent_all_ones() const {
        return (uint16_t)(((1 << exponent_bits) - 1) << mantissa_bits);
    }
};

constexpr Format16 binary16{5, 10}, bfloat16{8, 7};

/// `d` rounded to nearest (ties to even) in format `f`, as raw bits.
uint16_t encode(double d, Format16 f) {
    uint16_t sign = std::signbit(d) ? 0x8000 : 0;
    if (std::isnan(d)) return sign | f.exponent_all_ones() | (uint16_t)(1 << (f.mantissa_bits - 1));
    double a = std::fabs(d);
    if (std::isinf(a)) return sign | f.exponent_all_ones();
    int min_exponent = 1 - f.bias();
    int k;
    double m = std::frexp(a, &k); // a = m * 2^k with m in [0.5, 1); the leading bit is 2^(k-1)
    if (a == 0 || k - 1 < min_exponent) {
        // Subnormal: a whole number of units of the smallest subnormal. A result of 2^mantissa
        // units is the smallest normal number, and its bits are that same integer.
        double units = std::nearbyint(std::ldexp(a, f.mantissa_bits - min_exponent));
        return sign | (uint16_t)units;
    }
    double significand = std::nearbyint(std::ldexp(m, f.mantissa_bits + 1));
    if (significand >= std::ldexp(1.0, f.mantissa_bits + 1)) {
        significand /= 2;
        k++;
    }
    int biased = k - 1 + f.bias();
    if (biased >= (1 << f.exponent_bits) - 1) return sign | f.exponent_all_ones();
    uint16_t mantissa = (uint16_t)((uint32_t)significand & ((1u << f.mantissa_bits) - 1));
    return sign | (uint16_t)(biased << f.mantissa_bits) | mantissa;
}

/// The exact value of the bits `b` in format `f`.
double decode(uint16_t b, Format16 f) {
    int exponent = (b >> f.mantissa_bits) & ((1 << f.exponent_bits) - 1);
    int mantissa = b & ((1 << f.mantissa_bits) - 1);
    double v;
    if (exponent == 0) {
        v = std::ldexp((double)mantissa, 1 - f.bias() - f.mantissa_bits);
    } else if (exponent == (1 << f.exponent_bits) - 1) {
        v = mantissa ? NAN : INFINITY;
    } else {
        v = std::ldexp((double)(mantissa | (1 << f.mantissa_bits)),
                       exponent - f.bias() - f.mantissa_bits);
    }
    return (b & 0x8000) ? -v : v;
}

} // namespace

// Both classes have the same shape; this defines one from its format.
#define LOOM_DEFINE_FLOAT16_CLASS(T, FORMAT)                                                       \
    T::T(float value) : data(encode(value, FORMAT)) {}                                             \
    T::T(double value) : data(encode(value, FORMAT)) {}                                            \
    T::T(int value) : data(encode(value, FORMAT)) {}                                               \
    T::operator float() const { return (float)decode(data, FORMAT); }                              \
    T::operator double() const { return decode(data, FORMAT); }                                    \
    T::operator int() const { return (int)decode(data, FORMAT); }                                  \
    T T::make_from_bits(uint16_t bits) {                                                           \
        T t;                                                                                       \
        t.data = bits;                                                                             \
        return t;                                                                                  \
    }                                                                                              \
    T T::make_zero() { return make_from_bits(0); }                                                 \
    T T::make_negative_zero() { return make_from_bits(sign_mask); }                                \
    T T::make_infinity() { return make_from_bits(exponent_mask); }                                 \
    T T::make_negative_infinity() { return make_from_bits(sign_mask | exponent_mask); }            \
    T T::make_nan() { return make_from_bits(exponent_mask | (1 << (mantissa_bits - 1))); }         \
    T T::operator-() const { return make_from_bits(data ^ sign_mask); }                            \
    T T::operator+(T rhs) const { return T((double)*this + (double)rhs); }                         \
    T T::operator-(T rhs) const { return T((double)*this - (double)rhs); }                         \
    T T::operator*(T rhs) const { return T((double)*this * (double)rhs); }                         \
    T T::operator/(T rhs) const { return T((double)*this / (double)rhs); }                         \
    bool T::operator==(T rhs) const { return (double)*this == (double)rhs; }                       \
    bool T::operator>(T rhs) const { return (double)*this > (double)rhs; }                         \
    bool T::operator<(T rhs) const { return (double)*this < (double)rhs; }                         \
    bool T::is_nan() const {                                                                       \
        return (data & exponent_mask) == exponent_mask && (data & mantissa_mask) != 0;             \
    }                                                                                              \
    bool T::is_infinity() const {                                                                  \
        return (data & exponent_mask) == exponent_mask && (data & mantissa_mask) == 0;             \
    }                                                                                              \
    bool T::is_negative() const { return (data & sign_mask) != 0; }                                \
    bool T::is_zero() const { return (data & ~sign_mask) == 0; }

LOOM_DEFINE_FLOAT16_CLASS(float16_t, binary16)
LOOM_DEFINE_FLOAT16_CLASS(bfloat16_t, bfloat16)
#undef LOOM_DEFINE_FLOAT16_CLASS

const bfloat16_t bfloat16_t::zero = bfloat16_t::make_zero();
const bfloat16_t bfloat16_t::negative_zero = bfloat16_t::make_negative_zero();
const bfloat16_t bfloat16_t::infinity = bfloat16_t::make_infinity();
const bfloat16_t bfloat16_t::negative_infinity = bfloat16_t::make_negative_infinity();
const bfloat16_t bfloat16_t::nan = bfloat16_t::make_nan();

} // namespace loom
