#ifndef LOOM_LOWER_PRINT_LOOP_NEST_H
#define LOOM_LOWER_PRINT_LOOP_NEST_H

/// \file The compact loop-nest summary Func::print_loop_nest() shows (Halide's format): the
/// produce/consume structure and the loops of each stage, named by their variables, e.g.
///   produce blur_x:
///     for y:
///       for x:
///         blur_x(...) = ...
///   consume blur_x:
///     produce blur_y:
///       ...
/// Loop kinds other than serial print as "parallel", "vectorized", "unrolled", ...

#include "lang/function.h"

#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The summary of the loop nest computing `outputs`.
std::string print_loop_nest(const std::vector<Function> &outputs);

/// The summary of an already built loop nest (schedule_functions output).
std::string loop_nest_summary(const Stmt &s);

} // namespace internal
} // namespace loom

#endif
