#ifndef LOOM_AUTOSCHEDULE_COMMON_GROUPING_H
#define LOOM_AUTOSCHEDULE_COMMON_GROUPING_H

/// \file The schedule space Loom's schedulers search (Mullapudi et al. 2016 §4.2; PolyMage's
/// groups have the same shape): some pure Funcs inlined, the others partitioned into groups,
/// each with one output computed at the root and tiled along its pure dimensions, the other
/// members computed per tile (tile-local storage; bounds inference aligns and scales members
/// of other resolutions, so a tile of a pyramid level computes the matching region of the
/// levels it reads).
///  - GroupCostModel: the 2016 paper's cost of such a plan (arithmetic over each tile,
///    redundant work included, plus `balance` per point of a tile's inputs; a tiling is valid
///    when it gives at least `parallelism` tiles and its intermediates fit the cache), and the
///    redundant-work fraction PolyMage groups by.
///  - write_grouped_schedule: a plan as a schedule, through ScheduleWriter.
/// Tests: tests/correctness/autoschedule.cpp, tests/fuzz/autoschedule_fuzz.cpp.

#include "autoschedule/common/pipeline_model.h"
#include "autoschedule/common/schedule_writer.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// A tiling of a group output's pure dimensions: tile size by Var (absent: not tiled).
using Tiling = std::map<std::string, int64_t>;
/// "x=64 y=8", or "untiled".
std::string tiling_text(const Tiling &t);

struct Group {
    std::string output;
    std::set<std::string> members; ///< the output included
    /// Empty: untiled (the paper's single-element tile: every load a miss).
    Tiling tiling;
    double cost = 0; ///< as the model estimated it
    /// A member reduction computed per register block of the output (block_reductions), or "".
    std::string blocked;
};

struct GroupingPlan {
    std::set<std::string> inlined;
    std::map<std::string, Group> groups; ///< by output Func
    /// The output of the group f belongs to ("" when f is inlined or not in the pipeline).
    std::string group_of(const std::string &f) const;
    /// The sum of the groups' costs.
    double cost() const;
};

struct CostParams {
    int parallelism = 16;
    int64_t last_level_cache_size = 16 * 1024 * 1024;
    double balance = 40;
    /// Loom's addition to the 2016 model (off in Mullapudi2016 and PolyMage): a member's
    /// arithmetic over a tile counts whole vectors along dimension 0, where the schedule
    /// vectorizes it, so a 64-wide tile whose producer needs 66 columns pays for 3 vectors of
    /// 32 lanes per row, not 2.06.
    bool vector_granularity = false;
};

class GroupCostModel {
public:
    GroupCostModel(const PipelineModel &model, const CostParams &params);

    const PipelineModel &model() const { return model_; }
    const CostParams &params() const { return params_; }
    const Function &func(const std::string &f) const { return model_.graph.func(f); }
    bool is_extern(const std::string &f) const { return func(f).has_extern_definition(); }
    /// One definition, no RDom, not extern.
    bool is_pure(const std::string &f) const;
    const std::set<std::string> &inlined() const { return inlined_; }

    /// Arithmetic per point of stage `stage` of `f`, after inlining (0 for a plain copy).
    double arith_per_point(const std::string &f, int stage) const {
        return costs_.at(f)[stage].arith;
    }
    /// Loads of `callee` per point of stage `stage` of `f`, after inlining.
    double loads_per_point(const std::string &f, int stage, const std::string &callee) const;
    /// Funcs (not inlined) whose stages load f after inlining.
    std::vector<std::string> consumers(const std::string &f) const;
    /// The cost of computing f's stages over their whole regions with every load a miss.
    double untiled_cost(const std::string &f) const;
    /// The part of untiled_cost(f) in stages with no pure loop to run in parallel (a
    /// histogram's scatter, a scan): work a schedule leaves on one thread.
    double serial_cost(const std::string &f) const;

    /// Whether f is pure, not an output, and read only by non-extern Funcs.
    bool can_inline(const std::string &f) const;
    /// The cost saved by inlining f into every consumer (negative: a loss).
    double inline_benefit(const std::string &f) const;
    /// Inlines f: its consumers' costs absorb its arithmetic and loads.
    void inline_func(const std::string &f);

    /// Candidate tilings of f's pure dimensions (§4.2.3): hypercubes, and volumes elongated
    /// along each dimension in turn, the innermost at least one vector wide.
    std::vector<Tiling> tile_configs(const std::string &f) const;

