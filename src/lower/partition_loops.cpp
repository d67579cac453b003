#include "lower/partition_loops.h"

#include "analysis/bounds.h"
#include "analysis/solve.h"
#include "arith/constant_interval.h"
#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "lower/constant_lets.h"
#include "lower/loop_names.h"
#include "lower/lower_utils.h"
#include "simplify/simplify.h"
#include "support/error.h"
#include "support/util.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace loom {
namespace internal {

namespace {

/// e with the constants equal to its type's lowest and highest values replaced by `lo` and
/// `hi` (interval markers at infinity pass through).
Expr replace_limits(const Expr &e, const Expr &lo, const Expr &hi) {
    if (!e.defined() || Interval::is_neg_inf(e) || Interval::is_pos_inf(e)) return e;
    Type t = e.type();
    if (!t.is_int() || !t.is_scalar()) return e;
    const Expr type_min = t.min(), type_max = t.max();
    const int64_t tmin = *as_const_int(type_min), tmax = *as_const_int(type_max);
    return mutate_exprs_post(e, [&](const Expr &x) -> Expr {
        const int64_t *c = x.type() == t ? as_const_int(x) : nullptr;
        if (c && *c == tmin) return lo;
        if (c && *c == tmax) return hi;
        return x;
    });
}

/// Whether e is a likely tag that counts in the loop being partitioned.
bool is_likely_tag(const Expr &e, bool innermost) {
    const Call *c = e.as<Call>();
    if (!c || c->args.size() != 1) return false;
    return c->is_intrinsic(Call::likely) ||
           (innermost && c->is_intrinsic(Call::likely_if_innermost));
}

bool has_likely_tag(const Expr &e, bool innermost) {
    bool found = false;
    visit_exprs(e, [&](const Expr &x) {
        if (found) return false;
        found = is_likely_tag(x, innermost);
        return !found;
    });
    return found;
}

/// Whether s loads a vector from scattered addresses (an index that is not a ramp or a
/// broadcast): where a clamp makes the gather, dropping it is worth another partition.
bool has_gather(const Stmt &s) {
    bool found = false;
    visit_exprs(s, [&](const Expr &e) {
        const Load *l = e.as<Load>();
        found = found ||
                (l && l->type.is_vector() && !l->index.as<Ramp>() && !l->index.as<Broadcast>());
        return !found;
    });
    return found;
}

bool contains_loop(const Stmt &s) {
    class Find : public IRVisitor {
    public:
        bool found = false;

    protected:
        using IRVisitor::visit;
        void visit(const For *) override { found = true; }
    } f;
    f.dispatch(s);
    return f.found;
}

/// A condition free of `var` under which `cond` holds for every value of var in `range`
/// (const_false() when none is found): a comparison holds throughout where the bound of its
/// difference over the range does; && and || relax their operands. This is how a clamp inside
/// an inner loop becomes a condition on an outer loop: "the whole tile is inside the image".
Expr condition_for_all(const Expr &cond, const std::string &var, const Interval &range) {
    if (!expr_uses_var(cond, var)) return cond;
    if (const And *a = cond.as<And>()) {
        return And::make(condition_for_all(a->a, var, range), condition_for_all(a->b, var, range));
    }
    if (const Or *o = cond.as<Or>()) {
        return Or::make(condition_for_all(o->a, var, range), condition_for_all(o->b, var, range));
    }
    // a < b (strict) or a <= b for all var: the largest a - b is below (or at) zero.
    auto below = [&](const Expr &a, const Expr &b, bool strict) {
        if (!a.type().is_int() || !a.type().is_scalar()) return const_false();
        Scope scope{{var, range}};
        Interval d = bounds_of_expr_in_scope(simplify(Sub::make(a, b)), scope);
        if (!d.has_upper_bound()) return const_false();
        Expr zero = make_zero(d.max.type());
        return strict ? LT::make(d.max, zero) : LE::make(d.max, zero);
    };
    if (const LT *c = cond.as<LT>()) return below(c->a, c->b, true);
    if (const LE *c = cond.as<LE>()) return below(c->a, c->b, false);
    if (const GT *c = cond.as<GT>()) return below(c->b, c->a, true);
    if (const GE *c = cond.as<GE>()) return below(c->b, c->a, false);
    return const_false();
}

/// A condition free of remainders of `var` that implies cond: each e % k (k a positive
/// constant, e using var) relaxed over its range [0, k - 1]. The solver cannot invert a
/// remainder; an upsampling's tap x / 2 - 1 + 2 * (x % 2), split into phases, has one in its
/// clamp, which then holds wherever it does for both parities.
Expr relax_remainders(const Expr &cond, const std::string &var) {
    std::vector<std::pair<std::string, Interval>> relaxed;
    Expr r = mutate_exprs_post(cond, [&](const Expr &x) -> Expr {
        const Mod *m = x.as<Mod>();
        const int64_t *k = m ? as_const_int(m->b) : nullptr;
        if (!k || *k <= 0 || !x.type().is_int() || !x.type().is_scalar() ||
            !expr_uses_var(m->a, var)) {
            return x;
        }
        std::string name = var + ".remainder" + std::to_string(relaxed.size());
        relaxed.push_back({name, Interval(make_zero(x.type()), make_const(x.type(), *k - 1))});
        return Variable::make(x.type(), name);
    });
    for (const auto &v : relaxed) r = condition_for_all(r, v.first, v.second);
    return r;
}

/// A node whose likely side holds in the steady state: the min/max operand, select value or
/// if branch that the likely tag marks (side 0: a / true value / then case; side 1: b / false
/// value), and the condition for that side at each place the node occurs.
struct Candidate {
    const IRNode *node;
    int side;
    std::vector<Expr> conditions;
    /// Set when some occurrence's condition cannot be used (it reads memory, or does not
    /// depend on the loop variable once relaxed over the inner loops): the node is then left
    /// alone everywhere, since one replacement applies to all its occurrences.
    bool unusable = false;
};

/// Collects the candidates in a loop body, with conditions in terms of the loop variable and
/// the variables defined outside the loop (lets inside the body are substituted).
class FindSimplifications : public IRVisitor {
public:
    /// `hoisted_clamps_count`: whether a clamp invariant in the innermost loop around it
    /// (see note()) still counts here.
    FindSimplifications(const std::string &var, bool innermost, bool hoisted_clamps_count)
        : var(var), innermost(innermost),
          hoisted_clamps_count(hoisted_clamps_count), depends_on_var{var} {}

