#include "lower/loop_invariant_code_motion.h"

#include "arith/constant_interval.h"
#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace loom {
namespace internal {

namespace {

/// What a loop body defines and writes: names bound inside it (lets, loops, allocations),
/// buffers stored to, whether it calls anything with side effects, and every name it uses.
class Summary : public IRVisitor {
public:
    std::set<std::string> defined, stored, used;
    bool impure_call = false;
    std::map<std::string, int> definitions;
    /// The values each LetStmt name is bound to.
    std::map<std::string, std::vector<Expr>> let_values;

protected:
    using IRVisitor::visit;
    void visit(const LetStmt *op) override {
        define(op->name);
        let_values[op->name].push_back(op->value);
        IRVisitor::visit(op);
    }
    void visit(const Let *op) override {
        define(op->name);
        IRVisitor::visit(op);
    }
    void visit(const For *op) override {
        define(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Allocate *op) override {
        define(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        stored.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Call *op) override {
        if (!op->is_pure()) impure_call = true;
        IRVisitor::visit(op);
    }
    void visit(const Variable *op) override { used.insert(op->name); }

private:
    void define(const std::string &n) {
        defined.insert(n);
        definitions[n]++;
    }
};

/// Integer sums (flat indices) regrouped by loop level: the terms are added from the outermost
/// level in, ((invariant in every loop) + (varying in the first loop)) + ..., so that the part
/// of an index that does not change in a loop is one subexpression, which LICM then moves in
/// front of that loop. Left as the simplifier orders them, ((x * 16 + min) - min_realized) +
/// row, LLVM's reassociation drops the nsw flags and every access in the loop sign-extends its
/// own index (camera_pipe's sharpening blur: 18 instructions per vector against Halide's 10,
/// which groups the same way before its LICM).
class GroupSumsByLoopLevel : public IRMutator {
protected:
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        Expr mn = mutate(op->min), ext = mutate(op->extent);
        depth++;
        auto saved = bind(op->name, depth);
        Stmt body = mutate(op->body);
        unbind(op->name, saved);
        depth--;
        if (mn.same_as(op->min) && ext.same_as(op->extent) && body.same_as(op->body)) return op;
        return op->with_range(mn, ext, body);
    }
    Stmt visit(const LetStmt *op) override { return let(op); }
    Expr visit(const Let *op) override { return let(op); }
    Expr visit(const Add *op) override { return sum(op); }
    Expr visit(const Sub *op) override { return sum(op); }

private:
    /// Loop variables and lets: the level of the innermost loop whose iterations change them
    /// (0: none; names bound outside every loop are not in the map).
    std::map<std::string, int> level;
    int depth = 0;

    std::pair<bool, int> bind(const std::string &name, int l) {
        auto it = level.find(name);
        std::pair<bool, int> saved{it != level.end(), it != level.end() ? it->second : 0};
        level[name] = l;
        return saved;
    }
    void unbind(const std::string &name, const std::pair<bool, int> &saved) {
        if (saved.first) {
            level[name] = saved.second;
        } else {
            level.erase(name);
        }
    }

    int level_of(const Expr &e) const {
        int l = 0;
        visit_exprs(e, [&](const Expr &x) {
            if (const Variable *v = x.as<Variable>()) {
                auto it = level.find(v->name);
                if (it != level.end()) l = std::max(l, it->second);
            }
            return true;
        });
        return l;
    }

    template <typename L>
    auto let(const L *op) -> decltype(mutate(op->body)) {
        Expr value = mutate(op->value);
        auto saved = bind(op->name, level_of(value));
        auto body = mutate(op->body);
        unbind(op->name, saved);
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return L::make(op->name, value, body);
    }

    struct Term {
        Expr e;
        bool negative;
        int level;
    };
    void flatten(const Expr &e, bool negative, std::vector<Term> &terms) {
        if (e.type() == type) {
            if (const Add *a = e.as<Add>()) {
                flatten(a->a, negative, terms);
                flatten(a->b, negative, terms);
                return;
            }
            if (const Sub *s = e.as<Sub>()) {
                flatten(s->a, negative, terms);
                flatten(s->b, !negative, terms);
                return;
            }
        }
        Expr m = mutate(e);
        terms.push_back({m, negative, level_of(m)});
    }

    Type type;

    /// e (a sum flattened into terms) rebuilt in its own shape from the mutated terms.
    Expr same_shape(const Expr &e, const std::vector<Term> &terms, size_t &next) const {
        if (e.type() == terms[0].e.type()) {
            if (const Add *a = e.as<Add>()) {
                Expr l = same_shape(a->a, terms, next), r = same_shape(a->b, terms, next);
                return l.same_as(a->a) && r.same_as(a->b) ? e : Add::make(l, r);
            }
            if (const Sub *s = e.as<Sub>()) {
                Expr l = same_shape(s->a, terms, next), r = same_shape(s->b, terms, next);
                return l.same_as(s->a) && r.same_as(s->b) ? e : Sub::make(l, r);
            }
        }
        return terms[next++].e;
    }

    template <typename T>
    Expr sum(const T *op) {
        if (!op->type.is_int() || !op->type.is_scalar()) return IRMutator::visit(op);
        Type saved = type;
        type = op->type;
        std::vector<Term> terms;
        flatten(op, false, terms);
        type = saved;
        // Constants go last, outside the invariant part: the taps of a stencil, f(x - 1), f(x)
        // and f(x + 1), then share one invariant and differ by a constant that folds into the
        // address (harris' 3x3 sums: 18 pointers, and spills, against Halide's 6).
        auto key = [](const Term &t) {
            return is_const(t.e) ? std::numeric_limits<int>::max() : t.level;
        };
        std::vector<Term> sorted = terms;
        std::stable_sort(sorted.begin(), sorted.end(),
                         [&](const Term &a, const Term &b) { return key(a) < key(b); });
        int innermost = 0;
        for (const Term &t : terms) {
            if (!is_const(t.e)) innermost = std::max(innermost, t.level);
        }
        // Worth it where two or more terms vary less than the rest (they become one
        // invariant), or a constant is not last, and they are not already in that order.
        bool reordered = false, constant_inside = false;
        int below_innermost = 0;
        for (size_t i = 0; i < terms.size(); i++) {
            reordered = reordered || !terms[i].e.same_as(sorted[i].e);
            below_innermost += !is_const(terms[i].e) && terms[i].level < innermost;
            constant_inside = constant_inside || (is_const(terms[i].e) && i + 1 < terms.size());
        }
        if (!reordered || (below_innermost < 2 && !constant_inside)) {
            size_t next = 0;
            return same_shape(op, terms, next);
        }
        Expr result;
        for (const Term &t : sorted) {
            if (!result.defined()) {
                result = t.negative ? Sub::make(make_zero(t.e.type()), t.e) : t.e;
            } else {
                result = t.negative ? Sub::make(result, t.e) : Add::make(result, t.e);
            }
        }
        return result;
    }
};

/// The largest loop-invariant scalar subexpressions of a loop body that are worth a let
/// (arithmetic on names, not a lone name or constant), replaced by fresh names; no loads and
/// only pure calls, so computing them in front of the loop is safe even if it runs zero times
/// (integer division by zero is defined).
class LiftInvariantExprs : public IRMutator {
public:
    LiftInvariantExprs(const std::set<std::string> &varying, int &counter)
        : varying(varying), counter(counter) {}

