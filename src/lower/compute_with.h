#ifndef LOOM_LOWER_COMPUTE_WITH_H
#define LOOM_LOWER_COMPUTE_WITH_H

/// \file The loop nests of stages computed with each other (Stage::compute_with): builds what
/// lang/fusion.h describes and checks.
///
/// The stages of each compute_with tree run in one loop nest (a unit). A loop shared by several
/// stages is named after the stage that owns it (lower/loop_names.h: "f.s0.fused.y";
/// print_loop_nest shows "fused.y"). It covers the union of the members' ranges; each member's
/// iteration `v = fused + shift` (shift 0 for NoAlign and Auto; AlignStart / AlignEnd line up the
/// mins / maxes with the parent's) runs under a likely() guard of its own range, bound by a loop of
/// one iteration named as the member's own loop (so compute_at(g, y) of a child lands right around
/// g's part, as in Halide).
///
/// Example: f(x, y) = x + y; g(x, y) = x - y; both compute_root; g.compute_with(f, y) ->
///   for (f.s0.__outermost, 0, 1) {
///     let f.s0.y.loop_min = ... (every member's loop bounds)
///     let f.s0.fused.y.loop_min = min(f.s0.y.loop_min, g.s0.y.loop_min) ...
///     for (f.s0.fused.y, f.s0.fused.y.loop_min, f.s0.fused.y.loop_extent) {
///       if (likely(f.s0.y.loop_min <= f.s0.fused.y && f.s0.fused.y <= f.s0.y.loop_max)) {
///         for (f.s0.y, f.s0.fused.y, 1) { for (f.s0.x, ...) { f(...) = ... } } }
///       if (likely(... g's range ...)) {
///         for (g.s0.y, f.s0.fused.y, 1) { for (g.s0.x, ...) { g(...) = ... } } } } }
///
/// Checked here (it needs the nest's shape; everything else is checked by lang/fusion): two
/// stages of one Func may share loops only over unsplit pure Vars at which every stage of it in
/// that loop nest reads and writes it, unshifted, and in the order of the stages.
/// Tests: tests/correctness/compute_with.cpp, tests/error/compute_with_errors.cpp,
/// tests/unit/lower/compute_with_test.cpp.

#include "lang/fusion.h"

namespace loom {
namespace internal {

/// `produce f { produce g { <units> } } consume f { consume g { consumer } }` for the group
/// (members outermost first), inside the members' Realize nodes when `with_realize`.
Stmt build_fused_group(const FusedGroup &group, const Fusion &fusion, const Stmt &consumer,
                       bool with_realize);

} // namespace internal
} // namespace loom

#endif
