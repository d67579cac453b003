#include "autodiff/scatter_gather.h"

#include "analysis/bounds.h"
#include "analysis/solve.h"
#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "simplify/simplify.h"
#include "support/error.h"
#include "support/util.h"

#include <loom/inline_reductions.h>
#include <loom/ir_operator.h>
#include <loom/rdom.h>

#include <algorithm>
#include <map>
#include <set>

namespace loom {
namespace internal {

namespace {

/// The index without the hints that do not change its value (likely() in boundary conditions).
Expr strip_hints(const Expr &e) {
    return mutate_exprs_post(e, [](const Expr &n) -> Expr {
        const Call *c = n.as<Call>();
        if (c && (c->is_intrinsic(Call::likely) || c->is_intrinsic(Call::likely_if_innermost) ||
                  c->is_intrinsic(Call::promise_clamped) ||
                  c->is_intrinsic(Call::unsafe_promise_clamped))) {
            return c->args[0];
        }
        return Expr();
    });
}

/// The most values of the integer variable z that e maps to one value, when e is z with terms
/// free of z added or subtracted, multiplied by nonzero constants and divided by positive
/// constants (where the solver is exact); 0 for any other e.
int64_t preimage_size(const Expr &e, const std::string &z) {
    auto uses = [&](const Expr &x) { return expr_uses_var(x, z); };
    if (const Variable *v = e.as<Variable>()) return v->name == z ? 1 : 0;
    if (const Add *op = e.as<Add>()) {
        if (uses(op->a) == uses(op->b)) return 0;
        return preimage_size(uses(op->a) ? op->a : op->b, z);
    }
    if (const Sub *op = e.as<Sub>()) {
        if (uses(op->a) == uses(op->b)) return 0;
        return preimage_size(uses(op->a) ? op->a : op->b, z);
    }
    if (const Mul *op = e.as<Mul>()) {
        const Expr &k = uses(op->a) ? op->b : op->a;
        const int64_t *c = as_const_int(k);
        if (!c || *c == 0 || uses(k)) return 0;
        return preimage_size(uses(op->a) ? op->a : op->b, z);
    }
    if (const Div *op = e.as<Div>()) {
        const int64_t *d = as_const_int(op->b);
        if (!d || *d <= 0 || *d > 1024 || !uses(op->a)) return 0;
        return *d * preimage_size(op->a, z);
    }
    return 0;
}

/// Whether c compares an expression solvable for z (preimage_size > 0) with one free of z.
bool solvable_comparison(const Expr &c, const std::string &z) {
    Expr a, b;
    if (const LT *op = c.as<LT>()) a = op->a, b = op->b;
    if (const LE *op = c.as<LE>()) a = op->a, b = op->b;
    if (const GT *op = c.as<GT>()) a = op->a, b = op->b;
    if (const GE *op = c.as<GE>()) a = op->a, b = op->b;
    if (const EQ *op = c.as<EQ>()) a = op->a, b = op->b;
    if (!a.defined()) return false;
    if (expr_uses_var(b, z)) std::swap(a, b);
    return !expr_uses_var(b, z) && preimage_size(a, z) > 0;
}

/// The terms of c's conjunction.
std::vector<Expr> conjuncts(const Expr &c) {
    if (const And *op = c.as<And>()) {
        std::vector<Expr> a = conjuncts(op->a), b = conjuncts(op->b);
        a.insert(a.end(), b.begin(), b.end());
        return a;
    }
    return {c};
}

/// One case of the conversion: the iteration variables solved so far (in the adjoint's Vars,
/// the unsolved variables and the offsets of several-to-one solutions) and the conditions
/// under which the case applies.
struct Case {
    std::map<std::string, Expr> solved;
    std::vector<Expr> conditions;
    /// Offsets k in [0, extent) of a solution min + k.
    std::vector<std::pair<std::string, int64_t>> offsets;
};

class CallSiteConverter {
public:
    CallSiteConverter(const IterationDomain &domain, const std::vector<Expr> &call_args,
                      const Expr &value, const std::vector<std::string> &vars,
                      const std::string &callee, const std::string &name)
        : domain(domain), vars(vars), callee(callee), name(name) {
        // The iteration variables get fresh names, so the adjoint's Vars (the callee's argument
        // names) never meet a variable of the same name in the solver.
        std::map<std::string, Expr> rename;
        for (const IterationDomain::Dim &d : domain.dims) {
            std::string fresh = unique_name('t');
            fresh_names.push_back(fresh);
            iteration.insert(fresh);
            rename[d.name] = Variable::make(Int(32), fresh);
        }
        for (const Expr &a : call_args)
            args.push_back(simplify(strip_hints(substitute(rename, a))));
        w = substitute(rename, value);
        if (domain.predicate.defined()) predicate = substitute(rename, domain.predicate);
    }

