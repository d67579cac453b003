#include "lower/vectorize_loops.h"

#include "lower/constant_lets.h"
#include "lower/loop_names.h"
#include "lower/lower_utils.h"

#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/ir_printer.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "simplify/simplify.h"
#include "support/error.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

namespace {} // namespace

namespace {

/// Whether a statement can run with every store and load predicated: only stores, lets,
/// blocks and ifs, and no call with side effects.
bool predicable(const Stmt &s) {
    class Check : public IRVisitor {
    public:
        bool ok = true;

    protected:
        using IRVisitor::visit;
        void visit(const For *) override { ok = false; }
        void visit(const Allocate *) override { ok = false; }
        void visit(const Free *) override { ok = false; }
        void visit(const AssertStmt *) override { ok = false; }
        void visit(const Atomic *) override { ok = false; }
        void visit(const Evaluate *op) override {
            if (!is_const(op->value)) ok = false;
        }
        void visit(const Call *op) override {
            if (!op->is_pure()) ok = false;
            IRVisitor::visit(op);
        }
    } check;
    check.dispatch(s);
    return check.ok;
}

bool contains_vectors(const Stmt &s) {
    bool found = false;
    visit_exprs(s, [&](const Expr &e) {
        found = found || e.type().is_vector();
        return !found;
    });
    class FindLoops : public IRVisitor {
    public:
        bool found = false;

    protected:
        using IRVisitor::visit;
        void visit(const For *op) override {
            if (op->for_type == ForType::Vectorized) found = true;
            IRVisitor::visit(op);
        }
    } loops;
    loops.dispatch(s);
    return found || loops.found;
}

/// Intrinsics that are not elementwise functions of their arguments.
bool widenable_call(const Call *op) {
    if (op->call_type == Call::PureExtern) return true;
    if (op->call_type != Call::PureIntrinsic) return false;
    static const char *const refused[] = {Call::if_then_else, Call::stringify, Call::make_struct,
                                          Call::require,      Call::undef,     Call::random,
                                          Call::return_second};
    for (const char *r : refused) {
        if (op->name == r) return false;
    }
    return op->name.compare(0, 15, "_halide_buffer_") != 0;
}

/// Widens one loop body: the loop variable is the ramp, and everything depending on it gets
/// `lanes` lanes.
class VectorSubs : public IRMutator {
public:
    VectorSubs(const std::string &var, int lanes) : var(var), lanes(lanes) {}

    /// The widened body, or undefined when the loop can't be vectorized (then `failure` says
    /// why).
    Stmt run(const Stmt &body) {
        Stmt wide = mutate(body);
        return failure.empty() ? wide : Stmt();
    }
    std::string failure;

protected:
    using IRMutator::visit;

    // Once the loop is known to stay scalar, the rest of the body is left as it is.
    Expr mutate(const Expr &e) override { return failure.empty() ? IRMutator::mutate(e) : e; }
    Stmt mutate(const Stmt &s) override { return failure.empty() ? IRMutator::mutate(s) : s; }

    /// Records why the loop stays scalar (the first reason) and returns `keep`, a stand-in of
    /// the right type that run() drops with the rest of the widened body.
    template <typename N>
    N refuse(const std::string &why, N keep) {
        if (failure.empty()) failure = why;
        return keep;
    }

    Expr widen(const Expr &e) {
        if (e.type().lanes() == lanes) return e;
        if (e.type().is_scalar()) return Broadcast::make(e, lanes);
        return refuse("it mixes vectors of " + std::to_string(e.type().lanes()) + " and " +
                          std::to_string(lanes) + " lanes",
                      Expr(make_zero(e.type().with_lanes(lanes))));
    }

    Expr visit(const Variable *op) override {
        if (op->name == var) return Ramp::make(op, make_one(op->type), lanes);
        auto in = inlined.find(op->name);
        if (in != inlined.end()) return in->second;
        auto it = renamed.find(op->name);
        if (it != renamed.end()) return Variable::make(op->type.with_lanes(lanes), it->second);
        return op;
    }

