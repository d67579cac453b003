#include "lower/inject_tracing.h"

#include "analysis/bounds.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "lower/loop_names.h"
#include "lower/output_buffers.h"
#include "simplify/simplify.h"
#include "support/error.h"
#include "support/util.h"

#include <loom/ir_operator.h>
#include <loom/runtime/loom_runtime.h>

#include <set>
#include <sstream>

namespace loom {
namespace internal {

namespace {

Expr int_var(const std::string &name) { return Variable::make(Int(32), name); }

/// One trace event (see the file comment of inject_tracing.h for the argument order).
Expr trace_call(const std::string &func, halide_trace_event_code_t event, const Expr &parent,
                int value_index, const Expr &value, const Expr &tag,
                const std::vector<Expr> &coords) {
    std::vector<Expr> args = {StringImm::make(func),
                              Expr((int)event),
                              parent,
                              Expr(value_index),
                              value.defined() ? value : Expr(0),
                              tag.defined() ? tag : StringImm::make("")};
    args.insert(args.end(), coords.begin(), coords.end());
    return Call::make(Int(32), trace_intrinsic, args, Call::Intrinsic);
}

/// min0, extent0, min1, extent1, ... of a region.
std::vector<Expr> region_coords(const Region &r) {
    std::vector<Expr> c;
    for (const Range &b : r) {
        c.push_back(b.min);
        c.push_back(b.extent);
    }
    return c;
}

class InjectTracing : public IRMutator {
public:
    InjectTracing(const std::vector<Function> &outputs, const std::map<std::string, Function> &env,
                  const Target &target)
        : env(env), all_loads(target.has_feature(Target::TraceLoads)),
          all_stores(target.has_feature(Target::TraceStores)),
          all_realizations(target.has_feature(Target::TraceRealizations)) {
        for (const Function &o : outputs) output_names.insert(o.name());
    }

    const std::map<std::string, Function> &env;
    const bool all_loads, all_stores, all_realizations;
    std::set<std::string> output_names;
    /// The id each Func's loads and stores name as parent (absent: 0).
    std::map<std::string, Expr> parent;
    /// The traced inputs read, with a Parameter when there is one.
    std::map<std::string, Call::CallType> images_read;
    std::vector<std::string> image_order;
    Expr pipeline_id = int_var("trace.pipeline_id");

    bool traces_loads(const std::string &f) const {
        auto it = env.find(f);
        return all_loads || (it != env.end() && it->second.contents->trace_loads);
    }
    bool traces_stores(const std::string &f) const {
        auto it = env.find(f);
        return all_stores || (it != env.end() && it->second.contents->trace_stores);
    }
    bool traces_realizations(const std::string &f) const {
        auto it = env.find(f);
        return all_realizations || (it != env.end() && it->second.contents->trace_realizations);
    }
    Expr parent_of(const std::string &f) const {
        auto it = parent.find(f);
        return it == parent.end() ? Expr(0) : it->second;
    }

protected:
    using IRMutator::visit;

    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        op = e.as<Call>();
        if (!op) return e;
        bool traced = false;
        Expr parent_id;
        if (op->call_type == Call::Halide && env.count(op->name)) {
            traced = traces_loads(op->name);
            parent_id = parent_of(op->name);
        } else if (op->call_type == Call::Image) {
            traced = all_loads || (op->param.defined() && op->param.trace_loads());
            parent_id = pipeline_id;
            if (traced && !images_read.count(op->name)) {
                images_read[op->name] = op->call_type;
                image_order.push_back(op->name);
                image_types[op->name] = op->type;
                image_dims[op->name] = (int)op->args.size();
            }
        }
        if (!traced) return e;
        // let a_i = args; let t = f(a...) in return_second(trace(load, t, a...), t): the
        // coordinates are computed once, and the event reports the value actually read.
        std::vector<std::pair<std::string, Expr>> lets;
        std::vector<Expr> coords;
        for (const Expr &a : op->args) {
            std::string n = unique_name(op->name + ".trace_arg");
            lets.emplace_back(n, a);
            coords.push_back(int_var(n));
        }
        std::string t = unique_name(op->name + ".trace_value");
        Expr load = Call::make(op->type, op->name, coords, op->call_type, op->func, op->value_index,
                               op->param);
        Expr tv = Variable::make(op->type, t);
        Expr ev =
            trace_call(op->name, halide_trace_load, parent_id, op->value_index, tv, Expr(), coords);
        Expr result = Call::make(op->type, Call::return_second, {ev, tv}, Call::Intrinsic);
        result = Let::make(t, load, result);
        for (auto l = lets.rbegin(); l != lets.rend(); ++l) {
            result = Let::make(l->first, l->second, result);
        }
        return result;
    }

