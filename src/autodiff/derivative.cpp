/// \file propagate_adjoints (include/loom/derivative.h): the traversal of Li et al. 2018, §4.1.
/// The Funcs are visited consumers first (reverse realization order) and each Func's definitions
/// from the last update back to the pure one, so the adjoint of a definition is complete when it
/// is reached: it is then made a Func and propagated through the definition's expression
/// (expr_adjoint.h) to the calls it makes, each call's contribution turned into gathers where
/// possible (scatter_gather.h). How an update passes the adjoint on to the definition before it
/// depends on how it reads the Func itself:
///   - it writes each point at most once (no RDom, or RVars placed injectively, as f(r) or
///     f(x, r + 1)) and reads only the point it writes: the points it writes take the adjoint
///     through the expression, evaluated on a snapshot of the Func before the update; the
///     others keep theirs (a partial update masks what it overwrote, §4.2.2);
///   - it accumulates into points several times with an additive update (f(x) += ..., a
///     histogram h(i(r)) += ...): the adjoint passes through unchanged;
///   - any other accumulation (product, maximum via select) into points that do not depend on
///     the RVars: the intermediate values are recorded in a history Func indexed by the
///     iteration, and the adjoint is carried back through them by a reversed scan;
///   - it reads other points it writes (a scan, f(r) = f(r - 1) + ...): a reversed loop over the
///     RDom passes each point's adjoint to the points its value was computed from, as the
///     paper's reversed RDom does.
/// Tests: tests/correctness/autodiff_*.cpp, tests/error/autodiff_errors.cpp.

#include <loom/derivative.h>

#include <loom/buffer.h>
#include <loom/inline_reductions.h>
#include <loom/ir_operator.h>
#include <loom/rdom.h>
#include <loom/tuple.h>

#include "analysis/bounds.h"
#include "autodiff/expr_adjoint.h"
#include "autodiff/scatter_gather.h"
#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "lang/call_graph.h"
#include "lang/function.h"
#include "simplify/simplify.h"
#include "support/error.h"

#include "support/util.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace loom {

using namespace internal;

namespace {

using FuncKey = Derivative::FuncKey;

/// The adjoint of one element of a definition (a Tuple-valued Func has one per element; Funcs,
/// input buffers and Params have element 0 only).
struct AdjKey {
    FuncKey func;
    int element = 0;
    bool operator<(const AdjKey &o) const {
        return func != o.func ? func < o.func : element < o.element;
    }
};

/// The adjoint of one definition while its contributions are collected.
struct Accumulator {
    std::string name; ///< of the adjoint Func
    std::vector<std::string> vars;
    Type type;
    AdjointTerms terms;
};

bool is_plain_var(const Expr &e) {
    const Variable *v = e.as<Variable>();
    return v && !v->param.defined() && !v->reduction_domain.defined();
}

/// Calls to the Func `name` in e.
std::vector<const Call *> calls_to(const Expr &e, const std::string &name) {
    std::vector<const Call *> result;
    if (!e.defined()) return result;
    visit_exprs(e, [&](const Expr &n) {
        const Call *c = n.as<Call>();
        if (c && c->call_type == Call::Halide && c->name == name) result.push_back(c);
        return true;
    });
    return result;
}

/// e with each call to the Func `name` replaced by replace(call).
Expr replace_calls(const Expr &e, const std::string &name,
                   const std::function<Expr(const Call *)> &replace) {
    return mutate_exprs_post(e, [&](const Expr &n) -> Expr {
        const Call *c = n.as<Call>();
        if (c && c->call_type == Call::Halide && c->name == name) return replace(c);
        return Expr();
    });
}

bool args_equal(const std::vector<Expr> &a, const std::vector<Expr> &b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); i++) {
        if (!equal(simplify(a[i]), simplify(b[i]))) return false;
    }
    return true;
}

Expr call(const Func &f, const std::vector<Expr> &args) { return Expr(f(args)); }

/// Element `index` of a call to f (f itself when it has one value).
Expr call(const Func &f, const std::vector<Expr> &args, int index) {
    return f.outputs() > 1 ? Expr(f(args)[index]) : call(f, args);
}

std::vector<Expr> var_exprs(const std::vector<std::string> &names) {
    std::vector<Expr> v;
    for (const std::string &n : names) v.push_back(Variable::make(Int(32), n));
    return v;
}

/// Where each RVar of an injective update's left-hand side sits: args[position] is
/// rvar + offset.
struct RVarPlacement {
    int position;
    Expr offset;
};

class AdjointBuilder {
public:
    AdjointBuilder(const Func &output, const Func &adjoint, const Region &bounds)
        : out(output.function()) {
        user_assert(out.has_pure_definition())
            << "propagate_adjoints: the output Func \"" << out.name() << "\" has no definition.\n";
        user_assert(out.outputs() == 1)
            << "propagate_adjoints: the output Func \"" << out.name()
            << "\" is Tuple-valued; differentiate one element (a Func defined as it).\n";
        user_assert(out.output_types()[0].is_float())
            << "propagate_adjoints: the output Func \"" << out.name() << "\" has type "
            << out.output_types()[0] << "; only floating-point outputs can be differentiated.\n";
        user_assert((int)bounds.size() == out.dimensions())
            << "propagate_adjoints: " << bounds.size()
            << " bounds were given for the output Func \"" << out.name() << "\", which has "
            << out.dimensions() << " dimensions.\n";
        user_assert(adjoint.defined() && adjoint.dimensions() == out.dimensions())
            << "propagate_adjoints: the adjoint of \"" << out.name() << "\" must be a defined Func"
            << " of " << out.dimensions() << " dimensions.\n";
        env = find_transitive_calls({out}, false);
        order = realization_order({out}, env);
        std::reverse(order.begin(), order.end());
        Box box;
        for (const Range &r : bounds) {
            box.push_back(Interval(r.min, simplify(r.min + r.extent - 1)));
        }
        regions[out.name()] = box;
        compute_regions();
        Accumulator &a = accumulator({{out.name(), last(out)}});
        a.terms.gathers.push_back(cast(a.type, call(adjoint, var_exprs(a.vars))));
    }