    std::vector<std::pair<std::string, Expr>> lifted;

    Expr mutate(const Expr &e) override {
        if (worth_lifting(e)) {
            auto it = names.find(e);
            if (it == names.end()) {
                // Numbered per lowering, not process-wide: the same pipeline lowers to the
                // same statement, which the JIT's cache recognizes.
                it = names.emplace(e, "licm.t" + std::to_string(counter++)).first;
                lifted.emplace_back(it->second, e);
            }
            return Variable::make(e.type(), it->second);
        }
        return IRMutator::mutate(e);
    }
    using IRMutator::mutate;

private:
    const std::set<std::string> &varying;
    int &counter;
    std::map<Expr, std::string, IRDeepCompare> names;

    static bool is_leaf(const Expr &e) {
        if (e.as<Variable>() || is_const(e)) return true;
        if (const Cast *c = e.as<Cast>()) return is_leaf(c->value);
        return false;
    }

    bool worth_lifting(const Expr &e) const {
        if (!e.defined() || !e.type().is_scalar() || e.type().is_bool() || e.type().is_handle() ||
            is_leaf(e) || expr_uses_vars(e, varying)) {
            return false;
        }
        bool ok = true, names_something = false;
        visit_exprs(e, [&](const Expr &x) {
            if (const Call *c = x.as<Call>()) ok = ok && c->is_pure();
            ok = ok && !x.as<Load>() && !x.as<Let>();
            names_something = names_something || x.as<Variable>();
            return ok;
        });
        return ok && names_something;
    }
};

class LICM : public IRMutator {
protected:
    using IRMutator::visit;

    Stmt visit(const LetStmt *op) override {
        outer.insert(op->name);
        Stmt s = IRMutator::visit(op);
        outer.erase(outer.find(op->name));
        return s;
    }

    Stmt visit(const Allocate *op) override {
        outer.insert(op->name);
        Stmt s = IRMutator::visit(op);
        outer.erase(outer.find(op->name));
        return s;
    }

