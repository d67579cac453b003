#include "lower/build_provide_loop_nest.h"

#include <loom/ir_operator.h>

#include "ir/ir_utils.h"
#include "ir/substitute.h"
#include "lower/inline.h"
#include "lower/loop_names.h"
#include "lower/lower_utils.h"
#include "support/error.h"

#include <map>
#include <set>
#include <utility>
#include <vector>

namespace loom {
namespace internal {

namespace {

Expr var(const std::string &name) { return Variable::make(Int(32), name); }

/// The tail strategy a split really uses: Halide's rule for Auto (ShiftInwards for pure
/// definitions, RoundUp for pure vars of updates, GuardWithIf for RVars), and GuardWithIf for
/// exact splits.
TailStrategy effective_tail(const Split &s, bool is_update, bool is_rvar) {
    if (s.exact) return TailStrategy::GuardWithIf;
    if (s.tail != TailStrategy::Auto) return s.tail;
    if (!is_update) return TailStrategy::ShiftInwards;
    return is_rvar ? TailStrategy::GuardWithIf : TailStrategy::RoundUp;
}

} // namespace

Definition rename_stage_definition(const Function &f, int stage) {
    return rename_definition(f, stage, stage_definition(f, stage));
}

Definition rename_definition(const Function &f, int stage, const Definition &def) {
    std::string prefix = stage_prefix(f.name(), stage);
    std::map<std::string, Expr> rename;
    for (const std::string &a : f.args()) rename[a] = var(prefix + a);
    if (def.rdom.defined()) {
        for (const ReductionVariable &rv : def.rdom.domain()) rename[rv.var] = var(prefix + rv.var);
    }
    Definition out = def;
    for (Expr &e : out.args) e = substitute(rename, e);
    for (Expr &e : out.values) e = substitute(rename, e);
    if (out.predicate.defined()) out.predicate = substitute(rename, out.predicate);
    // random() is a function of the coordinates being computed: the stage's args.
    for (Expr &e : out.values) e = lower_random(e, out.args);
    return out;
}

namespace {

/// The range a loop variable takes in the loop nest (or one covering it), when it may differ
/// from [.loop_min, .loop_max] (a RoundUp split runs past the old variable's max; a
/// ShiftInwards split of an extent below its factor starts before its min).
struct Reach {
    Expr lo, hi;
};

/// A fuse promises that its outer variable, fused / inner_extent + outer.loop_min, lies in
/// [outer.loop_min, outer.loop_max]. That holds while the fused loop stays in [0, fused extent);
/// a later RoundUp or ShiftInwards split of the fused variable (or of one derived from it) makes
/// it run further, and the outer variable with it (Halide realizes the rows or channels those
/// extra iterations write). There the promise is widened to cover the range the outer variable
/// really takes, so bounds inference allocates what the loops write. Walks the splits newest first:
/// a variable's range follows from those of the variables that replaced it.
void widen_fuse_promises(const std::vector<Split> &splits, const std::vector<TailStrategy> &tails,
                         const std::string &prefix,
                         std::vector<std::pair<std::string, Expr>> &var_lets) {
    std::map<std::string, Reach> reach; // only the variables whose range may differ
    auto loop_range = [&](const std::string &v) {
        return Reach{var(v + ".loop_min"), var(v + ".loop_max")};
    };
    for (size_t k = splits.size(); k-- > 0;) {
        const Split &s = splits[k];
        const std::string old_n = prefix + s.old_var;
        if (s.kind == Split::SplitVar) {
            const std::string outer = prefix + s.outer, inner = prefix + s.inner;
            TailStrategy tail = tails[k];
            bool shift = tail == TailStrategy::ShiftInwards,
                 round_up = tail == TailStrategy::RoundUp;
            if (!shift && !round_up && !reach.count(outer) && !reach.count(inner)) continue;
            Reach o = reach.count(outer) ? reach[outer] : loop_range(outer);
            Reach i = reach.count(inner) ? reach[inner] : loop_range(inner);
            Expr old_min = var(old_n + ".loop_min"), old_max = var(old_n + ".loop_max");
            Expr lo = o.lo * s.factor + old_min, hi = o.hi * s.factor + old_min;
            if (shift) {
                lo = Min::make(lo, old_max + (1 - s.factor));
                hi = Min::make(hi, old_max + (1 - s.factor));
            }
            lo = lo + i.lo;
            hi = hi + i.hi;
            // A guarded split's test keeps the old variable at or below its max.
            if (!shift && !round_up) hi = Min::make(hi, var(old_n + ".loop_max"));
            reach[old_n] = Reach{lo, hi};
        } else if (s.kind == Split::RenameVar) {
            auto it = reach.find(prefix + s.outer);
            if (it != reach.end()) reach[old_n] = it->second;
        } else {
            auto it = reach.find(old_n);
            if (it == reach.end()) continue;
            // Each step of the fused variable past its range moves the outer variable by at
            // most one (by 1 / inner_extent on average: Halide's bound, but bounds inference
            // cannot divide by a symbolic extent without losing the range); fused %
            // inner_extent stays in the inner variable's range regardless.
            const std::string outer = prefix + s.outer;
            Expr below = Min::make(it->second.lo - var(old_n + ".loop_min"), 0);
            Expr above = Max::make(it->second.hi - var(old_n + ".loop_max"), 0);
            Reach r{var(outer + ".loop_min") + below, var(outer + ".loop_max") + above};
            reach[outer] = r;
            for (auto &l : var_lets) {
                const Call *c = l.second.as<Call>();
                if (l.first == outer && c && c->is_intrinsic(Call::promise_clamped)) {
                    l.second = Call::make(Int(32), Call::promise_clamped, {c->args[0], r.lo, r.hi},
                                          Call::PureIntrinsic);
                }
            }
        }
    }
}

/// The Provide of f's values at args; with scatter/gather (vector arguments or values of N
/// elements), the values are computed once, as vectors, then stored one element at a time,
/// left to right (so the last of several stores to one place wins).
Stmt scattered_provide(const Function &f, const std::vector<Expr> &values,
                       const std::vector<Expr> &args) {
    int lanes = 1;
    for (const std::vector<Expr> *list : {&values, &args}) {
        for (const Expr &e : *list) lanes = std::max(lanes, e.type().lanes());
    }
    if (lanes == 1) return Provide::make(f.name(), values, args, const_true());
    std::vector<Expr> gathered;
    std::vector<std::pair<std::string, Expr>> lets;
    for (size_t i = 0; i < values.size(); i++) {
        if (values[i].type().is_scalar()) {
            gathered.push_back(values[i]);
            continue;
        }
        std::string n = f.name() + ".gathered." + std::to_string(i);
        lets.emplace_back(n, values[i]);
        gathered.push_back(Variable::make(values[i].type(), n));
    }
    auto element = [](const Expr &e, int k) {
        return e.type().is_scalar() ? e : Shuffle::make_extract_element(e, k);
    };
    std::vector<Stmt> stores;
    for (int k = 0; k < lanes; k++) {
        std::vector<Expr> vs, as;
        for (const Expr &v : gathered) vs.push_back(element(v, k));
        for (const Expr &a : args) as.push_back(element(a, k));
        stores.push_back(Provide::make(f.name(), vs, as, const_true()));
    }
    Stmt s = Block::make(stores);
    for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
        s = LetStmt::make(it->first, it->second, s);
    }
    return s;
}

/// The loops of one definition of stage `stage` (the default or a specialization), without the
/// stage's "__outermost" loop.
Stmt build_definition_loops(const Function &f, int stage, const Definition &def) {
    const std::string prefix = stage_prefix(f.name(), stage);
    const bool is_update = stage > 0;
    Definition renamed = rename_definition(f, stage, def);

    // The innermost statement: the Provide, under the RDom predicate.
    Stmt body = scattered_provide(f, renamed.values, renamed.args);
    if (def.schedule.atomic) {
        // atomic(): the stores become atomic (codegen_atomic.cpp); a Tuple needs a lock.
        body = Atomic::make(f.name(), f.outputs() > 1 ? f.name() + ".mutex" : "", body);
    }
    if (renamed.predicate.defined() && !is_const_true(renamed.predicate)) {
        body = IfThenElse::make(renamed.predicate, body);
    }

    // The loop bounds of every loop variable, in definition order: the original Vars and RVars
    // get theirs from the (bounds-inferred) .min/.max; splits derive the rest.
    std::vector<std::pair<std::string, Expr>> bound_lets;
    std::set<std::string> rvars;
    auto define_original = [&](const std::string &v) {
        Expr mn = var(prefix + v + ".min"), mx = var(prefix + v + ".max");
        bound_lets.emplace_back(prefix + v + ".loop_min", mn);
        bound_lets.emplace_back(prefix + v + ".loop_max", mx);
        bound_lets.emplace_back(prefix + v + ".loop_extent", (mx + 1) - mn);
    };
    for (const Dim &d : def.schedule.dims) {
        if (d.is_rvar()) rvars.insert(d.var);
    }
    if (def.rdom.defined()) {
        for (const ReductionVariable &rv : def.rdom.domain()) rvars.insert(rv.var);
    }
    // Original loop variables: the pure Vars appearing as args, then the RVars.
    std::set<std::string> originals;
    for (const std::string &a : f.args()) {
        bool used = !is_update;
        for (const Expr &e : def.args) {
            const Variable *v = e.as<Variable>();
            if (v && v->name == a && !v->reduction_domain.defined()) used = true;
        }
        if (used) {
            originals.insert(a);
            define_original(a);
        }
    }
    if (def.rdom.defined()) {
        for (const ReductionVariable &rv : def.rdom.domain()) {
            // RVars span their domain, whatever the consumers need.
            originals.insert(rv.var);
            bound_lets.emplace_back(prefix + rv.var + ".min", rv.min);
            bound_lets.emplace_back(prefix + rv.var + ".max", (rv.min + rv.extent) - 1);
            define_original(rv.var);
        }
    }

    // Splits, in order. Each recomputes its old variable from the new ones inside the innermost
    // loop; `var_lets` collects those (applied innermost-first, so a later split's definition
    // of an inner variable is visible to an earlier split's formula). A guarded split's test
    // sits right inside the let of the variable it tests, so bounds inference sees the
    // guarded range when it bounds the variables defined from it (a ShiftInwards split of x
    // whose inner loop is split again with GuardWithIf writes no further than x's max).
    std::vector<std::pair<std::string, Expr>> var_lets;
    std::map<std::string, Expr> guard_of;
    std::vector<TailStrategy> tails; ///< the effective tail of each split (SplitVar only)
    for (const Split &s : def.schedule.splits) {
        const std::string old_n = prefix + s.old_var;
        Expr old_min = var(old_n + ".loop_min"), old_extent = var(old_n + ".loop_extent");
        if (s.kind == Split::SplitVar) {
            bool is_rvar = rvars.count(s.old_var) > 0;
            if (is_rvar) {
                rvars.insert(s.outer);
                rvars.insert(s.inner);
            }
            TailStrategy tail = effective_tail(s, is_update, is_rvar);
            tails.push_back(tail);
            Expr factor = s.factor;
            const std::string outer = prefix + s.outer, inner = prefix + s.inner;
            bound_lets.emplace_back(inner + ".loop_min", 0);
            bound_lets.emplace_back(inner + ".loop_max", factor - 1);
            bound_lets.emplace_back(inner + ".loop_extent", factor);
            Expr outer_extent = (old_extent + factor - 1) / factor;
            bound_lets.emplace_back(outer + ".loop_min", 0);
            bound_lets.emplace_back(outer + ".loop_max", outer_extent - 1);
            bound_lets.emplace_back(outer + ".loop_extent", outer_extent);
            Expr base = var(outer) * factor + old_min;
            if (tail == TailStrategy::ShiftInwards) {
                // The last iteration shifts back to end exactly at the old max, recomputing a
                // few points instead of running past the end. Written against the max, not as
                // min(outer * factor, extent - factor) + min: bounds of the latter over an
                // enclosing loop take the two mins from different iterations (and a staged
                // input's region would start a whole tile early).
                // The unshifted side is the likely one: an innermost loop is partitioned into
                // a steady state without the min and the shifted last iteration.
                base = Min::make(
                    Call::make(Int(32), Call::likely_if_innermost, {base}, Call::PureIntrinsic),
                    var(old_n + ".loop_max") + (1 - factor));
            }
            // The base is a let of its own (Halide's "<inner>.base"), placed in the outer
            // loop: a Func computed at that loop then needs [base, base + factor - 1], whose
            // extent is the constant factor (a fixed-size buffer with constant strides), not
            // two clamped expressions whose difference the simplifier can't see.
            var_lets.emplace_back(old_n, var(inner + ".base") + var(inner));
            var_lets.emplace_back(inner + ".base", base);
            if (tail != TailStrategy::ShiftInwards && tail != TailStrategy::RoundUp) {
                // Likely: the tail is the exception (see Bounds::refine, partition_loops).
                guard_of[old_n] =
                    Call::make(Bool(), Call::likely, {var(old_n) <= var(old_n + ".loop_max")},
                               Call::PureIntrinsic);
            }
        } else if (s.kind == Split::RenameVar) {
            tails.push_back(TailStrategy::Auto);
            const std::string outer = prefix + s.outer;
            if (rvars.count(s.old_var)) rvars.insert(s.outer);
            bound_lets.emplace_back(outer + ".loop_min", old_min);
            bound_lets.emplace_back(outer + ".loop_max", var(old_n + ".loop_max"));
            bound_lets.emplace_back(outer + ".loop_extent", old_extent);
            var_lets.emplace_back(old_n, var(outer));
        } else {
            // FuseVars: old_var is the fused name; inner and outer are the fused variables.
            tails.push_back(TailStrategy::Auto);
            const std::string fused = old_n, inner = prefix + s.inner, outer = prefix + s.outer;
            if (rvars.count(s.inner) && rvars.count(s.outer)) rvars.insert(s.old_var);
            Expr inner_extent = var(inner + ".loop_extent");
            // An empty loop's extent may be negative (a box [v, min(v, max)] in a guarded
            // tail): the product of two of them would not be empty (fuzz seed 7714).
            Expr fused_extent = max(inner_extent, 0) * max(var(outer + ".loop_extent"), 0);
            bound_lets.emplace_back(fused + ".loop_min", 0);
            bound_lets.emplace_back(fused + ".loop_max", fused_extent - 1);
            bound_lets.emplace_back(fused + ".loop_extent", fused_extent);
            // Interval analysis can't see that fused % e and fused / e stay within the fused
            // variables' ranges (the divisor is symbolic), so the ranges are promised.
            auto promise = [&](const std::string &v, Expr value) {
                return Call::make(Int(32), Call::promise_clamped,
                                  {value, var(v + ".loop_min"), var(v + ".loop_max")},
                                  Call::PureIntrinsic);
            };
            var_lets.emplace_back(
                inner, promise(inner, var(fused) % inner_extent + var(inner + ".loop_min")));
            var_lets.emplace_back(
                outer, promise(outer, var(fused) / inner_extent + var(outer + ".loop_min")));
        }
    }
    widen_fuse_promises(def.schedule.splits, tails, prefix, var_lets);

    // The loops, innermost first. "__outermost" is the root; its bounds are constant.
    internal_assert(!def.schedule.dims.empty() && def.schedule.dims.back().var == "__outermost")
        << "Stage " << stage << " of " << f.name() << " lacks the __outermost dim\n";
    const int num_loops = (int)def.schedule.dims.size() - 1;

    // Each let goes just inside the innermost loop it depends on (level 0: outside every loop;
    // level num_loops: inside the innermost one), so what a split base depends on is visible,
    // as a name, to the Funcs computed at the loops inside it. A guarded variable stays
    // innermost with its guard, as does everything defined from it.
    std::map<std::string, int> level_of; // loop variables and placed lets
    for (int i = 0; i < num_loops; i++) level_of[prefix + def.schedule.dims[i].var] = num_loops - i;
    std::vector<int> let_level(var_lets.size());
    for (size_t j = var_lets.size(); j-- > 0;) { // definition order: outermost let first
        int level = guard_of.count(var_lets[j].first) ? num_loops : 0;
        for (const auto &known : level_of) {
            if (known.second > level && expr_uses_var(var_lets[j].second, known.first)) {
                level = known.second;
            }
        }
        let_level[j] = level;
        level_of[var_lets[j].first] = level;
    }
    auto wrap_lets_at = [&](int level) {
        for (size_t j = 0; j < var_lets.size(); j++) {
            if (let_level[j] != level) continue;
            auto guard = guard_of.find(var_lets[j].first);
            if (guard != guard_of.end()) body = IfThenElse::make(guard->second, body);
            body = LetStmt::make(var_lets[j].first, var_lets[j].second, body);
        }
    };
    for (int i = 0; i < num_loops; i++) {
        wrap_lets_at(num_loops - i);
        const Dim &d = def.schedule.dims[i];
        const std::string n = prefix + d.var;
        body = For::make(n, var(n + ".loop_min"), var(n + ".loop_extent"), d.for_type, d.device_api,
                         body, (Partition)d.partition);
    }
    wrap_lets_at(0);
    for (auto it = bound_lets.rbegin(); it != bound_lets.rend(); ++it) {
        body = LetStmt::make(it->first, it->second, body);
    }
    return body;
}

/// What `cond` being true says about single variables: a bool Variable is true, !v is false,
/// v == constant; through conjunctions (Halide's simplification of specializations).
void collect_facts(const Expr &cond, std::map<std::string, Expr> &facts) {
    if (const Variable *v = cond.as<Variable>()) {
        if (v->type.is_bool()) facts[v->name] = const_true();
    } else if (const Not *n = cond.as<Not>()) {
        const Variable *v = n->a.as<Variable>();
        if (v && v->type.is_bool()) facts[v->name] = const_false();
    } else if (const EQ *eq = cond.as<EQ>()) {
        const Variable *va = eq->a.as<Variable>(), *vb = eq->b.as<Variable>();
        if (va && is_const(eq->b)) facts[va->name] = eq->b;
        if (vb && is_const(eq->a)) facts[vb->name] = eq->a;
    } else if (const And *a = cond.as<And>()) {
        collect_facts(a->a, facts);
        collect_facts(a->b, facts);
    }
}

/// `def` with what `facts` know substituted into its algorithm and nested conditions.
Definition apply_facts(const Definition &def, const std::map<std::string, Expr> &facts) {
    if (facts.empty()) return def;
    Definition out = def;
    for (Expr &e : out.args) e = substitute(facts, e);
    for (Expr &e : out.values) e = substitute(facts, e);
    if (out.predicate.defined()) out.predicate = substitute(facts, out.predicate);
    for (Specialization &sp : out.specializations) {
        sp.condition = substitute(facts, sp.condition);
        sp.definition = apply_facts(sp.definition, facts);
    }
    return out;
}

/// The loops of `def` under its specializations: if (c1) {...} else if (c2) {...} else
/// {default}, built from the last specialization outwards (Halide's order: the first one
/// whose condition holds wins). Inside each branch its condition is known to hold.
Stmt build_specialized_loops(const Function &f, int stage, const Definition &def) {
    Stmt s = build_definition_loops(f, stage, def);
    for (size_t i = def.specializations.size(); i-- > 0;) {
        const Specialization &sp = def.specializations[i];
        Stmt then_case;
        if (!sp.failure_message.empty()) {
            then_case =
                AssertStmt::make(const_false(), runtime_error_call("halide_error_specialize_fail",
                                                                   {Expr(sp.failure_message)}));
        } else {
            std::map<std::string, Expr> facts;
            collect_facts(sp.condition, facts);
            then_case = build_specialized_loops(f, stage, apply_facts(sp.definition, facts));
        }
        s = is_const_true(sp.condition) ? then_case : IfThenElse::make(sp.condition, then_case, s);
    }
    return s;
}

} // namespace

Stmt build_provide_loop_nest(const Function &f, int stage) {
    const Definition &def = stage_definition(f, stage);
    const std::string prefix = stage_prefix(f.name(), stage);
    internal_assert(!def.schedule.dims.empty() && def.schedule.dims.back().var == "__outermost")
        << "Stage " << stage << " of " << f.name() << " lacks the __outermost dim\n";
    // Every branch lives inside the one "__outermost" loop, so passes that find a stage by that
    // loop (bounds inference) see all of its specializations.
    Stmt body = build_specialized_loops(f, stage, def);
    const Dim &outermost = def.schedule.dims.back();
    return For::make(prefix + "__outermost", 0, 1, outermost.for_type, outermost.device_api, body);
}

Stmt build_produce(const Function &f) {
    std::vector<Stmt> stages;
    for (int k = 0; k < num_stages(f); k++) stages.push_back(build_provide_loop_nest(f, k));
    return ProducerConsumer::make_produce(f.name(), Block::make(stages));
}

Stmt build_produce_consume(const Function &f, const Stmt &consumer) {
    Stmt consume = consumer.defined() ? consumer : Evaluate::make(0);
    return Block::make(build_produce(f), ProducerConsumer::make_consume(f.name(), consume));
}

Stmt realize_around(const Function &f, const Stmt &body) {
    Region bounds;
    for (const std::string &a : f.args()) {
        bounds.emplace_back(Variable::make(Int(32), f.name() + "." + a + ".min_realized"),
                            Variable::make(Int(32), f.name() + "." + a + ".extent_realized"));
    }
    return Realize::make(f.name(), f.output_types(), f.schedule().memory_type, bounds, const_true(),
                         body);
}

Stmt build_realize(const Function &f, const Stmt &consumer) {
    return realize_around(f, build_produce_consume(f, consumer));
}

} // namespace internal
} // namespace loom
