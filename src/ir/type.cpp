// Out-of-line members of loom::Type: representability queries, limits and Halide's type names.

#include "ir/ir.h"

#include "support/error.h"

#include <cfloat>
#include <cmath>
#include <limits>
#include <ostream>
#include <sstream>

namespace loom {

namespace {

using internal::make_const;

int64_t max_int(int bits) { return bits >= 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1; }
int64_t min_int(int bits) { return bits >= 64 ? INT64_MIN : -(int64_t(1) << (bits - 1)); }
uint64_t max_uint(int bits) { return bits >= 64 ? UINT64_MAX : (uint64_t(1) << bits) - 1; }

/// The shape of a binary floating-point format: significand bits (with the implicit one),
/// the largest finite value and the exponent of the smallest subnormal.
struct FloatFormat {
    int significand_bits;
    double max_finite;
    int min_subnormal_exp;
};

bool float_format(const Type &t, FloatFormat *f) {
    if (t.is_bfloat() && t.bits() == 16) {
        *f = {8, std::ldexp(255.0 / 128.0, 127), -133};
    } else if (t.code() == Type::Float && t.bits() == 16) {
        *f = {11, 65504.0, -24};
    } else if (t.code() == Type::Float && t.bits() == 32) {
        *f = {24, (double)FLT_MAX, -149};
    } else if (t.code() == Type::Float && t.bits() == 64) {
        *f = {53, DBL_MAX, -1074};
    } else {
        return false;
    }
    return true;
}

/// Whether the double x is exactly a value of the floating-point format f. Infinities and NaN
/// are representable in every format.
bool fits_float_format(double x, const FloatFormat &f) {
    if (x == 0 || std::isnan(x) || std::isinf(x)) return true;
    if (std::fabs(x) > f.max_finite) return false;
    int e;
    double m = std::frexp(std::fabs(x), &e); // x = m * 2^e, m in [0.5, 1)
    // The value's lowest allowed bit: limited by the significand width and by the subnormal
    // range. x fits when scaling it so that bit is 1 gives an integer.
    int lowest = std::max(e - f.significand_bits, f.min_subnormal_exp);
    double scaled = std::ldexp(m, e - lowest);
    return scaled == std::floor(scaled);
}

/// Whether an integer value fits a float format; magnitude as uint64 avoids overflow on INT64_MIN.
bool integer_fits_float(bool negative, uint64_t magnitude, const FloatFormat &f) {
    (void)negative;
    if (magnitude == 0) return true;
    // Strip trailing zeros: the remaining odd part must fit in the significand.
    int tz = 0;
    while (!(magnitude & 1)) {
        magnitude >>= 1;
        tz++;
    }
    int width = 0;
    for (uint64_t m = magnitude; m; m >>= 1) width++;
    if (width > f.significand_bits) return false;
    // The value is below 2^(width + tz); it must not exceed the largest finite value.
    return std::ldexp(1.0, width + tz - 1) <= f.max_finite;
}

} // namespace

Type Type::narrow() const {
    if (is_bool()) return *this;
    int b = bits() / 2;
    if (is_int_or_uint() && b < 8) b = 8;
    return with_bits(b);
}

Type Type::widen() const {
    if (is_bool()) return with_bits(8);
    return with_bits(bits() * 2);
}

bool Type::operator<(const Type &o) const {
    if (code() != o.code()) return code() < o.code();
    if (bits() != o.bits()) return bits() < o.bits();
    return lanes() < o.lanes();
}

bool Type::can_represent(Type other) const {
    if (lanes() != other.lanes()) return false;
    if (*this == other) return true;
    FloatFormat f;
    switch (code()) {
    case Int:
        if (other.is_int()) return other.bits() <= bits();
        if (other.is_uint()) return other.bits() < bits();
        return false;
    case UInt:
        return other.is_uint() && other.bits() <= bits();
    case Float:
    case BFloat:
        if (!float_format(*this, &f)) return false;
        if (other.is_int_or_uint()) {
            // Every value of an n-bit integer needs at most n significant bits.
            int needed = other.is_int() ? other.bits() - 1 : other.bits();
            return needed <= f.significand_bits;
        }
        if (other.is_float()) {
            FloatFormat g;
            if (!float_format(other, &g)) return false;
            return g.significand_bits <= f.significand_bits && g.max_finite <= f.max_finite &&
                   g.min_subnormal_exp >= f.min_subnormal_exp;
        }
        return false;
    case Handle:
        return other.is_handle() && other.bits() <= bits();
    }
    return false;
}

bool Type::can_represent(int64_t x) const {
    FloatFormat f;
    if (is_int()) return x >= min_int(bits()) && x <= max_int(bits());
    if (is_uint()) return x >= 0 && (uint64_t)x <= max_uint(bits());
    if (float_format(*this, &f)) {
        uint64_t mag = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
        return integer_fits_float(x < 0, mag, f);
    }
    return false;
}

bool Type::can_represent(uint64_t x) const {
    FloatFormat f;
    if (is_int()) return x <= (uint64_t)max_int(bits());
    if (is_uint()) return x <= max_uint(bits());
    if (float_format(*this, &f)) return integer_fits_float(false, x, f);
    return false;
}

bool Type::can_represent(double x) const {
    FloatFormat f;
    if (is_int_or_uint()) {
        if (std::isnan(x) || std::isinf(x) || x != std::trunc(x)) return false;
        if (is_int()) {
            // Compare in double: min_int is a power of two and exact; max_int + 1 likewise.
            return x >= (double)min_int(bits()) && x < -(double)min_int(bits());
        }
        return x >= 0 && x < std::ldexp(1.0, bits());
    }
    if (float_format(*this, &f)) return fits_float_format(x, f);
    return false;
}

bool Type::is_max(int64_t x) const { return x > 0 && is_max((uint64_t)x); }

bool Type::is_max(uint64_t x) const {
    if (is_int()) return x == (uint64_t)max_int(bits());
    if (is_uint()) return x == max_uint(bits());
    return false;
}

bool Type::is_min(int64_t x) const {
    if (is_int()) return x == min_int(bits());
    if (is_uint()) return x == 0;
    return false;
}

bool Type::is_min(uint64_t x) const { return is_uint() && x == 0; }

Expr Type::max() const {
    if (is_int()) return make_const(*this, max_int(bits()));
    if (is_uint()) return make_const(*this, max_uint(bits()));
    // As in Halide, float types are unbounded above: their max is +infinity.
    internal_assert(is_float()) << "Type::max of " << *this << "\n";
    return make_const(*this, std::numeric_limits<double>::infinity());
}

Expr Type::min() const {
    if (is_int()) return make_const(*this, min_int(bits()));
    if (is_uint()) return make_const(*this, (uint64_t)0);
    internal_assert(is_float()) << "Type::min of " << *this << "\n";
    return make_const(*this, -std::numeric_limits<double>::infinity());
}

std::string type_to_string(const Type &t) {
    std::ostringstream s;
    if (t.is_bool()) {
        s << "bool";
    } else {
        switch (t.code()) {
        case Type::Int:
            s << "int" << t.bits();
            break;
        case Type::UInt:
            s << "uint" << t.bits();
            break;
        case Type::Float:
            s << "float" << t.bits();
            break;
        case Type::BFloat:
            s << "bfloat" << t.bits();
            break;
        case Type::Handle:
            s << "handle";
            break;
        }
    }
    if (t.lanes() != 1) s << "x" << t.lanes();
    return s.str();
}

std::ostream &operator<<(std::ostream &os, const Type &t) { return os << type_to_string(t); }

} // namespace loom