    std::map<FuncKey, Func> run() {
        for (const std::string &name : order) {
            const Function &f = env.at(name);
            if (!differentiable(f) || inline_through(f)) continue;
            for (int k = last(f); k >= -1; k--) {
                note_inputs(stage_definition(f, k + 1));
                // One adjoint per float element (undefined for the others, which carry none).
                std::vector<Func> adjs(f.outputs());
                for (int i = 0; i < f.outputs(); i++) {
                    if (!f.output_types()[i].is_float()) continue;
                    adjs[i] = finish({{name, k}, i});
                    // An adjoint read by the gathers of several calls is computed once, at the
                    // root, rather than inlined into each (the paper's scheduler checkpoints
                    // such Funcs).
                    if (calls_in(stage_definition(f, k + 1)) > 1) adjs[i].compute_root();
                }
                if (k < 0) {
                    propagate_pure(f, adjs);
                } else {
                    propagate_update(f, k, adjs);
                }
            }
        }
        // Inputs and Params: their adjoints are complete once every Func has been visited.
        for (auto &kv : accumulators) {
            if (!finished.count(kv.first)) finish(kv.first);
        }
        return assemble();
    }

private:
    static int last(const Function &f) { return (int)f.updates().size() - 1; }

    static bool differentiable(const Function &f) {
        if (f.has_extern_definition()) return false;
        for (const Type &t : f.output_types()) {
            if (t.is_float()) return true;
        }
        return false;
    }

    /// The Derivative's Funcs from the adjoints made: a Tuple-valued Func's adjoint is the
    /// Tuple of its elements' (zero for the elements that are not floats), as in Halide.
    std::map<FuncKey, Func> assemble() const {
        std::map<FuncKey, Func> result;
        for (const auto &kv : finished) {
            auto f = env.find(kv.first.func.first);
            if (f == env.end() || f->second.outputs() == 1) {
                result[kv.first.func] = kv.second;
                continue;
            }
            if (result.count(kv.first.func)) continue;
            const Function &g = f->second;
            const FuncKey &key = kv.first.func;
            std::vector<Var> vars;
            for (const std::string &v : g.args()) vars.emplace_back(v);
            std::vector<Expr> values;
            for (int i = 0; i < g.outputs(); i++) {
                auto e = finished.find({key, i});
                values.push_back(e == finished.end() ? make_zero(g.output_types()[i])
                                                     : call(e->second, var_exprs(g.args())));
            }
            Func t(key.first + "_" + std::to_string(key.second + 1) + "_d_def__");
            t(vars) = Tuple(values);
            result[key] = t;
        }
        return result;
    }

    /// The region of each Func the pipeline computes, from the output's bounds down (bounds
    /// inference over each definition, as lowering does).
    void compute_regions() {
        FuncValueBounds value_bounds = func_value_bounds(env);
        for (const std::string &name : order) {
            const Function &f = env.at(name);
            auto it = regions.find(name);
            if (it == regions.end()) continue;
            const Box box = it->second;
            for (int s = 0; s < num_stages(f); s++) {
                const Definition &def = stage_definition(f, s);
                Scope scope;
                for (size_t i = 0; i < def.args.size() && i < box.size(); i++) {
                    if (is_plain_var(def.args[i])) {
                        scope[def.args[i].as<Variable>()->name] = box[i];
                    }
                }
                if (def.rdom.defined()) {
                    for (const ReductionVariable &rv : def.rdom.domain()) {
                        scope[rv.var] = Interval(rv.min, simplify(rv.min + rv.extent - 1));
                    }
                }
                std::vector<Expr> exprs = def.values;
                exprs.insert(exprs.end(), def.args.begin(), def.args.end());
                if (def.predicate.defined()) exprs.push_back(def.predicate);
                for (const Expr &e : exprs) {
                    for (const auto &kv : boxes_required(e, scope, &value_bounds)) {
                        if (kv.first == name || !env.count(kv.first)) continue;
                        Box &r = regions[kv.first];
                        r = box_union(r, kv.second);
                    }
                }
            }
        }
    }

    /// The adjoint accumulator of `key`, made on first use (Funcs, inputs and Params).
    Accumulator &accumulator(const AdjKey &key, const Call *input = nullptr,
                             const Parameter *param = nullptr) {
        auto it = accumulators.find(key);
        if (it != accumulators.end()) return it->second;
        Accumulator a;
        a.name = key.func.first + "_" + std::to_string(key.func.second + 1) + "_d_def__";
        auto f = env.find(key.func.first);
        if (f != env.end()) {
            a.vars = f->second.args();
            a.type = f->second.output_types()[key.element];
            // A Tuple's element adjoints are Funcs of their own; the Tuple of them is made last.
            if (f->second.outputs() > 1) a.name += std::to_string(key.element);
        } else if (input) {
            for (size_t i = 0; i < input->args.size(); i++) {
                a.vars.push_back("x" + std::to_string(i));
            }
            a.type = input->type;
        } else {
            internal_assert(param) << "accumulator: unknown " << key.func.first << "\n";
            a.type = param->type();
        }
        return accumulators.emplace(key, a).first->second;
    }

