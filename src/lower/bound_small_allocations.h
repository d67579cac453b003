#ifndef LOOM_LOWER_BOUND_SMALL_ALLOCATIONS_H
#define LOOM_LOWER_BOUND_SMALL_ALLOCATIONS_H

/// \file Stack allocation of small buffers whose size has a constant upper bound.
/// For each Allocate, the number of elements is bounded from above with constant-interval
/// arithmetic (src/arith/constant_interval.h), the enclosing LetStmts and loop bounds giving
/// the ranges of the variables its extents use. Then, by memory type:
///  - Auto: a bound of at most kMaxAutoStackBytes bytes puts the buffer on the stack
///    (MemoryType::Stack) with that constant size; otherwise it stays on the heap.
///  - Stack: the constant bound becomes its size; without one the size stays dynamic (as
///    Halide allows) and codegen allocas it where the allocation starts, releasing the stack
///    where it ends.
///  - Register: as Stack, and every Load/Store of it must be at a constant index (after
///    unrolling; a vector index must be a Ramp with constant base and stride); else a
///    CompileError.
///  - Heap (and the other types): unchanged.
/// Code generation (CodeGenLLVM::visit(Allocate)) puts a constant-size allocation that is not
/// on the heap in the entry block of the enclosing function or parallel task closure, so a
/// buffer allocated inside a loop (blur_x computed per tile) costs nothing per iteration and
/// each task of a parallel loop has its own copy.
/// An Allocate whose buffer escapes as a Variable (an extern stage's buffer argument) is
/// bounded all the same: the size only has to cover the elements the stage touches, which the
/// extents already do.
/// Tests: tests/unit/lower/bound_small_allocations_test.cpp, tests/correctness/store_in.cpp.

#include "lower/lower_utils.h"

namespace loom {
namespace internal {

/// Bounds the sizes of small allocations and moves them to the stack (see the file comment).
Stmt bound_small_allocations(const Stmt &s);

} // namespace internal
} // namespace loom

#endif
