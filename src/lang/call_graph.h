#ifndef LOOM_LANG_CALL_GRAPH_H
#define LOOM_LANG_CALL_GRAPH_H

/// \file The function graph of a pipeline: which Funcs it computes (wrappers substituted), who
/// calls whom, the order to realize them, where each is computed, which share loops
/// (compute_with) and what values each can take. Computed once per lowering by
/// build_call_graph and read by the lowering's front half, print_loop_nest and, later, the
/// autoschedulers and autodiff (which may use lang, never lower: DESIGN.md §2).
///
/// realization_order: a topological order of the call graph (every Func after all the Funcs it
/// calls), deterministic: callees are visited in order of first appearance in the caller's
/// definitions, outputs in the order given. A Func calling itself in an update definition is
/// fine; any other cycle is a CompileError naming the Funcs on it.
/// Example: out(x) = g(x) + f(x), g(x) = f(x) -> [f, g, out].
///
/// default_schedule: the user's placements plus Halide's defaults. Outputs are computed at the
/// root; compute_root() and compute_at() are honoured; an unscheduled (or compute_inline'd) pure
/// Func is inlined; a Func with update definitions that is not placed explicitly is computed and
/// stored inside the innermost loop of each consumer stage that calls it (what makes an inline
/// sum(...) a register accumulator); extern stages and the Funcs they read are never inlined.
/// Example: out(x) = sum(g(x, r)) with g pure -> {out: Root, g: Inline, sum: Innermost}.
/// Tests: tests/unit/lang/call_graph_test.cpp.

#include "analysis/bounds.h"
#include "lang/function.h"
#include "lang/fusion.h"

#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The placement lowering uses for one Func.
struct ComputePlacement {
    enum Kind {
        Inline,    ///< substituted into its callers
        Root,      ///< computed once, outside every loop, before its consumers
        Innermost, ///< computed inside the innermost loop of each consumer stage calling it
        At,        ///< computed inside the loop `level` (compute_at)
    } kind = Inline;
    LoopLevelSpec level; ///< for At
};

/// The function graph of one pipeline (see the file comment).
struct CallGraph {
    /// The pipeline's outputs, calls replaced by their wrappers (lang/wrappers.h).
    std::vector<Function> outputs;
    /// Every Func reachable from the outputs, by name.
    std::map<std::string, Function> env;
    /// The Funcs each Func calls directly (direct_callees), by name.
    std::map<std::string, std::vector<std::string>> callees;
    /// Producers before consumers.
    std::vector<std::string> order;
    /// `order` with the members of each compute_with group next to each other
    /// (order_with_fused_groups): the order schedule_functions injects them in.
    std::vector<std::string> fused_order;
    /// Where each Func is computed.
    std::map<std::string, ComputePlacement> placements;
    /// The compute_with relation, checked.
    Fusion fusion;
    /// The values each pure Func can take (func_value_bounds).
    FuncValueBounds value_bounds;

    const Function &func(const std::string &name) const;
    /// The Funcs that call `name` directly, in realization order.
    std::vector<std::string> callers(const std::string &name) const;
};

/// The function graph of the pipeline computing `outputs`. CompileErrors for an output without
/// a definition, a cycle, a call to an undefined Func, and illegal compute_with or extern-stage
/// placements.
CallGraph build_call_graph(const std::vector<Function> &outputs);

/// The Funcs called directly by f's definitions (values, args, predicates, RDom bounds), in
/// order of first appearance, without f itself.
std::vector<std::string> direct_callees(const Function &f);

/// The realization order of the pipeline computing `outputs` over the environment `env`.
std::vector<std::string> realization_order(const std::vector<Function> &outputs,
                                           const std::map<std::string, Function> &env);

/// Halide's topological order of the Funcs in `env` reachable from `outputs` (what
/// Pipeline::get_func indexes, so schedule source written by an autoscheduler names the same
/// Funcs in Loom and Halide): depth first from each output in turn, a Func's callees visited in
/// name order, each Func after its callees.
/// Example: out(x) = g(x) + f(x), g(x) = f(x) -> [f, g, out].
std::vector<std::string> topological_order(const std::vector<Function> &outputs,
                                           const std::map<std::string, Function> &env);

/// The placement of every Func in `env` (see the file comment).
std::map<std::string, ComputePlacement>
default_schedule(const std::vector<Function> &outputs, const std::map<std::string, Function> &env);

/// Bounds of the values of every Func of `env` that has only a pure definition, over its whole
/// domain (Halide's compute_function_value_bounds): an index read from such a Func is bounded
/// by them. Funcs with updates or extern definitions are unbounded.
FuncValueBounds func_value_bounds(const std::map<std::string, Function> &env);

} // namespace internal
} // namespace loom

#endif