    void run(AdjointTerms *terms) {
        // A contribution masked by a select on the iteration variables (the adjoint of a
        // Func's edge case, select(x == 11 && y == 9, ...)) starts with the mask as the case's
        // conditions: they bound the sums (to one point there) instead of masking a sum over the
        // whole domain. The emitted gather masks by them again. Terms masked differently (the
        // cases of a clamp's adjoint, each a corner or an edge) are gathered apart, each within
        // its own mask; terms masked alike stay together.
        std::vector<std::pair<std::vector<Expr>, Expr>> groups; // mask, sum of unmasked terms
        for (const auto &t : additive_terms(w)) {
            std::vector<Expr> mask;
            Expr term = unmask(t.first, &mask);
            auto same = [&](const std::pair<std::vector<Expr>, Expr> &g) {
                if (g.first.size() != mask.size()) return false;
                for (size_t i = 0; i < mask.size(); i++) {
                    if (!equal(g.first[i], mask[i])) return false;
                }
                return true;
            };
            auto it = std::find_if(groups.begin(), groups.end(), same);
            if (it == groups.end()) {
                groups.emplace_back(mask, t.second ? -term : term);
            } else {
                it->second = t.second ? it->second - term : it->second + term;
            }
        }
        for (const auto &g : groups) {
            Case initial;
            initial.conditions = g.first;
            unmasked = g.second;
            step(0, std::move(initial));
        }
        if (!failed) {
            for (const Expr &g : gathers) terms->gathers.push_back(g);
            terms->summed = terms->summed || sums_reduction;
            return;
        }
        scatter(terms);
    }

private:
    Expr var(size_t i) const { return Variable::make(Int(32), vars[i]); }

    /// The terms of a sum e, each with whether it is subtracted.
    static std::vector<std::pair<Expr, bool>> additive_terms(const Expr &e) {
        Expr a, b;
        bool subtract = false;
        if (const Add *op = e.as<Add>()) a = op->a, b = op->b;
        if (const Sub *op = e.as<Sub>()) a = op->a, b = op->b, subtract = true;
        if (!a.defined()) return {{e, false}};
        std::vector<std::pair<Expr, bool>> terms = additive_terms(a);
        for (const auto &t : additive_terms(b)) terms.emplace_back(t.first, t.second != subtract);
        return terms;
    }

    /// e without the selects on the iteration variables that zero it (select(c, a, 0), also as
    /// a factor of a product or a numerator: the adjoint of a masked value propagated through
    /// an expression), whose conditions go to `conditions`. (A sum's terms are unmasked one by
    /// one: run() splits them first.)
    Expr unmask(const Expr &e, std::vector<Expr> *conditions) const {
        if (const Select *s = e.as<Select>()) {
            if (!is_const_zero(s->false_value) || !uses_iteration(s->condition)) return e;
            for (const Expr &k : conjuncts(s->condition)) conditions->push_back(k);
            return unmask(s->true_value, conditions);
        }
        if (const Mul *m = e.as<Mul>()) {
            return Mul::make(unmask(m->a, conditions), unmask(m->b, conditions));
        }
        if (const Div *d = e.as<Div>()) return Div::make(unmask(d->a, conditions), d->b);
        if (const Cast *c = e.as<Cast>()) return Cast::make(c->type, unmask(c->value, conditions));
        return e;
    }

    bool uses_iteration(const Expr &e) const { return expr_uses_vars(e, iteration); }

    void step(size_t i, Case c) {
        if (failed) return;
        if (i == args.size()) {
            emit(c);
            return;
        }
        Expr e = simplify(substitute(c.solved, args[i]));
        index(i, e, std::move(c));
    }

