// Stage::rfactor (Suriana et al. 2017, "Parallel associative reductions in Halide"): an
// associative update f(args) = f(args) op g over RVars R is split into an intermediate
//     f_intm(pure..., v...) = identity
//     f_intm(args[P := v], v...) = f_intm(args[P := v], v...) op g[P := v]   (over R \ P)
// and a merge that replaces the update:
//     f(pure...) = f(pure...) op f_intm(pure..., P)                        (over P)
// where P are the preserved RVars, each paired with a new pure Var v. The partial results for
// different v are independent, so the intermediate's v loops may run in parallel or as vectors.
#include <loom/func.h>
#include <loom/ir_operator.h>

#include "analysis/associativity.h"
#include "ir/ir_utils.h"
#include "ir/substitute.h"
#include "lang/function.h"
#include "support/error.h"
#include "support/util.h"

#include <map>
#include <set>
#include <string>

namespace loom {

using namespace internal;

namespace {

/// An update definition with its RVar splits applied: every loop RVar is an RVar of `rvars`
/// (innermost first), args/values/predicate refer to them by name (as Variables without a
/// domain), and only the splits of pure Vars remain.
struct FlatUpdate {
    std::vector<Expr> args, values;
    Expr predicate;
    std::vector<ReductionVariable> rvars;
    std::vector<Split> pure_splits;
};

FlatUpdate flatten_rvar_splits(const Stage &stage) {
    const Definition &def = stage.definition();
    const std::string where = "In rfactor of " + stage.name() + ": ";
    FlatUpdate out;
    out.args = def.args;
    out.values = def.values;
    out.predicate = def.predicate.defined() ? def.predicate : const_true();
    std::map<std::string, std::pair<Expr, Expr>> range; // RVar -> (min, extent)
    std::vector<std::string> order;
    for (const ReductionVariable &rv : def.rdom.domain()) {
        range[rv.var] = {rv.min, rv.extent};
        order.push_back(rv.var);
    }
    auto replace = [&](const std::string &name, const Expr &value) {
        for (Expr &e : out.args) e = substitute(name, value, e);
        for (Expr &e : out.values) e = substitute(name, value, e);
        out.predicate = substitute(name, value, out.predicate);
    };
    auto rv = [](const std::string &n) { return Variable::make(Int(32), n); };
    for (const Split &s : def.schedule.splits) {
        const bool is_rvar = range.count(s.kind == Split::FuseVars ? s.inner : s.old_var) > 0;
        if (!is_rvar) {
            out.pure_splits.push_back(s);
            continue;
        }
        if (s.kind == Split::SplitVar) {
            Expr mn = range[s.old_var].first, ext = range[s.old_var].second;
            Expr outer_ext = (ext + s.factor - 1) / s.factor;
            const int64_t *ce = as_const_int(ext), *cf = as_const_int(s.factor);
            Expr offset = rv(s.outer) * s.factor + rv(s.inner);
            if (!(ce && cf && *ce % *cf == 0)) {
                // The last outer iteration runs past the end: guard it as GuardWithIf does.
                out.predicate = And::make(out.predicate, offset < ext);
                // Under the guard the clamp changes nothing, but it keeps the region bounds
                // inference sees (which ignores the guard) inside the RDom.
                offset = Min::make(offset, ext - 1);
            }
            replace(s.old_var, offset + mn);
            range.erase(s.old_var);
            range[s.outer] = {0, outer_ext};
            range[s.inner] = {0, s.factor};
        } else if (s.kind == Split::RenameVar) {
            replace(s.old_var, rv(s.outer));
            range[s.outer] = range[s.old_var];
            range.erase(s.old_var);
        } else {
            user_error << where << "the RVars " << s.inner << " and " << s.outer
                       << " were fused; rfactor works on split and renamed RVars but not fused "
                       << "ones. Call rfactor before fuse.\n";
        }
    }
    for (const Dim &d : def.schedule.dims) {
        auto it = range.find(d.var);
        if (it != range.end()) out.rvars.push_back({d.var, it->second.first, it->second.second});
    }
    internal_assert(out.rvars.size() == range.size()) << "rfactor lost track of an RVar\n";
    return out;
}

/// Rebinds the RVars named in `rdom` inside e to Variables carrying `rdom` (what the front end
/// uses to recognise reduction variables).
Expr bind_rvars(const Expr &e, const ReductionDomain &rdom) {
    if (!rdom.defined()) return e;
    std::map<std::string, Expr> m;
    for (const ReductionVariable &rv : rdom.domain()) {
        m[rv.var] = Variable::make(Int(32), rv.var, rdom);
    }
    return substitute(m, e);
}

/// The pure Vars of f that appear at their own position in `args`.
bool all_pure(const Function &f, const std::vector<Expr> &args) {
    for (size_t i = 0; i < args.size(); i++) {
        const Variable *v = args[i].as<Variable>();
        if (!v || v->name != f.args()[i] || v->reduction_domain.defined()) return false;
    }
    return true;
}

/// Replaces update `idx` of f by its last update (just added by define_update).
void move_last_update_to(Function &f, size_t idx) {
    Definition d = f.updates().back();
    f.updates().pop_back();
    f.updates()[idx] = d;
}

} // namespace

Func Stage::rfactor(const RVar &r, const Var &v) { return rfactor({{r, v}}); }

Func Stage::rfactor(const std::vector<std::pair<RVar, Var>> &preserved) {
    Function f = function();
    const std::string where = "In rfactor of " + name() + ": ";
    user_assert(stage > 0) << where << "rfactor applies to update definitions only; " << f.name()
                           << "'s pure definition has no reduction to factor.\n";
    const Definition &orig = definition();
    user_assert(orig.rdom.defined()) << where << "the update has no RDom, so there is nothing to "
                                     << "factor. rfactor needs an update over RVars.\n";
    user_assert(!preserved.empty()) << where << "give at least one (RVar, Var) pair.\n";

    // The preserved RVars, by their full loop names, and the Vars that replace them.
    std::map<std::string, std::string> var_of; // full RVar loop name -> Var name
    std::vector<std::string> pnames;
    std::set<std::string> vnames;
    for (const auto &p : preserved) {
        int i = find_loop(f, orig, p.first.name());
        user_assert(i >= 0 && orig.schedule.dims[i].is_rvar())
            << where << "RVar " << p.first.name() << " is not a reduction loop of " << name()
            << ". Its loops, outermost first, are: " << loop_list(orig) << ".\n";
        const std::string full = orig.schedule.dims[i].var;
        user_assert(!var_of.count(full))
            << where << "RVar " << p.first.name() << " is listed twice.\n";
        const std::string &vn = p.second.name();
        for (const std::string &a : f.args()) {
            user_assert(a != vn) << where << "Var " << vn << " is already a dimension of "
                                 << f.name() << "; pair " << p.first.name() << " with a new Var.\n";
        }
        user_assert(vnames.insert(vn).second)
            << where << "Var " << vn << " is paired with two RVars; use one Var per RVar.\n";
        var_of[full] = vn;
        pnames.push_back(full);
    }

    FlatUpdate flat = flatten_rvar_splits(*this);
    AssociativeOp assoc = prove_associativity(f.name(), flat.args, flat.values);
    user_assert(assoc.associative)
        << where << "can't rfactor the update of " << f.name()
        << " because it is not associative: " << assoc.reason
        << ". rfactor needs an update of the form " << f.name() << "(...) = " << f.name()
        << "(...) op g with op one of +, *, min, max, &&, ||, &, |, ^ "
        << "(or an argmin/argmax Tuple).\n";

    // argmin/argmax keep the first extreme in loop order; that survives only if the partial
    // results cover contiguous runs of the loop order, i.e. the preserved RVars are outermost.
    bool order_sensitive = false;
    for (AssociativeOpKind k : assoc.kinds) {
        order_sensitive |=
            k == AssociativeOpKind::ArgMinIndex || k == AssociativeOpKind::ArgMaxIndex;
    }
    if (order_sensitive) {
        bool seen_removed = false;
        for (auto it = flat.rvars.rbegin(); it != flat.rvars.rend(); ++it) {
            bool kept = var_of.count(it->var) > 0;
            user_assert(!(kept && seen_removed))
                << where << "can't preserve RVar " << it->var << " inside a factored RVar: the "
                << "argmin/argmax update is not commutative (ties keep the first index), so "
                << "only the outermost RVars may be preserved.\n";
            seen_removed |= !kept;
        }
    }

    // ---- The intermediate ----
    std::vector<ReductionVariable> kept_rvars, merge_rvars;
    for (const ReductionVariable &rv : flat.rvars) {
        (var_of.count(rv.var) ? merge_rvars : kept_rvars).push_back(rv);
    }
    std::map<std::string, Expr> to_v;
    for (const auto &kv : var_of) to_v[kv.first] = Variable::make(Int(32), kv.second);
    ReductionDomain intm_rdom;
    if (!kept_rvars.empty()) {
        intm_rdom = ReductionDomain(kept_rvars);
        Expr pred = substitute(to_v, flat.predicate);
        if (!is_const_true(pred)) intm_rdom.set_predicate(pred);
    } else {
        user_assert(is_const_true(flat.predicate))
            << where << "every RVar is preserved, so the RDom's where() condition would have "
            << "nothing to guard; keep at least one RVar in the intermediate.\n";
    }

    // "<f>_intm", made unique as Halide 21 does ("<f>_intm$1" next): factoring several updates
    // of one Func (a gradient's scatters) gives distinct Funcs.
    Function intm(unique_name(f.name() + "_intm"));
    std::vector<std::string> intm_args = f.args();
    std::vector<Expr> intm_pure_args;
    for (const std::string &a : f.args()) intm_pure_args.push_back(Variable::make(Int(32), a));
    for (const std::string &p : pnames) {
        intm_args.push_back(var_of[p]);
        intm_pure_args.push_back(Variable::make(Int(32), var_of[p]));
    }
    intm.define(intm_args, assoc.identities);

    std::vector<Expr> upd_args;
    for (const Expr &a : flat.args) upd_args.push_back(bind_rvars(substitute(to_v, a), intm_rdom));
    for (const std::string &p : pnames) upd_args.push_back(to_v[p]);
    std::map<std::string, Expr> xy;
    for (size_t i = 0; i < assoc.pattern.size(); i++) {
        xy[assoc.x_names[i]] = intm.make_call(upd_args, (int)i);
        xy[assoc.y_names[i]] = bind_rvars(substitute(to_v, assoc.ys[i]), intm_rdom);
    }
    std::vector<Expr> upd_values;
    for (const Expr &p : assoc.pattern) upd_values.push_back(substitute(xy, p));
    intm.define_update(upd_args, upd_values);

    // The intermediate's update keeps the original loop order and pure-Var splits, with each
    // preserved RVar's loop replaced by its Var's.
    {
        Definition &d = intm.updates().back();
        std::map<std::string, Dim> fresh;
        for (const Dim &dim : d.schedule.dims) fresh[dim.var] = dim;
        std::vector<Dim> dims;
        for (const Dim &dim : orig.schedule.dims) {
            if (var_of.count(dim.var)) {
                dims.push_back(fresh.at(var_of[dim.var]));
            } else if (dim.is_rvar()) {
                Dim nd = fresh.at(dim.var);
                nd.for_type = dim.for_type;
                dims.push_back(nd);
            } else {
                dims.push_back(dim); // a pure Var, a split product of one, or __outermost
            }
        }
        if (all_pure(f, orig.args)) {
            d.schedule.dims = dims;
            d.schedule.splits = flat.pure_splits;
        } else {
            // The original update had no pure loops to inherit: keep the RVar order and put
            // the intermediate's own Vars outside, as a fresh update would.
            std::vector<Dim> keep;
            for (const Dim &dim : dims) {
                if (dim.var != "__outermost") keep.push_back(dim);
            }
            for (const Dim &dim : d.schedule.dims) {
                bool have = false;
                for (const Dim &k : keep) have |= k.var == dim.var;
                if (!have) keep.push_back(dim);
            }
            d.schedule.dims = keep;
        }
        d.schedule.touched = orig.schedule.touched;
    }

    // ---- The merge, replacing the update ----
    ReductionDomain merge_rdom(merge_rvars);
    std::vector<Expr> pure_args;
    for (const std::string &a : f.args()) pure_args.push_back(Variable::make(Int(32), a));
    std::vector<Expr> intm_call_args = pure_args;
    for (const std::string &p : pnames) {
        intm_call_args.push_back(Variable::make(Int(32), p, merge_rdom));
    }
    std::map<std::string, Expr> mxy;
    for (size_t i = 0; i < assoc.pattern.size(); i++) {
        mxy[assoc.x_names[i]] = f.make_call(pure_args, (int)i);
        mxy[assoc.y_names[i]] = intm.make_call(intm_call_args, (int)i);
    }
    std::vector<Expr> merge_values;
    for (const Expr &p : assoc.pattern) merge_values.push_back(substitute(mxy, p));
    const size_t idx = (size_t)stage - 1;
    const StageSchedule orig_schedule = orig.schedule;
    const bool orig_pure = all_pure(f, orig.args);
    f.define_update(pure_args, merge_values);
    move_last_update_to(f, idx);
    {
        Definition &d = f.updates()[idx];
        if (orig_pure) {
            // Keep the pure loops' order, splits and directives; the preserved RVars stay where
            // they were.
            std::map<std::string, Dim> fresh;
            for (const Dim &dim : d.schedule.dims) fresh[dim.var] = dim;
            std::vector<Dim> dims;
            for (const Dim &dim : orig_schedule.dims) {
                if (var_of.count(dim.var)) {
                    Dim nd = fresh.at(dim.var);
                    nd.for_type = dim.for_type;
                    dims.push_back(nd);
                } else if (!dim.is_rvar()) {
                    dims.push_back(dim);
                }
            }
            d.schedule.dims = dims;
            d.schedule.splits = flat.pure_splits;
        }
        d.schedule.touched = orig_schedule.touched;
    }
    f.touch();
    return Func(intm);
}

} // namespace loom