    template <typename T>
    Expr binary(const T *op) {
        Expr a = mutate(op->a), b = mutate(op->b);
        if (a.same_as(op->a) && b.same_as(op->b)) return op;
        if (a.type().is_vector() || b.type().is_vector()) return T::make(widen(a), widen(b));
        return T::make(a, b);
    }
    Expr visit(const Add *op) override { return binary(op); }
    Expr visit(const Sub *op) override { return binary(op); }
    Expr visit(const Mul *op) override { return binary(op); }
    Expr visit(const Div *op) override { return binary(op); }
    Expr visit(const Mod *op) override { return binary(op); }
    Expr visit(const Min *op) override { return binary(op); }
    Expr visit(const Max *op) override { return binary(op); }
    Expr visit(const EQ *op) override { return binary(op); }
    Expr visit(const NE *op) override { return binary(op); }
    Expr visit(const LT *op) override { return binary(op); }
    Expr visit(const LE *op) override { return binary(op); }
    Expr visit(const GT *op) override { return binary(op); }
    Expr visit(const GE *op) override { return binary(op); }
    Expr visit(const And *op) override { return binary(op); }
    Expr visit(const Or *op) override { return binary(op); }

    Expr visit(const Not *op) override {
        Expr a = mutate(op->a);
        return a.same_as(op->a) ? Expr(op) : Not::make(a);
    }
    Expr visit(const Cast *op) override {
        Expr v = mutate(op->value);
        if (v.same_as(op->value)) return op;
        return Cast::make(op->type.with_lanes(v.type().lanes()), v);
    }
    Expr visit(const Reinterpret *op) override {
        Expr v = mutate(op->value);
        if (v.same_as(op->value)) return op;
        return Reinterpret::make(op->type.with_lanes(v.type().lanes()), v);
    }
    Expr visit(const Select *op) override {
        Expr c = mutate(op->condition), t = mutate(op->true_value), f = mutate(op->false_value);
        if (c.same_as(op->condition) && t.same_as(op->true_value) && f.same_as(op->false_value)) {
            return op;
        }
        if (t.type().is_vector() || f.type().is_vector() || c.type().is_vector()) {
            t = widen(t);
            f = widen(f);
        }
        return Select::make(c, t, f);
    }
    Expr visit(const Load *op) override {
        Expr index = mutate(op->index), p = mutate(op->predicate);
        if (wide_allocs.count(op->name)) index = lane_slot(index);
        bool vector = index.type().is_vector() || p.type().is_vector() || pred.defined();
        if (!vector) {
            if (index.same_as(op->index) && p.same_as(op->predicate)) return op;
            return Load::make(op->type, op->name, index, p, op->param, op->alignment);
        }
        Expr mask = is_const_true(p) ? Expr() : widen(p);
        if (pred.defined()) mask = mask.defined() ? And::make(mask, pred) : pred;
        if (!mask.defined()) mask = const_true(lanes);
        return Load::make(op->type.with_lanes(lanes), op->name, widen(index), mask, op->param,
                          ModulusRemainder());
    }
    Expr visit(const Call *op) override {
        std::vector<Expr> args;
        bool changed = false, vector = false;
        for (const Expr &a : op->args) {
            args.push_back(mutate(a));
            changed = changed || !args.back().same_as(a);
            vector = vector || args.back().type().is_vector();
        }
        if (!changed) return op;
        if (!vector) {
            return Call::make(op->type, op->name, args, op->call_type, op->func, op->value_index,
                              op->param);
        }
        // Trace events (lower/inject_tracing.h) keep their arguments as they are: codegen
        // reports all lanes in one event, as Halide does. A traced load is
        // return_second(trace(...), value).
        const Call *first = args[0].as<Call>();
        if (op->is_intrinsic("trace")) return Call::make(op->type, op->name, args, op->call_type);
        if (op->is_intrinsic(Call::return_second) && first && first->is_intrinsic("trace")) {
            return Call::make(args[1].type(), op->name, args, op->call_type);
        }
        if (!widenable_call(op)) {
            return refuse("it calls " + op->name + ", which has no vector form", Expr(op));
        }
        for (Expr &a : args) a = widen(a);
        return Call::make(op->type.with_lanes(lanes), op->name, args, op->call_type, op->func,
                          op->value_index, op->param);
    }
    Expr visit(const Let *op) override {
        Expr value = mutate(op->value);
        std::string name = bind(op->name, value);
        Expr body = mutate(op->body);
        unbind(op->name);
        if (name.empty()) return body;
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return Let::make(name, value, body);
    }
    Expr visit(const Ramp *op) override { return refuse_changed(op); }
    Expr visit(const Broadcast *op) override { return refuse_changed(op); }
    Expr visit(const Shuffle *op) override { return refuse_changed(op); }
    Expr visit(const VectorReduce *op) override { return refuse_changed(op); }

