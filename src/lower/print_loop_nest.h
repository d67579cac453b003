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
/// Loop kinds other than serial print as "parallel", "vectorized", "unrolled", ...; loops with
/// constant bounds as "vectorized x.v0 in [0, 3]:" and loops of one iteration not at all; a
/// Func stored further out than computed (store_root, store_at) as "store f:" at its store
/// level. Tests: tests/unit/lower/print_loop_nest_test.cpp.

#include "lang/function.h"

#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The summary of the loop nest computing `outputs`.
std::string print_loop_nest(const std::vector<Function> &outputs);

/// The summary of an already built loop nest (schedule_functions output, with or without
/// bounds_inference). `env` (the Funcs by name) tells which Realizes are at a store level.
std::string loop_nest_summary(const Stmt &s, const std::map<std::string, Function> &env);
std::string loop_nest_summary(const Stmt &s);

} // namespace internal
} // namespace loom

#endif
