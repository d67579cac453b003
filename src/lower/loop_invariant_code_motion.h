#ifndef LOOM_LOWER_LOOP_INVARIANT_CODE_MOTION_H
#define LOOM_LOWER_LOOP_INVARIANT_CODE_MOTION_H

/// \file Loop-invariant code motion.
///  - LetStmts in a loop body (directly, or after other lets, blocks, produce/consume markers
///    and allocations; not inside inner loops or ifs, which are processed first, innermost
///    out) whose value does not depend on the loop variable or on anything defined inside the
///    loop move in front of the loop. A value may read buffers that the loop never stores to
///    (and no extern call in the loop could write); since the loop may run zero times, such
///    loads are hoisted only when the extent is known positive.
///  - `for (x) { if (c) A else B }` with c invariant (no loads, no side effects) becomes
///    `if (c) for (x) { A } else for (x) { B }`.
/// Names are unique after lowering, but a let is left in place if lifting it could capture or
/// shadow another use of its name.
/// Tests: tests/unit/lower/loop_invariant_code_motion_test.cpp.

#include "ir/ir.h"

namespace loom {
namespace internal {

/// s with loop-invariant lets and if conditions lifted out of loops.
Stmt loop_invariant_code_motion(const Stmt &s);

} // namespace internal
} // namespace loom

#endif
