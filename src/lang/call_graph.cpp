#include "lang/call_graph.h"

#include "ir/ir_visitor.h"
#include "lang/wrappers.h"
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

/// Halide's placement rules for extern stages, applied to `placements`: an extern stage left
/// inlined is computed at the root (Halide computes it inside its consumer's innermost loop;
/// the values are the same); a Func passed to an extern stage must not be inlined (a
/// CompileError, as in Halide).
void apply_extern_stage_placements(const std::map<std::string, Function> &env,
                                   std::map<std::string, ComputePlacement> &placements) {
    for (const auto &kv : env) {
        ComputePlacement &p = placements[kv.first];
        if (kv.second.has_extern_definition() && p.kind == ComputePlacement::Inline) {
            p.kind = ComputePlacement::Root;
        }
    }
    for (const auto &kv : env) {
        const Function &f = kv.second;
        if (!f.has_extern_definition()) continue;
        for (const ExternFuncArgument &a : f.extern_definition().args) {
            if (!a.is_func()) continue;
            Function g(a.func);
            auto it = placements.find(g.name());
            if (it == placements.end()) continue;
            // Unscheduled reductions default to the consumer's innermost loop, which an
            // extern stage does not have: as for Halide, the user must place them.
            bool inlined = it->second.kind == ComputePlacement::Inline ||
                           (it->second.kind == ComputePlacement::Innermost &&
                            g.schedule().compute_level.is_inlined());
            user_assert(!inlined)
                << "Func " << g.name()
                << " cannot be scheduled to be computed inline, because it is used in the "
                   "externally-computed function "
                << f.name() << ". Schedule " << g.name() << ".compute_root().\n";
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

std::vector<std::string> topological_order(const std::vector<Function> &outputs,
                                           const std::map<std::string, Function> &env) {
    std::vector<std::string> order;
    std::set<std::string> visited;
    // Cycles were refused by realization_order, which every pipeline goes through first.
    std::function<void(const std::string &)> visit = [&](const std::string &name) {
        if (!visited.insert(name).second) return;
        std::vector<std::string> callees = direct_callees(env.at(name));
        std::sort(callees.begin(), callees.end());
        for (const std::string &callee : callees) visit(callee);
        order.push_back(name);
    };
    for (const Function &o : outputs) visit(o.name());
    return order;
}

std::map<std::string, ComputePlacement>
default_schedule(const std::vector<Function> &outputs, const std::map<std::string, Function> &env) {
    std::map<std::string, ComputePlacement> result;
    for (const auto &kv : env) {
        const Function &f = kv.second;
        const LoopLevelSpec &level = f.schedule().compute_level;
        ComputePlacement p;
        if (level.is_root()) {
            p.kind = ComputePlacement::Root;
        } else if (level.kind == LoopLevelSpec::At) {
            p.kind = ComputePlacement::At;
            p.level = level;
        } else if (!f.updates().empty()) {
            // An update needs storage to accumulate into, so a reduction cannot be inlined.
            p.kind = ComputePlacement::Innermost;
        } else {
            p.kind = ComputePlacement::Inline;
        }
        result[kv.first] = p;
    }
    // Outputs write into the caller's buffers, computed once over their whole region.
    for (const Function &o : outputs)
        result[o.name()] = ComputePlacement{ComputePlacement::Root, {}};
    // Extern stages are never inlined, nor are the Funcs they read.
    apply_extern_stage_placements(env, result);
    return result;
}

FuncValueBounds func_value_bounds(const std::map<std::string, Function> &env) {
    FuncValueBounds result;
    std::set<std::string> visited;
    std::function<void(const Function &)> bound = [&](const Function &f) {
        if (!visited.insert(f.name()).second) return;
        // Only a Func with nothing but a pure definition has values its definition bounds
        // (as in Halide): an update or an extern stage may store anything.
        if (!f.has_pure_definition() || !f.updates().empty() || f.has_extern_definition()) {
            return;
        }
        const std::vector<Expr> &values = f.definition().values;
        // The Funcs it calls first: their bounds bound f's. (A cycle, which realization_order
        // refuses anyway, finds its start visited and unbounded.)
        for (const Expr &v : values) {
            visit_exprs(v, [&](const Expr &e) {
                const Call *c = e.as<Call>();
                if (c && c->call_type == Call::Halide) {
                    auto it = env.find(c->name);
                    if (it != env.end()) bound(it->second);
                }
                return true;
            });
        }
        // Over the whole domain: every argument takes every value.
        Scope scope;
        for (const std::string &a : f.args()) scope[a] = Interval::everything();
        for (size_t i = 0; i < values.size(); i++) {
            Interval b = bounds_of_expr_in_scope(values[i], scope, &result);
            if (b.has_lower_bound() || b.has_upper_bound()) result[{f.name(), (int)i}] = b;
        }
    };
    for (const auto &kv : env) bound(kv.second);
    return result;
}

const Function &CallGraph::func(const std::string &name) const {
    auto it = env.find(name);
    internal_assert(it != env.end()) << "CallGraph: no Func " << name << "\n";
    return it->second;
}

std::vector<std::string> CallGraph::callers(const std::string &name) const {
    std::vector<std::string> out;
    for (const std::string &f : order) {
        const std::vector<std::string> &c = callees.at(f);
        if (std::find(c.begin(), c.end(), name) != c.end()) out.push_back(f);
    }
    return out;
}

CallGraph build_call_graph(const std::vector<Function> &user_outputs) {
    for (const Function &o : user_outputs) {
        user_assert(o.defined() && o.has_pure_definition())
            << "Can't compile a pipeline whose output Func "
            << (o.defined() ? o.name() : std::string("(undefined)")) << " has no definition.\n";
    }
    CallGraph g;
    // Calls replaced by their wrappers (Func::in, clone_in, ImageParam::in), on copies of the
    // Functions; env gets every Function reachable from them.
    g.outputs = substitute_wrappers(user_outputs, &g.env);
    g.order = realization_order(g.outputs, g.env);
    for (const std::string &f : g.order) g.callees[f] = direct_callees(g.env.at(f));
    g.placements = default_schedule(g.outputs, g.env);
    g.fusion = analyze_compute_with(g);
    g.fused_order = order_with_fused_groups(g.order, g.fusion, g.callees);
    g.value_bounds = func_value_bounds(g.env);
    return g;
}

} // namespace internal
} // namespace loom
