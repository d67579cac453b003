#include "lower/async_producers.h"

#include <loom/ir_operator.h>

#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "lower/compute_path.h"
#include "lower/lower_utils.h"
#include "simplify/simplify.h"
#include "support/error.h"
#include "support/util.h"

#include <algorithm>
#include <cstring>
#include <set>

namespace loom {
namespace internal {

namespace {

/// The Realize of f with the ring dimension added.
Stmt inject_ring_buffer(const Realize *op, const Function &f) {
    const FuncSchedule &sched = f.schedule();
    // The loops from the Realize (the hoist level) down to the store level, outermost first.
    ComputePath path = find_compute_path(op->body, f);
    user_assert(!sched.hoist_storage_level.is_inlined() && !path.hoisted.empty())
        << "Func " << f.name() << " is scheduled with ring_buffer(), but its storage is not "
        << "hoisted outside its store level, so there is only one iteration to buffer. Add a "
        << "hoist_storage (for example hoist_storage_root()) outside the store level.\n";
    Expr iteration = 0;
    for (const ComputePathNode &n : path.hoisted) {
        if (n.is_loop()) {
            iteration = iteration * n.extent + (Variable::make(Int(32), n.name) - n.min);
        }
    }
    const Expr &extent = sched.ring_buffer;
    const Expr copy = simplify(iteration % extent);
    Stmt body = change_coordinates(op->body, f.name(), [&](std::vector<Expr> args) {
        args.push_back(copy);
        return args;
    });
    if (!as_const_int(extent)) {
        body = Block::make(
            AssertStmt::make(extent > 0, runtime_error_call("halide_error_requirement_failed",
                                                            {Expr("ring_buffer extent > 0"),
                                                             Expr(f.name() + ": ring_buffer() "
                                                                             "needs a positive "
                                                                             "extent")})),
            body);
    }
    Region bounds = op->bounds;
    bounds.push_back(Range(Expr(0), extent));
    return Realize::make(op->name, op->types, op->memory_type, bounds, op->condition, body);
}

/// The body (`init; rest`) of an allocation made by allocate_semaphore; null for others.
const Block *semaphore_allocation_body(const Allocate *op) {
    const Block *b = op->body.as<Block>();
    const Evaluate *init = b ? b->first.as<Evaluate>() : nullptr;
    return init && semaphore_of(init->value.as<Call>()) == op->name ? b : nullptr;
}

/// A mutator that removes what becomes empty: a loop, let, if, marker or allocation around
/// nothing is nothing.
class NoOpCollapsing : public IRMutator {
protected:
    using IRMutator::visit;
    static Stmt none() { return Evaluate::make(0); }
    Stmt visit(const Block *op) override {
        Stmt first = mutate(op->first), rest = mutate(op->rest);
        if (is_no_op(first)) return rest;
        if (is_no_op(rest)) return first;
        return first.same_as(op->first) && rest.same_as(op->rest) ? Stmt(op)
                                                                  : Block::make(first, rest);
    }
    Stmt visit(const Fork *op) override {
        Stmt first = mutate(op->first), rest = mutate(op->rest);
        if (is_no_op(first)) return rest;
        if (is_no_op(rest)) return first;
        return first.same_as(op->first) && rest.same_as(op->rest) ? Stmt(op)
                                                                  : Fork::make(first, rest);
    }
    Stmt visit(const For *op) override { return collapse(IRMutator::visit(op)); }
    Stmt visit(const LetStmt *op) override { return collapse(IRMutator::visit(op)); }
    Stmt visit(const Realize *op) override { return collapse(IRMutator::visit(op)); }
    Stmt visit(const Atomic *op) override { return collapse(IRMutator::visit(op)); }
    Stmt visit(const ProducerConsumer *op) override { return collapse(IRMutator::visit(op)); }
    Stmt visit(const Allocate *op) override {
        // A semaphore's allocation holds its initialization: empty when what follows is.
        if (const Block *b = semaphore_allocation_body(op)) {
            Stmt rest = mutate(b->rest);
            if (is_no_op(rest)) return none();
            if (rest.same_as(b->rest)) return op;
            return Allocate::make(op->name, op->type, op->memory_type, op->extents, op->condition,
                                  Block::make(b->first, rest));
        }
        return collapse(IRMutator::visit(op));
    }
    Stmt visit(const IfThenElse *op) override {
        Stmt then_case = mutate(op->then_case);
        Stmt else_case = op->else_case.defined() ? mutate(op->else_case) : Stmt();
        bool no_else = !else_case.defined() || is_no_op(else_case);
        if (is_no_op(then_case) && no_else) return none();
        if (then_case.same_as(op->then_case) && else_case.same_as(op->else_case)) return op;
        return IfThenElse::make(op->condition, then_case, no_else ? Stmt() : else_case);
    }

private:
    /// `s` (a mutated node), or nothing when its body is empty.
    static Stmt collapse(const Stmt &s) {
        Stmt body;
        if (const For *n = s.as<For>()) body = n->body;
        if (const LetStmt *n = s.as<LetStmt>()) body = n->body;
        if (const Realize *n = s.as<Realize>()) body = n->body;
        if (const Atomic *n = s.as<Atomic>()) body = n->body;
        if (const ProducerConsumer *n = s.as<ProducerConsumer>()) body = n->body;
        if (const Allocate *n = s.as<Allocate>()) body = n->body;
        return body.defined() && is_no_op(body) ? none() : s;
    }
};

/// The Func a semaphore of allocate_semaphore belongs to ("" if none).
std::string semaphore_owner(const std::string &semaphore) {
    for (const char *suffix : {".semaphore", ".ring_semaphore"}) {
        if (ends_with(semaphore, suffix)) {
            return semaphore.substr(0, semaphore.size() - strlen(suffix));
        }
    }
    size_t dot = semaphore.rfind('.');
    if (dot != std::string::npos && ends_with(semaphore.substr(0, dot), ".folding_semaphore")) {
        return semaphore.substr(0, dot - strlen(".folding_semaphore"));
    }
    return "";
}

bool is_folding_semaphore_of(const std::string &semaphore, const std::string &func) {
    return starts_with(semaphore, func + ".folding_semaphore.");
}

/// The semaphore by which the consumer side of async Func `reader`'s fork waits for async Func
/// g, which the producer side computes (Halide's cloned acquire): g's producer releases it
/// along with g's own.
std::string cloned_semaphore(const std::string &g, const std::string &reader) {
    return g + ".cloned_semaphore." + reader;
}

bool is_cloned_semaphore(const std::string &semaphore) {
    return semaphore.find(".cloned_semaphore.") != std::string::npos;
}

/// What the two sides of the fork at f's Realize share: which Funcs each computes and which
/// semaphores the body allocates (each side gets its own copy of those).
struct ForkPlan {
    std::string func;
    bool ring = false;
    std::set<std::string> feeds;         ///< the Funcs f reads, directly or not
    std::set<std::string> also_computed; ///< feeds the consumer side computes too
    /// Async feeds stored outside the body that the consumer side reads: it waits on their
    /// cloned semaphores instead of computing them.
    std::set<std::string> cloned;
    std::set<std::string> inner_semaphores;
    /// The cloned semaphores by which other async Funcs' consumers wait for f.
    std::vector<std::string> clones;

