#ifndef LOOM_LOWER_REQUIRED_REGIONS_H
#define LOOM_LOWER_REQUIRED_REGIONS_H

/// \file The regions of Funcs and buffers a loop nest (after bounds_inference) touches, and the
/// CompileError for a region interval analysis can't bound (it names the Func whose
/// definition reads it and says how to bound it). Used by bounds_inference and
/// add_image_checks. Tests: tests/unit/lower/bounds_inference_test.cpp,
/// tests/error/compile_errors.cpp.

#include "analysis/bounds.h"
#include "lang/function.h"

#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The region of each buffer argument the pipeline `s` (after bounds_inference) touches, in
/// terms of the arguments: for inputs (Call::Image names) what is read, including what the
/// discarded side of a Select loads where that is bounded (both sides are evaluated), for
/// output Funcs what is written or read. Unbounded regions are a CompileError naming the buffer
/// and its caller.
std::map<std::string, Box> buffer_regions_required(const Stmt &s,
                                                   const std::vector<std::string> &inputs,
                                                   const std::vector<Function> &outputs,
                                                   const FuncValueBounds &func_bounds = {});

/// The name of the Func whose definition reads `callee` in an unbounded way in s ("" when none
/// is found). Used for error messages.
std::string find_unbounded_caller(const Stmt &s, const std::string &callee, int dim,
                                  const FuncValueBounds &func_bounds = {});

/// A CompileError when a dimension of `b`, the region of `callee` (a "Func", an "Input buffer",
/// ...: `kind`) read in `context`, is unbounded.
void check_bounded(const Box &b, const Stmt &context, const std::string &callee,
                   const std::string &kind, const FuncValueBounds &func_bounds);

} // namespace internal
} // namespace loom

#endif
