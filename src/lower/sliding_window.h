#ifndef LOOM_LOWER_SLIDING_WINDOW_H
#define LOOM_LOWER_SLIDING_WINDOW_H

/// \file Sliding window: a Func stored outside a serial loop and computed inside it (store_root
/// or store_at + compute_at) computes, in each iteration after the first, only the values the
/// previous iterations have not computed yet.
///
/// Runs after bounds_inference, which let-binds the region each stage computes
/// ("<f>.s0.<v>.min/.max") around `produce f; consume f` inside the loop. When exactly one
/// dimension's region moves monotonically with the innermost loop L enclosing the produce
/// (and L and every loop between the Realize and the produce are serial), that dimension's
/// region is clipped against the previous iteration's:
///   increasing: min' = select(L > L.min, max(min, max(L - 1) + 1), min)
///   decreasing: max' = select(L > L.min, min(max, min(L - 1) - 1), max)
/// The first iteration (of each run of L) computes the full region; this is simpler than
/// Halide's warm-up (shifting the loop's min back) and keeps every iteration independent of
/// how many iterations came before, at the cost of a select per iteration. When the region does
/// not depend on L at all, iterations after the first compute nothing. Update stages slide with
/// the pure stage (each clipped the same way, as in Halide) when every update writes f at its
/// pure Vars and reads f only there (f(x, y) += g(x, y + r)); otherwise, and for extern
/// definitions and outputs, the Func is left alone.
///
/// Example (blur_y(x, y) = blur_x(x, y-1) + blur_x(x, y) + blur_x(x, y+1), blur_x store_root,
/// compute_at(blur_y, y)): let blur_x.s0.y.min = select(blur_y.s0.y > blur_y.s0.y.loop_min,
/// blur_y.s0.y + 1, blur_y.s0.y - 1): one new row per iteration.
/// Tests: tests/correctness/sliding_window.cpp, tests/unit/lower/sliding_window_test.cpp.

#include "lang/function.h"

#include <map>
#include <string>

namespace loom {
namespace internal {

Stmt sliding_window(const Stmt &s, const std::map<std::string, Function> &env);

} // namespace internal
} // namespace loom

#endif