    Stmt visit(const For *op) override {
        outer.insert(op->name);
        Stmt body = mutate(op->body);
        outer.erase(outer.find(op->name));
        Summary sum;
        sum.dispatch(body);
        bool extent_positive = constant_integer_bounds(op->extent).min_defined &&
                               constant_integer_bounds(op->extent).min > 0;

        // Names that make a value vary: the loop variable and everything defined inside
        // (minus the lets lifted so far, which become invariant).
        std::set<std::string> varying = sum.defined;
        varying.insert(op->name);
        std::vector<std::pair<std::string, Expr>> lifted;
        auto invariant = [&](const Expr &e, bool allow_loads) {
            if (expr_uses_vars(e, varying)) return false;
            bool ok = true;
            visit_exprs(e, [&](const Expr &x) {
                if (!ok) return false;
                if (const Call *c = x.as<Call>()) {
                    ok = c->is_pure();
                } else if (const Load *l = x.as<Load>()) {
                    ok = allow_loads && !sum.impure_call && !sum.stored.count(l->name) &&
                         !varying.count(l->name);
                }
                return ok;
            });
            return ok;
        };
        // Whether every binding of the name in the loop is a LetStmt of the same value: one
        // binding, or an unrolled loop's copies of its body's lets (a fused loop's index
        // arithmetic, divisions included, in each of a convolution's 9 unrolled taps).
        auto bound_alike = [&](const LetStmt *l) {
            auto values = sum.let_values.find(l->name);
            if (values == sum.let_values.end() ||
                (int)values->second.size() != sum.definitions[l->name]) {
                return false;
            }
            for (const Expr &v : values->second) {
                if (!equal(v, l->value)) return false;
            }
            return true;
        };
        auto may_lift = [&](const LetStmt *l) {
            // One binding of the name in the loop (or several alike, which then bind what the
            // lifted one does) and none outside it, so lifting neither captures nor shadows
            // another use of the name.
            return bound_alike(l) && l->name != op->name && !outer.count(l->name) &&
                   invariant(l->value, extent_positive);
        };
        body = lift(body, may_lift, &varying, &lifted);
        // Then the invariant parts of the expressions left in the body (the grouped index
        // terms), behind the lets they may use.
        if (op->device_api == DeviceAPI::None || op->device_api == DeviceAPI::Host) {
            LiftInvariantExprs exprs(varying, lifted_count);
            body = exprs.mutate(body);
            lifted.insert(lifted.end(), exprs.lifted.begin(), exprs.lifted.end());
        }

        Stmt result;
        const IfThenElse *ite = body.as<IfThenElse>();
        if (ite && invariant(ite->condition, false)) {
            Stmt then_loop = op->with_body(ite->then_case);
            Stmt else_loop;
            if (ite->else_case.defined()) {
                else_loop = op->with_body(ite->else_case);
            }
            result = IfThenElse::make(ite->condition, then_loop, else_loop);
        } else if (body.same_as(op->body)) {
            result = op;
        } else {
            result = op->with_body(body);
        }
        for (auto it = lifted.rbegin(); it != lifted.rend(); ++it) {
            result = LetStmt::make(it->first, it->second, result);
        }
        return result;
    }

private:
    /// The names bound around the code being visited.
    std::multiset<std::string> outer;
    /// Subexpressions lifted so far (for their names).
    int lifted_count = 0;

    /// s with the liftable lets on its spine (lets, blocks, produce/consume, allocations)
    /// removed and appended to *lifted in order. A let that stays makes its name varying.
    template <typename F>
    Stmt lift(const Stmt &s, F &may_lift, std::set<std::string> *varying,
              std::vector<std::pair<std::string, Expr>> *lifted) {
        if (const LetStmt *l = s.as<LetStmt>()) {
            if (may_lift(l)) {
                varying->erase(l->name);
                auto same_name = [&](const std::pair<std::string, Expr> &b) {
                    return b.first == l->name;
                };
                if (std::none_of(lifted->begin(), lifted->end(), same_name)) {
                    lifted->emplace_back(l->name, l->value);
                }
                return lift(l->body, may_lift, varying, lifted);
            }
            Stmt body = lift(l->body, may_lift, varying, lifted);
            return body.same_as(l->body) ? s : LetStmt::make(l->name, l->value, body);
        }
        if (const Block *b = s.as<Block>()) {
            Stmt first = lift(b->first, may_lift, varying, lifted);
            Stmt rest = lift(b->rest, may_lift, varying, lifted);
            if (first.same_as(b->first) && rest.same_as(b->rest)) return s;
            return Block::make(first, rest);
        }
        if (const ProducerConsumer *pc = s.as<ProducerConsumer>()) {
            Stmt body = lift(pc->body, may_lift, varying, lifted);
            return body.same_as(pc->body) ? s
                                          : ProducerConsumer::make(pc->name, pc->is_producer, body);
        }
        if (const Allocate *a = s.as<Allocate>()) {
            Stmt body = lift(a->body, may_lift, varying, lifted);
            if (body.same_as(a->body)) return s;
            return Allocate::make(a->name, a->type, a->memory_type, a->extents, a->condition, body);
        }
        return s;
    }
};

} // namespace

Stmt loop_invariant_code_motion(const Stmt &s) {
    return LICM().mutate(GroupSumsByLoopLevel().mutate(s));
}

} // namespace internal
} // namespace loom
