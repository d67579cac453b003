#include "lower/realization_order.h"

#include "ir/ir_visitor.h"
#include "support/error.h"

#include <algorithm>
#include <functional>
#include <set>

namespace loom {
namespace internal {

namespace {

/// Appends the names of the Funcs called by e to `out`, in pre-order, without duplicates.
void collect_calls(const Expr &e, std::vector<std::string> &out, std::set<std::string> &seen) {
    if (!e.defined()) return;
    visit_exprs(e, [&](const Expr &x) {
        if (const Call *c = x.as<Call>()) {
            if (c->call_type == Call::Halide && seen.insert(c->name).second) {
                out.push_back(c->name);
            }
        }
        return true;
    });
}

void collect_definition_calls(const Definition &d, std::vector<std::string> &out,
                              std::set<std::string> &seen) {
    for (const Expr &e : d.values) collect_calls(e, out, seen);
    for (const Expr &e : d.args) collect_calls(e, out, seen);
    collect_calls(d.predicate, out, seen);
    if (d.rdom.defined()) {
        for (const ReductionVariable &rv : d.rdom.domain()) {
            collect_calls(rv.min, out, seen);
            collect_calls(rv.extent, out, seen);
        }
    }
}

} // namespace

std::vector<std::string> direct_callees(const Function &f) {
    std::vector<std::string> out;
    std::set<std::string> seen;
    collect_definition_calls(f.definition(), out, seen);
    for (const Definition &u : f.updates()) collect_definition_calls(u, out, seen);
    out.erase(std::remove(out.begin(), out.end(), f.name()), out.end());
    return out;
}

std::vector<std::string> realization_order(const std::vector<Function> &outputs,
                                           const std::map<std::string, Function> &env) {
    std::vector<std::string> order;
    std::set<std::string> done;
    // The path of the depth-first search, to report cycles.
    std::vector<std::string> stack;

    // Iterative deepening would be overkill: pipelines are small enough for recursion.
    std::function<void(const std::string &)> visit = [&](const std::string &name) {
        if (done.count(name)) return;
        auto on_stack = std::find(stack.begin(), stack.end(), name);
        if (on_stack != stack.end()) {
            std::string cycle;
            for (auto it = on_stack; it != stack.end(); ++it) cycle += *it + " -> ";
            cycle += name;
            user_error << "The pipeline has a cycle of Funcs calling each other: " << cycle
                       << ". Only an update definition may call its own Func.\n";
        }
        auto it = env.find(name);
        internal_assert(it != env.end()) << "realization_order: " << name << " not in env\n";
        const Function &f = it->second;
        user_assert(f.has_pure_definition())
            << "Func " << name << " is called but has no definition.\n";
        std::vector<std::string> pure_calls;
        std::set<std::string> seen;
        collect_definition_calls(f.definition(), pure_calls, seen);
        user_assert(!seen.count(name))
            << "The pure definition of Func " << name << " calls " << name
            << " itself; only update definitions may refer to their own Func.\n";
        stack.push_back(name);
        for (const std::string &callee : direct_callees(f)) visit(callee);
        stack.pop_back();
        done.insert(name);
        order.push_back(name);
    };
    for (const Function &o : outputs) visit(o.name());
    return order;
}

} // namespace internal
} // namespace loom