    /// Handles argument i, whose index (with the solutions so far substituted) is `e`.
    void index(size_t i, const Expr &e, Case c) {
        Expr u = var(i);
        if (!uses_iteration(e)) {
            // An index computed from the offsets of an earlier several-to-one solution (a
            // bilateral grid's slice, grid(x / 8, y / 8, z(x, y)), solved for x and y) masks
            // the sum over them: every point of the adjoint would visit all of them, once per
            // value of u. The scatter visits each once.
            for (const auto &o : c.offsets) {
                if (expr_uses_var(e, o.first)) {
                    failed = true;
                    return;
                }
            }
            c.conditions.push_back(u == e);
            step(i + 1, std::move(c));
            return;
        }
        if (const Select *s = e.as<Select>()) {
            Case other = c;
            c.conditions.push_back(s->condition);
            index(i, s->true_value, std::move(c));
            other.conditions.push_back(!s->condition);
            index(i, s->false_value, std::move(other));
            return;
        }
        // clamp(e, lo, hi) is max(min(e, hi), lo): the interior, where e itself is read, and the
        // two edges, where every e beyond reads lo or hi.
        if (const Max *mx = e.as<Max>()) {
            const Min *mn = mx->a.as<Min>();
            if (mn && !uses_iteration(mx->b) && !uses_iteration(mn->b)) {
                Expr x = mn->a, lo = mx->b, hi = mn->b;
                Case low = c, high = c;
                c.conditions.push_back(lo <= u && u <= hi);
                index(i, x, std::move(c));
                low.conditions.push_back(u == lo);
                low.conditions.push_back(x < lo);
                step(i + 1, std::move(low));
                high.conditions.push_back(u == max(hi, lo));
                high.conditions.push_back(x > hi);
                high.conditions.push_back(x >= lo);
                step(i + 1, std::move(high));
                return;
            }
        }
        if (const Max *op = e.as<Max>()) {
            Expr a = op->a, b = op->b;
            if (uses_iteration(b)) std::swap(a, b);
            if (!uses_iteration(b)) {
                Case edge = c;
                c.conditions.push_back(u > b);
                index(i, a, std::move(c));
                edge.conditions.push_back(u == b);
                edge.conditions.push_back(a <= b);
                step(i + 1, std::move(edge));
                return;
            }
        }
        if (const Min *op = e.as<Min>()) {
            Expr a = op->a, b = op->b;
            if (uses_iteration(b)) std::swap(a, b);
            if (!uses_iteration(b)) {
                Case edge = c;
                c.conditions.push_back(u < b);
                index(i, a, std::move(c));
                edge.conditions.push_back(u == b);
                edge.conditions.push_back(a >= b);
                step(i + 1, std::move(edge));
                return;
            }
        }
        if (solve_tiled(i, e, c)) return;
        // Solve u == e for one iteration variable, the Func's pure Vars first (RVars left
        // unsolved stay reductions).
        for (size_t d = 0; d < domain.dims.size(); d++) {
            if (solve_one(i, e, fresh_names[d], fresh_names[d], 1, 0, c)) return;
        }
        if (solve_by_residue(i, e, c)) return;
        failed = true;
    }

    /// Solves u == e for z, records target = a z + k (z itself when a is 1 and k 0) and goes on
    /// to argument i + 1. False if e cannot be solved for z.
    bool solve_one(size_t i, const Expr &e, const std::string &z, const std::string &target,
                   int64_t a, int64_t k, Case c) {
        int64_t n = expr_uses_var(e, z) ? preimage_size(e, z) : 0;
        if (n == 0) return false;
        Interval sol = solve_for_inner_interval(var(i) == e, z);
        if (!sol.is_bounded()) return false;
        Expr s = sol.min;
        if (n > 1) {
            std::string offset = unique_name('k');
            c.offsets.push_back({offset, n});
            s = s + Variable::make(Int(32), offset);
        }
        Expr in_range = simplify(s <= sol.max);
        if (!can_prove(in_range)) c.conditions.push_back(in_range);
        if (a != 1 || k != 0) s = simplify(s * (int)a + (int)k);
        for (auto &kv : c.solved) kv.second = simplify(substitute(target, s, kv.second));
        c.solved[target] = s;
        step(i + 1, std::move(c));
        return true;
    }

