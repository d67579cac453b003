#ifndef LOOM_AUTOSCHEDULE_COMMON_PARALLEL_REDUCTION_H
#define LOOM_AUTOSCHEDULE_COMMON_PARALLEL_REDUCTION_H

/// \file A large associative reduction into few points (a scalar loss, a parameter's gradient,
/// a histogram) made parallel with rfactor: Li et al. 2018's rule, used by "Li2018" and "Loom"
/// (whose grouping models have no other way to parallelize a reduction without pure loops).
/// The first two RVars of at least `tile` points are split `tile` wide; the intermediate keeps
/// one partial result per lane (the inner part of the first) and per strip (the outer part of
/// the second), vectorized across the lanes (column-wise reductions; a scatter's lanes stay
/// scalar) and parallel across the strips; the Func's update then combines the intermediate
/// serially. A single large RVar is split twice instead, into about 8 x `parallelism` strips.
/// Refused (nothing scheduled) for argmin/argmax (rfactor reorders the lanes), for fewer than
/// tile x tile x parallelism points, and when the intermediate would hold more points than the
/// reduction visits. Tests: tests/correctness/autoschedule_li2018.cpp,
/// tests/correctness/autoschedule.cpp (Autoschedule.LoomParallelizesLargeReductions).

#include "autoschedule/common/pipeline_model.h"
#include "autoschedule/common/schedule_writer.h"

#include <cstdint>
#include <string>

namespace loom {
namespace internal {

/// Schedules update `stage` (>= 1) of f as a parallel reduction through `w` when it is one (see
/// the file comment); returns whether it did. The intermediate is computed at the root.
bool rfactor_large_reduction(const PipelineModel &model, ScheduleWriter &w, const std::string &f,
                             int stage, int parallelism, int64_t tile);

/// The largest RVar (at least 2 iterations) of update `stage` of f whose iterations write
/// distinct elements (Dim::Kind::PureRVar), which may run in parallel; "" when there is none.
std::string largest_distinct_rvar(const PipelineModel &model, const std::string &f, int stage);

/// A loop name usable in C++ source and free of the '.' that separates split products.
std::string plain_loop_name(const std::string &name);

} // namespace internal
} // namespace loom

#endif
