#ifndef LOOM_LOWER_ALIAS_BOUND_LETS_H
#define LOOM_LOWER_ALIAS_BOUND_LETS_H

/// \file Rebinds the bound lets of a Func that are another of its lets plus a constant.
///
/// bounds_inference names every bound ("f.s1.x.min", "f.s1.required.0.max", "f.x.min_realized",
/// ...) and defines the later ones through the earlier ones, so a Func computed per block of
/// constant size (a register block of a matrix product) gets
///   let f.s1.x.min = base;  let f.s1.x.max = base + 31;
///   let f.x.min_realized = min(f.s1.required.0.min, f.s1.x.min);  ...
/// which the simplifier, not expanding lets with non-trivial values, leaves symbolic: loop
/// extents, the allocation's strides and the flat indices stay differences of lets, and the
/// block cannot live in registers. This pass expands each let of a Func through the Func's
/// other lets in scope; a let that is then a constant, or equal to an earlier one plus a
/// constant, is rebound to that (`f.x.min_realized = f.s1.x.min`, `f.s1.x.max = f.s1.x.min +
/// 31`), values the simplifier substitutes, as Halide's bounds come out. Run after the
/// simplification that follows bounds inference (the consumers' loop lets are constants by
/// then).
///
/// Example: `let f.x.extent_realized = max(f.s1.x.max - f.s1.x.min + 1, 0)` becomes `= 32`.

#include "ir/ir.h"

namespace loom {
namespace internal {

/// s with the bound lets of each Func rebound as described above.
Stmt alias_bound_lets(const Stmt &s);

} // namespace internal
} // namespace loom

#endif