    /// e reads a pure variable z through z % a (an upsampling's x / 2 - 1 + 2 * (x % 2)): each
    /// residue k is its own case, z = a q + k, in which e is solved for q. Returns whether it
    /// solved argument i.
    bool solve_by_residue(size_t i, const Expr &e, const Case &c) {
        for (size_t d = 0; d < domain.dims.size(); d++) {
            const std::string &z = fresh_names[d];
            if (domain.dims[d].is_rvar || c.solved.count(z) || !expr_uses_var(e, z)) continue;
            int64_t a = 0;
            visit_exprs(e, [&](const Expr &n) {
                const Mod *m = n.as<Mod>();
                const int64_t *divisor = m ? as_const_int(m->b) : nullptr;
                if (!a && divisor && *divisor >= 2 && *divisor <= 64 && expr_uses_var(m->a, z)) {
                    a = *divisor;
                }
                return a == 0;
            });
            if (!a) continue;
            const std::string q = unique_name('q');
            std::vector<Expr> residues;
            for (int64_t k = 0; k < a; k++) {
                Expr ek = simplify(substitute(z, Variable::make(Int(32), q) * (int)a + (int)k, e));
                if (preimage_size(ek, q) == 0 ||
                    !solve_for_inner_interval(var(i) == ek, q).is_bounded()) {
                    break;
                }
                residues.push_back(ek);
            }
            if ((int64_t)residues.size() != a) continue;
            for (int64_t k = 0; k < a; k++) solve_one(i, residues[k], q, z, a, k, c);
            return true;
        }
        return false;
    }

    /// u == a z + t + b, for a pure variable z, an RVar t over [m, m + n) with n <= a and b free
    /// of both (a tile's pixels, in(8 x + r.x - 4) with r.x in [0, 8)): each u is one point,
    /// z = (u - b - m) / a and t = (u - b - m) % a + m (outside t's range when the remainder is
    /// n or more: emit() masks it). Solving for z alone would leave t summed over its range
    /// with all but one term masked out. Returns whether it solved argument i.
    bool solve_tiled(size_t i, const Expr &e, Case &c) {
        // The constant value of x, if it is one.
        auto constant = [](const Expr &x, int64_t *value) {
            Expr k = simplify(x);
            const int64_t *p = as_const_int(k);
            if (p) *value = *p;
            return p != nullptr;
        };
        for (size_t zd = 0; zd < domain.dims.size(); zd++) {
            const std::string &z = fresh_names[zd];
            if (domain.dims[zd].is_rvar || c.solved.count(z) || !expr_uses_var(e, z)) continue;
            Expr zv = Variable::make(Int(32), z);
            int64_t a = 0;
            if (!constant(substitute(z, zv + 1, e) - e, &a) || a < 2 || a > 1024) continue;
            for (size_t td = 0; td < domain.dims.size(); td++) {
                const std::string &t = fresh_names[td];
                const Interval &range = domain.dims[td].range;
                if (!domain.dims[td].is_rvar || c.solved.count(t) || !expr_uses_var(e, t) ||
                    !range.is_bounded()) {
                    continue;
                }
                Expr tv = Variable::make(Int(32), t);
                int64_t m = 0, last = 0, step_t = 0;
                if (!constant(range.min, &m) || !constant(range.max, &last) || last - m + 1 > a ||
                    !constant(substitute(t, tv + 1, e) - e, &step_t) || step_t != 1) {
                    continue;
                }
                Expr b = simplify(e - zv * (int)a - tv);
                if (expr_uses_vars(b, iteration)) continue;
                Expr q = var(i) - b - (int)m;
                Expr zs = simplify(q / (int)a), ts = simplify(q % (int)a + (int)m);
                std::map<std::string, Expr> solution = {{z, zs}, {t, ts}};
                for (auto &kv : c.solved) kv.second = simplify(substitute(solution, kv.second));
                c.solved[z] = zs;
                c.solved[t] = ts;
                step(i + 1, std::move(c));
                return true;
            }
        }
        return false;
    }

