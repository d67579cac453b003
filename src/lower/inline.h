#ifndef LOOM_LOWER_INLINE_H
#define LOOM_LOWER_INLINE_H

/// \file Inlining a pure Func into its callers, and lowering random() calls.
///
/// inline_function replaces every call f(a0, a1)[i] by value i of f's pure definition with its
/// Vars replaced by the arguments. Arguments that are cheap (constants, variables, variable plus
/// constant) are substituted; others are bound once with a Let so they are not duplicated.
/// A Provide that calls f more than once at the same point then has its repeated
/// subexpressions named once (CSE), so chains of Funcs that each call the previous one several
/// times at the same point stay linear in size. Assumes f has no update definitions. Example
/// (f(x) = x * 2):
///   out(o.x) = f(o.x + 1) + f(g(o.x))
///     -> out(o.x) = (o.x + 1) * 2 + (let f.x$1 = g(o.x) in f.x$1 * 2)
///
/// lower_random turns each random_float/int/uint call (a "random" intrinsic whose args are the
/// user's seed, if any, and a per-call-site id) into a deterministic hash of those args and
/// `coords`, the coordinates of the point being computed: the same point and seed always give
/// the same value; neighbouring points give unrelated ones.
/// Tests: tests/unit/lower/inline_test.cpp.

#include "lang/function.h"

#include <vector>

namespace loom {
namespace internal {

Stmt inline_function(const Stmt &s, const Function &f);
Expr inline_function(const Expr &e, const Function &f);

Expr lower_random(const Expr &e, const std::vector<Expr> &coords);

} // namespace internal
} // namespace loom

#endif