    /// The number of distinct calls to Funcs and input buffers in def's values.
    static int calls_in(const Definition &def) {
        std::vector<Expr> calls;
        for (const Expr &v : def.values) {
            visit_exprs(v, [&](const Expr &e) {
                const Call *c = e.as<Call>();
                if (c && (c->call_type == Call::Halide || c->call_type == Call::Image)) {
                    bool seen = false;
                    for (const Expr &o : calls) seen = seen || equal(o, e);
                    if (!seen) calls.push_back(e);
                }
                return true;
            });
        }
        return (int)calls.size();
    }

    /// Makes sure every float input buffer and Param that `def` reads has an adjoint (zero
    /// when nothing reaches it), as every Func has.
    void note_inputs(const Definition &def) {
        for (const Expr &v : def.values) {
            visit_exprs(v, [&](const Expr &e) {
                const Call *c = e.as<Call>();
                const Variable *p = e.as<Variable>();
                if (c && c->call_type == Call::Image && c->type.is_float()) {
                    accumulator({{c->name, -1}}, c);
                } else if (p && p->param.defined() && !p->param.is_buffer() && p->type.is_float()) {
                    accumulator({{p->param.name(), -1}}, nullptr, &p->param);
                }
                return true;
            });
        }
    }

    /// Makes the adjoint Func of `key` from its collected terms.
    Func finish(const AdjKey &key) {
        Accumulator &a = accumulators.count(key) ? accumulators.at(key) : accumulator(key);
        Func f(a.name);
        Expr pure;
        for (const Expr &g : a.terms.gathers) pure = pure.defined() ? pure + g : g;
        pure = pure.defined() ? simplify(cast(a.type, pure)) : make_zero(a.type);
        std::vector<Var> vars;
        for (const std::string &v : a.vars) vars.emplace_back(v);
        f(vars) = pure;
        for (const AdjointTerms::Scatter &s : a.terms.scatters) {
            f(s.args) += cast(a.type, s.value);
        }
        // A scatter is a serial loop over its consumer's domain: computing it once, at the root,
        // is what makes it affordable (the paper's scheduler does the same).
        // An adjoint summing an inline reduction is not inlined either: the reduction is
        // computed per point of the Func calling it, and inlined into a consumer reading it at
        // other points (a boundary condition's edge case, u == 0) it would be recomputed over
        // the hull of those points at every point of the consumer. The third-order adjoints of
        // the deconvolution app were quadratic in the image that way.
        if (!a.terms.scatters.empty() || a.terms.summed) f.compute_root();
        finished[key] = f;
        return f;
    }

    /// Whether calls to g are differentiated through its definition (see send).
    bool inline_through(const Function &g) const {
        if (!g.updates().empty() || !differentiable(g)) return false;
        auto it = regions.find(g.name());
        return it != regions.end() && !box_is_bounded(it->second);
    }

    /// The iteration domain of a definition of f.
    IterationDomain domain_of(const Function &f, const Definition &def) const {
        IterationDomain d;
        d.func = f.name();
        auto found = regions.find(f.name());
        const Box box = found == regions.end() ? Box() : found->second;
        for (size_t i = 0; i < def.args.size(); i++) {
            if (!is_plain_var(def.args[i])) continue;
            IterationDomain::Dim dim;
            dim.name = def.args[i].as<Variable>()->name;
            dim.range = i < box.size() ? box[i] : Interval::everything();
            d.dims.push_back(dim);
        }
        if (def.rdom.defined()) {
            for (const ReductionVariable &rv : def.rdom.domain()) {
                IterationDomain::Dim dim;
                dim.name = rv.var;
                dim.range = Interval(rv.min, simplify(rv.min + rv.extent - 1));
                dim.is_rvar = true;
                d.dims.push_back(dim);
            }
        }
        if (def.predicate.defined() && !is_const_true(def.predicate)) d.predicate = def.predicate;
        return d;
    }

    /// Sends the contribution `w` of a call made by a definition of `consumer` to the adjoint
    /// of the callee.
    void send(const IterationDomain &dom, const Call *c, const Expr &w) {
        Expr value = simplify(w);
        if (is_const_zero(value)) return;
        std::string callee = c->name;
        AdjKey key{{callee, -1}};
        if (c->call_type == Call::Halide) {
            Function g(c->func);
            if (inline_through(g)) {
                // A pure Func read over an unbounded region (a boundary condition read at
                // data-dependent positions) is differentiated where it is called, so the
                // clamps in its definition bound the reads of what it calls.
                std::map<std::string, Expr> at;
                for (int i = 0; i < g.dimensions(); i++) at[g.args()[i]] = c->args[i];
                Expr body = substitute(at, g.definition().values[c->value_index]);
                ExprAdjoints ad = reverse_accumulate(body, value, g.name());
                for (const CallAdjoint &a : ad.calls) send(dom, a.call, a.adjoint);
                send_params(dom, ad.params, [](const Expr &w) { return w; });
                return;
            }
            user_assert(!g.has_extern_definition())
                << "propagate_adjoints: the Func \"" << dom.func << "\" reads the extern Func \""
                << callee << "\", which has no derivative. Differentiate the pipeline up to \""
                << callee << "\" (a Func reading it is an input of the differentiated part), or "
                << "define \"" << callee << "\" with Loom operations.\n";
            key = {{callee, last(g)}, c->value_index};
        }
        Accumulator &a = accumulator(key, c);
        add_call_adjoint(dom, c->args, cast(a.type, value), a.vars, callee, a.name, &a.terms);
    }

