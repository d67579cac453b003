#include "lower/bounds_inference.h"

#include <loom/ir_operator.h>

#include "ir/ir_mutator.h"
#include "ir/ir_printer.h"
#include "ir/ir_visitor.h"
#include "lower/build_provide_loop_nest.h"
#include "lower/output_buffers.h"
#include "simplify/simplify.h"
#include "support/error.h"

#include <set>
#include <utility>

namespace loom {
namespace internal {

namespace {

Expr var(const std::string &name) { return Variable::make(Int(32), name); }

/// The For named `name` in s (null when absent).
const For *find_loop(const Stmt &s, const std::string &name) {
    const For *found = nullptr;
    class Finder : public IRVisitor {
    public:
        Finder(const std::string &n, const For *&f) : name(n), found(f) {}

    protected:
        using IRVisitor::visit;
        void visit(const For *op) override {
            if (!found && op->name == name) {
                found = op;
                return;
            }
            IRVisitor::visit(op);
        }

    private:
        const std::string &name;
        const For *&found;
    } finder(name, found);
    finder.dispatch(s);
    return found;
}

/// Reports an index of `callee` that interval analysis cannot bound.
[[noreturn]] void report_unbounded(const Stmt &context, const std::string &callee, int dim,
                                   const std::string &kind) {
    std::string caller = find_unbounded_caller(context, callee, dim);
    std::ostringstream msg;
    msg << kind << " " << callee << " is accessed";
    if (!caller.empty()) msg << " by Func " << caller;
    msg << " at an index that can't be bounded in dimension " << dim
        << " (for example an index computed from unbounded int32 data). Clamp the index, e.g. "
        << callee << "(clamp(e, lo, hi), ...), or wrap " << callee
        << " in a boundary condition (BoundaryConditions::repeat_edge etc.).\n";
    throw CompileError(msg.str());
}

void check_bounded(const Box &b, const Stmt &context, const std::string &callee,
                   const std::string &kind) {
    for (size_t d = 0; d < b.size(); d++) {
        if (!b[d].is_bounded()) report_unbounded(context, callee, (int)d, kind);
    }
}

class BoundsInference : public IRMutator {
public:
    BoundsInference(const std::vector<Function> &outputs,
                    const std::map<std::string, Function> &env)
        : env(env) {
        for (const Function &o : outputs) output_names.insert(o.name());
    }

protected:
    using IRMutator::visit;