    bool producer_computes(const std::string &g) const { return g == func || feeds.count(g); }
    bool consumer_computes(const std::string &g) const {
        return g != func && (!feeds.count(g) || also_computed.count(g));
    }
    /// Whether one side keeps a semaphore operation found in the body (outside the
    /// productions it keeps whole). An acquire stays with the side computing the Func it
    /// guards. A semaphore allocated in the body is one per side: its releases stay with its
    /// acquires. A shared one (f's folding semaphores; those of Funcs stored outside f's
    /// storage, which only fold) is released by the consumer side, once a consumer iteration
    /// is over: the producer side's use of those rows is done by then too.
    bool keeps(bool producer_side, const std::string &semaphore, bool acquire) const {
        // A cloned acquire is the consumer's wait for a Func the producer side computes.
        if (is_cloned_semaphore(semaphore)) return !producer_side;
        const std::string owner = semaphore_owner(semaphore);
        bool computes = producer_side ? producer_computes(owner) : consumer_computes(owner);
        if (acquire || inner_semaphores.count(semaphore)) return computes;
        return !producer_side;
    }
};

/// What both sides do with a semaphore operation found in the body (ForkPlan::keeps); other
/// such statements stay on the consumer side only.
class ForkSide : public NoOpCollapsing {
public:
    ForkSide(const ForkPlan &plan, bool producer_side) : plan(plan), producer_side(producer_side) {}

protected:
    using NoOpCollapsing::visit;
    const ForkPlan &plan;
    const bool producer_side;

