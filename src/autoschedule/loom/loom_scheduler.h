#ifndef LOOM_AUTOSCHEDULE_LOOM_LOOM_SCHEDULER_H
#define LOOM_AUTOSCHEDULE_LOOM_LOOM_SCHEDULER_H

/// \file The "Loom" autoscheduler: both papers' models combined, and measurement.
///  - Model-only (the default; deterministic): the plans of Mullapudi2016 and of PolyMage at
///    a few tile sizes and thresholds are costed by one model (the 2016 paper's, at the given
///    balance and cache size) and the cheapest is written, with short constant-extent RVars
///    unrolled (a small stencil's taps become straight-line code) and reductions read
///    pointwise by one consumer blocked in registers (block_reductions: a matrix product's or
///    a convolution's accumulators stay in registers across the whole reduction).
///  - Tuned (`autotune_s` > 0): that schedule and variants of it (Mullapudi2016 at other
///    balances and cache sizes, PolyMage's autotuning space, wider vectors, unrolling and
///    register blocking on or off) are compiled and timed at the estimated sizes until the
///    budget is spent; the fastest is kept.
/// Parameters: parallelism (16), last_level_cache_size (16 MiB), balance (40), autotune_s (0).
/// Tests: tests/correctness/autoschedule.cpp, tests/apps/autoscheduled.cpp.

#include "autoschedule/autoschedule.h"
#include "autoschedule/common/grouping.h"

#include <string>
#include <vector>

namespace loom {
namespace internal {

struct LoomSchedulerParams {
    CostParams cost;
    double autotune_s = 0;
};

std::string autoschedule_loom(const std::vector<Function> &outputs, const Target &target,
                              const LoomSchedulerParams &params, const std::string &header,
                              const ScheduleTimer &timer);

} // namespace internal
} // namespace loom

#endif
