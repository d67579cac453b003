#ifndef LOOM_AUTOSCHEDULE_AUTOSCHEDULE_H
#define LOOM_AUTOSCHEDULE_AUTOSCHEDULE_H

/// \file The built-in autoschedulers behind Pipeline::apply_autoscheduler (the driver adds
/// user-registered ones). Each reads the function graph and estimates (PipelineModel), writes
/// an ordinary schedule into the Funcs through ScheduleWriter and returns it as C++ source.
/// Parameters arrive as Halide's string key/values; an unknown scheduler name, an unknown key or
/// a malformed value is a CompileError listing what is accepted.
///   "Mullapudi2016"  the 2016 paper (mullapudi2016/).
///   "PolyMage"       PolyMage's grouping by overlap threshold, autotuned when given time
///                    (polymage/).
///   "Li2018"         the gradient scheduler of Li et al. 2018 (li2018/).
///   "Loom"           Loom's own: the best of both models, measured when given time (loom/).
///   "Adams2019", "Anderson2021"  Halide's learned-model schedulers: run "Loom" with a notice.
/// The tuning modes time candidate schedules through a ScheduleTimer the driver provides:
/// this layer never generates code.

#include "lang/function.h"

#include <loom/target.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace loom {
namespace internal {

/// The shape of each input buffer and output the timer must run the pipeline at, by name
/// (an input's parameter name, an output's Func name): (min, extent) per dimension.
using BufferShapes = std::map<std::string, std::vector<std::pair<int64_t, int64_t>>>;

/// Compiles the pipeline under the schedule now in its Funcs and runs it at `shapes`; returns
/// seconds per run, or a negative number when it cannot compile or run.
using ScheduleTimer = std::function<double(const BufferShapes &shapes)>;

/// The names apply_autoscheduler accepts without a registration.
std::vector<std::string> builtin_autoscheduler_names();
bool is_builtin_autoscheduler(const std::string &name);

/// Schedules the pipeline computing `outputs` with the named built-in scheduler; returns the
/// schedule source. `timer` is used only by the tuning modes.
std::string run_builtin_autoscheduler(const std::string &name, const std::vector<Function> &outputs,
                                      const Target &target,
                                      const std::map<std::string, std::string> &extra,
                                      const ScheduleTimer &timer);

} // namespace internal
} // namespace loom

#endif