    Stmt visit(const AssertStmt *op) override { return leaf(op, acquired_semaphore(op), true); }
    Stmt visit(const Evaluate *op) override { return leaf(op, released_semaphore(op), false); }

private:
    Stmt leaf(const Stmt &s, const std::string &semaphore, bool acquire) const {
        if (semaphore.empty()) return producer_side ? none() : s;
        return plan.keeps(producer_side, semaphore, acquire) ? s : none();
    }
};

/// The producer side of the fork at f's Realize (see the file comment).
class ProducerSide : public ForkSide {
public:
    explicit ProducerSide(const ForkPlan &plan) : ForkSide(plan, true) {}

protected:
    using ForkSide::visit;
    Stmt visit(const ProducerConsumer *op) override {
        const std::string &func = plan.func;
        if (op->is_producer && op->name == func) {
            std::vector<Stmt> steps;
            if (plan.ring) steps.push_back(acquire_semaphore(func + ".ring_semaphore", 1));
            steps.push_back(op);
            steps.push_back(release_semaphore(func + ".semaphore", 1));
            for (const std::string &c : plan.clones) steps.push_back(release_semaphore(c, 1));
            return Block::make(steps);
        }
        if (op->is_producer && plan.feeds.count(op->name)) return op;
        return ForkSide::visit(op);
    }
    Stmt visit(const Provide *) override { return none(); }
    Stmt visit(const Store *) override { return none(); }
    Stmt visit(const Free *) override { return none(); }
};

/// The consumer side of the fork at f's Realize (see the file comment).
class ConsumerSide : public ForkSide {
public:
    explicit ConsumerSide(const ForkPlan &plan) : ForkSide(plan, false) {}

protected:
    using ForkSide::visit;
    Stmt visit(const ProducerConsumer *op) override {
        const std::string &func = plan.func;
        if (op->name == func) {
            if (op->is_producer) return acquire_semaphore(func + ".semaphore", 1);
            if (!plan.ring) return op;
            return ProducerConsumer::make_consume(
                func, Block::make(op->body, release_semaphore(func + ".ring_semaphore", 1)));
        }
        if (op->is_producer && plan.cloned.count(op->name)) {
            return acquire_semaphore(cloned_semaphore(op->name, func), 1);
        }
        if (op->is_producer && !plan.consumer_computes(op->name)) return none();
        return ForkSide::visit(op);
    }
};

/// The Funcs called in a statement, outside the productions of f and of the Funcs in `skip`;
/// and for each Func in `skip`, the Funcs called in its productions there.
class CallsOutside : public IRVisitor {
public:
    CallsOutside(const std::string &f, const std::set<std::string> &skip) : f(f), skip(skip) {}
    std::set<std::string> outside;
    std::map<std::string, std::set<std::string>> inside;
    std::set<std::string> produced; ///< the Funcs in `skip` computed in the statement
    std::set<std::string> realized, allocated;

protected:
    using IRVisitor::visit;
    void visit(const ProducerConsumer *op) override {
        if (op->is_producer && op->name == f) return;
        if (op->is_producer && skip.count(op->name)) {
            produced.insert(op->name);
            producers.push_back(op->name);
            IRVisitor::visit(op);
            producers.pop_back();
            return;
        }
        IRVisitor::visit(op);
    }
    void visit(const Realize *op) override {
        realized.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Allocate *op) override {
        allocated.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Call *op) override {
        if (op->call_type == Call::Halide) {
            (producers.empty() ? outside : inside[producers.back()]).insert(op->name);
        }
        IRVisitor::visit(op);
    }

private:
    std::string f;
    const std::set<std::string> &skip;
    std::vector<std::string> producers;
};

class AsyncProducers : public IRMutator {
public:
    explicit AsyncProducers(const CallGraph &graph) : graph(graph) {}

protected:
    using IRMutator::visit;

    Stmt visit(const Realize *op) override {
        Stmt s = IRMutator::visit(op);
        auto it = graph.env.find(op->name);
        if (it == graph.env.end()) return s;
        const Function &f = it->second;
        if (f.schedule().ring_buffer.defined()) s = inject_ring_buffer(s.as<Realize>(), f);
        if (!f.schedule().async) return s;
        const Realize *r = s.as<Realize>();
        return Realize::make(r->name, r->types, r->memory_type, r->bounds, r->condition,
                             fork(f, r->body));
    }

private:
    const CallGraph &graph;