    Stmt visit(const Provide *op) override {
        Stmt s = IRMutator::visit(op);
        op = s.as<Provide>();
        if (!op || !traces_stores(op->name)) return s;
        std::vector<std::pair<std::string, Expr>> lets;
        std::vector<Expr> coords, values;
        for (const Expr &a : op->args) {
            std::string n = unique_name(op->name + ".trace_arg");
            lets.emplace_back(n, a);
            coords.push_back(int_var(n));
        }
        std::vector<Stmt> events;
        for (size_t i = 0; i < op->values.size(); i++) {
            const Expr &v = op->values[i];
            const Call *c = v.as<Call>();
            if (c && c->is_intrinsic(Call::undef)) {
                // "Leave the element unchanged": nothing is stored, so nothing is traced.
                values.push_back(v);
                continue;
            }
            std::string n = unique_name(op->name + ".trace_value");
            lets.emplace_back(n, v);
            Expr tv = Variable::make(v.type(), n);
            values.push_back(tv);
            events.push_back(Evaluate::make(trace_call(
                op->name, halide_trace_store, parent_of(op->name), (int)i, tv, Expr(), coords)));
        }
        events.push_back(Provide::make(op->name, values, coords, op->predicate));
        Stmt result = Block::make(events);
        for (auto l = lets.rbegin(); l != lets.rend(); ++l) {
            result = LetStmt::make(l->first, l->second, result);
        }
        return result;
    }

    Stmt visit(const Realize *op) override {
        if (!env.count(op->name) || !traces_realizations(op->name) ||
            output_names.count(op->name)) {
            return IRMutator::visit(op);
        }
        // The realization's region; produce and consume report the computed region, which
        // is this one for extern stages (whose bounds have no stage names).
        Region saved_region = region;
        region = op->bounds;
        std::string id = unique_name(op->name + ".trace_id");
        Expr saved = parent_of(op->name);
        parent[op->name] = int_var(id);
        Stmt body = mutate(op->body);
        parent[op->name] = saved;
        region = saved_region;
        std::vector<Expr> coords = region_coords(op->bounds);
        Stmt end = Evaluate::make(trace_call(op->name, halide_trace_end_realization, int_var(id), 0,
                                             Expr(), Expr(), coords));
        body = LetStmt::make(id,
                             trace_call(op->name, halide_trace_begin_realization, pipeline_id, 0,
                                        Expr(), Expr(), coords),
                             Block::make(body, end));
        return Realize::make(op->name, op->types, op->memory_type, op->bounds, op->condition, body);
    }

