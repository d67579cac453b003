#ifndef LOOM_LOWER_REMOVE_DEAD_ALLOCATIONS_H
#define LOOM_LOWER_REMOVE_DEAD_ALLOCATIONS_H

/// \file Removal of allocations nothing reads.
/// An Allocate whose buffer is never loaded inside its body, and whose name never appears as
/// a Variable there (an extern stage receives the buffer through its host pointer, and may
/// read it), is removed together with its Stores and Frees. A Store whose value has a side
/// effect (an impure call) keeps the value as an Evaluate. Stores computing values nobody
/// reads are the typical result of a Func whose only consumer was simplified away, or of a
/// realization scheduled for tracing or debugging.
/// Tests: tests/unit/lower/remove_dead_allocations_test.cpp.

#include "ir/ir.h"

namespace loom {
namespace internal {

/// s without the allocations nothing reads (see the file comment).
Stmt remove_dead_allocations(const Stmt &s);

} // namespace internal
} // namespace loom

#endif