    /// The Funcs f reads, directly or through others.
    std::set<std::string> feeds_of(const std::string &f) const {
        std::set<std::string> result;
        std::vector<std::string> todo = {f};
        while (!todo.empty()) {
            std::string g = todo.back();
            todo.pop_back();
            auto it = graph.callees.find(g);
            if (it == graph.callees.end()) continue;
            for (const std::string &c : it->second) {
                if (c != f && result.insert(c).second) todo.push_back(c);
            }
        }
        return result;
    }

    Stmt fork(const Function &f, Stmt body) {
        const std::string &name = f.name();
        // The folding semaphores storage_folding allocated at the top of the body stay outside
        // the fork: both sides use them.
        std::vector<const Allocate *> folding;
        while (const Allocate *a = body.as<Allocate>()) {
            const Block *b = semaphore_allocation_body(a);
            if (!b || !is_folding_semaphore_of(a->name, name)) break;
            folding.push_back(a);
            body = b->rest;
        }

        ComputePath path = find_compute_path(body, name);
        user_assert(path.all_serial)
            << "Func " << name << " is async and stored outside a parallel or vectorized loop it "
            << "is computed in: the iterations of its consumer would not know which of the "
            << "producer's iterations are done. Store " << name << " inside that loop (store_at "
            << "its compute level, or a loop inside the parallel one), or make the loop serial.\n";

        ForkPlan plan;
        plan.func = name;
        plan.ring = f.schedule().ring_buffer.defined();
        plan.feeds = feeds_of(name);
        // The Funcs f reads that the consumer side computes too, because it reads them itself
        // (or a Func it computes does).
        CallsOutside calls(name, plan.feeds);
        calls.dispatch(body);
        plan.inner_semaphores = calls.allocated;
        std::vector<std::string> todo(calls.outside.begin(), calls.outside.end());
        while (!todo.empty()) {
            std::string g = todo.back();
            todo.pop_back();
            if (!plan.feeds.count(g) || plan.also_computed.count(g) || plan.cloned.count(g)) {
                continue;
            }
            const Function &gf = graph.env.at(g);
            if (calls.produced.count(g) && !calls.realized.count(g)) {
                // Stored outside the body: both sides can't compute it. An async g is computed
                // by the producer side only (and later by g's own producer task), the consumer
                // side waiting for it on a semaphore of its own, as Halide does.
                user_assert(gf.schedule().async && !gf.schedule().ring_buffer.defined())
                    << "Func " << g << " is computed inside the storage of async Func " << name
                    << " but stored outside it, and both " << name << " and its consumers read "
                    << "it: the producer and the consumer tasks would both compute " << g
                    << " into the same storage. Make " << g << " async too"
                    << (gf.schedule().async ? " (without a ring_buffer)" : "") << ", store it at "
                    << "the level it is computed at (or inside " << name << "'s storage), or "
                    << "compute it outside " << name << "'s storage.\n";
                plan.cloned.insert(g);
                continue;
            }
            plan.also_computed.insert(g);
            auto inside = calls.inside.find(g);
            if (inside == calls.inside.end()) continue;
            todo.insert(todo.end(), inside->second.begin(), inside->second.end());
        }
        // The consumer sides of forks in the body that wait for f through cloned semaphores.
        const std::string clone_prefix = cloned_semaphore(name, "");
        visit_exprs(body, [&](const Expr &e) {
            std::string sema = semaphore_of(e.as<Call>());
            if (starts_with(sema, clone_prefix) &&
                std::find(plan.clones.begin(), plan.clones.end(), sema) == plan.clones.end()) {
                plan.clones.push_back(sema);
            }
            return true;
        });

        Stmt producer = ProducerSide(plan).mutate(body);
        Stmt consumer = ConsumerSide(plan).mutate(body);
        Stmt result = is_no_op(producer) ? consumer : Fork::make(producer, consumer);
        result = allocate_semaphore(name + ".semaphore", 0, result);
        for (const std::string &c : plan.clones) result = allocate_semaphore(c, 0, result);
        if (plan.ring) {
            result = allocate_semaphore(name + ".ring_semaphore", f.schedule().ring_buffer, result);
        }
        for (auto a = folding.rbegin(); a != folding.rend(); ++a) {
            const Block *b = (*a)->body.as<Block>();
            result = Allocate::make((*a)->name, (*a)->type, (*a)->memory_type, (*a)->extents,
                                    (*a)->condition, Block::make(b->first, result));
        }
        return result;
    }
};

} // namespace

Stmt async_producers(const Stmt &s, const CallGraph &graph) {
    return AsyncProducers(graph).mutate(s);
}

} // namespace internal
} // namespace loom
