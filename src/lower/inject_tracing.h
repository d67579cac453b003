#ifndef LOOM_LOWER_INJECT_TRACING_H
#define LOOM_LOWER_INJECT_TRACING_H

/// \file inject_tracing: the halide_trace calls of Func::trace_loads / trace_stores /
/// trace_realizations / add_trace_tag, ImageParam::trace_loads and the Target features
/// TraceLoads / TraceStores / TraceRealizations / TracePipeline, with Halide's events, order
/// and parent ids:
///   begin_pipeline (parent 0), then one tag event per traced Func and input
///   ("func_type_and_dim: <#types> (<code> <bits> <lanes>)* <#dims> (<min> <extent>)*", the
///   region over the whole run), then its add_trace_tag strings; begin/end_realization around
///   each Realize (outputs: around the whole pipeline, over the output buffer), produce/
///   end_produce and consume/end_consume (not for outputs) over the computed region; a load
///   event per read (value and coordinates) and a store event per Tuple element written; last
///   end_pipeline. Loads and stores name the innermost enclosing event of their Func (0 when
///   its realizations are not traced; the pipeline for inputs).
///
/// Runs after bounds_inference and sliding_window, whose Realize bodies must be `produce; consume`
/// (Halide runs it just before; the events are the same): every bound it uses
/// ("<f>.<x>.min_realized", "<f>.s0.<x>.min/max", output buffer fields) is defined by then.
///
/// Each event is the intrinsic Call "trace" (Call::trace_intrinsic below, type Int(32), the
/// event's id), whose arguments are:
///   func name (StringImm), event code, parent id, value_index, value (any type; IntImm 0 for
///   events without one), tag (a string Expr: StringImm, or stringify), coordinates...
/// Code generation passes them to halide_trace_helper; vector values and coordinates (after
/// vectorization) become one event with lanes, as in Halide. A load becomes
///   let t = f(args) in return_second(trace(..., t, args), t)
/// and a store `f(args) = v` becomes  let t = v in { trace(..., t, args); f(args) = t }.
/// A pipeline nothing traces is returned unchanged.
/// Tests: tests/correctness/tracing.cpp, tests/unit/lower/inject_tracing_test.cpp.

#include <loom/target.h>

#include "lang/function.h"

#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The name of the trace intrinsic (see the file comment).
constexpr const char *trace_intrinsic = "trace";

/// The name pipeline events report: Halide's JIT names the pipeline after its first output
/// (fn_name is then Loom's "loom_<output>"); compiled to a file, the function's name.
std::string trace_pipeline_name(const std::string &fn_name, const std::vector<Function> &outputs);

/// Adds the trace events. `pipeline_name` is what pipeline events report (the lowered
/// function's name); `order` is the realization order (tags follow it).
Stmt inject_tracing(const Stmt &s, const std::string &pipeline_name,
                    const std::vector<Function> &outputs,
                    const std::map<std::string, Function> &env,
                    const std::vector<std::string> &order, const Target &target);

} // namespace internal
} // namespace loom

#endif