    Stmt visit(const LetStmt *op) override {
        Expr value = mutate(op->value);
        std::string name = bind(op->name, value);
        Stmt body = mutate(op->body);
        unbind(op->name);
        if (name.empty()) return body;
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return LetStmt::make(name, value, body);
    }

    Stmt visit(const Store *op) override {
        Expr value = mutate(op->value), index = mutate(op->index), p = mutate(op->predicate);
        // A widened allocation's lanes have their own slots: its stores never collide.
        const bool own_slots = wide_allocs.count(op->name) > 0;
        if (own_slots) index = lane_slot(index);
        if (index.type().is_vector() || (pred.defined() && value.type().is_vector())) {
            // A scatter that reads what it writes (an atomic histogram vectorized over its
            // RDom) may have lanes that hit the same element: a vector read-modify-write would
            // lose all but one of their updates, so such a loop stays serial.
            // Simplified for the test only: `(ramp(x, 1, n) - x16(m)) + x16(r)` (a ramp
            // through the vector loop's lets) is a ramp, with distinct lanes.
            Expr wide_index = index.type().is_vector() ? simplify(widen(index)) : Expr();
            const Ramp *ramp = wide_index.defined() ? wide_index.as<Ramp>() : nullptr;
            if (!own_slots && wide_index.defined() && !(ramp && !is_const_zero(ramp->stride))) {
                bool reads_self = false;
                visit_exprs(op->value, [&](const Expr &e) {
                    const Load *l = e.as<Load>();
                    reads_self = reads_self || (l && l->name == op->name);
                    return !reads_self;
                });
                if (reads_self) {
                    return refuse("its lanes may store to the same element of " + op->name +
                                      " that they read (a vector read-modify-write would lose "
                                      "updates)",
                                  Stmt(op));
                }
            }
            Expr mask = is_const_true(p) ? Expr() : widen(p);
            if (pred.defined()) mask = mask.defined() ? And::make(mask, pred) : pred;
            if (!mask.defined()) mask = const_true(lanes);
            return Store::make(op->name, widen(value), widen(index), op->param, mask,
                               ModulusRemainder());
        }
        if (pred.defined() || p.type().is_vector()) {
            return refuse("a store to one element of " + op->name + " happens in some lanes only",
                          Stmt(op));
        }
        if (value.type().is_vector()) return reduction(op, index);
        if (value.same_as(op->value) && index.same_as(op->index) && p.same_as(op->predicate)) {
            return op;
        }
        return Store::make(op->name, value, index, op->param, p, op->alignment);
    }

    Stmt visit(const IfThenElse *op) override {
        Expr c = mutate(op->condition);
        if (c.type().is_scalar()) {
            Stmt t = mutate(op->then_case);
            Stmt e = op->else_case.defined() ? mutate(op->else_case) : Stmt();
            if (c.same_as(op->condition) && t.same_as(op->then_case) && e.same_as(op->else_case)) {
                return op;
            }
            return IfThenElse::make(c, t, e);
        }
        if (!predicable(op->then_case) || (op->else_case.defined() && !predicable(op->else_case))) {
            return refuse("an if whose condition differs between lanes holds a loop, an "
                          "allocation or a call with side effects, which can't run in some "
                          "lanes only",
                          Stmt(op));
        }
        Expr cond = strip_likely(c);
        Expr outer = pred;
        auto with_pred = [&](const Stmt &s, const Expr &p) {
            pred = outer.defined() ? And::make(outer, p) : p;
            Stmt r = mutate(s);
            pred = outer;
            return r;
        };
        std::vector<Stmt> masked;
        masked.push_back(with_pred(op->then_case, cond));
        if (op->else_case.defined()) masked.push_back(with_pred(op->else_case, Not::make(cond)));
        Stmt predicated = Block::make(masked);
        if (outer.defined()) return predicated;
        // The common case (every lane in range) runs unpredicated; the test is scalar where
        // the lanes' extremes are known, so partition_loops can lift it out of the outer loop.
        Expr all = all_lanes_true(cond, widened_values);
        if (!all.defined()) all = VectorReduce::make(VectorReduce::And, cond, 1);
        Stmt fast = mutate(op->then_case);
        Expr likely_all = Call::make(Bool(), Call::likely, {all}, Call::PureIntrinsic);
        return IfThenElse::make(likely_all, fast, predicated);
    }

