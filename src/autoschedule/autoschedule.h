#ifndef LOOM_AUTOSCHEDULE_AUTOSCHEDULE_H
#define LOOM_AUTOSCHEDULE_AUTOSCHEDULE_H

/// \file The built-in autoschedulers behind Pipeline::apply_autoscheduler (the driver adds
/// user-registered ones). Each reads the function graph and estimates (PipelineModel), writes
/// an ordinary schedule into the Funcs through ScheduleWriter and returns it as C++ source.
/// Parameters arrive as Halide's string key/values; an unknown scheduler name, an unknown key or
/// a malformed value is a CompileError listing what is accepted.

#include "lang/function.h"

#include <loom/target.h>

#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The names apply_autoscheduler accepts without a registration (Halide's learned-model
/// schedulers, Adams2019 and Anderson2021, included: they run Mullapudi2016 with a notice).
std::vector<std::string> builtin_autoscheduler_names();
bool is_builtin_autoscheduler(const std::string &name);

/// Schedules the pipeline computing `outputs` with the named built-in scheduler; returns the
/// schedule source.
std::string run_builtin_autoscheduler(const std::string &name, const std::vector<Function> &outputs,
                                      const Target &target,
                                      const std::map<std::string, std::string> &extra);

} // namespace internal
} // namespace loom

#endif
