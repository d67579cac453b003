#include "lower/extern_stages.h"

#include <loom/ir_operator.h>

#include "analysis/bounds.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/substitute.h"
#include "lang/extern_definition.h"
#include "lower/loop_names.h"
#include "lower/lower_utils.h"
#include "lower/output_buffers.h"
#include "simplify/simplify.h"
#include "support/error.h"

#include <set>
#include <utility>

namespace loom {
namespace internal {

namespace {

/// The intrinsic that keeps, until add_image_checks, the reads an extern stage makes of its
/// inputs (so their required regions are checked and answered to bounds queries).
constexpr const char *extern_touch_marker = "loom_extern_touch";

Expr var(const std::string &name) { return Variable::make(Int(32), name); }

/// The strides of g's internal storage of `extents` (one per argument): dense in g's storage
/// order (reorder_storage), as storage_flattening lays it out.
std::vector<Expr> storage_strides(const Function &g, const std::vector<Expr> &extents) {
    std::vector<int> order;
    for (const StorageDim &sd : g.schedule().storage_dims) {
        for (size_t d = 0; d < g.args().size(); d++) {
            if (g.args()[d] == sd.var) order.push_back((int)d);
        }
    }
    if (order.size() != extents.size()) return dense_strides(extents);
    std::vector<Expr> strides(extents.size());
    Expr stride = 1;
    for (int d : order) {
        strides[d] = stride;
        stride = stride * extents[d];
    }
    return strides;
}

Expr buffer_field(const char *intrinsic, const Expr &buf, int d) {
    return Call::make(Int(32), intrinsic, {buf, Expr(d)}, Call::PureIntrinsic);
}

/// The extern's C name, after checking what Loom can call.
const std::string &checked_function_name(const Function &f) {
    const ExternDefinition &ext = f.extern_definition();
    user_assert(ext.mangling != NameMangling::CPlusPlus)
        << "Func " << f.name() << " is an extern stage calling " << ext.function_name
        << " with C++ name mangling, which Loom does not support; declare the function extern "
           "\"C\" and use NameMangling::C.\n";
    user_assert(ext.device_api == DeviceAPI::Host || ext.device_api == DeviceAPI::None)
        << "Func " << f.name()
        << " is an extern stage on a GPU or other device API, but Loom "
           "runs extern stages on the host CPU only (use DeviceAPI::Host).\n";
    return ext.function_name;
}

/// The storage of element k of Func g as seen inside g's realization (after
/// storage_flattening, the allocation "g" or "g.k"; for outputs, the output buffer).
Expr func_storage_buffer(const Function &g, int k, const std::set<std::string> &outputs) {
    if (outputs.count(g.name())) {
        return Variable::make(Handle(), output_buffer_name(g, k) + ".buffer");
    }
    std::string host = g.outputs() == 1 ? g.name() : g.name() + "." + std::to_string(k);
    std::vector<Expr> mins, extents;
    for (const std::string &a : g.args()) {
        mins.push_back(var(g.name() + "." + a + ".min_realized"));
        extents.push_back(var(g.name() + "." + a + ".extent_realized"));
    }
    return make_buffer(Variable::make(Handle(), host), g.output_types()[k], mins, extents,
                       storage_strides(g, extents));
}

class LowerExternStages : public IRMutator {
public:
    LowerExternStages(const std::vector<Function> &outputs,
                      const std::map<std::string, Function> &env)
        : env(env) {
        for (const Function &o : outputs) output_names.insert(o.name());
    }

    /// The externs met, outermost (producers) first, with the region each must compute.
    std::vector<std::pair<Function, std::vector<std::pair<Expr, Expr>>>> regions;

protected:
    using IRMutator::visit;

    Stmt visit(const LetStmt *op) override {
        path.push_back({op->name, op->value, Expr()});
        Stmt s = IRMutator::visit(op);
        path.pop_back();
        return s;
    }

    Stmt visit(const For *op) override {
        path.push_back({op->name, op->min, op->extent});
        Stmt s = IRMutator::visit(op);
        path.pop_back();
        return s;
    }

    Stmt visit(const Realize *op) override {
        const Function *f = extern_function(op->name);
        if (f) regions.emplace_back(*f, region_at_root(*f));
        return IRMutator::visit(op);
    }

    Stmt visit(const ProducerConsumer *op) override {
        const Function *f = extern_function(op->name);
        if (!f || !op->is_producer) return IRMutator::visit(op);
        return ProducerConsumer::make_produce(op->name, extern_call(*f));
    }

private:
    const Function *extern_function(const std::string &name) const {
        auto it = env.find(name);
        if (it == env.end() || !it->second.has_extern_definition()) return nullptr;
        return &it->second;
    }

