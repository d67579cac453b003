#ifndef LOOM_LOWER_STORAGE_FOLDING_H
#define LOOM_LOWER_STORAGE_FOLDING_H

/// \file Storage folding: a Func stored outside a serial loop and computed inside it, whose
/// region along one dimension moves monotonically with that loop and spans at most a constant
/// number of values per iteration, only needs that many values live at once. Its storage in
/// that dimension becomes a circular buffer of the smallest power of two >= the footprint: the
/// Realize's bounds there become [0, factor) and every access indexes coordinate % factor.
///
/// fold_storage(v, factor) forces the factor of dimension v. A factor smaller than a constant
/// footprint is a CompileError with Halide's message ("The fold factor (2) of dimension y of f
/// is too small to store the required region accessed by loop g.s0.y (3)."); a symbolic
/// footprint gets that check at run time (halide_error_fold_factor_too_small). A region that
/// does not move monotonically can't be folded: a CompileError for an explicit fold_storage,
/// nothing for the automatic one. Only serial loops qualify (a parallel loop between the store
/// and compute levels would share the circular buffer between threads).
///
/// Runs after sliding_window and simplify (the loop nest and lets are final there).
/// Example: blur_x store_root, compute_at(blur_y, y) reading rows y-1..y+1:
///   realize blur_x([..], [0, 4]) { ... blur_x(x, y % 4) = ... blur_x(x, (y + 1) % 4) ... }
/// Tests: tests/correctness/storage_folding.cpp, tests/unit/lower/storage_folding_test.cpp.

#include "lang/function.h"

#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

Stmt storage_folding(const Stmt &s, const std::map<std::string, Function> &env);

} // namespace internal
} // namespace loom

#endif