    void send_params(const IterationDomain &dom, const std::vector<ParamAdjoint> &params,
                     const std::function<Expr(const Expr &)> &weight) {
        for (const ParamAdjoint &p : params) {
            if (!p.param.type().is_float()) continue;
            Expr w = simplify(weight(p.adjoint));
            if (is_const_zero(w)) continue;
            Accumulator &a = accumulator({{p.param.name(), -1}}, nullptr, &p.param);
            add_call_adjoint(dom, {}, cast(a.type, w), {}, p.param.name(), a.name, &a.terms);
        }
    }

    void propagate_pure(const Function &f, const std::vector<Func> &adjs) {
        const Definition &def = f.definition();
        IterationDomain dom = domain_of(f, def);
        for (size_t i = 0; i < adjs.size(); i++) {
            if (!adjs[i].defined()) continue;
            ExprAdjoints ad = reverse_accumulate(def.values[i], call(adjs[i], def.args), f.name());
            for (const CallAdjoint &c : ad.calls) send(dom, c.call, c.adjoint);
            send_params(dom, ad.params, [](const Expr &w) { return w; });
        }
    }

    /// f after its definitions up to update k (-1: the pure definition alone), as a Func.
    Func snapshot(const Function &f, int k) {
        if (k == last(f)) return Func(f);
        FuncKey key{f.name(), k};
        auto it = snapshots.find(key);
        if (it != snapshots.end()) return it->second;
        Func s(f.name() + "_" + std::to_string(k + 1) + "_snapshot");
        std::vector<Var> vars;
        for (const std::string &v : f.args()) vars.emplace_back(v);
        s(vars) = Tuple(f.definition().values);
        for (int j = 0; j <= k; j++) {
            const Definition &d = f.updates()[j];
            std::vector<Expr> values;
            for (const Expr &v : d.values) {
                values.push_back(replace_calls(
                    v, f.name(), [&](const Call *c) { return call(s, c->args, c->value_index); }));
            }
            s(d.args) = Tuple(values);
        }
        s.compute_root();
        snapshots[key] = s;
        return s;
    }

    /// Adds to the adjoints of definition k - 1 of f the adjoints of definition k at the points
    /// definition k does not write (`dom` iterates over what it writes, at `lhs`).
    void pass_unwritten(const Function &f, int k, const IterationDomain &dom,
                        const std::vector<Expr> &lhs, const std::vector<Func> &adjs) {
        // The number of writes to each point (a float: it is summed like an adjoint).
        const Type t = Float(32);
        const std::vector<Expr> vars = var_exprs(f.args());
        AdjointTerms written;
        std::string name = f.name() + "_" + std::to_string(k + 1) + "_written";
        add_call_adjoint(dom, lhs, make_one(t), f.args(), f.name(), name, &written);
        Expr mask;
        for (const Expr &g : written.gathers) mask = mask.defined() ? mask + g : g;
        if (!written.scatters.empty()) {
            Func m(name);
            std::vector<Var> mvars;
            for (const std::string &v : f.args()) mvars.emplace_back(v);
            m(mvars) = mask.defined() ? mask : make_zero(t);
            for (const AdjointTerms::Scatter &s : written.scatters) m(s.args) = s.value;
            m.compute_root();
            mask = call(m, vars);
        }
        for (size_t i = 0; i < adjs.size(); i++) {
            if (!adjs[i].defined()) continue;
            Accumulator &prev = accumulator({{f.name(), k - 1}, (int)i});
            Expr here = call(adjs[i], vars);
            if (mask.defined()) here = select(mask > make_zero(t), make_zero(prev.type), here);
            prev.terms.gathers.push_back(here);
        }
    }

    /// Where each RVar sits in `lhs` when every point is written at most once: each RVar alone
    /// (plus an offset free of the iteration variables) in one argument, the other arguments
    /// the pure Vars or free of RVars. False otherwise.
    static bool injective(const Definition &def, std::vector<RVarPlacement> *placements) {
        const std::vector<ReductionVariable> &rvars = def.rdom.domain();
        std::set<std::string> names;
        for (const ReductionVariable &rv : rvars) names.insert(rv.var);
        std::set<std::string> pure;
        for (const Expr &a : def.args) {
            if (is_plain_var(a)) pure.insert(a.as<Variable>()->name);
        }
        placements->assign(rvars.size(), {-1, Expr()});
        for (size_t p = 0; p < def.args.size(); p++) {
            const Expr &a = def.args[p];
            if (!expr_uses_vars(a, names)) continue;
            for (size_t i = 0; i < rvars.size(); i++) {
                if (!expr_uses_var(a, rvars[i].var)) continue;
                Expr rv = Variable::make(Int(32), rvars[i].var);
                Expr offset = simplify(a - rv);
                std::set<std::string> all = names;
                all.insert(pure.begin(), pure.end());
                if ((*placements)[i].position >= 0 || expr_uses_vars(offset, all)) return false;
                (*placements)[i] = {(int)p, offset};
            }
        }
        for (const RVarPlacement &pl : *placements) {
            if (pl.position < 0) return false;
        }
        return true;
    }

