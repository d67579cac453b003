#ifndef LOOM_LOWER_OPTIMIZE_LOADS_STORES_H
#define LOOM_LOWER_OPTIMIZE_LOADS_STORES_H

/// \file Load/store optimization (Vocke, "Extending Halide to improve software development for
/// imaging DSPs", §3.4): values pass through registers instead of memory where the IR shows
/// that memory would hold the same value. The back end's compiler often cannot see this: in the
/// C output every buffer is a plain pointer that may alias any other, so gcc reloads a value
/// after each store to another buffer; at this level a buffer is a name and a load an element.
///
///  1. Duplicate loads across statements: a load executed unconditionally by one statement
///     (a Store, a let's value, a condition) and again by later statements, with nothing in
///     between that may write the buffer, is bound once by a LetStmt in front of the innermost
///     statement holding all of them (a Block, a LetStmt, produce/consume, an Allocate), and
///     read through it. Duplicates within one statement are left to CSE, which binds them
///     next to their uses.
///  2. Read-after-write: after `b[i] = v` (unpredicated), a later load `b[i]` of v's type, with
///     nothing in between that may write b at i, reads v, bound by a LetStmt in front of the
///     store. When v is the name of a LetStmt around the store (a Tuple's values are stored
///     so), the let's value is bound instead, in front of that LetStmt.
///  3. Sliding loads: in an innermost serial loop over y, loads of a buffer that the loop does
///     not write, at indices that form a chain i_0(y), ..., i_{n-1}(y) with
///     i_k(y + 1) == i_{k+1}(y) for every y (the indices expanded through the body's lets;
///     the simplifier proves the equality), load only i_{n-1}(y) in each iteration: the other
///     values come from the previous iteration through a MemoryType::Register buffer of n - 1
///     slots at constant indices, which LLVM's SROA and gcc's SRA turn into registers. A
///     vertical stencil over y with rows `stride` apart (vector loads at
///     ramp(base + (y + k) * stride, 1, 8)) and a scalar horizontal stencil form such chains;
///     in[y * y] and in[y * y + 1] (a step that varies) do not. Every element of a chain must be
///     loaded unconditionally in the body (its other loads, conditional ones included, read the
///     value too). The slots are filled before the loop with the loads its first iteration
///     makes, under `if (0 < extent)` unless the extent is known positive. At most
///     kMaxCarriedBytes of vectors (and kMaxCarriedScalars scalars) are carried per loop, the
///     last elements of the longest chains first: more would spill, which costs more than the
///     loads saved.
///
/// Safety rules. Distinct buffer names do not alias (as in loop_invariant_code_motion). A value
/// is bound only where it was loaded (or stored) unconditionally: not in an if's branches, a
/// loop body that may not run, the branches of a select, an if_then_else or the right side of
/// &&/||, nor from a predicated load or store. A load moves in front of a statement only when
/// nothing between the two may write its buffer, bind a name its index uses or fail an
/// assertion. A store to the buffer (unless its index is provably different), an escape of the
/// buffer's address (a Handle Variable of its name), a call with side effects (prefetch
/// excepted), Atomic and Fork end a value's life; rebinding a name its index uses too (names
/// can be rebound). Values are not carried into or out of loops by rewrites 1 and 2. Rewrite
/// 3 skips a loop whose body stores to the buffer, allocates it, takes its address, holds an
/// impure call, an assertion, Atomic or Fork; loads whose index uses a value loaded in the
/// loop; and code inside GPU loops (each back end there has its own memory spaces).
///
/// Example (rewrite 3, tests/unit/lower/optimize_loads_stores_test.cpp has more):
///   for (y, 0, n) {
///     out[y] = in[y] + in[y + 1] + in[y + 2]
///   }
/// becomes
///   allocate lso.r0[int32 * 2] in Register
///   if (0 < n) {
///     lso.r0[0] = in[0]
///     lso.r0[1] = in[1]
///   }
///   for (y, 0, n) {
///     let lso.r0.v0 = lso.r0[0]
///     let lso.r0.v1 = lso.r0[1]
///     let lso.r0.v2 = in[y + 2]
///     out[y] = lso.r0.v0 + lso.r0.v1 + lso.r0.v2
///     lso.r0[0] = lso.r0.v1
///     lso.r0[1] = lso.r0.v2
///   }
///
/// Runs after loop_invariant_code_motion (indices are grouped by loop level, invariant parts
/// bound outside the loop) and before bound_small_allocations (which checks the Register
/// buffers) and CSE. Tests: tests/unit/lower/optimize_loads_stores_test.cpp,
/// tests/correctness/load_store_opt.cpp.

#include "ir/ir.h"

namespace loom {
namespace internal {

/// s with duplicate loads, read-after-write loads and sliding loads replaced by values held in
/// registers (see the file comment).
Stmt optimize_loads_stores(const Stmt &s);

} // namespace internal
} // namespace loom

#endif
