#ifndef LOOM_PIPELINE_FUSION_H
#define LOOM_PIPELINE_FUSION_H

/// \file fuse_pipelines: two independent pipelines compiled into one function that runs their
/// loop nests merged (Vocke, "Extending Halide to improve software development for imaging
/// DSPs", §3.3 and Figure 6). A Loom extension, not part of Halide's API: include
/// <loom/pipeline_fusion.h>.
///
/// \code
/// Pipeline blur(blur_y), edges(sobel);
/// Pipeline both = fuse_pipelines(blur, LoopLevel(blur_y, y), edges, LoopLevel(sobel, y));
/// both.compile_to_c("both.c", {input}, "both");    // one loop over rows runs both filters
/// both.realize({blur_out, sobel_out});
/// \endcode
///
/// The returned Pipeline computes the outputs of `first`, then those of `second`. The stage
/// `second_at` names runs inside the loops of the stage `first_at` names, from the outermost
/// down to `first_at`: the loops around the fusion points merge too, so `second_at` must be
/// exactly as deep in its stage's loop nest as `first_at` in its own; the loops' names may
/// differ. In each iteration of the merged loops `first`'s body runs, then `second`'s. When
/// their trip counts differ, the merged loops cover both ranges and each body runs only in its
/// own. Loop partitioning splits an innermost merged loop into a steady state running both
/// bodies with no test, and a prologue and an epilogue running either (Vocke's Figure 6); a
/// merged loop that holds loops stays one loop whose body tests once per iteration whether it
/// is in the steady range. The LoopLevels' stage indices choose the
/// stages (the last one by default); the other stages of those Funcs run on their own.
///
/// CompileErrors (when called, or when the Pipeline is compiled): pipelines that share a Func
/// (reading the same inputs is fine); a fusion point that is not a loop of a Func of its
/// pipeline; fusion points at different depths; merged loops of different kinds (parallel in
/// one, serial in the other); Funcs not both computed at the root (an output or a compute_root
/// Func). Like compute_with, it schedules the Func of `second_at` itself: every Pipeline that
/// computes that Func sees the fusion.
/// Tests: tests/correctness/pipeline_fusion.cpp, tests/error/pipeline_fusion_errors.cpp.

#include "loom/func.h"
#include "loom/pipeline.h"
#include "loom/schedule.h"

namespace loom {

/// The pipelines `first` and `second` as one, fused at `first_at` and `second_at` (see above).
Pipeline fuse_pipelines(const Pipeline &first, const LoopLevel &first_at, const Pipeline &second,
                        const LoopLevel &second_at);

} // namespace loom

#endif