    void propagate_update(const Function &f, int k, const std::vector<Func> &adjs) {
        const Definition &def = f.updates()[k];
        const std::string &name = f.name();
        IterationDomain dom = domain_of(f, def);
        const std::vector<Expr> &lhs = def.args;
        const bool tuple = f.outputs() > 1;
        for (const Expr &a : lhs) {
            user_assert(calls_to(a, name).empty())
                << "propagate_adjoints: an update of the Func \"" << name
                << "\" writes at a position computed from \"" << name
                << "\" itself; this is not supported yet.\n";
        }
        // Reads of f itself must be at the pure Vars the update writes along them.
        std::vector<const Call *> self;
        for (const Expr &v : def.values) {
            for (const Call *c : calls_to(v, name)) self.push_back(c);
        }
        bool pointwise = true;
        for (const Call *c : self) {
            for (size_t i = 0; i < lhs.size(); i++) {
                user_assert(!is_plain_var(lhs[i]) || equal(c->args[i], lhs[i]))
                    << "propagate_adjoints: an update of the Func \"" << name
                    << "\" reads it at another point along the pure dimension " << lhs[i]
                    << " (a scan over a pure Var); this is not supported yet: scan over an "
                       "RVar instead.\n";
            }
            pointwise = pointwise && args_equal(c->args, lhs);
        }
        std::vector<RVarPlacement> placements;
        bool once = !def.rdom.defined() || injective(def, &placements);
        // The partial derivatives of each float element's value (none for the others).
        std::vector<ExprAdjoints> partials(def.values.size());
        for (size_t i = 0; i < def.values.size(); i++) {
            if (adjs[i].defined()) {
                partials[i] =
                    reverse_accumulate(def.values[i], make_one(def.values[i].type()), name);
            }
        }

        if (!pointwise) {
            user_assert(once) << "propagate_adjoints: an update of the Func \"" << name
                              << "\" reads other points of \"" << name
                              << "\" and may write a point more than once; only scans that "
                                 "write each point once (f(r) = f(r - 1) ...) are supported.\n";
            propagate_scan(f, k, adjs, dom, placements, partials);
            return;
        }
        if (once) {
            // Each point is written once: the expression's derivatives are evaluated on f as it
            // was before the update.
            Func before = snapshot(f, k - 1);
            auto on_before = [&](const Expr &e) {
                return replace_calls(
                    e, name, [&](const Call *c) { return call(before, c->args, c->value_index); });
            };
            for (size_t i = 0; i < adjs.size(); i++) {
                if (!adjs[i].defined()) continue;
                Expr adj_here = call(adjs[i], lhs);
                for (const CallAdjoint &c : partials[i].calls) {
                    Expr w = adj_here * on_before(c.adjoint);
                    if (c.call->name == name) {
                        Accumulator &prev = accumulator({{name, k - 1}, c.call->value_index});
                        add_call_adjoint(dom, c.call->args, cast(prev.type, simplify(w)), prev.vars,
                                         name, prev.name, &prev.terms);
                    } else {
                        send(dom, c.call, w);
                    }
                }
                send_params(dom, partials[i].params,
                            [&](const Expr &p) { return adj_here * on_before(p); });
            }
            pass_unwritten(f, k, dom, lhs, adjs);
            return;
        }
        // Several writes to a point: an update adding to each element (or leaving it as it
        // was) passes the element's adjoint through.
        bool additive = !self.empty();
        for (size_t i = 0; i < adjs.size(); i++) {
            bool adds_to_self = false;
            for (const CallAdjoint &c : partials[i].calls) {
                if (c.call->name == name) {
                    bool same = c.call->value_index == (int)i && is_const_one(simplify(c.adjoint));
                    additive = additive && same;
                    adds_to_self = adds_to_self || same;
                } else {
                    additive = additive && calls_to(c.adjoint, name).empty();
                }
            }
            for (const ParamAdjoint &p : partials[i].params) {
                additive = additive && calls_to(p.adjoint, name).empty();
            }
            additive = additive && (!adjs[i].defined() || adds_to_self);
        }
        if (additive) {
            for (size_t i = 0; i < adjs.size(); i++) {
                if (!adjs[i].defined()) continue;
                Expr adj_here = call(adjs[i], lhs);
                for (const CallAdjoint &c : partials[i].calls) {
                    if (c.call->name != name) send(dom, c.call, adj_here * c.adjoint);
                }
                send_params(dom, partials[i].params, [&](const Expr &p) { return adj_here * p; });
                Accumulator &prev = accumulator({{name, k - 1}, (int)i});
                prev.terms.gathers.push_back(call(adjs[i], var_exprs(prev.vars)));
            }
            return;
        }
        for (const Expr &a : lhs) {
            user_assert(!expr_uses_vars(a, rvar_names(def)))
                << "propagate_adjoints: an update of the Func \"" << name
                << "\" combines values into points chosen by its RVars with an operation other "
                   "than + or -; this is not supported yet.\n";
        }
        user_assert(!self.empty()) << "propagate_adjoints: an update of the Func \"" << name
                                   << "\" overwrites points several times over its RDom (the last"
                                      " write wins); this is not supported yet.\n";
        user_assert(!tuple) << "propagate_adjoints: an update of the Tuple-valued Func \"" << name
                            << "\" combines its elements over an RDom other than by adding to "
                               "each (an argmin, say); this is not supported yet (Halide 21 "
                               "refuses it too).\n";
        propagate_history(f, k, adjs[0], dom, partials[0]);
    }

