#ifndef LOOM_LOWER_LOOP_INVARIANT_CODE_MOTION_H
#define LOOM_LOWER_LOOP_INVARIANT_CODE_MOTION_H

/// \file Loop-invariant code motion.
///  - LetStmts in a loop body (directly, or after other lets, blocks, produce/consume markers
///    and allocations; not inside inner loops or ifs, which are processed first, innermost
///    out) whose value does not depend on the loop variable or on anything defined inside the
///    loop move in front of the loop. A value may read buffers that the loop never stores to
///    (and no extern call in the loop could write); since the loop may run zero times, such
///    loads are hoisted only when the extent is known positive.
///  - Integer sums (flat indices) are first regrouped by loop level, the terms that vary in
///    no loop first and those of the innermost loop last, as Halide does; then the largest
///    invariant scalar subexpressions left in a loop body (arithmetic without loads or impure
///    calls, not a lone name) are bound to fresh names in front of the loop. An access in an
///    inner loop then indexes `t + x * 16` with t computed outside: LLVM keeps the nsw flags
///    of that sum and widens the index once per loop instead of sign-extending it per access.
///  - `for (x) { if (c) A else B }` with c invariant (no loads, no side effects) becomes
///    `if (c) for (x) { A } else for (x) { B }`.
/// Names are unique after lowering, but a let is left in place if lifting it could capture or
/// shadow another use of its name.
/// Tests: tests/unit/lower/loop_invariant_code_motion_test.cpp.

#include "ir/ir.h"

namespace loom {
namespace internal {

/// s with loop-invariant lets, subexpressions and if conditions lifted out of loops.
Stmt loop_invariant_code_motion(const Stmt &s);

} // namespace internal
} // namespace loom

#endif
