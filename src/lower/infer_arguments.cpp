#include "lower/infer_arguments.h"

#include "ir/ir_visitor.h"
#include "lower/output_buffers.h"
#include "support/error.h"

#include <algorithm>
#include <set>

namespace loom {
namespace internal {

namespace {

class ParameterCollector {
public:
    std::map<std::string, Parameter> found;
    std::set<std::string> excluded; ///< output buffer names

    void add(const Parameter &p) {
        if (!p.defined() || excluded.count(p.name())) return;
        auto it = found.find(p.name());
        if (it != found.end()) {
            user_assert(it->second.same_as(p))
                << "Two different parameters of the pipeline are named " << p.name()
                << "; Params, ImageParams and Buffers must have unique names.\n";
            return;
        }
        found[p.name()] = p;
        if (p.is_buffer()) {
            // Constraints may mention other parameters.
            for (int d = 0; d < p.dimensions(); d++) {
                add(p.min_constraint(d));
                add(p.extent_constraint(d));
                add(p.stride_constraint(d));
            }
        } else {
            add(p.min_value());
            add(p.max_value());
        }
    }
    void add(const Expr &e) {
        if (!e.defined()) return;
        visit_exprs(e, [&](const Expr &x) {
            if (const Variable *v = x.as<Variable>()) {
                add(v->param);
            } else if (const Call *c = x.as<Call>()) {
                if (c->call_type == Call::Image) add(c->param);
            } else if (const Load *l = x.as<Load>()) {
                add(l->param);
            }
            return true;
        });
    }
    void add(const Definition &d) {
        for (const Expr &e : d.values) add(e);
        for (const Expr &e : d.args) add(e);
        add(d.predicate);
        if (d.rdom.defined()) {
            for (const ReductionVariable &rv : d.rdom.domain()) {
                add(rv.min);
                add(rv.extent);
            }
            add(d.rdom.predicate());
        }
    }
};

} // namespace

std::vector<LoweredArgument> infer_input_arguments(const std::vector<Function> &outputs,
                                                   const std::map<std::string, Function> &env,
                                                   const std::vector<Expr> &extra_exprs,
                                                   const Stmt &lowered) {
    ParameterCollector c;
    for (const Function &o : outputs) {
        for (int i = 0; i < o.outputs(); i++) c.excluded.insert(output_buffer_name(o, i));
    }
    for (const auto &kv : env) {
        c.add(kv.second.definition());
        for (const Definition &u : kv.second.updates()) c.add(u);
    }
    for (const Expr &e : extra_exprs) c.add(e);
    for (const Function &o : outputs) {
        // Constraints on the output buffers may mention parameters.
        for (int i = 0; i < o.outputs(); i++) {
            Parameter p = find_output_buffer_parameter(o, i);
            if (!p.defined()) continue;
            for (int d = 0; d < p.dimensions(); d++) {
                c.add(p.min_constraint(d));
                c.add(p.extent_constraint(d));
                c.add(p.stride_constraint(d));
            }
        }
    }
    if (lowered.defined())
        visit_exprs(lowered, [&](const Expr &e) {
            c.add(e);
            return false;
        });

    std::vector<LoweredArgument> args;
    for (const auto &kv : c.found) {
        const Parameter &p = kv.second;
        LoweredArgument a;
        a.name = p.name();
        a.kind = p.is_buffer() ? LoweredArgument::InputBuffer : LoweredArgument::Scalar;
        a.type = p.type();
        a.dimensions = p.is_buffer() ? p.dimensions() : 0;
        a.param = p;
        args.push_back(a);
    }
    // Halide's order: buffers first, then scalars, each alphabetical (the map is by name).
    std::stable_sort(args.begin(), args.end(),
                     [](const LoweredArgument &a, const LoweredArgument &b) {
                         return a.is_buffer() && !b.is_buffer();
                     });
    return args;
}

std::vector<LoweredArgument> output_arguments(const std::vector<Function> &outputs) {
    std::vector<LoweredArgument> args;
    for (const Function &o : outputs) {
        for (int i = 0; i < o.outputs(); i++) {
            LoweredArgument a;
            a.name = output_buffer_name(o, i);
            a.kind = LoweredArgument::OutputBuffer;
            a.type = o.output_types()[i];
            a.dimensions = o.dimensions();
            args.push_back(a);
        }
    }
    return args;
}

} // namespace internal
} // namespace loom