    struct Analysis {
        bool valid = false; ///< enough tiles, intermediates within the cache, nothing extern
        double cost = 0;
        int64_t tiles = 0;
        int64_t intermediate_bytes = 0;
        /// Arithmetic done beyond the untiled group's, as a fraction of that (PolyMage's
        /// overlap).
        double redundant_fraction = 0;
    };
    /// The cost of group `members` (output `out`) computed tile by tile (Listing 2).
    Analysis analyze(const std::set<std::string> &members, const std::string &out,
                     const Tiling &tiling) const;
    /// Whether producer group p may join consumer group c: every stage of c's output but the
    /// last runs before the tile loop members are computed in, so none may read p.
    bool can_merge(const Group &p, const Group &c) const;
    /// The output of the one group that reads group output f (after inlining), or "" when f
    /// is a pipeline output or extern, or is read by several groups or an extern one.
    std::string single_consumer_group(const GroupingPlan &plan, const std::string &f) const;

private:
    /// Per-point cost of one stage after inlining: arithmetic and loads by callee.
    struct StageCost {
        double arith = 0;
        std::map<std::string, double> loads;
    };
    double stages_cost(const std::string &f, bool serial_only) const;
    /// The factor by which whole vectors inflate `stage`'s work over `region` (1 unless
    /// params_.vector_granularity).
    double vector_waste(const StageModel &stage, const ConcreteBox &region) const;

    const PipelineModel &model_;
    CostParams params_;
    std::map<std::string, std::vector<StageCost>> costs_;
    std::set<std::string> inlined_;
};

/// Register blocking, what hand schedules of matrix products and convolutions do and neither
/// paper's model sees: a reduction R (an update over an RDom, writing R(x, y, ...) at its own
/// pure coordinates) read only by one pure group output C, at C's own coordinates (C(x, y) =
/// g(R(x, y))), joins C's group as its `blocked` member. The writer splits C into blocks of a
/// few vectors along dimension 0 by a few rows along dimension 1 (half the target's vector
/// registers in all) and computes R per block with its RVars outside the block's loops, so the
/// accumulators stay in registers across the whole reduction and each value R's update loads
/// is reused across a row or a column of the block. R's members join C's group too.
/// Example: prod(x, y) += A(k, y) * B(x, k); out(x, y) = prod(x, y) -> out's group
/// {out, prod}, blocked prod: B's vectors reused over 8 rows, A's values over 2 vectors.
void block_reductions(const GroupCostModel &cost, GroupingPlan *plan);

/// How write_grouped_schedule lays out each stage.
struct EmitOptions {
    int parallelism = 16;
    /// Vector width as a multiple of the target's natural width for the Func's type.
    int vector_factor = 1;
    /// RVars whose estimated extent is at most this (and which are innermost) are unrolled.
    int64_t unroll_rvar_extent = 0;
    /// Halide's Mullapudi2016 loop order (its reorder_dims and vectorize_stage): each stage's
    /// loops ordered by the bytes one step of each moves through memory (summed over the
    /// store and every load after inlining; a group member's buffer is its tile's region),
    /// smallest innermost, RVars kept in their order; then the innermost pure loop at least
    /// a vector long is vectorized where it stands. Off: loops in the Func's dimension order,
    /// the innermost dimension vectorized and moved inside the RVars.
    bool locality_order = false;
    /// Loom's addition for updates with fewer pure-loop tasks than `parallelism`, which the
    /// grouping models leave serial: a large associative reduction (a loss, a parameter's
    /// gradient) is made parallel with rfactor (rfactor_large_reduction, in 16 x 16 tiles);
    /// failing that, an update with no pure loop (a scatter) runs over its largest RVar whose
    /// iterations write distinct elements, vectorized when that RVar is the store's innermost
    /// index, its outer part parallel.
    bool parallel_updates = false;
};

/// Applies `plan` to the pipeline's Funcs (every Func reset first) and returns its source
/// after the comment lines `header`: each group output computed at the root (outputs stay
/// where they are), its pure loops split by the tiling (splits guard their tails) with the
/// tile loops outermost, outer pure loops parallel until `parallelism` tasks, members computed
/// at the innermost tile loop of the output's last stage, every stage vectorized along its
/// Func's innermost dimension (or, with locality_order, its loops ordered and vectorized as
/// Halide's Mullapudi2016 does); a group with a blocked reduction as block_reductions says;
/// with parallel_updates, the updates that have too few pure loops as it says.
std::string write_grouped_schedule(const GroupCostModel &cost, const GroupingPlan &plan,
                                   const EmitOptions &options, const std::string &header);

} // namespace internal
} // namespace loom

#endif