    Stmt visit(const For *op) override {
        Expr mn = mutate(op->min), ext = mutate(op->extent);
        if (mn.type().is_vector() || ext.type().is_vector()) {
            return refuse("the bounds of the inner loop over " + describe_loop(op->name) +
                              " differ between lanes",
                          Stmt(op));
        }
        if (op->for_type == ForType::Parallel || op->for_type == ForType::Vectorized) {
            return refuse("it holds the " + std::string(for_type_name(op->for_type)) +
                              " loop over " + describe_loop(op->name),
                          Stmt(op));
        }
        Stmt body = mutate(op->body);
        if (mn.same_as(op->min) && ext.same_as(op->extent) && body.same_as(op->body)) return op;
        return op->with_range(mn, ext, body);
    }
    Stmt visit(const Allocate *op) override {
        // Each lane gets its own copy of the allocation (as in Halide): `lanes` times the
        // elements, element i of lane l at i * lanes + l, so that a Func or an inline reduction
        // computed inside the vector loop runs on whole vectors (the lanes of one element are
        // adjacent: a lane-invariant index is a dense vector access).
        std::vector<Expr> extents;
        for (const Expr &e : op->extents) {
            Expr m = mutate(e);
            if (m.type().is_vector()) {
                // Enough room for the largest lane's extent.
                Expr lo, hi;
                if (!lane_bounds(m, widened_values, &lo, &hi)) {
                    return refuse("the size of the allocation " + op->name +
                                      " differs between lanes in a way Loom can't bound",
                                  Stmt(op));
                }
                m = simplify(hi);
            }
            extents.push_back(m);
        }
        extents.push_back(make_const(Int(32), lanes));
        Expr cond = mutate(op->condition);
        if (cond.type().is_vector()) {
            return refuse("whether " + op->name + " is allocated differs between lanes", Stmt(op));
        }
        // The buffer's name as a value (a handle passed to an extern call) would see the
        // interleaved layout; such a loop stays serial.
        bool handle_use = false;
        visit_exprs(op->body, [&](const Expr &e) {
            const Variable *v = e.as<Variable>();
            handle_use =
                handle_use || (v && (v->name == op->name || v->name == op->name + ".buffer"));
            return !handle_use;
        });
        if (handle_use) {
            return refuse("the buffer " + op->name +
                              " is passed as a whole (to an extern call), which would see "
                              "the lanes' interleaved copies",
                          Stmt(op));
        }
        wide_allocs[op->name]++;
        Stmt body = mutate(op->body);
        if (--wide_allocs[op->name] == 0) wide_allocs.erase(op->name);
        return Allocate::make(op->name, op->type, op->memory_type, extents, cond, body);
    }
    Stmt visit(const Evaluate *op) override {
        Expr v = mutate(op->value);
        if (v.same_as(op->value)) return op;
        // A trace event of vector stores or loads (see visit(const Call *)).
        if (const Call *c = v.as<Call>(); c && c->is_intrinsic("trace")) return Evaluate::make(v);
        return refuse("a call made for its side effects depends on the lane", Stmt(op));
    }
    Stmt visit(const AssertStmt *op) override {
        Expr c = mutate(op->condition), m = mutate(op->message);
        if (c.same_as(op->condition) && m.same_as(op->message)) return op;
        return refuse("an assertion depends on the lane", Stmt(op));
    }

private:
    const std::string &var;
    const int lanes;
    /// Widened lets: original name -> new name, and the new names' vector values.
    std::map<std::string, std::string> renamed;
    std::map<std::string, Expr> widened_values;
    /// Names shadowed by the current let (restored on unbind).
    std::vector<std::pair<std::string, std::string>> shadowed;
    /// Lets whose vector value is substituted into their uses, and what each let shadowed.
    std::map<std::string, Expr> inlined;
    std::vector<Expr> inlined_shadowed;
    /// The lanes that are active (inside a predicated if), or undefined when all are.
    Expr pred;
    /// Allocations inside the loop that were widened to one slot per lane (name -> nesting).
    std::map<std::string, int> wide_allocs;

    /// The index of each lane's own copy of element `index` of a widened allocation.
    Expr lane_slot(const Expr &index) {
        Expr k = make_const(index.type().element_of(), lanes);
        if (index.type().is_scalar())
            return Ramp::make(Mul::make(index, k), make_one(k.type()), lanes);
        return Add::make(Mul::make(widen(index), Broadcast::make(k, lanes)),
                         Ramp::make(make_zero(k.type()), make_one(k.type()), lanes));
    }