    static std::set<std::string> rvar_names(const Definition &def) {
        std::set<std::string> names;
        if (def.rdom.defined()) {
            for (const ReductionVariable &rv : def.rdom.domain()) names.insert(rv.var);
        }
        return names;
    }

    /// A reduction that is not additive, f(x) = op(f(x), e(x, r)): the values of f(x) after each
    /// iteration t of the RDom are recorded in history(x, t) (history(x, -1) is the value before
    /// the update), and the adjoint is carried back along them by a reversed scan, chain(x, t)
    /// being the adjoint of history(x, t).
    void propagate_history(const Function &f, int k, const Func &adj, const IterationDomain &dom,
                           const ExprAdjoints &partials) {
        const Definition &def = f.updates()[k];
        const std::string &name = f.name();
        const std::string prefix = name + "_" + std::to_string(k + 1);
        const std::vector<ReductionVariable> &rvars = def.rdom.domain();
        // The linear iteration number t of an RVar point, and back.
        Expr total = 1, t_of_r = 0;
        std::vector<Expr> strides;
        for (const ReductionVariable &rv : rvars) {
            strides.push_back(total);
            t_of_r = t_of_r + (Variable::make(Int(32), rv.var) - rv.min) * total;
            total = total * rv.extent;
        }
        total = simplify(total);
        t_of_r = simplify(t_of_r);
        auto r_of_t = [&](const Expr &t) {
            std::map<std::string, Expr> m;
            for (size_t i = 0; i < rvars.size(); i++) {
                Expr idx = rvars.size() == 1 ? t : (t / strides[i]) % rvars[i].extent;
                m[rvars[i].var] = simplify(rvars[i].min + idx);
            }
            return m;
        };
        std::vector<Var> xs;
        std::vector<Expr> x_exprs;
        for (const Expr &a : def.args) {
            if (is_plain_var(a)) {
                xs.emplace_back(a.as<Variable>()->name);
                x_exprs.push_back(a);
            }
        }
        Var t(unique_name('t'));
        auto at = [&](const Func &g, const Expr &tt) {
            std::vector<Expr> args = x_exprs;
            args.push_back(tt);
            return call(g, args);
        };
        std::vector<Var> xt = xs;
        xt.push_back(t);
        Expr pred = def.predicate.defined() ? def.predicate : const_true();

        Func history(prefix + "_history");
        history(xt) = call(snapshot(f, k - 1), def.args);
        RDom rt(0, total, prefix + "_rt");
        {
            auto m = r_of_t(rt.x);
            Expr before = at(history, rt.x - 1);
            Expr v = replace_calls(def.values[0], name, [&](const Call *) { return before; });
            history(append(x_exprs, rt.x)) = select(substitute(m, pred), substitute(m, v), before);
        }
        history.compute_root();
        auto on_history = [&](const Expr &e, const Expr &tt) {
            return replace_calls(e, name, [&](const Call *) { return at(history, tt - 1); });
        };

        Expr self_partial = make_zero(def.values[0].type());
        for (const CallAdjoint &c : partials.calls) {
            if (c.call->name == name) self_partial = c.adjoint;
        }
        Func chain(prefix + "_d_chain");
        chain(xt) = call(adj, def.args);
        RDom rr(0, total, prefix + "_rr");
        {
            Expr tt = total - 2 - rr.x;
            auto m = r_of_t(tt + 1);
            Expr p = substitute(m, on_history(self_partial, tt + 1));
            chain(append(x_exprs, tt)) =
                at(chain, tt + 1) *
                select(substitute(m, pred), substitute(m, p), make_one(self_partial.type()));
        }
        chain.compute_root();

        // What reached the value before the update flows to the previous definition, where
        // the update wrote; elsewhere the adjoint passes unchanged.
        IterationDomain pure_dom = dom;
        pure_dom.dims.erase(std::remove_if(pure_dom.dims.begin(), pure_dom.dims.end(),
                                           [](const IterationDomain::Dim &d) { return d.is_rvar; }),
                            pure_dom.dims.end());
        pure_dom.predicate = Expr();
        Accumulator &prev = accumulator({{name, k - 1}});
        add_call_adjoint(pure_dom, def.args, cast(prev.type, at(chain, -1)), prev.vars, name,
                         prev.name, &prev.terms);
        pass_unwritten(f, k, pure_dom, def.args, {adj});
        Expr adj_t = at(chain, t_of_r);
        for (const CallAdjoint &c : partials.calls) {
            if (c.call->name != name) send(dom, c.call, adj_t * on_history(c.adjoint, t_of_r));
        }
        send_params(dom, partials.params,
                    [&](const Expr &p) { return adj_t * on_history(p, t_of_r); });
    }

    static std::vector<Expr> append(std::vector<Expr> v, const Expr &e) {
        v.push_back(e);
        return v;
    }