    /// The gather of one case.
    void emit(const Case &c) {
        // A solution computed from an unsolved pure Var by a non-invertible expression
        // (in(idx(x) + r) solved for r) would sum over that whole dimension for every point of
        // the adjoint, nearly all masked out: quadratic. The scatter is linear.
        for (const auto &kv : c.solved) {
            for (size_t d = 0; d < domain.dims.size(); d++) {
                const std::string &z = fresh_names[d];
                if (domain.dims[d].is_rvar || c.solved.count(z)) continue;
                if (expr_uses_var(kv.second, z) && preimage_size(kv.second, z) == 0) {
                    failed = true;
                    return;
                }
            }
        }
        std::map<std::string, Expr> clamped, exact;
        std::vector<Expr> conditions;
        Region region;
        std::vector<std::string> reduced;
        std::set<std::string> adjoint_vars(vars.begin(), vars.end());
        for (size_t d = 0; d < domain.dims.size(); d++) {
            const std::string &z = fresh_names[d];
            Interval range = domain.dims[d].range;
            auto it = c.solved.find(z);
            if (it != c.solved.end()) {
                // Outside the domain the adjoint is zero: mask, and clamp so that what the mask
                // hides reads only what the forward pipeline reads.
                Expr s = it->second, v = s;
                if (range.has_lower_bound()) {
                    conditions.push_back(range.min <= s);
                    v = max(v, range.min);
                }
                if (range.has_upper_bound()) {
                    conditions.push_back(s <= range.max);
                    v = min(v, range.max);
                }
                exact[z] = s;
                clamped[z] = v;
                continue;
            }
            // An unsolved variable is summed over, within what the case's conditions allow.
            // A condition that also reads other summed variables (an edge case of a clamped
            // read in a second-order adjoint: x - r.x + 1 < 0) bounds z by its solution over
            // their ranges; the mask keeps the exact condition.
            std::set<std::string> others;
            Scope others_ranges;
            for (size_t o = 0; o < domain.dims.size(); o++) {
                if (fresh_names[o] == z || c.solved.count(fresh_names[o])) continue;
                others.insert(fresh_names[o]);
                if (domain.dims[o].range.is_bounded()) {
                    others_ranges[fresh_names[o]] = domain.dims[o].range;
                }
            }
            for (const auto &o : c.offsets) {
                others.insert(o.first);
                others_ranges[o.first] = Interval(0, (int)o.second - 1);
            }
            for (const Expr &cond : c.conditions) {
                Expr k = simplify(substitute(c.solved, cond));
                if (expr_uses_vars(k, adjoint_vars) || !solvable_comparison(k, z)) continue;
                bool bounded_others = true;
                for (const std::string &o : others) {
                    if (expr_uses_var(k, o) && !others_ranges.count(o)) bounded_others = false;
                }
                if (!bounded_others) continue;
                Interval allowed = solve_for_inner_interval(k, z);
                if (allowed.is_empty()) continue;
                if (expr_uses_vars(k, others)) {
                    if (allowed.has_lower_bound()) {
                        allowed.min = bounds_of_expr_in_scope(allowed.min, others_ranges).min;
                    }
                    if (allowed.has_upper_bound()) {
                        allowed.max = bounds_of_expr_in_scope(allowed.max, others_ranges).max;
                    }
                }
                range.min = Interval::make_max(range.min, allowed.min);
                range.max = Interval::make_min(range.max, allowed.max);
            }
            if (!range.is_bounded()) {
                failed = true;
                return;
            }
            Expr extent = simplify(max(range.max - range.min + 1, 0));
            if (is_const_zero(extent)) return;
            region.emplace_back(simplify(range.min), extent);
            reduced.push_back(z);
        }
        for (const auto &o : c.offsets) {
            region.emplace_back(0, (int)o.second);
            reduced.push_back(o.first);
        }
        for (const Expr &cond : c.conditions) conditions.push_back(cond);
        if (predicate.defined()) conditions.push_back(predicate);

        std::map<std::string, Expr> rvars;
        RDom r;
        if (!region.empty()) {
            r = RDom(region, unique_name(name + "_r"));
            for (size_t i = 0; i < reduced.size(); i++) rvars[reduced[i]] = r[(int)i];
        }
        auto finish = [&](const Expr &e, const std::map<std::string, Expr> &solution) {
            return substitute(rvars, substitute(solution, e));
        };
        // A condition pinning one of the adjoint's Vars to a value (a boundary condition's
        // edge case, u == 0) leaves only a line of the adjoint nonzero: the sum is taken with
        // the Var replaced by that value, a Func of the other Vars, so it is computed along the
        // line rather than over the whole adjoint and masked.
        std::set<std::string> summed;
        for (const auto &kv : rvars) summed.insert(kv.second.as<Variable>()->name);
        std::vector<Expr> finished, pins;
        std::map<std::string, Expr> pinned;
        for (const Expr &k : conditions) finished.push_back(finish(k, exact));
        if (summed_reduction(region)) {
            for (Expr &e : finished) {
                const EQ *eq = e.as<EQ>();
                if (!eq) continue;
                for (const auto &side :
                     {std::make_pair(eq->a, eq->b), std::make_pair(eq->b, eq->a)}) {
                    const Variable *v = side.first.as<Variable>();
                    if (!v || !adjoint_vars.count(v->name) || pinned.count(v->name) ||
                        expr_uses_vars(side.second, adjoint_vars) ||
                        expr_uses_vars(side.second, summed)) {
                        continue;
                    }
                    pinned[v->name] = side.second;
                    pins.push_back(e);
                    e = const_true();
                    break;
                }
            }
        }
        Expr cond = const_true();
        for (const Expr &e : finished) cond = cond && substitute(pinned, e);
        cond = simplify(cond);
        if (is_const_false(cond)) return;
        Expr value = substitute(pinned, finish(unmasked, clamped));
        if (!is_const_true(cond)) value = select(cond, value, make_zero(value.type()));
        if (region.empty()) {
            gathers.push_back(value);
            return;
        }
        Expr total = reduce(r, region, value);
        sums_reduction = sums_reduction || summed_reduction(region);
        for (const Expr &pin : pins) total = select(pin, total, make_zero(total.type()));
        gathers.push_back(total);
    }