    Stmt visit(const ProducerConsumer *op) override {
        auto it = env.find(op->name);
        if (it == env.end() || !traces_realizations(op->name) ||
            (!op->is_producer && output_names.count(op->name))) {
            return IRMutator::visit(op);
        }
        const Function &f = it->second;
        std::vector<Expr> coords = stage_coords(f);
        if (f.has_extern_definition() && (int)region.size() == f.dimensions()) {
            coords = region_coords(region);
        }
        std::string id = unique_name(op->name + ".trace_id");
        Expr saved = parent_of(op->name);
        parent[op->name] = int_var(id);
        Stmt body = mutate(op->body);
        parent[op->name] = saved;
        halide_trace_event_code_t begin =
            op->is_producer ? halide_trace_produce : halide_trace_consume;
        halide_trace_event_code_t end =
            op->is_producer ? halide_trace_end_produce : halide_trace_end_consume;
        body = Block::make(body, Evaluate::make(trace_call(op->name, end, int_var(id), 0, Expr(),
                                                           Expr(), coords)));
        body =
            LetStmt::make(id, trace_call(op->name, begin, saved, 0, Expr(), Expr(), coords), body);
        return ProducerConsumer::make(op->name, op->is_producer, body);
    }

public:
    std::map<std::string, Type> image_types;
    std::map<std::string, int> image_dims;

private:
    Region region;

    /// The region the pure stage computes: "<f>.s0.<x>.min" to ".max" (bounds_inference).
    static std::vector<Expr> stage_coords(const Function &f) {
        std::vector<Expr> coords;
        const std::string prefix = stage_prefix(f.name(), 0);
        for (const std::string &a : f.args()) {
            Expr mn = int_var(prefix + a + ".min");
            Expr mx = int_var(prefix + a + ".max");
            coords.push_back(mn);
            coords.push_back(mx + 1 - mn);
        }
        return coords;
    }
};

/// Whether every variable e uses is in `ok` (so e can be evaluated at the top of the
/// pipeline).
bool uses_only(const Expr &e, const std::set<std::string> &defined_inside) {
    bool ok = true;
    visit_exprs(e, [&](const Expr &x) {
        if (const Variable *v = x.as<Variable>()) {
            if (defined_inside.count(v->name)) ok = false;
        }
        return ok;
    });
    return ok;
}

/// The names s defines (lets, loops, allocations): a region expression naming one of these
/// cannot be evaluated at the top of the pipeline.
std::set<std::string> names_defined(const Stmt &s) {
    class Collect : public IRVisitor {
    public:
        std::set<std::string> names;

    protected:
        using IRVisitor::visit;
        void visit(const LetStmt *op) override {
            names.insert(op->name);
            IRVisitor::visit(op);
        }
        void visit(const Let *op) override {
            names.insert(op->name);
            IRVisitor::visit(op);
        }
        void visit(const For *op) override {
            names.insert(op->name);
            IRVisitor::visit(op);
        }
    } c;
    c.dispatch(s);
    return c.names;
}

/// The region each traced Func is realized over during the whole run (the union of its
/// realizations, as Halide's func_type_and_dim tag reports it), in terms of what is defined at
/// the top of the pipeline. Each realization's bounds are written with the enclosing lets
/// substituted and simplified (so a loop's min and max cancel where they correlate), then
/// bounded over the enclosing loops, innermost first.
class RealizedRegions : public IRVisitor {
public:
    explicit RealizedRegions(const std::set<std::string> &funcs) : funcs(funcs) {}
    std::map<std::string, Box> regions;

protected:
    using IRVisitor::visit;
    const std::set<std::string> &funcs;
    /// The values of the LetStmts in scope.
    std::map<std::string, Expr> lets;
    struct Loop {
        std::string name;
        Expr min, max;
    };
    std::vector<Loop> loops;

    /// e with the lets in scope substituted, as deep as their chains go, and simplified. Only
    /// the lets e reaches are substituted: the statement nests hundreds of them (a gradient
    /// pipeline's), and substituting each in turn into every loop bound took seconds. (A chain
    /// is at most as long as the lets; a let shadowing a name its value reads stops there.)
    Expr expand(Expr e) const {
        for (size_t round = 0; round <= lets.size(); round++) {
            Expr next = substitute(lets, e);
            if (next.same_as(e)) break;
            e = next;
        }
        return simplify(e);
    }