    /// A scan, f(L(r)) = e(f(I_1(r)), ..., f(I_m(r)), ...) writing each point once: a reversed
    /// loop over the RDom (with an inner loop j over the m reads and the write) in the Tuple
    /// Func scan(u) = {adjoints, adjoints of the values written at u}, one of each per float
    /// element of f. At iteration r, step j < m adds a_i * de_i/df(I_j) to the adjoint of the
    /// element read at I_j (a_i, the adjoint of element i at L(r), is then complete), and step
    /// m records the a_i and leaves at L(r) what flows to the values they overwrote.
    void propagate_scan(const Function &f, int k, const std::vector<Func> &adjs,
                        const IterationDomain &dom, const std::vector<RVarPlacement> &placements,
                        const std::vector<ExprAdjoints> &partials) {
        const Definition &def = f.updates()[k];
        const std::string &name = f.name();
        const std::string prefix = name + "_" + std::to_string(k + 1);
        const std::vector<ReductionVariable> &rvars = def.rdom.domain();
        const std::vector<Expr> &lhs = def.args;
        Expr pred = def.predicate.defined() ? def.predicate : const_true();
        Func before = snapshot(f, k - 1), after = snapshot(f, k);

        // The value a read of element `index` of f at `args` sees at iteration r: the update's
        // own write when the point was written at an earlier iteration, the value before the
        // update otherwise.
        auto seen = [&](const std::vector<Expr> &args, int index) -> Expr {
            if (args_equal(args, lhs)) return call(before, args, index);
            std::map<std::string, Expr> writer;
            Expr in_domain = const_true();
            for (size_t i = 0; i < rvars.size(); i++) {
                Expr w = simplify(args[placements[i].position] - placements[i].offset);
                writer[rvars[i].var] = w;
                in_domain = in_domain && rvars[i].min <= w && w < rvars[i].min + rvars[i].extent;
            }
            for (size_t p = 0; p < lhs.size(); p++) {
                bool placed = false;
                for (const RVarPlacement &pl : placements) placed = placed || pl.position == (int)p;
                if (!placed && !is_plain_var(lhs[p])) in_domain = in_domain && args[p] == lhs[p];
            }
            // Iteration order: the last RVar outermost.
            Expr earlier = const_false();
            for (size_t i = 0; i < rvars.size(); i++) {
                Expr r = Variable::make(Int(32), rvars[i].var);
                earlier = writer[rvars[i].var] < r || (writer[rvars[i].var] == r && earlier);
            }
            Expr cond = simplify(in_domain && substitute(writer, pred) && earlier);
            return select(cond, call(after, args, index), call(before, args, index));
        };
        auto forward = [&](const Expr &e) {
            return replace_calls(e, name,
                                 [&](const Call *c) { return seen(c->args, c->value_index); });
        };

        // The scan's elements: the adjoint of each float element of f, then the adjoint of
        // each one's written value.
        const int values = (int)def.values.size();
        std::vector<int> slot(values, -1);
        int slots = 0;
        for (int e = 0; e < values; e++) {
            if (adjs[e].defined()) slot[e] = slots++;
        }
        // The reads of f at other points, one step of the inner loop each: (value whose
        // derivative it is, the call and that derivative).
        std::vector<std::pair<int, const CallAdjoint *>> reads;
        for (int i = 0; i < values; i++) {
            if (slot[i] < 0) continue;
            for (const CallAdjoint &c : partials[i].calls) {
                if (c.call->name == name && !args_equal(c.call->args, lhs)) {
                    reads.emplace_back(i, &c);
                }
            }
        }
        int m = (int)reads.size();
        Region region{Range(0, m + 1)};
        for (const ReductionVariable &rv : rvars) region.emplace_back(0, rv.extent);
        RDom rr(region, prefix + "_rr");
        std::map<std::string, Expr> reversed;
        for (size_t i = 0; i < rvars.size(); i++) {
            reversed[rvars[i].var] = simplify(rvars[i].min + rvars[i].extent - 1 - rr[(int)i + 1]);
        }
        Expr j = rr[0];
        auto rev = [&](const Expr &e) { return substitute(reversed, e); };

        Func scan(prefix + "_d_scan");
        std::vector<Var> uvars;
        for (const std::string &v : f.args()) uvars.emplace_back(v);
        std::vector<Expr> initial(2 * slots);
        for (int e = 0; e < values; e++) {
            if (slot[e] < 0) continue;
            initial[slot[e]] = call(adjs[e], var_exprs(f.args()));
            initial[slots + slot[e]] = make_zero(def.values[e].type());
        }
        scan(uvars) = Tuple(initial);

        std::vector<Expr> L = lhs;
        for (Expr &e : L) e = rev(e);
        std::vector<Expr> a(values);
        for (int e = 0; e < values; e++) {
            if (slot[e] >= 0) a[e] = Expr(scan(L)[slot[e]]);
        }
        auto differs = [&](const std::vector<Expr> &args) {
            Expr d = const_false();
            for (size_t p = 0; p < args.size(); p++) d = d || args[p] != L[p];
            return d;
        };
        std::vector<Expr> target(lhs.size());
        for (size_t p = 0; p < lhs.size(); p++) {
            if (is_plain_var(lhs[p])) {
                target[p] = lhs[p];
                continue;
            }
            std::vector<Expr> options;
            for (const auto &read : reads) options.push_back(rev(read.second->call->args[p]));
            options.push_back(L[p]);
            target[p] = mux(j, options);
        }
        // Per element e: what step j adds to its adjoint at the target, and what the write
        // leaves at L(r) (the reads of e at L(r) itself, through every value).
        std::vector<std::vector<Expr>> adds(values);
        std::vector<Expr> stay(values);
        for (int e = 0; e < values; e++) {
            if (slot[e] < 0) continue;
            stay[e] = make_zero(def.values[e].type());
            for (int i = 0; i < values; i++) {
                if (slot[i] < 0) continue;
                for (const CallAdjoint &c : partials[i].calls) {
                    if (c.call->name == name && c.call->value_index == e &&
                        args_equal(c.call->args, lhs)) {
                        stay[e] = stay[e] + cast(stay[e].type(), a[i] * rev(forward(c.adjoint)));
                    }
                }
            }
        }
        for (const auto &read : reads) {
            const CallAdjoint &c = *read.second;
            std::vector<Expr> args;
            for (const Expr &e : c.call->args) args.push_back(rev(e));
            const int e = c.call->value_index;
            Expr contribution = cast(def.values[e].type(), a[read.first] * rev(forward(c.adjoint)));
            for (int o = 0; o < values; o++) {
                if (slot[o] < 0) continue;
                adds[o].push_back(
                    o == e ? select(differs(args), contribution, make_zero(contribution.type()))
                           : make_zero(def.values[o].type()));
            }
            if (slot[e] >= 0) {
                stay[e] =
                    stay[e] + select(differs(args), make_zero(contribution.type()), contribution);
            }
        }
        Expr write = j == m, active = rev(pred);
        std::vector<Expr> updated(2 * slots);
        for (int e = 0; e < values; e++) {
            if (slot[e] < 0) continue;
            adds[e].push_back(make_zero(def.values[e].type()));
            Expr old_adj = Expr(scan(target)[slot[e]]);
            Expr old_written = Expr(scan(target)[slots + slot[e]]);
            Expr new_adj = select(write, stay[e], old_adj + mux(j, adds[e]));
            Expr new_written = select(write, a[e], old_written);
            updated[slot[e]] = select(active, new_adj, old_adj);
            updated[slots + slot[e]] = select(active, new_written, old_written);
        }
        scan(target) = Tuple(updated);
        scan.compute_root();

        for (int e = 0; e < values; e++) {
            if (slot[e] < 0) continue;
            Accumulator &prev = accumulator({{name, k - 1}, e});
            prev.terms.gathers.push_back(Expr(scan(var_exprs(prev.vars))[slot[e]]));
        }
        for (int i = 0; i < values; i++) {
            if (slot[i] < 0) continue;
            Expr written_adj = Expr(scan(lhs)[slots + slot[i]]);
            for (const CallAdjoint &c : partials[i].calls) {
                if (c.call->name != name) send(dom, c.call, written_adj * forward(c.adjoint));
            }
            send_params(dom, partials[i].params,
                        [&](const Expr &p) { return written_adj * forward(p); });
        }
    }

