#ifndef LOOM_LOWER_TRIM_NO_OPS_H
#define LOOM_LOWER_TRIM_NO_OPS_H

/// \file Trimming loops to the iterations that do something (the simple cases of Halide's
/// TrimNoOps).
///  - A loop whose body has no side effect (no Store, assert, or call with side effects; lets,
///    loads and empty allocations do not count) is removed, as is such an if or let.
///  - A loop whose body is an if without else on a condition of the loop variable (after
///    lets not used by the condition), `for (x, m, e) { if (c(x)) S }`, runs only over the
///    values of x for which c holds: the condition is solved for x (analysis/solve.h) into an
///    interval [lo, hi] (expressions of invariant variables) and the loop becomes
///    `if (inv) for (x, max(m, lo), max(min(m + e - 1, hi) - max(m, lo) + 1, 0)) S`, where inv
///    is the part of c that does not depend on x (omitted when true). Within that range c
///    holds, so the if is gone. Conditions the solver cannot handle leave the loop unchanged.
/// Example: for (x, 0, 100) { if (x >= 10) f[x] = 1 }  ->  for (x, 10, 90) { f[x] = 1 }.
/// Tests: tests/unit/lower/trim_no_ops_test.cpp.

#include "ir/ir.h"

namespace loom {
namespace internal {

/// Whether running s can have an effect (a Store, an assert, a call with side effects).
bool has_side_effects(const Stmt &s);

/// s with no-op loops removed and loops guarded by an if on their variable trimmed.
Stmt trim_no_ops(const Stmt &s);

} // namespace internal
} // namespace loom

#endif
