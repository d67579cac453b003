// fast_integer_divide, extract_bits and concat_bits (include/loom/integer_ops.h), written with the
// ordinary operators so the simplifier, bounds inference and the vectorizer see through them.
#include <loom/integer_ops.h>
#include <loom/ir_operator.h>

#include "ir/ir.h"
#include "support/error.h"

#include <algorithm>

namespace loom {

using namespace internal;

namespace {

/// Checks fast_integer_divide's operand types; returns the type its arithmetic is done in
/// (32 bits of the numerator's signedness, where every quotient and remainder fits).
Type divide_type(const Expr &numerator, const Expr &denominator, const char *name) {
    user_assert(numerator.defined() && denominator.defined()) << name << " of an undefined Expr.\n";
    Type n = numerator.type(), d = denominator.type();
    user_assert((n.is_int() || n.is_uint()) && n.bits() >= 8 && n.bits() <= 32)
        << name << "'s numerator must be an 8, 16 or 32-bit integer, but " << numerator
        << " has type " << n << ".\n";
    user_assert(d.element_of() == UInt(8))
        << name << "'s denominator must be a uint8, but " << denominator << " has type " << d
        << ". Cast it with cast<uint8_t>(...) (0 stands for 256).\n";
    return (n.is_uint() ? UInt(32) : Int(32)).with_lanes(n.lanes());
}

/// The denominator as a number from 1 to 256, in type w.
Expr denominator_1_to_256(const Expr &denominator, Type w) {
    Expr d = cast(w.element_of(), denominator);
    return select(d == 0, make_const(w.element_of(), (int64_t)256), d);
}

} // namespace

Expr fast_integer_divide(const Expr &numerator, const Expr &denominator) {
    Type w = divide_type(numerator, denominator, "fast_integer_divide");
    // Division is Euclidean, which for the positive denominator rounds toward -infinity.
    return cast(numerator.type(), cast(w, numerator) / denominator_1_to_256(denominator, w));
}

Expr fast_integer_divide_round_to_zero(const Expr &numerator, const Expr &denominator) {
    Type w = divide_type(numerator, denominator, "fast_integer_divide_round_to_zero");
    if (w.is_uint()) return fast_integer_divide(numerator, denominator);
    Expr n = cast(w, numerator), d = denominator_1_to_256(denominator, w);
    // A negative numerator with a remainder rounded down: one more is toward zero.
    Expr q = n / d;
    Expr rounded_down = n < 0 && n % d != 0;
    return cast(numerator.type(), select(rounded_down, q + 1, q));
}

Expr extract_bits(Type t, const Expr &e, const Expr &lsb) {
    user_assert(e.defined() && lsb.defined()) << "extract_bits of an undefined Expr.\n";
    user_assert(!e.type().is_handle() && !t.is_handle())
        << "extract_bits can't read the bits of handles.\n";
    user_assert(lsb.type().is_int() || lsb.type().is_uint())
        << "extract_bits' bit index must be an integer, but " << lsb << " has type " << lsb.type()
        << ".\n";
    const int lanes = e.type().lanes();
    const int e_bits = e.type().bits();
    const int bits = std::max(e_bits, t.bits());
    user_assert(bits <= 64) << "extract_bits works on up to 64 bits.\n";
    Type wide = UInt(bits, lanes);
    Expr u = cast(wide, reinterpret(UInt(e_bits, lanes), e));
    // Bits below bit 0 and above the top read as zero: shift right for lsb >= 0, left for a
    // negative lsb, and nothing survives a shift by the whole width.
    Expr shift = cast(Int(32), lsb);
    Expr right = u >> cast(wide.element_of(), max(shift, 0));
    Expr left = u << cast(wide.element_of(), max(-shift, 0));
    Expr zero = make_const(wide, (int64_t)0);
    Expr v = select(shift >= bits || shift <= -bits, zero, select(shift >= 0, right, left));
    return reinterpret(t.with_lanes(lanes), cast(UInt(t.bits(), lanes), v));
}

Expr concat_bits(const std::vector<Expr> &e) {
    user_assert(!e.empty()) << "concat_bits needs at least one Expr.\n";
    const Type t = e[0].type();
    const int n = (int)e.size();
    user_assert((n & (n - 1)) == 0)
        << "concat_bits needs a power of two of Exprs, not " << n << ".\n";
    user_assert(t.bits() * n <= 64)
        << "concat_bits of " << n << " values of type " << t << " would have " << t.bits() * n
        << " bits; at most 64 are supported.\n";
    for (const Expr &x : e) {
        user_assert(x.defined() && x.type() == t)
            << "concat_bits needs Exprs of one type, but " << x << " has type " << x.type()
            << " where " << e[0] << " has type " << t << ".\n";
    }
    const int bits = t.bits() * n;
    Type wide = UInt(bits, t.lanes());
    Expr result;
    for (int i = 0; i < n; i++) {
        Expr part = cast(wide, reinterpret(UInt(t.bits(), t.lanes()), e[i]));
        if (i > 0) part = part << make_const(wide, (int64_t)t.bits() * i);
        result = result.defined() ? (result | part) : part;
    }
    return reinterpret(t.with_bits(bits), result);
}

} // namespace loom