    /// Binds a let; returns the name to give it, or "" when its value (a ramp or broadcast) is
    /// substituted into its uses instead: code generation sees dense indices only as Ramps.
    std::string bind(const std::string &name, const Expr &value) {
        auto it = renamed.find(name);
        shadowed.emplace_back(name, it == renamed.end() ? std::string() : it->second);
        auto in = inlined.find(name);
        inlined_shadowed.push_back(in == inlined.end() ? Expr() : in->second);
        inlined.erase(name);
        if (value.type().is_vector()) {
            Expr sv = simplify(value);
            const Ramp *r = sv.as<Ramp>();
            const Broadcast *b = sv.as<Broadcast>();
            if ((r && r->base.type().is_scalar()) || (b && b->value.type().is_scalar())) {
                renamed.erase(name);
                inlined[name] = sv;
                return std::string();
            }
            std::string n = name + ".widened." + var;
            renamed[name] = n;
            widened_values[n] = value;
            return n;
        }
        renamed.erase(name);
        return name;
    }
    void unbind(const std::string &name) {
        internal_assert(!shadowed.empty() && shadowed.back().first == name);
        if (inlined_shadowed.back().defined()) {
            inlined[name] = inlined_shadowed.back();
        } else {
            inlined.erase(name);
        }
        inlined_shadowed.pop_back();
        if (shadowed.back().second.empty()) {
            renamed.erase(name);
        } else {
            renamed[name] = shadowed.back().second;
        }
        shadowed.pop_back();
    }

    template <typename T>
    Expr refuse_changed(const T *op) {
        Expr r = IRMutator::visit(op);
        if (!r.same_as(op)) return refuse("it holds vector code already", Expr(op));
        return r;
    }

    static Expr strip_likely(const Expr &e) {
        const Call *c = e.as<Call>();
        return is_likely_call(c) ? strip_likely(c->args[0]) : e;
    }

    /// A store at the same index in every lane of a varying value: `f[i] = f[i] op rest`
    /// becomes `f[i] = f[i] op vector_reduce(op, rest)` for associative op; else refused.
    Stmt reduction(const Store *op, const Expr &index) {
        const Expr &v = op->value;
        auto is_self = [&](const Expr &e) {
            const Load *l = e.as<Load>();
            return l && l->name == op->name && is_const_true(l->predicate) &&
                   equal(l->index, op->index);
        };
        auto split = [&](const Expr &a, const Expr &b, Expr *self, Expr *rest) {
            if (is_self(a)) {
                *self = a, *rest = b;
            } else if (is_self(b)) {
                *self = b, *rest = a;
            } else {
                return false;
            }
            return true;
        };
        Expr self, rest;
        VectorReduce::Operator rop;
        if (const Add *a = v.as<Add>(); a && split(a->a, a->b, &self, &rest)) {
            rop = VectorReduce::Add;
        } else if (const Mul *m = v.as<Mul>(); m && split(m->a, m->b, &self, &rest)) {
            rop = VectorReduce::Mul;
        } else if (const Min *m = v.as<Min>(); m && split(m->a, m->b, &self, &rest)) {
            rop = VectorReduce::Min;
        } else if (const Max *m = v.as<Max>(); m && split(m->a, m->b, &self, &rest)) {
            rop = VectorReduce::Max;
        } else if (const And *m = v.as<And>(); m && split(m->a, m->b, &self, &rest)) {
            rop = VectorReduce::And;
        } else if (const Or *m = v.as<Or>(); m && split(m->a, m->b, &self, &rest)) {
            rop = VectorReduce::Or;
        } else {
            return refuse("every lane stores to the same element of " + op->name +
                              ", and the value is not an associative update of it (+, *, min, "
                              "max, &&, ||)",
                          Stmt(op));
        }
        // The rest must not read what is being reduced into (it would see stale values).
        bool reads_self = false;
        visit_exprs(rest, [&](const Expr &e) {
            const Load *l = e.as<Load>();
            reads_self = reads_self || (l && l->name == op->name);
            return !reads_self;
        });
        if (reads_self) {
            return refuse("the reduction into " + op->name + " reads " + op->name +
                              " elsewhere too",
                          Stmt(op));
        }
        Expr wide = widen(mutate(rest));
        Expr sum = VectorReduce::make(rop, wide, 1);
        Expr old = Load::make(self.type(), op->name, index, const_true(), self.as<Load>()->param,
                              self.as<Load>()->alignment);
        Expr value;
        switch (rop) {
        case VectorReduce::Add:
            value = Add::make(old, sum);
            break;
        case VectorReduce::Mul:
            value = Mul::make(old, sum);
            break;
        case VectorReduce::Min:
            value = Min::make(old, sum);
            break;
        case VectorReduce::Max:
            value = Max::make(old, sum);
            break;
        case VectorReduce::And:
            value = And::make(old, sum);
            break;
        case VectorReduce::Or:
            value = Or::make(old, sum);
            break;
        }
        return Store::make(op->name, value, index, op->param, op->predicate, op->alignment);
    }
};

/// The body may rely on the entry checks `assert(b.stride.0 == 1)` (add_image_checks'
/// constraints): storage flattening ran after those checks substituted their facts, so the
/// flat indices still read the buffer fields. Substituting the asserted constants after each
/// assert makes dense vector indices visible (ramp * 1) instead of gathers.
class ApplyAssertedConstants : public IRMutator {
protected:
    using IRMutator::visit;