    std::vector<Candidate> candidates;

protected:
    using IRVisitor::visit;

    void visit(const Min *op) override {
        IRVisitor::visit(op);
        bool la = has_likely_tag(op->a, innermost), lb = has_likely_tag(op->b, innermost);
        if (la != lb) {
            note(op, la ? 0 : 1, la ? LE::make(op->a, op->b) : LE::make(op->b, op->a),
                 op->type.is_scalar() && !in_region_let);
        }
    }
    void visit(const Max *op) override {
        IRVisitor::visit(op);
        bool la = has_likely_tag(op->a, innermost), lb = has_likely_tag(op->b, innermost);
        if (la != lb) {
            note(op, la ? 0 : 1, la ? GE::make(op->a, op->b) : GE::make(op->b, op->a),
                 op->type.is_scalar() && !in_region_let);
        }
    }
    void visit(const Select *op) override {
        IRVisitor::visit(op);
        select_like(op, op->condition, op->true_value, op->false_value);
    }
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->is_intrinsic(Call::if_then_else) && op->args.size() == 3) {
            select_like(op, op->args[0], op->args[1], op->args[2]);
        }
    }
    void visit(const IfThenElse *op) override {
        IRVisitor::visit(op);
        if (is_likely_tag(op->condition, innermost)) note(op, 0, op->condition);
    }

