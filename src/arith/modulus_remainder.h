#ifndef LOOM_ARITH_MODULUS_REMAINDER_H
#define LOOM_ARITH_MODULUS_REMAINDER_H

/// \file Alignment facts: an integer expression equals modulus * k + remainder for some integer
/// k. The struct ModulusRemainder itself is in ir/ir.h (Load/Store carry one). Conventions:
/// modulus 0 means the value is exactly `remainder`; modulus 1 (remainder 0) means nothing is
/// known; otherwise 0 <= remainder < modulus. Used for vector alignment and by the simplifier
/// (x % 4 when x is known to be 4k + 1).

#include "ir/ir.h"

#include <iosfwd>
#include <map>
#include <string>

namespace loom {
namespace internal {

/// Arithmetic on alignment facts, each exact for unbounded integers (no overflow).
ModulusRemainder operator+(const ModulusRemainder &a, const ModulusRemainder &b);
ModulusRemainder operator-(const ModulusRemainder &a, const ModulusRemainder &b);
ModulusRemainder operator*(const ModulusRemainder &a, const ModulusRemainder &b);
/// Euclidean division; only informative for a constant (modulus 0) divisor.
ModulusRemainder operator/(const ModulusRemainder &a, const ModulusRemainder &b);
/// Euclidean modulo; only informative for a constant divisor.
ModulusRemainder operator%(const ModulusRemainder &a, const ModulusRemainder &b);
/// The alignment true of a value that satisfies a or b (for min, max, select).
ModulusRemainder unify(const ModulusRemainder &a, const ModulusRemainder &b);
/// The alignment true of a value that satisfies both a and b (Chinese remainder theorem);
/// when the facts contradict each other, returns a.
ModulusRemainder intersect(const ModulusRemainder &a, const ModulusRemainder &b);
/// Canonical form (0 <= remainder < modulus, modulus >= 0).
ModulusRemainder normalize(const ModulusRemainder &a);
bool operator==(const ModulusRemainder &a, const ModulusRemainder &b);
inline bool operator!=(const ModulusRemainder &a, const ModulusRemainder &b) { return !(a == b); }
/// Prints "<modulus>k + <remainder>".
std::ostream &operator<<(std::ostream &os, const ModulusRemainder &m);

/// The alignment of the integer expression `e` (per lane, for vectors: a fact true of every lane).
/// Variables are looked up in `scope`, else unknown. Only Int(32) arithmetic is analysed
/// (other widths can wrap, which breaks alignment facts); constants of any type are exact.
ModulusRemainder modulus_remainder(const Expr &e,
                                   const std::map<std::string, ModulusRemainder> &scope = {});

/// Whether the alignment fact proves e % modulus == remainder, i.e. returns true and sets
/// *remainder when `modulus` divides the fact's modulus.
bool reduce_expr_modulo(const Expr &e, int64_t modulus, int64_t *remainder,
                        const std::map<std::string, ModulusRemainder> &scope = {});

} // namespace internal
} // namespace loom

#endif