    void visit(const LetStmt *op) override {
        auto it = lets.find(op->name);
        const Expr outer = it == lets.end() ? Expr() : it->second;
        lets[op->name] = op->value;
        dispatch(op->body);
        if (outer.defined()) {
            lets[op->name] = outer;
        } else {
            lets.erase(op->name);
        }
    }
    void visit(const For *op) override {
        Expr mn = expand(op->min);
        loops.push_back({op->name, mn, simplify(mn + expand(op->extent) - 1)});
        dispatch(op->body);
        loops.pop_back();
    }
    void visit(const Realize *op) override {
        if (funcs.count(op->name)) {
            Box box;
            for (const Range &r : op->bounds) {
                Expr lo = expand(r.min), hi = expand(r.min + r.extent - 1);
                for (auto l = loops.rbegin(); l != loops.rend(); ++l) {
                    Scope scope;
                    scope[l->name] = Interval(l->min, l->max);
                    lo = bounds_of_expr_in_scope(lo, scope).min;
                    hi = bounds_of_expr_in_scope(hi, scope).max;
                    if (Interval::is_neg_inf(lo) || Interval::is_pos_inf(hi)) break;
                }
                box.emplace_back(lo, hi);
            }
            auto it = regions.find(op->name);
            if (it == regions.end()) {
                regions[op->name] = box;
            } else {
                for (size_t d = 0; d < box.size() && d < it->second.size(); d++) {
                    it->second[d].include(box[d]);
                }
            }
        }
        IRVisitor::visit(op);
    }
};

/// The func_type_and_dim tag: "func_type_and_dim: <#types> (<code> <bits> <lanes>)* <#dims>
/// (<min> <extent>)*", built at run time (the region may depend on the buffers).
Expr type_and_dim_tag(const std::vector<Type> &types, const Box &box) {
    std::ostringstream head;
    head << "func_type_and_dim: " << types.size();
    for (const Type &t : types) {
        head << " " << (int)t.code() << " " << t.bits() << " " << t.lanes();
    }
    head << " " << box.size();
    std::vector<Expr> parts;
    std::string text = head.str();
    for (const Interval &i : box) {
        parts.push_back(StringImm::make(text + " "));
        parts.push_back(i.min);
        parts.push_back(StringImm::make(" "));
        parts.push_back(i.max + 1 - i.min);
        text.clear();
    }
    if (!text.empty()) parts.push_back(StringImm::make(text));
    return Call::make(Handle(), Call::stringify, parts, Call::PureIntrinsic);
}

} // namespace

std::string trace_pipeline_name(const std::string &fn_name, const std::vector<Function> &outputs) {
    if (outputs.empty()) return fn_name;
    // The JIT names its function after the first output; its traces use the Func's own name,
    // as the realizations' events do ("f$1" for a reused name, not the C identifier "f_1").
    const std::string &n = outputs[0].name();
    return fn_name == "loom_" + c_identifier(n) ? n : fn_name;
}

Stmt inject_tracing(const Stmt &s, const std::string &pipeline_name,
                    const std::vector<Function> &outputs,
                    const std::map<std::string, Function> &env,
                    const std::vector<std::string> &order, const Target &target) {
    InjectTracing tracing(outputs, env, target);
    const bool trace_pipeline = target.has_feature(Target::TracePipeline);

    // Outputs are realized over their buffers around the whole pipeline, as in Halide.
    std::vector<std::pair<Function, std::string>> output_ids;
    for (const Function &o : outputs) {
        if (!tracing.traces_realizations(o.name())) continue;
        std::string id = unique_name(o.name() + ".trace_id");
        tracing.parent[o.name()] = int_var(id);
        output_ids.emplace_back(o, id);
    }
    Stmt body = tracing.mutate(s);

    bool any_func = false;
    for (const auto &kv : env) {
        const FunctionContents &c = *kv.second.contents;
        any_func = any_func || c.trace_loads || c.trace_stores || c.trace_realizations;
    }
    const bool any_feature = tracing.all_loads || tracing.all_stores || tracing.all_realizations;
    if (!any_func && !any_feature && !trace_pipeline && tracing.image_order.empty()) return s;

    for (auto it = output_ids.rbegin(); it != output_ids.rend(); ++it) {
        const Function &o = it->first;
        std::vector<Expr> coords;
        const std::string buf = output_buffer_name(o, 0);
        for (int d = 0; d < o.dimensions(); d++) {
            coords.push_back(int_var(buf + ".min." + std::to_string(d)));
            coords.push_back(int_var(buf + ".extent." + std::to_string(d)));
        }
        Stmt end = Evaluate::make(trace_call(o.name(), halide_trace_end_realization,
                                             int_var(it->second), 0, Expr(), Expr(), coords));
        body = LetStmt::make(it->second,
                             trace_call(o.name(), halide_trace_begin_realization,
                                        tracing.pipeline_id, 0, Expr(), Expr(), coords),
                             Block::make(body, end));
    }

    // The tags: traced inputs, then traced Funcs in realization order.
    std::vector<Stmt> tags;
    std::set<std::string> inner = names_defined(s);
    auto add_tags = [&](const std::string &name, const std::vector<Type> &types, Box box,
                        const std::vector<std::string> &user_tags) {
        bool ok = true;
        for (const Interval &i : box) {
            ok = ok && i.is_bounded() && uses_only(i.min, inner) && uses_only(i.max, inner);
        }
        if (!ok) {
            // Not expressible at the top of the pipeline: report an empty region rather
            // than a wrong one.
            for (Interval &i : box) i = Interval(Expr(0), Expr(-1));
        }
        tags.push_back(Evaluate::make(trace_call(name, halide_trace_tag, tracing.pipeline_id, 0,
                                                 Expr(), type_and_dim_tag(types, box), {})));
        for (const std::string &t : user_tags) {
            tags.push_back(Evaluate::make(trace_call(name, halide_trace_tag, tracing.pipeline_id, 0,
                                                     Expr(), StringImm::make(t), {})));
        }
    };
    std::set<std::string> traced_funcs;
    for (const auto &kv : env) traced_funcs.insert(kv.first);
    RealizedRegions regions(traced_funcs);
    regions.dispatch(s);
    for (const std::string &name : tracing.image_order) {
        Box box = box_required(s, name);
        add_tags(name, {tracing.image_types[name]}, box, {});
    }
    for (const std::string &name : order) {
        auto it = env.find(name);
        if (it == env.end()) continue;
        const Function &f = it->second;
        const FunctionContents &c = *f.contents;
        bool traced = any_feature || c.trace_loads || c.trace_stores || c.trace_realizations;
        if (!traced) continue;
        bool is_output = false;
        for (const Function &o : outputs) is_output = is_output || o.name() == name;
        Box box;
        if (is_output) {
            const std::string buf = output_buffer_name(f, 0);
            for (int d = 0; d < f.dimensions(); d++) {
                Expr mn = int_var(buf + ".min." + std::to_string(d));
                Expr ext = int_var(buf + ".extent." + std::to_string(d));
                box.emplace_back(mn, mn + ext - 1);
            }
        } else {
            auto r = regions.regions.find(name);
            if (r != regions.regions.end()) box = r->second;
            if (box.empty()) {
                // Inlined (never stored): no tag, as in Halide.
                continue;
            }
        }
        add_tags(name, f.output_types(), box, c.trace_tags);
    }

    Expr begin =
        trace_call(pipeline_name, halide_trace_begin_pipeline, Expr(0), 0, Expr(), Expr(), {});
    Stmt end = Evaluate::make(trace_call(pipeline_name, halide_trace_end_pipeline,
                                         tracing.pipeline_id, 0, Expr(), Expr(), {}));
    tags.push_back(body);
    tags.push_back(end);
    const Variable *pv = tracing.pipeline_id.as<Variable>();
    return LetStmt::make(pv->name, begin, Block::make(tags));
}

} // namespace internal
} // namespace loom