    void visit(const Let *op) override {
        dispatch(op->value);
        Expr saved = bind(op->name, op->value);
        dispatch(op->body);
        unbind(op->name, saved);
    }
    void visit(const LetStmt *op) override {
        // A clamp in a Func's region (bounds inference's "f.s1.y.max", under a GuardWithIf
        // tile's likely() test) sets the size of its buffer and the extents of its loops: in
        // the steady state they are constant, so a register block's accumulators can live in
        // registers. That is worth a partition even where the clamp is loop-invariant.
        const bool region = ends_with(op->name, ".min") || ends_with(op->name, ".max");
        const bool saved_region = in_region_let;
        in_region_let = region;
        dispatch(op->value);
        in_region_let = saved_region;
        Expr saved = bind(op->name, op->value);
        dispatch(op->body);
        unbind(op->name, saved);
    }
    void visit(const For *op) override {
        dispatch(op->min);
        dispatch(op->extent);
        Expr lo = substitute(lets, op->min);
        Expr hi = simplify(
            Sub::make(Add::make(lo, substitute(lets, op->extent)), make_one(op->extent.type())));
        inner_loops.push_back({op->name, Interval(lo, hi)});
        bool dependent = expr_uses_vars(lo, depends_on_var) || expr_uses_vars(hi, depends_on_var);
        if (dependent) depends_on_var.insert(op->name);
        relaxed.clear();
        dispatch(op->body);
        relaxed.clear();
        if (dependent) depends_on_var.erase(op->name);
        inner_loops.pop_back();
    }

private:
    const std::string &var;
    bool innermost;
    bool hoisted_clamps_count;
    bool in_region_let = false; ///< visiting the value of a Func region's min or max let
    /// Lets bound inside the loop so far, with their values expanded in terms of names
    /// defined outside the loop (and inner loop variables).
    std::map<std::string, Expr> lets;
    /// Lets too large to expand (bind()): their values are unknown here.
    std::set<std::string> opaque;
    static constexpr int kMaxExpandedLet = 512;
    /// The loops inside the one being partitioned that enclose the node visited, outermost
    /// first, with their ranges in terms of outer names and enclosing inner loop variables.
    std::vector<std::pair<std::string, Interval>> inner_loops;
    /// The loop variable and the inner loops whose range depends on it.
    std::set<std::string> depends_on_var;
    /// Conditions relaxed over the current inner loops (valid until the loop nest changes).
    std::map<Expr, Expr, IRDeepCompare> relaxed;
    std::map<const IRNode *, size_t> index;

    Expr bind(const std::string &name, const Expr &value) {
        Expr expanded = substitute(lets, value);
        auto it = lets.find(name);
        Expr saved = it == lets.end() ? Expr() : it->second;
        // Chains of bounds lets (the regions of a deep group of Funcs computed per tile, each
        // a min and max of the next one's) double in size at every level when expanded: such
        // a let stays a name, and the conditions that mention it are not used (note()).
        if (expr_larger_than(expanded, kMaxExpandedLet)) {
            lets.erase(name);
            opaque.insert(name);
        } else {
            lets[name] = expanded;
        }
        return saved;
    }
    void unbind(const std::string &name, const Expr &saved) {
        opaque.erase(name);
        if (saved.defined()) {
            lets[name] = saved;
        } else {
            lets.erase(name);
        }
    }

    void select_like(const IRNode *node, const Expr &c, const Expr &t, const Expr &f) {
        if (is_likely_tag(c, innermost)) {
            note(node, 0, c);
            return;
        }
        bool lt = has_likely_tag(t, innermost), lf = has_likely_tag(f, innermost);
        if (lt != lf) note(node, lt ? 0 : 1, lt ? c : Not::make(c));
    }