    Function out;
    std::map<std::string, Function> env;
    std::vector<std::string> order; ///< consumers first
    std::map<std::string, Box> regions;
    std::map<AdjKey, Accumulator> accumulators;
    std::map<FuncKey, Func> snapshots;
    std::map<AdjKey, Func> finished;
};

Func lookup(const std::map<Derivative::FuncKey, Func> &adjoints, const Derivative::FuncKey &key) {
    auto it = adjoints.find(key);
    return it == adjoints.end() ? Func() : it->second;
}

} // namespace

Func Derivative::operator()(const Func &func, int update_id) const {
    Func found = lookup(adjoints, {func.name(), update_id});
    if (found.defined() || update_id != -1 || !func.defined()) return found;
    // d(image_param) converts the ImageParam to its Func, "<name>_im", a pure read of the
    // input: its adjoint is the input's.
    const Function f = func.function();
    if (!f.updates().empty() || f.definition().values.size() != 1) return found;
    const Call *read = f.definition().values[0].as<Call>();
    if (!read || read->call_type != Call::Image || !read->param.defined() ||
        read->args.size() != f.args().size()) {
        return found;
    }
    for (size_t i = 0; i < read->args.size(); i++) {
        const Variable *v = read->args[i].as<Variable>();
        if (!v || v->name != f.args()[i]) return found;
    }
    return lookup(adjoints, {read->name, -1});
}

Func Derivative::operator()(const Buffer<> &buffer) const {
    // The name under which the pipeline reads the Buffer (its bound Parameter's).
    std::vector<Expr> origin(buffer.dimensions(), Expr(0));
    Expr read = buffer(origin);
    const Call *c = read.as<Call>();
    return lookup(adjoints, {c ? c->name : buffer.name(), -1});
}

Func Derivative::operator()(const Param<> &param) const {
    return lookup(adjoints, {param.name(), -1});
}

Func Derivative::operator()(const std::string &name) const { return lookup(adjoints, {name, -1}); }

Derivative propagate_adjoints(const Func &output, const Func &adjoint,
                              const Region &output_bounds) {
    return Derivative(AdjointBuilder(output, adjoint, output_bounds).run());
}

Derivative propagate_adjoints(const Func &output, const Buffer<float> &adjoint) {
    user_assert(adjoint.defined())
        << "propagate_adjoints: the adjoint Buffer of \"" << output.name() << "\" is undefined.\n";
    Region bounds;
    std::vector<Var> vars;
    std::vector<Expr> coords;
    for (int i = 0; i < adjoint.dimensions(); i++) {
        bounds.emplace_back(adjoint.dim(i).min(), adjoint.dim(i).extent());
        vars.push_back(Var::implicit(i));
        coords.push_back(vars.back());
    }
    Func a(output.name() + "_adjoint");
    a(vars) = Buffer<>(adjoint)(coords);
    return propagate_adjoints(output, a, bounds);
}

Derivative propagate_adjoints(const Func &output) {
    Region bounds(output.dimensions(), Range(0, 1));
    std::vector<Var> vars;
    for (int i = 0; i < output.dimensions(); i++) vars.push_back(Var::implicit(i));
    Func a(output.name() + "_adjoint");
    a(vars) = make_one(output.defined() ? output.type() : Float(32));
    return propagate_adjoints(output, a, bounds);
}

} // namespace loom
