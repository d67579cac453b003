#ifndef LOOM_LANG_FUSION_H
#define LOOM_LANG_FUSION_H

/// \file The compute_with relation (Stage::compute_with, Halide's semantics) and its legality.
///
/// `g.compute_with(f, y)` makes g's stage share f's loops from the outermost down to y; in each
/// iteration of the shared loops g's body runs after f's. The stages computed with each other
/// form trees (a stage computed with nothing is a root), and the Funcs joined this way form a
/// fused group: they are computed at one place (the same compute level), their Realize and
/// produce/consume nodes nest (produce f { produce g { ... } }), and their stages run in one
/// produce, each tree as one loop nest (a "unit"), lone stages on their own. lower/compute_with.h
/// builds those loop nests; lower/loop_names.h names the shared loops.
///
/// Legality (CompileErrors naming both stages and the loop), checked here: both Funcs computed
/// at the same level (not inlined; each may be stored further out); the fused loops have the
/// same names and kinds in both stages (split both the same way: the factors may differ, the
/// loops are fused as loop counters); no specializations, extern definitions or memoization; no
/// member of a group reads another (Halide's rule: the fused order would run a reader before
/// what it reads is complete); the compute_with edges form trees; some order of the units runs
/// each Func's stages in order. Checked when the nest is built (it needs the nest's shape): two
/// stages of one Func may share loops only over unsplit pure Vars at which every stage of it in
/// that loop nest reads and writes it, unshifted.
/// Tests: tests/correctness/compute_with.cpp, tests/error/compute_with_errors.cpp,
/// tests/unit/lang/call_graph_test.cpp, tests/unit/lower/compute_with_test.cpp.

#include "lang/function.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace loom {
namespace internal {

struct CallGraph;

/// "f" for the pure definition, "f.update(i)" for update i (Stage::name()), for messages.
std::string stage_text(const Function &f, int stage);

/// One stage taking part in compute_with, as the stage computed with another (a child) or as
/// the one another is computed with (a parent), or both.
struct FusedStage {
    Function f;
    int stage = 0;
    /// The stage this one is computed with (an index into Fusion::stages), -1 for a root.
    int parent = -1;
    /// How many of its outer loops it shares with the parent.
    int depth = 0;
    /// The loop compute_with named (for messages).
    std::string var;
    /// The alignment of each loop shared with the parent, outermost first.
    std::vector<LoopAlignStrategy> align;
    /// The stages computed with this one, in the order their bodies run.
    std::vector<int> children;
    /// How many of its outer loops it shares with its parent or its children.
    int shared = 0;
    /// Its loop variables (schedule dims), outermost first, without __outermost.
    std::vector<std::string> loops;

    const Definition &def() const { return stage_definition(f, stage); }
    std::string text() const { return stage_text(f, stage); }
};

/// The part of a fused group that runs as one loop nest: a compute_with tree, or a stage
/// computed with nothing.
struct FusedUnit {
    Function f;
    int stage = 0;
    int root = -1; ///< the tree's root (an index into Fusion::stages), -1 for a lone stage
};

/// Funcs joined by compute_with: computed together, in one produce.
struct FusedGroup {
    /// The members, in the order their Realize / produce / consume nodes nest (outermost
    /// first): roots of compute_with trees before the Funcs computed with them, then
    /// realization order.
    std::vector<Function> funcs;
    /// The units, in the order they run (each Func's stages in order).
    std::vector<FusedUnit> units;
};

/// The compute_with relation of a pipeline: a forest of stages, and the fused groups.
struct Fusion {
    std::vector<FusedStage> stages;
    std::vector<FusedGroup> groups;

    /// The index in `stages` of stage `stage` of `func`, -1 when it shares no loops.
    int find(const std::string &func, int stage) const;
    /// The root of the tree stage `s` belongs to.
    int root(int s) const;
    /// The group `func` belongs to (null when it is computed with nothing).
    const FusedGroup *group_of(const std::string &func) const;

    std::map<std::pair<std::string, int>, int> stage_index;
    std::map<std::string, int> group_index;
};

/// Reads and checks every compute_with among the Funcs of `graph` (its env, callees, order and
/// placements must be set). Empty when nothing is fused.
Fusion analyze_compute_with(const CallGraph &graph);

/// `order` (a realization order) with the members of each group next to each other, in the
/// group's order, still after everything they call and before everything that calls them.
std::vector<std::string>
order_with_fused_groups(const std::vector<std::string> &order, const Fusion &fusion,
                        const std::map<std::string, std::vector<std::string>> &callees);

} // namespace internal
} // namespace loom

#endif
