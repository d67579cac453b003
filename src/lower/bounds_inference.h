#ifndef LOOM_LOWER_BOUNDS_INFERENCE_H
#define LOOM_LOWER_BOUNDS_INFERENCE_H

/// \file Bounds inference: defines the free bound variables schedule_functions left, from the
/// regions consumers need (interval analysis over the loop nest, src/analysis/bounds.h).
///
/// For every `realize f` (processed innermost first, so a consumer's bounds are defined before
/// its producers are sized), with R = the box of f read by the `consume f` part (for an output,
/// also the output buffer's region "<f>.min.<d>" .. + "<f>.extent.<d>" - 1):
///  - the stages are sized last to first: stage k's pure Vars span R ("<f>.s<k>.<v>.min/.max"),
///    then R grows by what stage k reads of f (stage k - 1 must have computed it);
///  - the storage covers what any stage reads or writes: "<f>.<v>.min_realized" and
///    "<f>.<v>.extent_realized";
/// all as LetStmts around the Realize. A region the analysis cannot bound (f(g(x)) with g
/// unbounded int32 data) is a CompileError naming both Funcs.
///
/// Example (out(x) = f(x - 1) + f(x + 1), f compute_root):
///   let f.s0.x.max = out.s0.x.max + 1 ... let f.x.min_realized = out.s0.x.min + -1 ...
///   realize f([f.x.min_realized, f.x.extent_realized]) { produce f {...} consume f {...} }
/// Tests: tests/unit/lower/bounds_inference_test.cpp.

#include "analysis/bounds.h"
#include "lang/function.h"

#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The bounds of the values of every Func in env that has only a pure definition (not an
/// update or extern stage), over its whole domain: idx(x) = clamp(x * 3, 0, 10) gives
/// {idx, 0}: [0, 10], and a Func calling idx is bounded through it. Indices read from such
/// Funcs are bounded by them (Halide's compute_function_value_bounds).
FuncValueBounds func_value_bounds(const std::map<std::string, Function> &env);

Stmt bounds_inference(const Stmt &s, const std::vector<Function> &outputs,
                      const std::map<std::string, Function> &env,
                      const FuncValueBounds &func_bounds = {});

/// The region of each buffer argument the pipeline `s` (after bounds_inference) touches, in
/// terms of the arguments: for inputs (Call::Image names) what is read, for output Funcs what
/// is written or read. Unbounded regions are a CompileError naming the buffer and its caller.
std::map<std::string, Box> buffer_regions_required(const Stmt &s,
                                                   const std::vector<std::string> &inputs,
                                                   const std::vector<Function> &outputs,
                                                   const FuncValueBounds &func_bounds = {});

/// The name of the Func whose definition reads `callee` in an unbounded way in s ("" when none
/// is found). Used for error messages.
std::string find_unbounded_caller(const Stmt &s, const std::string &callee, int dim,
                                  const FuncValueBounds &func_bounds = {});

} // namespace internal
} // namespace loom

#endif