    /// Records that `node`'s `side` holds where `cond` does (in this occurrence). `clamp`: the
    /// node is a scalar min or max, whose other side costs only the min or max itself (a
    /// vector clamp of an index makes its load a gather).
    void note(const IRNode *node, int side, const Expr &cond_in, bool clamp = false) {
        auto it = index.emplace(node, candidates.size()).first;
        if (it->second == candidates.size()) candidates.push_back({node, side, {}, false});
        Candidate &c = candidates[it->second];
        if (c.unusable) return;

        Expr cond = remove_likely_tags(substitute(lets, cond_in));
        // A let too large to expand may depend on the loop variable in any way.
        if (!opaque.empty() && expr_uses_vars(cond, opaque)) {
            c.unusable = true;
            return;
        }
        // A vector condition (a clamp of a vectorized index) holds where all its lanes do.
        if (cond.type().is_vector()) {
            cond = all_lanes_true(cond);
            if (!cond.defined()) {
                c.unusable = true;
                return;
            }
            cond = simplify(cond);
        }
        bool reads_memory = false;
        visit_exprs(cond, [&](const Expr &e) {
            reads_memory = reads_memory || e.as<Load>() != nullptr;
            return !reads_memory;
        });
        // Relaxed over the inner loops below, a condition depends on v only through v itself
        // or an inner loop whose range does: without either it is skipped at once (most
        // clamps of an inner loop over a whole row, seen from the loops around it).
        if (!expr_uses_vars(cond, depends_on_var)) {
            c.unusable = true;
            return;
        }
        // A clamp invariant in the innermost loop around it (a row coordinate's, in a loop
        // over the row) runs once per row once hoisted: a partition for it would copy the
        // whole row loop (as many times as the loops it is nested in are partitioned) to
        // save a min per row. (Halide partitions for these too; LLVM hoists them anyway.)
        if (clamp && !hoisted_clamps_count && !inner_loops.empty() &&
            !expr_uses_var(cond, inner_loops.back().first)) {
            c.unusable = true;
            return;
        }
        // A condition about inner loop variables counts here where it holds for all their
        // iterations (innermost first: an inner loop's range may depend on the loops around
        // it), as in Halide: the steady tiles of a tiled stencil then have no clamps at all.
        if (!reads_memory) {
            auto known = relaxed.find(cond);
            if (known != relaxed.end()) {
                cond = known->second;
            } else {
                Expr r = cond;
                for (auto it = inner_loops.rbegin(); it != inner_loops.rend(); ++it) {
                    r = condition_for_all(r, it->first, it->second);
                }
                r = simplify(relax_remainders(simplify(r), var));
                relaxed.emplace(cond, r);
                cond = r;
            }
        }
        // A condition in v and outer names only is one number per iteration of this loop; the
        // steady bounds are computed before the loop, so it must not read memory either.
        if (!expr_uses_var(cond, var) || reads_memory || !is_pure(cond) ||
            (!opaque.empty() && expr_uses_vars(cond, opaque))) {
            c.unusable = true;
            return;
        }
        for (const Expr &known : c.conditions) {
            if (equal(known, cond)) return;
        }
        c.conditions.push_back(cond);
    }
};

/// The steady-state body: the used candidates replaced by their likely side, and the tags
/// that mention the loop variable removed.
class MakeSteady : public IRMutator {
public:
    MakeSteady(const std::string &var, const std::map<const IRNode *, int> &use)
        : var(var), use(use) {}

protected:
    using IRMutator::visit;

    Expr visit(const Min *op) override {
        int side;
        if (used(op, &side)) return mutate(side == 0 ? op->a : op->b);
        return IRMutator::visit(op);
    }
    Expr visit(const Max *op) override {
        int side;
        if (used(op, &side)) return mutate(side == 0 ? op->a : op->b);
        return IRMutator::visit(op);
    }
    Expr visit(const Select *op) override {
        int side;
        if (used(op, &side)) return mutate(side == 0 ? op->true_value : op->false_value);
        return IRMutator::visit(op);
    }
    Expr visit(const Call *op) override {
        int side;
        if (used(op, &side)) return mutate(side == 0 ? op->args[1] : op->args[2]);
        // A tag that also mentions an inner loop's variable stays for that loop.
        if (is_likely_call(op) && expr_uses_var(op->args[0], var) &&
            !expr_uses_vars(op->args[0], inner_loops)) {
            return mutate(op->args[0]);
        }
        return IRMutator::visit(op);
    }
    Stmt visit(const IfThenElse *op) override {
        int side;
        if (used(op, &side)) return mutate(op->then_case);
        return IRMutator::visit(op);
    }
    Stmt visit(const For *op) override {
        bool fresh = inner_loops.insert(op->name).second;
        Stmt result = IRMutator::visit(op);
        if (fresh) inner_loops.erase(op->name);
        return result;
    }

private:
    const std::string &var;
    const std::map<const IRNode *, int> &use;
    std::set<std::string> inner_loops;

    bool used(const IRNode *node, int *side) const {
        auto it = use.find(node);
        if (it == use.end()) return false;
        *side = it->second;
        return true;
    }
};

