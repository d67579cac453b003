#ifndef LOOM_AUTOSCHEDULE_POLYMAGE_POLYMAGE_H
#define LOOM_AUTOSCHEDULE_POLYMAGE_POLYMAGE_H

/// \file The "PolyMage" autoscheduler: the grouping and autotuning of Mullapudi, Vasista and
/// Bondhugula, "PolyMage: Automatic Optimization for Image Processing Pipelines" (ASPLOS 2015),
/// in Loom's grouped-tiling space (common/grouping.h).
///  1. Inlining: a pure Func that every consumer reads at most once per point, at most at
///     twice as many points in all as the Func has (or that does no arithmetic), is inlined
///     (computing it in place repeats little work: PolyMage's point-wise functions; a lookup
///     table read per pixel stays a table).
///  2. Grouping (§3.4): every other Func starts in a group of its own; a group whose output has
///     exactly one consumer group merges into it when the merged group, tiled with the tile
///     sizes, does at most `overlap_threshold` redundant work (overlapped tiles recompute the
///     producers' halos) relative to computing it untiled. Reductions are group boundaries:
///     a Func with an update definition joins no consumer's group. Producers are tried from
///     the output backwards, until no merge passes.
///  3. Alignment and scaling (§3.2): a member at another resolution (a pyramid level, an up- or
///     downsampled image) is computed per tile over the region the tile needs, which bounds
///     inference derives with the scale factors; the overlap in step 2 is measured on those
///     scaled regions.
///  4. Storage and schedule: members are computed, and stored, per tile of the group output,
///     tile loops outermost and parallel, the innermost dimension vectorized.
///  5. Autotuning (§4.3): with `autotune_s` > 0, tile sizes x overlap thresholds are compiled
///     and timed at the estimated sizes until the budget is spent, the fastest kept.
/// Parameters: tile_sizes ("256x32": x then y; 256x32 by default), overlap_threshold (0.4),
/// parallelism (16), autotune_s (0: no tuning). Tests: tests/correctness/autoschedule.cpp.

#include "autoschedule/autoschedule.h"
#include "autoschedule/common/grouping.h"

#include <string>
#include <vector>

namespace loom {
namespace internal {

struct PolyMageParams {
    CostParams cost;
    /// Tile size of each pure dimension of a group output, innermost first; dimensions past
    /// the end are not tiled.
    std::vector<int64_t> tile_sizes = {256, 32};
    double overlap_threshold = 0.4;
    double autotune_s = 0;
};

/// One point of PolyMage's tuning space.
struct PolyMageConfig {
    std::vector<int64_t> tile_sizes;
    double overlap_threshold;
};
/// The tuning space (§4.3): tile sizes (x in 64..512, y in 8..128) x overlap thresholds (0.2,
/// 0.4, 0.5), nearest the defaults first, so a short budget explores around them.
std::vector<PolyMageConfig> polymage_tuning_space();

/// Steps 1-2 on `cost` (which it inlines into) with the given tile sizes and threshold.
GroupingPlan polymage_plan(GroupCostModel &cost, const std::vector<int64_t> &tile_sizes,
                           double overlap_threshold);

std::string autoschedule_polymage(const std::vector<Function> &outputs, const Target &target,
                                  const PolyMageParams &params, const std::string &header,
                                  const ScheduleTimer &timer);

} // namespace internal
} // namespace loom

#endif
