#ifndef LOOM_LOWER_REALIZATION_ORDER_H
#define LOOM_LOWER_REALIZATION_ORDER_H

/// \file The pipeline's environment and the order in which its Funcs are realized.
///
/// realization_order: a topological order of the call graph (every Func after all the Funcs it
/// calls), deterministic: callees are visited in order of first appearance in the caller's
/// definitions, outputs in the order given. A Func calling itself in an update definition is
/// fine; any other cycle is a CompileError naming the Funcs on it.
/// Example: out(x) = g(x) + f(x), g(x) = f(x) -> [f, g, out].
/// Tests: tests/unit/lower/realization_order_test.cpp.

#include "lang/function.h"

#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The Funcs called directly by f's definitions (values, args, predicates, RDom bounds), in
/// order of first appearance, without f itself.
std::vector<std::string> direct_callees(const Function &f);

/// The realization order of the pipeline computing `outputs` over the environment `env`
/// (find_transitive_calls(outputs)).
std::vector<std::string> realization_order(const std::vector<Function> &outputs,
                                           const std::map<std::string, Function> &env);

} // namespace internal
} // namespace loom

#endif