    /// Whether reduce() sums over `region` with an inline reduction rather than term by term.
    static bool summed_reduction(const Region &region) {
        if (region.empty()) return false;
        int64_t points = 1;
        for (const Range &d : region) {
            const int64_t *e = as_const_int(d.extent);
            const int64_t *m = as_const_int(d.min);
            if (!e || !m) return true;
            points *= *e;
        }
        return points > 16;
    }

    /// The sum of value over r. A small constant domain (a 3x3 kernel, an upsampling factor, a
    /// boundary's overhang) is written out term by term, which vectorizes; a larger one is an
    /// inline reduction.
    Expr reduce(const RDom &r, const Region &region, const Expr &value) const {
        if (summed_reduction(region)) return sum(r, value, name + "_sum");
        int64_t points = 1;
        for (const Range &d : region) points *= *as_const_int(d.extent);
        Expr total;
        for (int64_t p = 0; p < points; p++) {
            std::map<std::string, Expr> point;
            int64_t q = p;
            for (size_t i = 0; i < region.size(); i++) {
                int64_t e = *as_const_int(region[i].extent);
                point[r[(int)i].name()] = region[i].min + (int)(q % e);
                q /= e;
            }
            Expr term = simplify(substitute(point, value));
            total = total.defined() ? total + term : term;
        }
        return total.defined() ? total : make_zero(value.type());
    }

    /// The fallback: a loop over the whole domain writing the adjoint at the call's arguments.
    void scatter(AdjointTerms *terms) {
        Region region;
        for (const IterationDomain::Dim &d : domain.dims) {
            user_assert(d.range.is_bounded())
                << "propagate_adjoints: the Func \"" << domain.func << "\" reads \"" << callee
                << "\" at an index Loom cannot invert, so its adjoint is scattered over the points"
                << " of \"" << domain.func << "\", but their range in \"" << d.name
                << "\" is unbounded. Clamp the index (or the values it is computed from) or "
                << "give bounds to the pipeline's output.\n";
            region.emplace_back(d.range.min, simplify(d.range.max - d.range.min + 1));
        }
        std::map<std::string, Expr> rvars;
        RDom r;
        if (!region.empty()) {
            r = RDom(region, unique_name(name + "_r"));
            for (size_t i = 0; i < fresh_names.size(); i++) rvars[fresh_names[i]] = r[(int)i];
        }
        AdjointTerms::Scatter s;
        for (const Expr &a : args) s.args.push_back(substitute(rvars, a));
        s.value = substitute(rvars, w);
        if (predicate.defined()) {
            s.value = select(substitute(rvars, predicate), s.value, make_zero(w.type()));
        }
        terms->scatters.push_back(s);
    }

    const IterationDomain &domain;
    std::vector<std::string> vars;
    std::string callee, name;
    std::vector<std::string> fresh_names;
    std::set<std::string> iteration;
    std::vector<Expr> args;
    Expr w, predicate;
    Expr unmasked; ///< the terms of w being gathered, without their mask (the case's conditions)
    std::vector<Expr> gathers;
    bool sums_reduction = false; ///< a gather sums over an inline reduction
    bool failed = false;
};

} // namespace

void add_call_adjoint(const IterationDomain &domain, const std::vector<Expr> &args, const Expr &w,
                      const std::vector<std::string> &vars, const std::string &callee,
                      const std::string &name, AdjointTerms *terms) {
    internal_assert(args.size() == vars.size()) << "add_call_adjoint: arity mismatch\n";
    CallSiteConverter(domain, args, w, vars, callee, name).run(terms);
}

} // namespace internal
} // namespace loom
