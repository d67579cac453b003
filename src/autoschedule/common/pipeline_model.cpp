#include "autoschedule/common/pipeline_model.h"

#include "arith/constant_interval.h"
#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/parameter.h"
#include "ir/substitute.h"
#include "simplify/simplify.h"
#include "support/error.h"
#include "support/util.h"

#include <loom/buffer.h>
#include <loom/ir_operator.h>

#include <algorithm>
#include <limits>

namespace loom {
namespace internal {

int64_t box_points(const ConcreteBox &b) {
    int64_t n = 1;
    for (const Span &s : b) n *= s.extent();
    return n;
}

ConcreteBox box_hull(const ConcreteBox &a, const ConcreteBox &b) {
    if (a.empty()) return b;
    if (b.empty()) return a;
    internal_assert(a.size() == b.size()) << "box_hull of boxes of different dimensionality";
    ConcreteBox r(a.size());
    for (size_t i = 0; i < a.size(); i++) {
        if (a[i].empty()) {
            r[i] = b[i];
        } else if (b[i].empty()) {
            r[i] = a[i];
        } else {
            r[i] = {std::min(a[i].min, b[i].min), std::max(a[i].max, b[i].max)};
        }
    }
    return r;
}

int64_t StageModel::points(const ConcreteBox &region) const {
    int64_t n = 1;
    for (int d : pure_dims) n *= region[d].extent();
    for (const Span &s : rvar_spans) n *= s.extent();
    return n;
}

namespace {

/// The estimate of a buffer parameter's min or extent in dimension d: the estimate, else the
/// constraint, else the bound Buffer's shape (undefined when none).
Expr buffer_estimate(const Parameter &p, bool is_min, int d) {
    if (d >= p.dimensions()) return Expr();
    Expr e = is_min ? p.min_constraint_estimate(d) : p.extent_constraint_estimate(d);
    if (!e.defined()) e = is_min ? p.min_constraint(d) : p.extent_constraint(d);
    if (!e.defined() && p.is_bound_buffer()) {
        Buffer<void> b = p.buffer();
        e = is_min ? b.dim(d).min() : b.dim(d).extent();
    }
    return e;
}

/// Arithmetic cost of one evaluation: unit cost for most operations, more for divisions and
/// transcendental functions (Mullapudi et al. 2016, §4.1); loads are counted apart.
double arith_cost(const Expr &root) {
    double cost = 0;
    visit_exprs(root, [&](const Expr &e) {
        switch (e.node_type()) {
        case IRNodeType::Add:
        case IRNodeType::Sub:
        case IRNodeType::Mul:
        case IRNodeType::Min:
        case IRNodeType::Max:
        case IRNodeType::EQ:
        case IRNodeType::NE:
        case IRNodeType::LT:
        case IRNodeType::LE:
        case IRNodeType::GT:
        case IRNodeType::GE:
        case IRNodeType::And:
        case IRNodeType::Or:
        case IRNodeType::Not:
        case IRNodeType::Select:
        case IRNodeType::Cast:
            cost += 1;
            break;
        case IRNodeType::Div:
        case IRNodeType::Mod: {
            const Expr &b = e.node_type() == IRNodeType::Div ? e.as<Div>()->b : e.as<Mod>()->b;
            int bits;
            cost += is_const_power_of_two_integer(b, &bits) ? 1 : (e.type().is_float() ? 4 : 8);
            break;
        }
        case IRNodeType::Call: {
            const Call *c = e.as<Call>();
            if (c->call_type == Call::PureExtern) {
                cost += (c->name.find("sqrt") != std::string::npos ||
                         c->name.find("floor") != std::string::npos ||
                         c->name.find("ceil") != std::string::npos ||
                         c->name.find("round") != std::string::npos ||
                         c->name.find("trunc") != std::string::npos)
                            ? 4
                            : 20;
            } else if (c->call_type == Call::PureIntrinsic || c->call_type == Call::Intrinsic) {
                cost += 1;
            }
            break;
        }
        default:
            break;
        }
        return true;
    });
    return cost;
}

/// Counts the loads (calls to Funcs and input buffers) in e, except reads of `self`.
void count_loads(const Expr &root, const std::string &self, std::map<std::string, double> *loads,
                 std::map<std::string, int> *input_bytes) {
    visit_exprs(root, [&](const Expr &e) {
        const Call *c = e.as<Call>();
        if (c && (c->call_type == Call::Halide || c->call_type == Call::Image) && c->name != self) {
            (*loads)[c->name] += 1;
            if (c->call_type == Call::Image) (*input_bytes)[c->name] = c->type.bytes();
        }
        return true;
    });
}

std::string min_name(const std::string &v) { return v + ".min"; }
std::string max_name(const std::string &v) { return v + ".max"; }

[[noreturn]] void missing_estimate(const std::string &func, const std::string &var) {
    user_error << "The autoscheduler needs an estimate of the region of Func " << func
               << " in dimension " << var << ": call " << func << ".set_estimate(" << var
               << ", min, extent) (or set_estimates for every dimension) before "
               << "apply_autoscheduler.\n";
    abort();
}

} // namespace

Expr substitute_estimates(const Expr &e) {
    Expr r = mutate_exprs_post(e, [](const Expr &x) -> Expr {
        const Variable *v = x.as<Variable>();
        if (!v || !v->param.defined()) return x;
        const Parameter &p = v->param;
        Expr est;
        if (!p.is_buffer()) {
            est = p.estimate();
            if (!est.defined() && p.min_value().defined() && p.max_value().defined() &&
                equal(p.min_value(), p.max_value())) {
                est = p.min_value();
            }
        } else {
            const std::string prefix = p.name() + ".";
            const std::string rest = v->name.substr(std::min(prefix.size(), v->name.size()));
            if (starts_with(rest, "min.")) {
                est = buffer_estimate(p, true, std::atoi(rest.c_str() + 4));
            } else if (starts_with(rest, "extent.")) {
                est = buffer_estimate(p, false, std::atoi(rest.c_str() + 7));
            }
        }
        return est.defined() ? cast(x.type(), est) : x;
    });
    return simplify(r);
}

bool evaluate_integer(const Expr &e, const std::map<std::string, int64_t> &vars, int64_t *value) {
    // Interval arithmetic over single points is evaluation (one mechanism, with the IR's
    // Euclidean division and wrapping rules).
    std::map<std::string, ConstantInterval> points;
    for (const auto &kv : vars) points[kv.first] = ConstantInterval::single_point(kv.second);
    ConstantInterval r = constant_integer_bounds(e, points);
    if (!r.is_single_point()) {
        // A select or a call the intervals can't narrow: what the simplifier folds.
        std::map<std::string, Expr> consts;
        for (const auto &kv : vars) consts[kv.first] = Expr((int)kv.second); // Int(32) bounds
        r = constant_integer_bounds(simplify(substitute(consts, e)));
        if (!r.is_single_point()) return false;
    }
    *value = r.min;
    return true;
}

PipelineModel::PipelineModel(const std::vector<Function> &outputs, const Target &target)
    : graph(build_call_graph(outputs)), target(target) {
    // Stage models: loops, costs and symbolic reads.
    for (const std::string &name : graph.order) {
        const Function &f = graph.func(name);
        int bytes = 0;
        for (const Type &t : f.output_types()) bytes += t.bytes();
        bytes_per_point[name] = bytes;
        if (f.has_extern_definition()) continue;
        std::vector<StageModel> &models = stages[name];
        for (int s = 0; s < num_stages(f); s++) {
            const Definition &def = stage_definition(f, s);
            StageModel m;
            m.func = name;
            m.stage = s;
            Scope scope;
            for (size_t d = 0; d < def.args.size(); d++) {
                const Variable *v = def.args[d].as<Variable>();
                if (!v || v->reduction_domain.defined() || v->param.defined()) continue;
                if (std::find(f.args().begin(), f.args().end(), v->name) == f.args().end()) {
                    continue;
                }
                m.pure_vars.push_back(v->name);
                m.pure_dims.push_back((int)d);
                scope[v->name] = Interval(Variable::make(Int(32), min_name(v->name)),
                                          Variable::make(Int(32), max_name(v->name)));
            }
            if (def.rdom.defined()) {
                for (const ReductionVariable &rv : def.rdom.domain()) {
                    int64_t mn, ext;
                    if (!evaluate_integer(substitute_estimates(rv.min), {}, &mn) ||
                        !evaluate_integer(substitute_estimates(rv.extent), {}, &ext)) {
                        user_error << "The autoscheduler can't estimate the range of RVar "
                                   << rv.var << " of Func " << name << " (min " << rv.min
                                   << ", extent " << rv.extent << "): give every Param it uses "
                                   << "an estimate (Param::set_estimate) and every input buffer "
                                   << "estimates (ImageParam::set_estimates).\n";
                    }
                    m.rvars.push_back(rv.var);
                    m.rvar_spans.push_back({mn, mn + ext - 1});
                    scope[rv.var] = Interval(Expr((int)mn), Expr((int)(mn + ext - 1)));
                }
            }
            std::vector<Expr> exprs = def.values;
            if (s > 0) exprs.insert(exprs.end(), def.args.begin(), def.args.end());
            if (def.predicate.defined()) exprs.push_back(def.predicate);
            std::map<std::string, int> input_bytes;
            for (const Expr &e : exprs) {
                m.arith += arith_cost(e);
                count_loads(e, name, &m.loads, &input_bytes);
                for (auto &kv :
                     boxes_required(substitute_estimates(e), scope, &graph.value_bounds)) {
                    if (kv.first == name) continue;
                    m.reads[kv.first] = box_union(m.reads[kv.first], kv.second);
                }
            }
            for (const auto &kv : input_bytes) bytes_per_point[kv.first] = kv.second;
            models.push_back(m);
        }
    }

    // Concrete regions, consumers before producers, from the outputs' estimates.
    for (const Function &out : graph.outputs) {
        ConcreteBox box;
        for (const std::string &v : out.args()) {
            const std::vector<Bound> &est = out.schedule().estimates;
            auto it =
                std::find_if(est.begin(), est.end(), [&](const Bound &b) { return b.var == v; });
            if (it == est.end()) missing_estimate(out.name(), v);
            int64_t mn, ext;
            user_assert(evaluate_integer(substitute_estimates(it->min), {}, &mn) &&
                        evaluate_integer(substitute_estimates(it->extent), {}, &ext))
                << "The estimate of dimension " << v << " of Func " << out.name()
                << " must be constant (after replacing Params by their estimates), not [" << it->min
                << ", " << it->extent << "].\n";
            box.push_back({mn, mn + ext - 1});
        }
        region[out.name()] = box_hull(region[out.name()], box);
    }
    for (auto it = graph.order.rbegin(); it != graph.order.rend(); ++it) {
        const std::string &name = *it;
        const Function &f = graph.func(name);
        if (!region.count(name)) {
            // Called only where simplification removes the call (g(x) - g(x)): never computed.
            region[name] = ConcreteBox(f.dimensions());
            continue;
        }
        std::map<std::string, Box> reads;
        if (f.has_extern_definition()) {
            // An extern stage is opaque: assume it reads its Func inputs over its own region.
            for (const ExternFuncArgument &a : f.extern_arguments()) {
                if (a.arg_type != ExternFuncArgument::FuncArg) continue;
                Function g(a.func);
                if (g.dimensions() != f.dimensions()) continue;
                ConcreteBox &r = region[g.name()];
                r = box_hull(r, region[name]);
            }
            continue;
        }
        for (const StageModel &m : stages[name]) {
            for (const auto &kv : m.reads) {
                const std::string &callee = kv.first;
                ConcreteBox box(kv.second.size());
                std::map<std::string, int64_t> vars;
                for (size_t i = 0; i < m.pure_vars.size(); i++) {
                    vars[min_name(m.pure_vars[i])] = region[name][m.pure_dims[i]].min;
                    vars[max_name(m.pure_vars[i])] = region[name][m.pure_dims[i]].max;
                }
                for (size_t d = 0; d < kv.second.size(); d++) {
                    const Interval &in = kv.second[d];
                    int64_t mn, mx;
                    if (in.is_bounded() && evaluate_integer(in.min, vars, &mn) &&
                        evaluate_integer(in.max, vars, &mx)) {
                        box[d] = {mn, mx};
                        continue;
                    }
                    // An unbounded read (data-dependent index): the callee's own estimate.
                    if (graph.env.count(callee)) {
                        const Function &g = graph.func(callee);
                        const std::string &v = g.args()[d];
                        const std::vector<Bound> &est = g.schedule().estimates;
                        auto e = std::find_if(est.begin(), est.end(),
                                              [&](const Bound &b) { return b.var == v; });
                        if (e == est.end() ||
                            !evaluate_integer(substitute_estimates(e->min), {}, &mn) ||
                            !evaluate_integer(substitute_estimates(e->extent), {}, &mx)) {
                            user_error << "The autoscheduler can't bound the region of Func "
                                       << callee << " that " << name << " reads in dimension " << v
                                       << ": clamp the index, or call " << callee
                                       << ".set_estimate(" << v << ", min, extent).\n";
                        }
                        box[d] = {mn, mn + mx - 1};
                    } else {
                        user_error << "The autoscheduler can't bound the region of input " << callee
                                   << " that " << name << " reads in dimension " << d
                                   << ": clamp the index, or give " << callee
                                   << " estimates (ImageParam::set_estimates).\n";
                    }
                }
                region[callee] = box_hull(region[callee], box);
            }
        }
    }
}

bool PipelineModel::is_output(const std::string &f) const {
    for (const Function &o : graph.outputs) {
        if (o.name() == f) return true;
    }
    return false;
}

std::map<std::string, ConcreteBox>
PipelineModel::stage_reads(const StageModel &m, const ConcreteBox &func_region) const {
    std::map<std::string, int64_t> vars;
    for (size_t i = 0; i < m.pure_vars.size(); i++) {
        vars[min_name(m.pure_vars[i])] = func_region[m.pure_dims[i]].min;
        vars[max_name(m.pure_vars[i])] = func_region[m.pure_dims[i]].max;
    }
    std::map<std::string, ConcreteBox> result;
    for (const auto &kv : m.reads) {
        auto w = region.find(kv.first);
        if (w == region.end()) continue; // read only by Funcs that are never computed
        const ConcreteBox &whole = w->second;
        ConcreteBox box = whole;
        for (size_t d = 0; d < kv.second.size() && d < box.size(); d++) {
            const Interval &in = kv.second[d];
            int64_t mn, mx;
            if (in.is_bounded() && evaluate_integer(in.min, vars, &mn) &&
                evaluate_integer(in.max, vars, &mx)) {
                // Clipped to what the pipeline computes (a clamp's far side reads no more).
                box[d] = {std::max(mn, whole[d].min), std::min(mx, whole[d].max)};
            }
        }
        result[kv.first] = box;
    }
    return result;
}

std::map<std::string, ConcreteBox>
PipelineModel::regions_required(const std::string &root, const ConcreteBox &box,
                                const std::function<bool(const std::string &)> &expand) const {
    std::map<std::string, ConcreteBox> regions;
    regions[root] = box;
    for (auto it = graph.order.rbegin(); it != graph.order.rend(); ++it) {
        const std::string &name = *it;
        auto r = regions.find(name);
        if (r == regions.end() || (name != root && !expand(name))) continue;
        auto s = stages.find(name);
        if (s == stages.end()) continue;
        const ConcreteBox here = r->second;
        for (const StageModel &m : s->second) {
            for (auto &kv : stage_reads(m, here)) {
                ConcreteBox &dst = regions[kv.first];
                dst = box_hull(dst, kv.second);
            }
        }
    }
    return regions;
}

} // namespace internal
} // namespace loom
