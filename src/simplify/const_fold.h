#ifndef LOOM_SIMPLIFY_CONST_FOLD_H
#define LOOM_SIMPLIFY_CONST_FOLD_H

/// \file Constant folding with Loom's exact semantics (DESIGN.md §4), shared by the simplifier's
/// visitors and the rewrite rules' fold(). Operands are scalar constants or broadcasts of them;
/// results have the operation's full (vector) type. Float16/BFloat16 are not folded.

#include "ir/ir.h"

namespace loom {
namespace internal {

/// A scalar constant of a scalar type: the field used depends on the type's code.
struct ConstVal {
    Type type;
    int64_t i = 0;  ///< Int
    uint64_t u = 0; ///< UInt (incl. bool)
    double f = 0;   ///< Float
};

/// Whether e is an Int/UInt/Float immediate (of a foldable type) or a broadcast of one.
bool as_const_val(const Expr &e, ConstVal *v);
/// The constant of (vector) type t holding v (converted to t's element type by wrapping).
Expr make_const_val(Type t, const ConstVal &v);

/// Binary arithmetic ops that fold: Add, Sub, Mul, Div, Mod, Min, Max; comparisons EQ, NE, LT,
/// LE, GT, GE; And, Or. Returns undefined when an operand is not constant. Sets *int32_overflow
/// (when given) if an Int(32) result wrapped; the folded value is the wrapped one.
Expr fold_binary(IRNodeType op, const Expr &a, const Expr &b, bool *int32_overflow = nullptr);
/// !a for a bool constant; undefined otherwise.
Expr fold_not(const Expr &a);
/// Conversion of a constant to type t (wraps for ints; != 0 for bool; float->int truncates and
/// is not folded when out of range or NaN). Undefined when not foldable.
Expr fold_cast(Type t, const Expr &a);
/// Bit-pattern reinterpretation of a scalar constant (same bit width); undefined otherwise.
Expr fold_reinterpret(Type t, const Expr &a);
/// Intrinsics with constant arguments: bitwise_and/or/xor/not, shift_left/right (amounts within
/// the width), abs, absd, count_leading_zeros, count_trailing_zeros, popcount. Undefined when
/// not foldable.
Expr fold_intrinsic(const Call *op, const std::vector<Expr> &args);

/// The int64 value of an integer constant (or broadcast) that fits in int64.
bool const_int_value(const Expr &e, int64_t *v);

} // namespace internal
} // namespace loom

#endif
