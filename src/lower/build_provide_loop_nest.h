#ifndef LOOM_LOWER_BUILD_PROVIDE_LOOP_NEST_H
#define LOOM_LOWER_BUILD_PROVIDE_LOOP_NEST_H

/// \file The loop nest of one stage (definition) of a Func, as its StageSchedule describes it:
/// the one place that turns (Definition, dims, splits) into loops, so the scheduling language
/// (split, fuse, rename, reorder, loop kinds) only feeds this function.
///
/// Names (lower/loop_names.h owns them):
///  - the stage prefix is "<f>.s<k>." (k = 0 for the pure definition, i for update i - 1);
///  - every Var and RVar v of the definition becomes the Variable "<prefix>v";
///  - a Var's bounds "<prefix>v.min" and "<prefix>v.max" are free here: bounds inference
///    defines them outside the stage; an RVar's are its domain, let-bound inside the stage;
///  - each loop var w (original or made by a split) loops over "<prefix>w.loop_min" with
///    extent "<prefix>w.loop_extent", let-bound just inside the "__outermost" loop.
/// The stage's root is always the For "<prefix>__outermost" (extent 1), so passes can find a
/// stage by that name.
///
/// Example: f(x, y) = x + y, default schedule ->
///   for (f.s0.__outermost, 0, 1) {
///     let f.s0.y.loop_min = f.s0.y.min ... let f.s0.x.loop_extent = f.s0.x.max + 1 - f.s0.x.min
///     for (f.s0.y, f.s0.y.loop_min, f.s0.y.loop_extent) {
///       for (f.s0.x, f.s0.x.loop_min, f.s0.x.loop_extent) {
///         f(f.s0.x, f.s0.y) = f.s0.x + f.s0.y
/// A definition with an RDom predicate puts the Provide under `if (predicate)`.
/// Specializations (Stage::specialize) become `if (c1) {loops1} else if ... else {default}`
/// just inside "__outermost" (each branch with its own lets and loops, of the same names);
/// specialize_fail is an assert in the last else.
/// Tests: tests/unit/lower/schedule_functions_test.cpp.

#include "lang/function.h"

#include <string>

namespace loom {
namespace internal {

/// The definition of stage `stage` of f with its Vars and RVars renamed to the stage's loop
/// variables (pure vars and RVars -> "<prefix>name"); random() calls are lowered with the
/// renamed coordinates.
Definition rename_stage_definition(const Function &f, int stage);
/// rename_stage_definition for `def`, one of the definitions of stage `stage` (its default or
/// a specialization).
Definition rename_definition(const Function &f, int stage, const Definition &def);

/// The loop nest computing stage `stage` of f (see the file comment).
Stmt build_provide_loop_nest(const Function &f, int stage);

/// The produce statement of f: its stages' loop nests in order, under `produce f`.
Stmt build_produce(const Function &f);

/// The Realize of f around `produce f` then `consume f { consumer }`, with the symbolic
/// realization bounds "<f>.<arg>.min_realized" / "<f>.<arg>.extent_realized".
Stmt build_realize(const Function &f, const Stmt &consumer);

/// `produce f; consume f { consumer }` without the Realize (a Func stored outside its compute
/// level gets its Realize at the store level: realize_around).
Stmt build_produce_consume(const Function &f, const Stmt &consumer);

/// f's Realize (symbolic bounds as in build_realize) around `body`.
Stmt realize_around(const Function &f, const Stmt &body);

} // namespace internal
} // namespace loom

#endif