    Stmt visit(const Realize *op) override {
        auto it = env.find(op->name);
        if (it == env.end()) return IRMutator::visit(op);
        const Function &f = it->second;
        const bool is_output = output_names.count(f.name()) > 0;

        // Inner realizations first: their bounds are what this one's consumers loop over.
        Stmt body = mutate(op->body);
        const Block *block = body.as<Block>();
        internal_assert(block) << "bounds_inference: realize " << f.name()
                               << " is not produce; consume\n";
        const ProducerConsumer *produce = block->first.as<ProducerConsumer>();
        const ProducerConsumer *consume = block->rest.as<ProducerConsumer>();
        internal_assert(produce && consume && produce->is_producer && !consume->is_producer)
            << "bounds_inference: realize " << f.name() << " is not produce; consume\n";

        const int dims = f.dimensions();
        Box region = box_required(consume->body, f.name());
        check_bounded(region, consume->body, f.name(), "Func");
        if (is_output) {
            // An output covers its whole buffer, plus whatever other outputs read of it.
            const std::string buf = output_buffer_name(f, 0);
            Box out;
            for (int d = 0; d < dims; d++) {
                Expr mn = var(buf + ".min." + std::to_string(d));
                Expr ext = var(buf + ".extent." + std::to_string(d));
                out.emplace_back(mn, simplify(mn + ext - 1));
            }
            region = box_union(out, region);
        }
        if (region.empty()) {
            // Not read by anything here: compute nothing.
            for (int d = 0; d < dims; d++) region.emplace_back(Expr(0), Expr(-1));
        }
        internal_assert((int)region.size() == dims)
            << "bounds_inference: box of " << f.name() << " has " << region.size() << " dims\n";

        // Stages, last to first. `lets` is outermost first.
        std::vector<std::pair<std::string, Expr>> lets;
        const int n = num_stages(f);
        std::vector<const For *> nests(n);
        for (int k = 0; k < n; k++) {
            nests[k] = find_loop(produce->body, stage_prefix(f.name(), k) + "__outermost");
            internal_assert(nests[k])
                << "bounds_inference: no loop nest for stage " << k << " of " << f.name() << "\n";
        }
        for (int k = n - 1; k >= 0; k--) {
            const Definition &def = stage_definition(f, k);
            const std::string prefix = stage_prefix(f.name(), k);
            for (int d = 0; d < dims; d++) {
                std::string v;
                if (k == 0) {
                    v = f.args()[d];
                } else if (const Variable *a = def.args[d].as<Variable>()) {
                    if (!a->reduction_domain.defined() && !a->param.defined()) v = a->name;
                }
                if (v.empty()) continue;
                lets.emplace_back(prefix + v + ".min", region[d].min);
                lets.emplace_back(prefix + v + ".max", region[d].max);
            }
            if (k > 0) {
                // Stage k reads f (at least at the points it updates): the earlier stages must
                // have computed all of it.
                Box reads = box_required(Stmt(nests[k]), f.name());
                check_bounded(reads, Stmt(nests[k]), f.name(), "Func");
                region = box_union(region, reads);
                // Refer to the region through fresh names so expressions stay small.
                for (int d = 0; d < dims; d++) {
                    std::string base = prefix + "required." + std::to_string(d);
                    lets.emplace_back(base + ".min", region[d].min);
                    lets.emplace_back(base + ".max", region[d].max);
                    region[d] = Interval(var(base + ".min"), var(base + ".max"));
                }
            }
        }
        // Storage: every point read (region) or written (each stage's provides).
        Box touched = region;
        for (int k = 0; k < n; k++) {
            Box provided = box_provided(Stmt(nests[k]), f.name());
            check_bounded(provided, Stmt(nests[k]), f.name(), "Func");
            touched = box_union(touched, provided);
        }
        for (int d = 0; d < dims; d++) {
            const std::string base = f.name() + "." + f.args()[d];
            lets.emplace_back(base + ".min_realized", touched[d].min);
            lets.emplace_back(base + ".extent_realized",
                              simplify(touched[d].max + 1 - touched[d].min));
        }

        Stmt result =
            Realize::make(op->name, op->types, op->memory_type, op->bounds, op->condition, body);
        for (auto l = lets.rbegin(); l != lets.rend(); ++l) {
            result = LetStmt::make(l->first, simplify(l->second), result);
        }
        return result;
    }

private:
    const std::map<std::string, Function> &env;
    std::set<std::string> output_names;
};

/// The Provides (and the Func they define) that read `callee`.
class ProvidesCalling : public IRVisitor {
public:
    explicit ProvidesCalling(const std::string &c) : callee(c) {}
    std::vector<const Provide *> found;

protected:
    using IRVisitor::visit;
    void visit(const Provide *op) override {
        bool calls = false;
        auto check = [&](const Expr &e) {
            visit_exprs(e, [&](const Expr &x) {
                if (const Call *c = x.as<Call>()) {
                    if ((c->call_type == Call::Halide || c->call_type == Call::Image) &&
                        c->name == callee) {
                        calls = true;
                    }
                }
                return !calls;
            });
        };
        for (const Expr &e : op->values) check(e);
        for (const Expr &e : op->args) check(e);
        if (calls) found.push_back(op);
    }

private:
    const std::string &callee;
};

} // namespace

std::string find_unbounded_caller(const Stmt &s, const std::string &callee, int dim) {
    ProvidesCalling finder(callee);
    finder.dispatch(s);
    for (const Provide *p : finder.found) {
        Box b = box_required(Stmt(p), callee);
        if ((int)b.size() > dim && !b[dim].is_bounded()) return p->name;
    }
    return finder.found.empty() ? "" : finder.found[0]->name;
}

Stmt bounds_inference(const Stmt &s, const std::vector<Function> &outputs,
                      const std::map<std::string, Function> &env) {
    return BoundsInference(outputs, env).mutate(s);
}

std::map<std::string, Box> buffer_regions_required(const Stmt &s,
                                                   const std::vector<std::string> &inputs,
                                                   const std::vector<Function> &outputs) {
    std::map<std::string, Box> result;
    std::map<std::string, Box> touched = boxes_touched(s);
    for (const std::string &in : inputs) {
        Box b = touched.count(in) ? touched[in] : Box();
        check_bounded(b, s, in, "Input buffer");
        result[in] = b;
    }
    for (const Function &f : outputs) {
        Box b = touched.count(f.name()) ? touched[f.name()] : Box();
        check_bounded(b, s, f.name(), "Output Func");
        for (int i = 0; i < f.outputs(); i++) result[output_buffer_name(f, i)] = b;
    }
    return result;
}

} // namespace internal
} // namespace loom