class PartitionLoops : public IRMutator {
protected:
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        // Outermost first, as in Halide: a loop's steady state is where the clamps of its
        // whole body (inner loops included) take their likely side, and only the steady body
        // is partitioned further. The prologue and epilogue (a few iterations) keep the inner
        // loops whole, which keeps the code from growing as 3^depth.
        const Stmt &body = op->body;
        bool host = op->device_api == DeviceAPI::None || op->device_api == DeviceAPI::Host;
        if (!host || (op->for_type != ForType::Serial && op->for_type != ForType::Parallel) ||
            op->partition_policy == Partition::Never) {
            return rebuild(op, mutate(body));
        }

        const bool innermost = !contains_loop(body);
        FindSimplifications find(op->name, innermost, op->partition_policy == Partition::Always);
        find.dispatch(body);

        // A node is used when the condition of each of its occurrences solves; the steady
        // state is where all used conditions hold.
        // The invariant conditions the solver separates out (the input is not empty, say)
        // must hold too; they are gathered apart so the steady bounds stay readable.
        struct Solution {
            Interval interval;
            Expr invariant;
        };
        std::map<Expr, Solution, IRDeepCompare> solved;
        std::map<const IRNode *, int> use;
        Interval steady = Interval::everything();
        std::set<Expr, IRDeepCompare> intersected, invariants;
        Expr invariant = const_true();
        for (const Candidate &c : find.candidates) {
            if (c.unusable || c.conditions.empty()) continue;
            bool ok = true;
            for (const Expr &cond : c.conditions) {
                auto it = solved.find(cond);
                if (it == solved.end()) {
                    Solution sol;
                    sol.interval = solve_for_inner_interval(cond, op->name, &sol.invariant);
                    it = solved.emplace(cond, sol).first;
                }
                ok = ok && !it->second.interval.is_empty();
            }
            if (!ok) continue;
            use[c.node] = c.side;
            for (const Expr &cond : c.conditions) {
                if (!intersected.insert(cond).second) continue;
                const Solution &sol = solved[cond];
                steady.intersect(sol.interval);
                if (!is_const_true(sol.invariant) && invariants.insert(sol.invariant).second) {
                    invariant = And::make(invariant, sol.invariant);
                }
            }
        }
        if (use.empty()) {
            user_assert(op->partition_policy != Partition::Always)
                << "Loop partitioning policy is Always for the loop over "
                << describe_loop(op->name)
                << ", but it has nothing to partition: no boundary condition or likely() "
                   "in its body depends on it in a way that splits off a steady state. Use "
                   "Partition::Auto (or never_partition) for this loop.\n";
            return rebuild(op, mutate(body));
        }
        invariant = simplify(invariant);

        Stmt steady_body = mutate(MakeSteady(op->name, use).mutate(body));
        bool has_prologue = steady.has_lower_bound() || !is_const_true(invariant);
        if (!has_prologue && !steady.has_upper_bound()) return rebuild(op, steady_body);
        // The edges run a few boundary iterations: their loops (this one's prologue and
        // epilogue, and the inner loops they keep) are not partitioned again, except the
        // innermost loops of bounded trip count that gather (a producer's rows per tile): an
        // edge tile of a big tiled stencil is a tenth of the work, and its clamped loads
        // would gather in every lane.
        Stmt edge_body = mark_edge_loops(remove_likely_tags(op->body, op->name));