    /// The region f computes ("<f>.s0.<v>.min/.max", let-bound by bounds_inference around
    /// its Realize), in terms of what is defined at the top of the pipeline. For an extern
    /// computed inside loops, the union over their iterations: one query at the top then sizes
    /// every input, wherever it is computed, for every iteration (as Halide's query at an
    /// outer level does with the relaxed region).
    std::vector<std::pair<Expr, Expr>> region_at_root(const Function &f) {
        std::vector<std::pair<Expr, Expr>> region;
        for (const std::string &a : f.args()) {
            std::pair<Expr, Expr> r;
            for (bool is_max : {false, true}) {
                std::string n = stage_prefix(f.name(), 0) + a + (is_max ? ".max" : ".min");
                Expr e = var(n);
                // Eliminate what the path defines, innermost first: lets by substitution,
                // loop variables by the bound of e over the loop.
                for (auto it = path.rbegin(); it != path.rend(); ++it) {
                    if (!expr_uses_var(e, it->name)) continue;
                    if (!it->extent.defined()) {
                        e = substitute(it->name, it->value, e);
                        continue;
                    }
                    Expr last = simplify(it->value + it->extent - 1);
                    Interval i =
                        bounds_of_expr_in_scope(e, {{it->name, Interval(it->value, last)}});
                    Expr bound = is_max ? i.max : i.min;
                    user_assert(!needs_query(f) ||
                                ((is_max ? i.has_upper_bound() : i.has_lower_bound()) &&
                                 !expr_uses_var(bound, it->name)))
                        << "Func " << f.name() << " is an extern stage computed inside the loop "
                        << describe_loop(it->name) << ", and Loom cannot bound the region it "
                        << "computes over that loop (" << n << " = " << e
                        << "), which its bounds query needs. Compute " << f.name()
                        << " at an outer loop or at the root.\n";
                    if (bound.defined()) e = bound;
                }
                (is_max ? r.second : r.first) = simplify(e);
            }
            region.push_back(r);
        }
        return region;
    }

