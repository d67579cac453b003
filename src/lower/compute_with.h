#ifndef LOOM_LOWER_COMPUTE_WITH_H
#define LOOM_LOWER_COMPUTE_WITH_H

/// \file compute_with: stages that share loops (Stage::compute_with, Halide's semantics).
///
/// `g.compute_with(f, y)` makes g's stage share f's loops from the outermost down to y; in each
/// iteration of the shared loops g's body runs after f's. The Funcs joined this way form a
/// fused group: they are computed at one place (the same compute level), their Realize and
/// produce/consume nodes nest (produce f { produce g { ... } }), and their stages run in one
/// produce, those computed with each other inside one loop nest (a "unit").
///
/// Loop names: a loop shared by several stages is named after the stage that owns it (the one
/// nearest the root of the compute_with tree) with "fused." before its last component
/// ("f.s0.fused.y", "f.s0.x.fused.xo"; print_loop_nest shows "fused.y"). It covers the union
/// of the members' ranges; each member's iteration `v = fused + shift` (shift 0 for NoAlign
/// and Auto; AlignStart / AlignEnd line up the mins / maxes with the parent's) runs under a
/// likely() guard of its own range, bound by a loop of one iteration named as the member's own
/// loop (so compute_at(g, y) of a child lands right around g's part, as in Halide).
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
/// Legality (CompileErrors naming both stages and the loop): both Funcs computed at the same
/// level (not inlined; each may be stored further out); the fused loops have the same names and
/// kinds in both stages (split both the same way: the factors may differ, the loops are fused as
/// loop counters); no specializations, extern definitions or memoization; no member of a group
/// reads another (Halide's rule: the fused order would run a reader before what it reads is
/// complete); two stages of one Func may share loops only over unsplit pure Vars at which every
/// stage of it in that loop nest reads and writes it, unshifted; the stages of each Func keep their
/// order. Tests: tests/correctness/compute_with.cpp, tests/error/compute_with_errors.cpp.

#include "lang/function.h"
#include "lower/default_schedule.h"

#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// Funcs joined by compute_with: computed together, in one produce.
struct FusedGroup {
    /// The members, in the order their Realize / produce / consume nodes nest (outermost
    /// first): parents before the Funcs computed with them, then realization order.
    std::vector<Function> funcs;
    /// The stages of every member, in order: the loop nests of stages computed with each other
    /// fused, the others as build_provide_loop_nest makes them (no produce nodes).
    Stmt stages;
};

/// The fused groups of a pipeline.
struct FusionPlan {
    std::vector<FusedGroup> groups;
    /// The group `func` belongs to (null when it is computed with nothing).
    const FusedGroup *group_of(const std::string &func) const;
    std::map<std::string, int> index;
};

/// Checks every compute_with among the Funcs of `env` (computed as `placements` says, realized
/// in `order`) and builds the groups' stages. CompileErrors for illegal fusions (see the file
/// comment). Empty when nothing is fused.
FusionPlan plan_compute_with(const std::vector<std::string> &order,
                             const std::map<std::string, Function> &env,
                             const std::map<std::string, ComputePlacement> &placements);

/// `order` (a realization order) with the members of each group next to each other, in the
/// group's order, still after everything they call and before everything that calls them.
std::vector<std::string> order_with_fused_groups(const std::vector<std::string> &order,
                                                 const FusionPlan &plan,
                                                 const std::map<std::string, Function> &env);

/// `produce f { produce g { <stages> } } consume f { consume g { consumer } }` for the group,
/// inside the members' Realize nodes when `with_realize` (outermost member outermost).
Stmt build_fused_group(const FusedGroup &group, const Stmt &consumer, bool with_realize);

/// Whether stage `stage` of f shares loops with other stages. Its loops then are not a nest of
/// their own: bounds inference reads its requirements from build_provide_loop_nest(f, stage).
bool is_fused_stage(const Function &f, int stage, const std::map<std::string, Function> &env);

/// The name of the For that runs loop `dim` (an index into the stage's dims) of stage `stage`
/// of f: "<prefix><var>" unless that loop is shared with stages computed with it (then its fused
/// name; the __outermost of a stage computed with another is that of the root of its nest).
std::string fused_loop_name(const Function &f, int stage, int dim,
                            const std::map<std::string, Function> &env);

} // namespace internal
} // namespace loom

#endif