        // Loop bounds and the steady range [steady_min, steady_end), each evaluated once. The
        // clamps keep min <= steady_min <= steady_end <= min + extent whenever the extent is
        // positive (and every loop empty otherwise), whatever the solved interval is.
        std::vector<std::pair<std::string, Expr>> lets;
        auto bind = [&](const std::string &name, const Expr &e) {
            if (is_const(e) || e.as<Variable>()) return e;
            lets.emplace_back(name, e);
            return Variable::make(e.type(), name);
        };
        // An edge's own partition gets its own names (lets of the same name would shadow).
        const std::string prefix =
            edge_depth == 0 ? op->name : op->name + ".edge" + std::to_string(edge_count++);
        Expr mn = bind(prefix + ".loop_min", op->min);
        Expr ext = bind(prefix + ".loop_extent", op->extent);
        Expr end = Add::make(mn, ext);
        Expr steady_min = mn, steady_end = end;
        // The solver writes "unbounded" and "empty" inside selects as the type's limits
        // (select(q, x, INT_MAX): at most x where q holds, unbounded elsewhere). Every iteration
        // lies in [mn, end) anyway, so the limits become the loop's own ends before any
        // arithmetic: the simplifier turns min(max, end - 1) + 1 into min(max + 1, end), which
        // overflows on INT_MAX (fuzz seed 95: the steady loop of a vectorized stencil ran on
        // towards 2^30).
        steady.min = replace_limits(steady.min, mn, end);
        steady.max = replace_limits(steady.max, Sub::make(mn, make_one(end.type())),
                                    Sub::make(end, make_one(end.type())));
        if (has_prologue) {
            Expr first = steady.has_lower_bound() ? Min::make(Max::make(steady.min, mn), end) : mn;
            // Where the invariant conditions fail, the prologue is the whole loop.
            if (!is_const_true(invariant)) first = Select::make(invariant, first, end);
            steady_min = bind(prefix + ".steady_min", simplify(first));
        }
        if (steady.has_upper_bound()) {
            // min(max, end - 1) + 1 rather than min(max + 1, end): max may be the type's limit.
            Expr last = Min::make(steady.max, Sub::make(end, make_one(end.type())));
            steady_end =
                bind(prefix + ".steady_end",
                     simplify(Max::make(Add::make(last, make_one(end.type())), steady_min)));
        }

        std::vector<Stmt> loops;
        auto loop = [&](const Expr &from, const Expr &to, const Stmt &b, Partition policy) {
            loops.push_back(For::make(op->name, from, Sub::make(to, from), op->for_type,
                                      op->device_api, b, policy));
        };
        // The edges of an innermost loop of constant trip count (a producer per tile) that
        // gather are partitioned once more by the tags that remain there: a ShiftInwards
        // vector loop's last (shifted) vector is an edge of the split's min, but its clamps
        // still go where the whole tile is inside the input (as Halide gets by partitioning
        // the tile loop), instead of gathering every lane. Their own edges are final. Only
        // there: in a loop over a whole row the edges are a few vectors of many, and the JIT
        // time grows with the code (interpolate's rows: +45%).
        auto edge = [&](const Expr &from, const Expr &to) {
            bool again = edge_depth == 0 && is_const(op->extent) &&
                         op->partition_policy == Partition::Auto && has_gather(edge_body);
            edge_depth++;
            if (again) {
                Stmt split = mutate(For::make(op->name, from, Sub::make(to, from), op->for_type,
                                              op->device_api, edge_body, Partition::Auto));
                // Nothing to split there: still one edge loop, final.
                if (const For *f = split.as<For>()) {
                    split = f->with_partition(Partition::Never, f->body);
                }
                loops.push_back(split);
            } else {
                loop(from, to, mutate(edge_body), Partition::Never);
            }
            edge_depth--;
        };
        Stmt result;
        if (op->for_type == ForType::Parallel || !innermost) {
            // One loop whose body picks its partition. A parallel loop's edge iterations (a
            // tile row or two) then run beside the steady ones instead of as parallel loops of
            // their own, each with one busy thread and a join. Where the body holds loops, one
            // test per iteration costs nothing beside them, and the prologue and epilogue
            // share one copy of the edge code (a tile loop's edge tiles: half the code).
            edge_depth++;
            Stmt edge_code = mutate(edge_body);
            edge_depth--;
            Expr v = Variable::make(op->min.type(), op->name);
            Expr in_steady;
            if (has_prologue) in_steady = LE::make(steady_min, v);
            if (steady.has_upper_bound()) {
                Expr below_end = LT::make(v, steady_end);
                in_steady = in_steady.defined() ? And::make(in_steady, below_end) : below_end;
            }
            result = op->with_range(mn, ext, IfThenElse::make(in_steady, steady_body, edge_code));
        } else {
            if (has_prologue) edge(mn, steady_min);
            loop(steady_min, steady_end, steady_body, op->partition_policy);
            if (steady.has_upper_bound()) edge(steady_end, end);
            result = Block::make(loops);
        }
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
            result = LetStmt::make(it->first, it->second, result);
        }
        return result;
    }