    /// The call computing f, as the body of `produce f`.
    Stmt extern_call(const Function &f) {
        const std::string &fn = checked_function_name(f);
        const ExternDefinition &ext = f.extern_definition();
        const std::string prefix = f.name() + ".extern.";
        std::vector<std::pair<std::string, Expr>> lets;
        std::vector<Expr> call_args;
        for (int i = 0; i < (int)ext.args.size(); i++) {
            const ExternFuncArgument &a = ext.args[i];
            if (a.is_expr()) {
                call_args.push_back(a.expr);
            } else if (a.is_func()) {
                Function g(a.func);
                for (int k = 0; k < g.outputs(); k++) {
                    std::string n =
                        prefix + "a" + std::to_string(i) + "." + std::to_string(k) + ".buffer";
                    lets.emplace_back(n, func_storage_buffer(g, k, output_names));
                    call_args.push_back(Variable::make(Handle(), n));
                }
            } else {
                call_args.push_back(extern_buffer_handle(a));
            }
        }
        for (int k = 0; k < f.outputs(); k++) {
            if (output_names.count(f.name())) {
                call_args.push_back(Variable::make(Handle(), output_buffer_name(f, k) + ".buffer"));
                continue;
            }
            std::string n = prefix + "out" + std::to_string(k) + ".buffer";
            lets.emplace_back(n, func_storage_buffer(f, k, output_names));
            call_args.push_back(Variable::make(Handle(), n));
        }
        Expr result = var(prefix + "result");
        Stmt s =
            AssertStmt::make(result == 0, runtime_error_call("halide_error_extern_stage_failed",
                                                             {Expr(fn), result}));
        s = LetStmt::make(prefix + "result", Call::make(Int(32), fn, call_args, Call::Extern), s);
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
            s = LetStmt::make(it->first, it->second, s);
        }
        std::vector<Expr> reads = extern_region_reads(f);
        if (!reads.empty()) {
            Stmt touch =
                Evaluate::make(Call::make(Int(32), extern_touch_marker, reads, Call::Intrinsic));
            s = Block::make(touch, s);
        }
        return s;
    }

public:
    /// Whether f has inputs whose regions come from a bounds query.
    static bool needs_query(const Function &f) {
        for (const ExternFuncArgument &a : f.extern_definition().args) {
            if (!a.is_expr()) return true;
        }
        return false;
    }

private:
    const std::map<std::string, Function> &env;
    std::set<std::string> output_names;
    /// The lets (no extent) and loops (value: the min) enclosing the node visited.
    struct PathEntry {
        std::string name;
        Expr value, extent;
    };
    std::vector<PathEntry> path;
};

/// The steps of f's bounds query, given the region it computes.
void add_query(const Function &f, const std::vector<std::pair<Expr, Expr>> &region,
               ExternBoundsQueries *queries) {
    const std::string &fn = checked_function_name(f);
    const ExternDefinition &ext = f.extern_definition();
    const std::string prefix = f.name() + ".query.";
    auto let = [&](const std::string &n, const Expr &v) {
        queries->steps.push_back({n, v, Expr()});
        return Variable::make(v.type(), n);
    };
    std::vector<Expr> call_args;
    // Per Func or buffer argument: its query buffers (one per Tuple element).
    std::vector<std::vector<Expr>> arg_queries(ext.args.size());
    for (int i = 0; i < (int)ext.args.size(); i++) {
        const ExternFuncArgument &a = ext.args[i];
        if (a.is_expr()) {
            call_args.push_back(a.expr);
            continue;
        }
        if (!a.is_func()) {
            call_args.push_back(extern_buffer_handle(a));
            continue;
        }
        Function g(a.func);
        std::vector<Expr> zeros(g.dimensions(), Expr(0));
        for (int k = 0; k < g.outputs(); k++) {
            std::string n = prefix + "a" + std::to_string(i) + "." + std::to_string(k);
            Expr q = let(n, make_buffer(null_handle(), g.output_types()[k], zeros, zeros, zeros));
            arg_queries[i].push_back(q);
            call_args.push_back(q);
        }
    }
    std::vector<Expr> mins, extents;
    for (const auto &r : region) {
        mins.push_back(r.first);
        extents.push_back(r.second + 1 - r.first);
    }
    for (int k = 0; k < f.outputs(); k++) {
        std::string n = prefix + "out" + std::to_string(k);
        call_args.push_back(let(n, make_buffer(null_handle(), f.output_types()[k], mins, extents,
                                               dense_strides(extents))));
    }
    Expr result = let(prefix + "result", Call::make(Int(32), fn, call_args, Call::Extern));
    queries->steps.push_back(
        {"", result == 0,
         runtime_error_call("halide_error_bounds_inference_call_failed", {Expr(fn), result})});
    // The region of each input the extern asked for (the union over Tuple elements).
    for (int i = 0; i < (int)ext.args.size(); i++) {
        if (arg_queries[i].empty()) continue;
        int dims = Function(ext.args[i].func).dimensions();
        for (int d = 0; d < dims; d++) {
            Expr mn, mx;
            for (const Expr &q : arg_queries[i]) {
                Expr qmin = buffer_field(Call::buffer_get_min, q, d);
                Expr qmax = qmin + buffer_field(Call::buffer_get_extent, q, d) - 1;
                mn = mn.defined() ? min(mn, qmin) : qmin;
                mx = mx.defined() ? max(mx, qmax) : qmax;
            }
            let(extern_query_bound(f.name(), i, false, d), mn);
            let(extern_query_bound(f.name(), i, true, d), mx);
        }
    }
}

/// Removes the touch markers.
class RemoveTouchMarkers : public IRMutator {
protected:
    using IRMutator::visit;
    Stmt visit(const Evaluate *op) override {
        const Call *c = op->value.as<Call>();
        if (c && c->is_intrinsic(extern_touch_marker)) return Evaluate::make(0);
        return op;
    }
};

} // namespace

Stmt lower_extern_stages(const Stmt &s, const std::vector<Function> &outputs,
                         const std::map<std::string, Function> &env, ExternBoundsQueries *queries) {
    bool any = false;
    for (const auto &kv : env) any = any || kv.second.has_extern_definition();
    if (!any) return s;
    LowerExternStages lower(outputs, env);
    Stmt result = lower.mutate(s);
    // A producer's region depends on its consumers' queries: run consumers' queries first.
    for (auto it = lower.regions.rbegin(); it != lower.regions.rend(); ++it) {
        if (LowerExternStages::needs_query(it->first)) add_query(it->first, it->second, queries);
    }
    return result;
}

Stmt add_extern_bounds_queries(const Stmt &s, const ExternBoundsQueries &queries) {
    Stmt body = RemoveTouchMarkers().mutate(s);
    if (queries.steps.empty()) return body;
    // After the leading assertions on the raw buffer handles (null, type, dimensions): the
    // queries read the output buffers' fields.
    std::vector<Stmt> stmts = flatten_blocks(body);
    size_t first_rest = 0;
    while (first_rest < stmts.size() && stmts[first_rest].as<AssertStmt>()) first_rest++;
    std::vector<Stmt> front(stmts.begin(), stmts.begin() + first_rest);
    Stmt rest = Block::make(std::vector<Stmt>(stmts.begin() + first_rest, stmts.end()));
    if (!rest.defined()) rest = Evaluate::make(0);
    for (auto it = queries.steps.rbegin(); it != queries.steps.rend(); ++it) {
        if (it->name.empty()) {
            rest = Block::make(AssertStmt::make(it->value, it->message), rest);
        } else {
            rest = LetStmt::make(it->name, it->value, rest);
        }
    }
    front.push_back(rest);
    return Block::make(front);
}

} // namespace internal
} // namespace loom