    Expr visit(const Variable *op) override {
        auto it = facts.find(op->name);
        return it == facts.end() ? Expr(op) : it->second;
    }
    Stmt visit(const Block *op) override {
        std::map<std::string, Expr> saved = facts;
        std::vector<Stmt> stmts = flatten_blocks(Stmt(op));
        bool changed = false;
        for (Stmt &st : stmts) {
            Stmt m = mutate(st);
            changed = changed || !m.same_as(st);
            st = m;
            if (const AssertStmt *a = st.as<AssertStmt>()) {
                const EQ *eq = a->condition.as<EQ>();
                const Variable *v = eq ? eq->a.as<Variable>() : nullptr;
                if (v && v->type == Int(32) && is_const(eq->b)) facts[v->name] = eq->b;
            }
        }
        facts = saved;
        return changed ? Block::make(stmts) : Stmt(op);
    }
    Stmt visit(const LetStmt *op) override {
        // A let of a constrained name would shadow it.
        auto it = facts.find(op->name);
        if (it == facts.end()) return IRMutator::visit(op);
        Expr saved = it->second;
        facts.erase(it);
        Stmt r = IRMutator::visit(op);
        facts[op->name] = saved;
        return r;
    }

private:
    std::map<std::string, Expr> facts;
};

class VectorizeLoops : public ConstantLetMutator {
public:
    std::vector<ScalarLoop> scalar_loops;

protected:
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        // Inner loops first: a vector loop nested in another leaves the outer one serial.
        Stmt body = mutate(op->body);
        if (op->for_type != ForType::Vectorized) {
            if (body.same_as(op->body)) return op;
            return op->with_body(body);
        }
        Expr extent = constant_in_scope(op->extent);
        const int64_t *n = as_const_int(extent);
        user_assert(n) << "Can only vectorize a loop of constant extent, but the loop over "
                       << describe_loop(op->name) << " has extent " << extent
                       << ". Use vectorize(x, factor) to split it first, or bound() the Func.\n";
        Stmt serial = For::make(op->name, op->min, extent, ForType::Serial, op->device_api, body,
                                op->partition_policy);
        if (*n <= 1 || contains_vectors(body)) return serial;
        VectorSubs widen(op->name, (int)*n);
        Stmt wide = widen.run(body);
        if (!wide.defined()) {
            ScalarLoop l{op->name, widen.failure};
            // A loop copied by an enclosing unroll or specialization is reported once.
            if (std::find(scalar_loops.begin(), scalar_loops.end(), l) == scalar_loops.end()) {
                scalar_loops.push_back(l);
            }
            return serial;
        }
        // The loop variable stays defined as the first lane (the ramps' base).
        return LetStmt::make(op->name, op->min, wide);
    }
};

} // namespace

std::string ScalarLoop::message() const {
    return "The loop over " + describe_loop(loop) +
           " is scheduled to be vectorized, but stays scalar: " + reason + ".";
}

VectorizeResult vectorize_loops(const Stmt &s, const Target &) {
    VectorizeLoops v;
    VectorizeResult result;
    result.stmt = v.mutate(ApplyAssertedConstants().mutate(s));
    result.scalar_loops = v.scalar_loops;
    return result;
}

} // namespace internal
} // namespace loom
