#ifndef LOOM_LOWER_UNROLL_LOOPS_H
#define LOOM_LOWER_UNROLL_LOOPS_H

/// \file Unrolling: every ForType::Unrolled loop becomes copies of its body, one per
/// iteration, with the loop variable bound to that iteration's value. The extent must be a
/// constant after simplification (lets of constants outside the loop are looked through); an
/// extent that is not constant but has a constant upper bound (e.g. min(n, 8)) is unrolled to
/// that bound with each copy guarded by `if (i < extent)`, as Halide does. Anything else is a
/// CompileError naming the loop, or, with HL_PERMIT_FAILED_UNROLL=1 (Halide's variable), a
/// warning and a serial loop.

#include "ir/ir.h"

namespace loom {
namespace internal {

/// Replaces each Unrolled For of s by copies of its body; see the file comment.
Stmt unroll_loops(const Stmt &s);

} // namespace internal
} // namespace loom

#endif
