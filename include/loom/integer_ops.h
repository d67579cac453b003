#ifndef LOOM_INTEGER_OPS_H
#define LOOM_INTEGER_OPS_H

/// \file Integer helpers of Halide's API built from the basic operators: division by a
/// run-time uint8 (fast_integer_divide), and reading a value's bits as another type
/// (extract_bits, concat_bits). Implemented in src/ir/integer_ops.cpp.

#include <loom/expr.h>
#include <loom/type.h>

#include <vector>

namespace loom {

/// numerator / denominator, rounding toward negative infinity, for an 8, 16 or 32-bit integer
/// numerator (scalar or vector) and a uint8 denominator read as 1 to 256 (0 means 256). The
/// result has the numerator's type.
Expr fast_integer_divide(const Expr &numerator, const Expr &denominator);
/// fast_integer_divide rounding toward zero.
Expr fast_integer_divide_round_to_zero(const Expr &numerator, const Expr &denominator);

/// The bits of `e` from bit `lsb` (0 is the least significant) upwards, as a value of type t;
/// bits beyond either end of e read as zero. extract_bits<uint8_t>(f32(x / 4), 8 * (x % 4))
/// reads a uint32 Func as bytes.
Expr extract_bits(Type t, const Expr &e, const Expr &lsb);
template <typename T>
Expr extract_bits(const Expr &e, const Expr &lsb) {
    return extract_bits(type_of<T>(), e, lsb);
}

/// The bits of e[0], e[1], ... side by side, e[0] least significant, as one value of the same
/// type code with e.size() times the bits. The Exprs share a type; their number is a power of
/// two and the result at most 64 bits.
Expr concat_bits(const std::vector<Expr> &e);

} // namespace loom

#endif
