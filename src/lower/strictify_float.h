#ifndef LOOM_LOWER_STRICTIFY_FLOAT_H
#define LOOM_LOWER_STRICTIFY_FLOAT_H

/// \file Target::StrictFloat (Halide's strict_float target feature): every float computation
/// of the pipeline is wrapped in the strict_float intrinsic, so that codegen emits it with no
/// fast-math flags (no FMA contraction, no reassociation, no reciprocal or approximate-function
/// rewrites) and the results are those of IEEE operations in program order. Without the
/// feature, only the expressions the user wrapped in strict_float() are strict.
/// Each maximal float-typed subexpression is wrapped once (its operands are inside it);
/// variables, constants and already strict expressions are left alone. Runs last in lower.cpp,
/// so no later pass has to look through the wrappers.
/// Tests: tests/correctness/fast_math.cpp.

#include "ir/ir.h"

namespace loom {
namespace internal {

/// s with every float computation inside strict_float.
Stmt strictify_float(const Stmt &s);

} // namespace internal
} // namespace loom

#endif
