#ifndef LOOM_LOWER_INFER_ARGUMENTS_H
#define LOOM_LOWER_INFER_ARGUMENTS_H

/// \file The arguments of a compiled pipeline: every Parameter its Funcs use (scalar Params,
/// ImageParams, Buffers used directly in definitions), found in the definitions, RDom bounds,
/// extra expressions (requirements) and the parameters' own constraints, in Halide's order:
/// buffers first, then scalars, each sorted by name. Two different parameters with one name
/// are a CompileError. Tests: tests/unit/lower/lower_test.cpp.

#include "lang/function.h"
#include "lower/lowered_func.h"

#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The input arguments (no __user_context, no outputs).
std::vector<LoweredArgument> infer_input_arguments(const std::vector<Function> &outputs,
                                                   const std::map<std::string, Function> &env,
                                                   const std::vector<Expr> &extra_exprs,
                                                   const Stmt &lowered = Stmt());

/// The output buffer arguments, one per Tuple element of each output, in order.
std::vector<LoweredArgument> output_arguments(const std::vector<Function> &outputs);

} // namespace internal
} // namespace loom

#endif