private:
    /// How many edge loops the loop being partitioned is nested in (edges are partitioned
    /// again only once).
    int edge_depth = 0;
    /// Edge partitions so far (for their unique names).
    int edge_count = 0;

    static Stmt rebuild(const For *op, const Stmt &body) {
        if (body.same_as(op->body)) return op;
        return op->with_body(body);
    }

    /// The largest bound on a loop's trip count that makes it a loop over one tile.
    static constexpr int64_t max_tile_trip_count = 1 << 16;
    /// The largest extent expression (in nodes, lets substituted) whose bound is sought.
    static constexpr int max_extent_nodes = 256;

    /// s (an edge's body) with its loops marked Partition::Never, but for the innermost
    /// loops of bounded trip count that gather: a producer's rows per tile, whose extent is a
    /// constant, or at most one under a GuardWithIf split (`min(base + 255, max) - base + 1`
    /// vectors, the lets in scope seen through).
    static Stmt mark_edge_loops(const Stmt &s) {
        class Mark : public ConstantLetMutator {
            using IRMutator::visit;
            Stmt visit(const For *op) override {
                Stmt body = mutate(op->body);
                bool keep = op->partition_policy == Partition::Auto && !contains_loop(body) &&
                            has_gather(body) && bounded_trip_count(op->extent);
                return op->with_partition(keep ? Partition::Auto : Partition::Never, body);
            }
            bool bounded_trip_count(const Expr &extent) const {
                if (is_const(extent)) return true;
                // The lets in scope substituted, as long as the expression stays small: a
                // tile's extent is a short chain, and a long one (a deep group's regions)
                // grows as a tree that the simplifier would take minutes over.
                Expr e = in_scope(extent, max_extent_nodes);
                if (!e.defined()) return false;
                // (A Variable's type bounds it too: only a bound a tile could have counts.)
                ConstantInterval ci = constant_integer_bounds(simplify(remove_likely_tags(e)));
                return ci.max_defined && ci.max <= max_tile_trip_count;
            }
        };
        return Mark().mutate(s);
    }
};

/// Vector lets whose value became a ramp or broadcast once their clamps were dropped are
/// substituted into their uses: code generation recognizes dense accesses only by a Ramp index.
class SubstituteVectorLets : public IRMutator {
protected:
    using IRMutator::visit;

    Expr visit(const Variable *op) override {
        auto it = values.find(op->name);
        return it == values.end() ? Expr(op) : it->second;
    }
    Expr visit(const Let *op) override { return let(op); }
    Stmt visit(const LetStmt *op) override { return let(op); }

private:
    std::map<std::string, Expr> values;

    static bool linear_vector(const Expr &e) {
        const Ramp *r = e.as<Ramp>();
        const Broadcast *b = e.as<Broadcast>();
        return (r && r->base.type().is_scalar()) || (b && b->value.type().is_scalar());
    }

    template <typename L>
    auto let(const L *op) -> decltype(mutate(op->body)) {
        Expr value = mutate(op->value);
        if (value.type().is_vector()) {
            Expr sv = simplify(value);
            if (linear_vector(sv)) {
                auto it = values.find(op->name);
                Expr saved = it == values.end() ? Expr() : it->second;
                values[op->name] = sv;
                auto body = mutate(op->body);
                if (saved.defined()) {
                    values[op->name] = saved;
                } else {
                    values.erase(op->name);
                }
                return body;
            }
        }
        auto it = values.find(op->name);
        Expr saved = it == values.end() ? Expr() : it->second;
        values.erase(op->name);
        auto body = mutate(op->body);
        if (saved.defined()) values[op->name] = saved;
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return L::make(op->name, value, body);
    }
};

} // namespace

Stmt partition_loops(const Stmt &s) {
    Stmt result = PartitionLoops().mutate(s);
    result = remove_likely_tags(result);
    result = SubstituteVectorLets().mutate(result);
    return simplify(result);
}

} // namespace internal
} // namespace loom
