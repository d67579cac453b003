#ifndef LOOM_LOWER_INFER_ALIGNMENT_H
#define LOOM_LOWER_INFER_ALIGNMENT_H

/// \file Alignment of vector accesses: for each Load and Store whose index is a Ramp, the
/// modulus/remainder of the ramp's base (its first lane's element index) is recorded in the
/// node's `alignment` field when it is better than what the simplifier found. The base is
/// analysed with the enclosing lets substituted and then simplified, so offsets that cancel
/// symbolically are seen through: an access f[x.x * 8 + m - m'] where m' is let-bound to m is
/// known to be 8k + 0. Code generation turns the fact, with the alignment of the buffer's base
/// (Loom's own allocations are over-aligned; inputs promise set_host_alignment), into the
/// alignment of the LLVM load or store (codegen_vector.cpp).
/// Runs after vectorization and loop partitioning (lower.cpp), before CSE adds more lets.
/// Tests: tests/correctness/simd_patterns.cpp (AlignedLoads), tests/unit/codegen/x86_isel_test.cpp.

#include "ir/ir.h"

namespace loom {
namespace internal {

/// s with the alignment fields of its ramp-indexed Loads and Stores filled in.
Stmt infer_alignment(const Stmt &s);

} // namespace internal
} // namespace loom

#endif
