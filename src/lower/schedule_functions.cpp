#include "lower/schedule_functions.h"

#include "ir/ir_mutator.h"
#include "ir/ir_visitor.h"
#include "lower/build_provide_loop_nest.h"
#include "lower/compute_with.h"
#include "lower/inline.h"
#include "lower/loop_names.h"
#include "support/error.h"

#include <set>

namespace loom {
namespace internal {

namespace {

/// Whether s calls `func` outside of any loop nested in s (a loop's min and extent count as
/// outside it: they are evaluated by the enclosing code).
class CallsOutsideLoops : public IRVisitor {
public:
    explicit CallsOutsideLoops(const std::string &f) : func(f) {}
    bool found = false;

protected:
    using IRVisitor::visit;
    void visit(const For *op) override {
        dispatch(op->min);
        dispatch(op->extent);
    }
    void visit(const Call *op) override {
        if (op->call_type == Call::Halide && op->name == func) found = true;
        IRVisitor::visit(op);
    }

private:
    const std::string &func;
};

bool calls_outside_loops(const Stmt &s, const std::string &func) {
    CallsOutsideLoops c(func);
    c.dispatch(s);
    return c.found;
}

/// Injects f's realization inside every loop whose own statements call f.
class InjectInnermost : public IRMutator {
public:
    explicit InjectInnermost(const Function &f) : f(f) {}
    int injected = 0;

protected:
    using IRMutator::visit;
    Stmt visit(const For *op) override {
        Stmt body = mutate(op->body);
        // Checked on the original body: what inner loops received is inside them already.
        if (calls_outside_loops(op->body, f.name())) {
            body = build_realize(f, body);
            injected++;
        }
        if (body.same_as(op->body)) return op;
        return op->with_body(body);
    }

private:
    const Function &f;
};

/// Injects f's realization inside each loop named in `loops` (with `group`, that of f's fused
/// group).
class InjectAt : public IRMutator {
public:
    /// With `with_realize` false only `produce f; consume f {...}` goes there (the Realize is
    /// placed at the store level afterwards).
    InjectAt(const Function &f, const std::set<std::string> &loops, bool with_realize,
             const FusedGroup *group, const Fusion &fusion)
        : f(f), loops(loops), with_realize(with_realize), group(group), fusion(fusion) {}
    int injected = 0;

protected:
    using IRMutator::visit;
    Stmt visit(const For *op) override {
        Stmt body = mutate(op->body);
        if (loops.count(op->name)) {
            // Inside the lets that open the loop body (the consumer's split bases), so the
            // region f must cover is written in their names.
            std::vector<std::pair<std::string, Expr>> lets; // copies: `body` owns the nodes
            while (const LetStmt *l = body.as<LetStmt>()) {
                lets.emplace_back(l->name, l->value);
                Stmt inner = l->body;
                body = inner;
            }
            if (group) {
                body = build_fused_group(*group, fusion, body, with_realize);
            } else {
                body = with_realize ? build_realize(f, body) : build_produce_consume(f, body);
            }
            for (auto l = lets.rbegin(); l != lets.rend(); ++l) {
                body = LetStmt::make(l->first, l->second, body);
            }
            injected++;
        }
        if (body.same_as(op->body)) return op;
        return op->with_body(body);
    }

private:
    const Function &f;
    const std::set<std::string> &loops;
    bool with_realize;
    const FusedGroup *group;
    const Fusion &fusion;
};

/// Wraps the body of the loop `loop` (or, when `loop` is empty, the whole statement) in f's
/// Realize: the store level of a Func stored outside its compute level.
class InjectRealizeAt : public IRMutator {
public:
    InjectRealizeAt(const Function &f, const std::string &loop) : f(f), loop(loop) {}
    int injected = 0;

protected:
    using IRMutator::visit;
    Stmt visit(const For *op) override {
        Stmt body = mutate(op->body);
        if (op->name == loop) {
            body = realize_around(f, body);
            injected++;
        }
        if (body.same_as(op->body)) return op;
        return op->with_body(body);
    }

private:
    const Function &f;
    std::string loop;
};

/// The loops enclosing `produce f`, outermost first.
class LoopsAroundProduce : public IRVisitor {
public:
    explicit LoopsAroundProduce(const std::string &f) : f(f) {}
    std::vector<std::string> loops;
    bool found = false;

protected:
    using IRVisitor::visit;
    void visit(const For *op) override {
        if (found) return;
        stack.push_back(op->name);
        IRVisitor::visit(op);
        stack.pop_back();
    }
    void visit(const ProducerConsumer *op) override {
        if (found) return;
        if (op->is_producer && op->name == f) {
            found = true;
            loops = stack;
            return;
        }
        IRVisitor::visit(op);
    }

private:
    std::string f;
    std::vector<std::string> stack;
};

/// The For name of the loop a LoopLevelSpec of kind At names (a CompileError when there is
/// none). `what` is the directive for messages ("computed", "stored").
std::string resolve_loop(const Function &f, const LoopLevelSpec &level, const CallGraph &graph,
                         const char *what) {
    const std::map<std::string, Function> &env = graph.env;
    const Function &at = env.count(level.func) ? env.at(level.func) : Function();
    user_assert(at.defined()) << "Func " << f.name() << " is " << what << " at a loop of "
                              << level.func << ", which is not used in this pipeline.\n";
    int stage = level.stage_index < 0 ? num_stages(at) - 1 : level.stage_index;
    user_assert(stage < num_stages(at))
        << "Func " << f.name() << " is " << what << " at stage " << stage << " of " << at.name()
        << ", which has only " << num_stages(at) << " stage(s).\n";
    const Definition &def = stage_definition(at, stage);
    int dim = find_loop(at, def, level.var);
    user_assert(dim >= 0) << "Func " << f.name() << " is " << what << " at " << at.name() << "."
                          << level.var << ", but " << at.name() << " has no loop over " << level.var
                          << ". Its loops, outermost first, are: " << loop_list(def) << ".\n";
    // A loop shared through compute_with runs under its fused name.
    return stage_loop_name(graph.fusion, at, stage, dim);
}

/// Whether the loop named `loop` in s calls `func`.
bool loop_calls(const Stmt &s, const std::string &loop, const std::string &func) {
    class Finder : public IRVisitor {
    public:
        Finder(const std::string &loop, const std::string &func) : loop(loop), func(func) {}
        bool calls = false;

    protected:
        using IRVisitor::visit;
        void visit(const For *op) override {
            if (op->name != loop) return IRVisitor::visit(op);
            visit_exprs(op->body, [&](const Expr &e) {
                const Call *c = e.as<Call>();
                calls = calls || (c && c->call_type == Call::Halide && c->name == func);
                return !calls;
            });
        }

    private:
        const std::string &loop, &func;
    } finder(loop, func);
    finder.dispatch(s);
    return finder.calls;
}

/// The loops f is computed in for its compute level `level`. A level naming no stage
/// (compute_at(g, y)) means, as in Halide, every stage of g that calls f: each computes its own
/// f in its loop over y (with the default store level). A level naming a stage, or of a Func
/// with one stage, is that one loop (resolve_loop).
std::vector<std::string> compute_loops(const Function &f, const LoopLevelSpec &level,
                                       const CallGraph &graph, const Stmt &s,
                                       const FusedGroup *group) {
    const std::string last = resolve_loop(f, level, graph, "computed");
    const Function &at = graph.env.at(level.func);
    if (level.stage_index >= 0 || num_stages(at) == 1 || group) return {last};
    std::vector<std::string> loops;
    for (int stage = 0; stage < num_stages(at); stage++) {
        int dim = find_loop(at, stage_definition(at, stage), level.var);
        if (dim < 0) continue;
        std::string loop = stage_loop_name(graph.fusion, at, stage, dim);
        if (loop_calls(s, loop, f.name())) loops.push_back(loop);
    }
    if (loops.empty()) return {last}; // the error that the loop does not contain the uses
    return loops;
}

/// Where the Realize of f, computed at `loop`, goes: its store level (the compute level unless
/// store_root/store_at placed it outside), or, with hoist_storage, further out: Loom realizes the
/// Func there (its storage covers the region over the loops in between, a bound at least as
/// large as Halide's per-iteration maximum); the hoist level must enclose the store level.
struct StoragePlace {
    std::string store_loop, hoist_loop; ///< empty: the root
    bool hoisted = false;
    bool split(const std::string &loop) const { return store_loop != loop || hoisted; }
};

StoragePlace storage_place(const Function &f, const std::string &loop, const CallGraph &graph) {
    StoragePlace p;
    const LoopLevelSpec &store = f.schedule().store_level;
    const LoopLevelSpec &compute = f.schedule().compute_level;
    p.store_loop = loop;
    if (store.is_root()) {
        p.store_loop.clear();
    } else if (store.kind == LoopLevelSpec::At &&
               !(store.func == compute.func && store.var == compute.var &&
                 store.stage_index == compute.stage_index)) {
        // (Stored at its compute level, f is stored in whichever loop computes it.)
        p.store_loop = resolve_loop(f, store, graph, "stored");
    }
    const LoopLevelSpec &hoist = f.schedule().hoist_storage_level;
    if (hoist.kind == LoopLevelSpec::At) p.hoist_loop = resolve_loop(f, hoist, graph, "hoisted");
    p.hoisted = !hoist.is_inlined() && p.hoist_loop != p.store_loop;
    return p;
}

/// hoist_storage must name the root or a loop enclosing the store level (which encloses the
/// compute level `loop`); a CompileError listing the legal levels otherwise.
void check_hoist_level(const Stmt &s, const Function &f, const std::string &store_loop,
                       const std::string &hoist_loop, const std::string &loop) {
    LoopsAroundProduce around(f.name());
    around.dispatch(s);
    int store_index = store_loop.empty() ? -1 : (int)around.loops.size();
    int hoist_index = hoist_loop.empty() ? -1 : (int)around.loops.size() + 1;
    for (int i = 0; i < (int)around.loops.size(); i++) {
        if (around.loops[i] == store_loop) store_index = i;
        if (around.loops[i] == hoist_loop) hoist_index = i;
    }
    if (hoist_index <= store_index) return;
    std::string list = "hoist_storage_root()";
    for (int i = 0; i < (int)around.loops.size() && i <= store_index; i++) {
        list += ", hoist_storage(" + loop_level_text(around.loops[i]) + ")";
    }
    user_error << "Func " << f.name() << " hoists its storage to " << loop_level_text(hoist_loop)
               << ", which is not a loop enclosing its store level ("
               << (store_loop.empty() ? std::string("root") : loop_level_text(store_loop))
               << "; compute level " << loop_level_text(loop) << "). Legal levels are: " << list
               << ".\n";
}

/// Places f's Realize at its store level when that differs from the compute level, around the
/// `produce f; consume f` already injected at the compute level. The store level must be the
/// root or a loop enclosing the compute level; anything else is a CompileError listing them.
Stmt inject_store_level(const Stmt &s, const Function &f, const std::string &store_loop,
                        const std::string &compute_text) {
    LoopsAroundProduce around(f.name());
    around.dispatch(s);
    internal_assert(around.found) << "inject_store_level: no produce " << f.name() << "\n";
    bool legal = store_loop.empty();
    for (const std::string &l : around.loops) legal = legal || l == store_loop;
    if (!legal) {
        std::string list = "store_root()";
        for (const std::string &l : around.loops) list += ", store_at(" + loop_level_text(l) + ")";
        user_error << "Func " << f.name() << " is stored at " << loop_level_text(store_loop)
                   << ", which is not a loop enclosing its compute level (" << compute_text
                   << "). A Func must be stored at its compute level or outside it; legal store "
                   << "levels for " << f.name() << " are: " << list << ".\n";
    }
    if (store_loop.empty()) return realize_around(f, s);
    InjectRealizeAt inject(f, store_loop);
    Stmt result = inject.mutate(s);
    internal_assert(inject.injected == 1) << "inject_store_level: " << store_loop << "\n";
    return result;
}

/// The names of the Funcs (producer blocks) that call `f` outside its realization.
class UsesOutsideRealization : public IRVisitor {
public:
    explicit UsesOutsideRealization(const std::string &f) : f(f) {}
    std::set<std::string> callers;

protected:
    using IRVisitor::visit;
    void visit(const Realize *op) override {
        if (op->name == f) return; // uses inside are fine
        IRVisitor::visit(op);
    }
    void visit(const ProducerConsumer *op) override {
        if (op->name == f) return; // a Func stored outside its compute level
        if (!op->is_producer) return IRVisitor::visit(op);
        producers.push_back(op->name);
        IRVisitor::visit(op);
        producers.pop_back();
    }
    void visit(const Provide *op) override {
        // The Func defined here (a fused group's produce nodes nest: produce f { produce g }).
        provide = op->name;
        IRVisitor::visit(op);
        provide.clear();
    }
    void visit(const Call *op) override {
        if (op->call_type == Call::Halide && op->name == f) {
            callers.insert(!provide.empty()    ? provide
                           : producers.empty() ? std::string("the pipeline")
                                               : producers.back());
        }
        IRVisitor::visit(op);
    }

private:
    std::string f;
    std::vector<std::string> producers;
    std::string provide;
};

/// A CompileError when something uses f outside the realization injected at `level`.
void check_uses_inside(const Stmt &s, const Function &f, const LoopLevelSpec &level) {
    UsesOutsideRealization outside(f.name());
    outside.dispatch(s);
    if (outside.callers.empty()) return;
    std::string names;
    for (const std::string &c : outside.callers) names += (names.empty() ? "" : ", ") + c;
    user_error << "Func " << f.name() << " can't be computed at " << level.func << "." << level.var
               << " because " << names << " also use" << (outside.callers.size() == 1 ? "s" : "")
               << " it outside that loop. "
               << "Compute it at a loop that encloses every use (for example a loop of "
               << "the last Func that calls it), or compute_root() it.\n";
}

} // namespace

Stmt schedule_functions(const CallGraph &graph) {
    const std::map<std::string, Function> &env = graph.env;
    const Fusion &fusion = graph.fusion;
    // Funcs computed with each other (compute_with) are injected together, as one group, where
    // the first of them is met; the fused order keeps each group's members together.
    std::set<const FusedGroup *> injected_groups;
    Stmt s;
    for (auto it = graph.fused_order.rbegin(); it != graph.fused_order.rend(); ++it) {
        const std::string &name = *it;
        const Function &f = env.at(name);
        const ComputePlacement &p = graph.placements.at(name);
        const FusedGroup *group = fusion.group_of(name);
        if (group && !injected_groups.insert(group).second) continue;
        switch (p.kind) {
        case ComputePlacement::Inline:
            if (s.defined()) s = inline_function(s, f);
            break;
        case ComputePlacement::Root:
            user_assert(f.schedule().store_level.kind != LoopLevelSpec::At ||
                        !f.schedule().compute_level.is_root())
                << "Func " << f.name() << " is computed at the root but stored at "
                << f.schedule().store_level.func << "." << f.schedule().store_level.var
                << ", inside its compute level. A Func must be stored at its compute level or "
                << "outside it; for a compute_root() Func the only legal store level is "
                << "store_root().\n";
            s = group ? build_fused_group(*group, fusion, s, true) : build_realize(f, s);
            break;
        case ComputePlacement::Innermost: {
            internal_assert(s.defined()) << f.name() << " placed innermost but has no consumer\n";
            // No loop calling f is fine: nothing reads it, so it is computed nowhere (its only
            // caller was an inlined Tuple element that no one uses, fuzz seed 96).
            InjectInnermost inject(f);
            s = inject.mutate(s);
            break;
        }
        case ComputePlacement::At: {
            internal_assert(s.defined()) << f.name() << " placed at a loop but has no consumer\n";
            const std::vector<std::string> loops = compute_loops(f, p.level, graph, s, group);
            const std::string &loop = loops.back();
            // A fused group (compute_with) is computed as one; each member is stored at its
            // own level.
            const std::vector<Function> members = group ? group->funcs : std::vector<Function>{f};
            std::vector<StoragePlace> places;
            bool split_store = false;
            for (const Function &m : members) {
                places.push_back(storage_place(m, loop, graph));
                split_store = split_store || places.back().split(loop);
            }
            user_assert(loops.size() == 1 || !split_store)
                << "Func " << f.name() << " is computed at " << p.level.func << "." << p.level.var
                << ", which names no stage of " << p.level.func
                << ", so each of its stages that calls " << f.name()
                << " computes its own; then it can't have a store level of its own. Compute it "
                << "at one stage (" << p.level.func << ".update(i)." << p.level.var
                << ") or store it at its compute level.\n";
            const std::set<std::string> loop_set(loops.begin(), loops.end());
            InjectAt inject(f, loop_set, !split_store, group, fusion);
            s = inject.mutate(s);
            user_assert(inject.injected > 0)
                << "Func " << f.name() << " can't be computed at " << p.level.func << "."
                << p.level.var << ": that loop does not contain the uses of " << f.name()
                << ". Compute it at a loop of a Func that calls it (or one enclosing such a "
                << "loop), or compute_root() it.\n";
            for (const Function &m : members) check_uses_inside(s, m, p.level);
            // The last member's Realize first, so the first one's ends up outermost.
            for (size_t i = members.size(); split_store && i-- > 0;) {
                std::string store_loop = places[i].store_loop;
                if (places[i].hoisted) {
                    check_hoist_level(s, members[i], store_loop, places[i].hoist_loop, loop);
                    store_loop = places[i].hoist_loop;
                }
                s = inject_store_level(s, members[i], store_loop, loop_level_text(loop));
            }
            break;
        }
        }
    }
    return s;
}

} // namespace internal
} // namespace loom
