#ifndef LOOM_LOWER_FIND_INTRINSICS_H
#define LOOM_LOWER_FIND_INTRINSICS_H

/// \file Recognizing the idioms image code is made of (Halide's FindIntrinsics idea), so code
/// generation can pick the matching SIMD instructions. Each rewrite is exact: the intrinsic
/// computes the same value as the expression it replaces, for every input.
///  - T(clamp(W(a) + W(b), T.min, T.max))  ->  saturating_add(a, b)   (a, b of type T)
///  - T(clamp(W(a) - W(b), T.min, T.max))  ->  saturating_sub(a, b)
///    (a bound that cannot be reached may be left out, e.g. u8(min(u16(a) + u16(b), 255)))
///  - T((W(a) + W(b) + 1) >> 1) or / 2     ->  rounding_halving_add(a, b)
///  - T((W(a) + W(b)) >> 1) or / 2         ->  halving_add(a, b)
///  - T((W(a) * W(b)) >> q) or / 2^q      ->  mul_shift_right(a, b, q)
///  - T((W(a) * W(b) + 2^(q-1)) >> q)      ->  rounding_mul_shift_right(a, b, q)
///    (when the shifted value always fits T, or is clamped exactly to T's range: the
///    intrinsics saturate, a plain cast wraps)
///  - uT(abs(W(a) - W(b)))                 ->  absd(a, b)
///  - select(a < b, b - a, a - b) (and the mirrored forms)  ->  absd(a, b) (reinterpreted)
/// W is any integer type wide enough to hold the exact intermediate; constants that fit T stand
/// for W(const). Only integer types of at most 32 bits are rewritten.
/// Runs after vectorization (lower.cpp), on scalar and vector code alike; every intrinsic has a
/// generic lowering in codegen_intrinsics.cpp, so non-x86 targets stay correct.
/// Tests: tests/unit/lower/find_intrinsics_test.cpp, tests/correctness/simd_patterns.cpp.

#include "ir/ir.h"

namespace loom {
namespace internal {

/// e with the idioms above replaced by intrinsic calls.
Expr find_intrinsics(const Expr &e);

/// s with the idioms above replaced by intrinsic calls.
Stmt find_intrinsics(const Stmt &s);

} // namespace internal
} // namespace loom

#endif
