#ifndef LOOM_LOWER_LOWER_H
#define LOOM_LOWER_LOWER_H

/// \file The lowering pipeline: from the user's Funcs to a LoweredFunc (a flat loop nest plus
/// its argument list) ready for code generation. lower.cpp lists the passes in order.

#include <loom/target.h>

#include "lang/call_graph.h"
#include "lower/lowered_func.h"

#include <string>
#include <vector>

namespace loom {
namespace internal {

/// Lower the pipeline computing `outputs` into the function `fn_name`. Its arguments are
/// __user_context, the inputs (infer_arguments.h order), then one output buffer per Tuple
/// element of each output. `requirements` are checked at entry (Pipeline::add_requirement).
/// LOOM_DEBUG_LOWERING=1 logs the IR after each pass that changed it; LOOM_TIME_PASSES=1
/// logs the time of each pass (both to stderr).
LoweredFunc lower(const std::vector<Function> &outputs, const std::string &fn_name,
                  const Target &target, const std::vector<Requirement> &requirements = {});

/// The front half of lowering, shared by lower() and print_loop_nest: the loop nest the
/// schedule describes (schedule_functions) with every bound defined (bounds_inference).
Stmt lower_loop_nest(const CallGraph &graph);

} // namespace internal
} // namespace loom

#endif
