#include "lower/schedule_functions.h"

#include "ir/ir_mutator.h"
#include "ir/ir_visitor.h"
#include "lower/build_provide_loop_nest.h"
#include "lower/inline.h"
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
        return For::make(op->name, op->min, op->extent, op->for_type, op->device_api, body,
                         op->partition_policy);
    }

private:
    const Function &f;
};

/// Injects f's realization inside the loop named `loop`.
class InjectAt : public IRMutator {
public:
    InjectAt(const Function &f, const std::string &loop) : f(f), loop(loop) {}
    int injected = 0;

protected:
    using IRMutator::visit;
    Stmt visit(const For *op) override {
        Stmt body = mutate(op->body);
        if (op->name == loop) {
            body = build_realize(f, body);
            injected++;
        }
        if (body.same_as(op->body)) return op;
        return For::make(op->name, op->min, op->extent, op->for_type, op->device_api, body,
                         op->partition_policy);
    }

private:
    const Function &f;
    std::string loop;
};

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
        if (!op->is_producer) return IRVisitor::visit(op);
        producers.push_back(op->name);
        IRVisitor::visit(op);
        producers.pop_back();
    }
    void visit(const Call *op) override {
        if (op->call_type == Call::Halide && op->name == f) {
            callers.insert(producers.empty() ? std::string("the pipeline") : producers.back());
        }
        IRVisitor::visit(op);
    }

private:
    std::string f;
    std::vector<std::string> producers;
};

} // namespace

Stmt build_produce(const Function &f) {
    std::vector<Stmt> stages;
    for (int k = 0; k < num_stages(f); k++) stages.push_back(build_provide_loop_nest(f, k));
    return ProducerConsumer::make_produce(f.name(), Block::make(stages));
}

Stmt build_realize(const Function &f, const Stmt &consumer) {
    Region bounds;
    for (const std::string &a : f.args()) {
        bounds.emplace_back(Variable::make(Int(32), f.name() + "." + a + ".min_realized"),
                            Variable::make(Int(32), f.name() + "." + a + ".extent_realized"));
    }
    Stmt consume = consumer.defined() ? consumer : Evaluate::make(0);
    Stmt body = Block::make(build_produce(f), ProducerConsumer::make_consume(f.name(), consume));
    return Realize::make(f.name(), f.output_types(), f.schedule().memory_type, bounds, const_true(),
                         body);
}

Stmt schedule_functions(const std::vector<Function> &outputs, const std::vector<std::string> &order,
                        const std::map<std::string, Function> &env,
                        const std::map<std::string, ComputePlacement> &placements) {
    Stmt s;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const Function &f = env.at(*it);
        const ComputePlacement &p = placements.at(*it);
        switch (p.kind) {
        case ComputePlacement::Inline:
            if (s.defined()) s = inline_function(s, f);
            break;
        case ComputePlacement::Root:
            s = build_realize(f, s);
            break;
        case ComputePlacement::Innermost: {
            internal_assert(s.defined()) << f.name() << " placed innermost but has no consumer\n";
            InjectInnermost inject(f);
            s = inject.mutate(s);
            internal_assert(inject.injected > 0)
                << "No loop calls " << f.name() << ", so it was not computed anywhere\n";
            break;
        }
        case ComputePlacement::At: {
            internal_assert(s.defined()) << f.name() << " placed at a loop but has no consumer\n";
            const Function &at = env.count(p.level.func) ? env.at(p.level.func) : Function();
            user_assert(at.defined()) << "Func " << f.name() << " is computed at a loop of "
                                      << p.level.func << ", which is not used in this pipeline.\n";
            int stage = p.level.stage_index < 0 ? num_stages(at) - 1 : p.level.stage_index;
            user_assert(stage < num_stages(at))
                << "Func " << f.name() << " is computed at stage " << stage << " of " << at.name()
                << ", which has only " << num_stages(at) << " stage(s).\n";
            const Definition &def = stage_definition(at, stage);
            int dim = find_loop(at, def, p.level.var);
            user_assert(dim >= 0) << "Func " << f.name() << " is computed at " << at.name() << "."
                                  << p.level.var << ", but " << at.name() << " has no loop over "
                                  << p.level.var
                                  << ". Its loops, outermost first, are: " << loop_list(def)
                                  << ".\n";
            std::string loop = stage_prefix(at.name(), stage) + def.schedule.dims[dim].var;
            InjectAt inject(f, loop);
            s = inject.mutate(s);
            user_assert(inject.injected > 0)
                << "Func " << f.name() << " can't be computed at " << at.name() << "."
                << p.level.var << ": that loop does not contain the uses of " << f.name()
                << ". Compute it at a loop of a Func that calls it (or one enclosing such a "
                << "loop), or compute_root() it.\n";
            UsesOutsideRealization outside(f.name());
            outside.dispatch(s);
            if (!outside.callers.empty()) {
                std::string names;
                for (const std::string &c : outside.callers)
                    names += (names.empty() ? "" : ", ") + c;
                user_error << "Func " << f.name() << " can't be computed at " << at.name() << "."
                           << p.level.var << " because " << names << " also use"
                           << (outside.callers.size() == 1 ? "s" : "") << " it outside that loop. "
                           << "Compute it at a loop that encloses every use (for example a loop of "
                           << "the last Func that calls it), or compute_root() it.\n";
            }
            break;
        }
        }
    }
    (void)outputs;
    return s;
}

} // namespace internal
} // namespace loom
