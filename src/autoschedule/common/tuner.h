#ifndef LOOM_AUTOSCHEDULE_COMMON_TUNER_H
#define LOOM_AUTOSCHEDULE_COMMON_TUNER_H

/// \file Measured tuning: candidate schedules applied one after another and timed on the
/// machine at the estimated sizes (through the driver's ScheduleTimer), the fastest kept.
/// Used by PolyMage's autotuning and "Loom"'s tuned mode. Tests:
/// tests/correctness/autoschedule.cpp (Tuning*).

#include "autoschedule/autoschedule.h"
#include "autoschedule/common/pipeline_model.h"

#include <functional>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// One schedule to try: `apply` writes it into the Funcs (resetting them first) and returns
/// its source.
struct TuningCandidate {
    std::string label;
    std::function<std::string()> apply;
};

/// The inputs' and outputs' regions at the estimates, as the timer takes them.
BufferShapes estimated_shapes(const PipelineModel &model);

/// Times the candidates in order while `budget_s` lasts (the first one always; a candidate
/// whose source repeats one already timed is skipped, one that fails to run is dropped),
/// leaves the fastest applied and returns its source. Without a timer, or when none could be
/// timed, the first candidate is applied. `who` prefixes the LOOM_DEBUG_AUTOSCHEDULE lines.
std::string tune(const std::vector<TuningCandidate> &candidates, const PipelineModel &model,
                 const ScheduleTimer &timer, double budget_s, const std::string &who);

} // namespace internal
} // namespace loom

#endif
