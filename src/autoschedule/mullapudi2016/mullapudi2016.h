#ifndef LOOM_AUTOSCHEDULE_MULLAPUDI2016_MULLAPUDI2016_H
#define LOOM_AUTOSCHEDULE_MULLAPUDI2016_MULLAPUDI2016_H

/// \file The "Mullapudi2016" autoscheduler: the algorithm of Mullapudi et al., "Automatically
/// Scheduling Halide Image Processing Pipelines" (SIGGRAPH 2016), on the PipelineModel.
///  1. Inlining (§4.3): greedily inline the pure Func whose inlining into all its consumers
///     saves the most (arithmetic plus `balance` per load), until none saves anything.
///  2. Initial tiling (§4.2.1): every Func gets the tiling of its pure loops that loads the
///     fewest inputs (tiles at least `parallelism` in number, inputs of a tile within the
///     cache), or none when untiled is cheaper. The paper tiles only Funcs with update
///     definitions, since stencils have input locality untiled; Halide's implementation tiles
///     every Func, and so does Loom: costed untiled (every load a miss), a pure Func would make
///     any merge into it look profitable by the locality that tiling alone gives.
///  3. Grouping (§4.2.2-3): a group whose output is read by exactly one other group may merge
///     into it; the merged group is tiled by the consumer's output and the tile size that costs
///     least (arithmetic over the tile, redundant work included, plus `balance` per element of
///     the tile's inputs), subject to the tile count and the intermediates' footprint.
///     Greedily take the merge that saves the most until none saves anything.
///  4. Schedule (§4.4): every group output computed at the root, its pure loops split by the
///     tile sizes with the tile loops outermost, as many of them parallel as give
///     `parallelism` tasks; the other members computed per tile; every stage vectorized along
///     the Func's innermost dimension at the target's natural vector width.
/// Parameters and defaults as Halide's: parallelism 16, last_level_cache_size 16 MiB,
/// balance 40. LOOM_DEBUG_AUTOSCHEDULE=1 prints the inlining, groups, tiles and costs.
/// Tests: tests/correctness/autoschedule.cpp.

#include "autoschedule/common/grouping.h"

#include <loom/target.h>

#include <string>
#include <vector>

namespace loom {
namespace internal {

/// Steps 1-3 on `cost`, which it inlines into: the plan step 4 writes.
GroupingPlan mullapudi2016_plan(GroupCostModel &cost);

/// Schedules every Func of the pipeline computing `outputs`; returns the schedule as C++
/// source, after the comment lines `header`.
std::string autoschedule_mullapudi2016(const std::vector<Function> &outputs, const Target &target,
                                       const CostParams &params, const std::string &header);

} // namespace internal
} // namespace loom

#endif
