#include "lower/inject_profiling.h"

#include <loom/ir_operator.h>
#include <loom/runtime/loom_runtime.h>

#include "ir/ir_mutator.h"
#include "ir/ir_visitor.h"
#include "lower/lower_utils.h"

#include <map>
#include <set>
#include <vector>

namespace loom {
namespace internal {

namespace {

const char *const kInstance = "profiler_instance";
/// Halide's name for the time outside every Func (mostly the caller of a parallel loop
/// waiting for its other threads).
const char *const kOverheadName = "waiting for parallel tasks to finish";

Expr instance() { return Variable::make(Handle(), kInstance); }
Expr user_context() { return Variable::make(Handle(), "__user_context"); }

Stmt runtime_call(const char *fn, const std::vector<Expr> &args) {
    return Evaluate::make(Call::make(Int(32), fn, args, Call::Extern));
}

/// The names of the Funcs produced in s, and whether s allocates on the heap.
struct Contents : IRVisitor {
    std::set<std::string> produced;
    bool heap = false;

protected:
    using IRVisitor::visit;
    void visit(const ProducerConsumer *op) override {
        if (op->is_producer) produced.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Allocate *op) override {
        heap = heap || allocated_on_heap(op);
        IRVisitor::visit(op);
    }
};

bool contains_produce(const Stmt &s) {
    Contents c;
    c.dispatch(s);
    return !c.produced.empty();
}

bool frees(const Stmt &s, const std::string &name) {
    struct Find : IRVisitor {
        const std::string &name;
        bool found = false;
        explicit Find(const std::string &n) : name(n) {}

    protected:
        using IRVisitor::visit;
        void visit(const Free *op) override { found = found || op->name == name; }
    } find(name);
    find.dispatch(s);
    return find.found;
}

class InjectProfiling : public IRMutator {
public:
    InjectProfiling(const std::set<std::string> &funcs, bool heap) : funcs(funcs) {
        names.push_back(kOverheadName);
        if (heap) {
            malloc_id = id_of("halide_malloc");
            free_id = id_of("halide_free");
        }
    }

    std::vector<std::string> names; ///< by id

protected:
    using IRMutator::visit;

    Stmt visit(const ProducerConsumer *op) override {
        if (!op->is_producer) return IRMutator::visit(op);
        int id = id_of(op->name);
        enclosing.push_back(id);
        Stmt body = mutate(op->body);
        enclosing.pop_back();
        return Block::make(ProducerConsumer::make_produce(op->name, Block::make(set(id), body)),
                           set(enclosing.back()));
    }

    Stmt visit(const For *op) override {
        if (op->for_type != ForType::Parallel) return IRMutator::visit(op);
        return around_tasks(op->with_body(as_task(mutate(op->body))));
    }

    Stmt visit(const Fork *op) override {
        return around_tasks(Fork::make(as_task(mutate(op->first)), as_task(mutate(op->rest))));
    }

    Stmt visit(const Allocate *op) override {
        if (!allocated_on_heap(op)) return IRMutator::visit(op);
        int owner = owner_of(op->name);
        Expr bytes = make_const(UInt(64), (int64_t)op->type.bytes());
        for (const Expr &e : op->extents) bytes = bytes * Cast::make(UInt(64), e);
        bytes = Select::make(op->condition, bytes, make_const(UInt(64), 0));
        std::string size_name = op->name + ".profiled_bytes";
        Expr size = Variable::make(UInt(64), size_name);
        heap[op->name].push_back({owner, size});
        Stmt body = mutate(op->body);
        heap[op->name].pop_back();
        std::vector<Stmt> inside = {set(enclosing.back()),
                                    runtime_call("halide_profiler_memory_allocate",
                                                 {user_context(), instance(), owner, size}),
                                    body};
        if (!frees(body, op->name)) {
            inside.push_back(freed(op->name, owner, size, Free::make(op->name)));
        }
        Stmt a = Allocate::make(op->name, op->type, op->memory_type, op->extents, op->condition,
                                Block::make(inside));
        return LetStmt::make(size_name, bytes, Block::make(set(malloc_id), a));
    }

    Stmt visit(const Free *op) override {
        auto it = heap.find(op->name);
        if (it == heap.end() || it->second.empty()) return op;
        return freed(op->name, it->second.back().owner, it->second.back().size, op);
    }

private:
    struct HeapBuffer {
        int owner;
        Expr size;
    };

    const std::set<std::string> &funcs;
    std::map<std::string, int> ids;
    std::vector<int> enclosing = {0}; ///< the Funcs whose produce markers enclose the node
    std::map<std::string, std::vector<HeapBuffer>> heap;
    int malloc_id = 0, free_id = 0;

    int id_of(const std::string &name) {
        auto it = ids.find(name);
        if (it != ids.end()) return it->second;
        ids[name] = (int)names.size();
        names.push_back(name);
        return ids[name];
    }

    int owner_of(const std::string &allocation) {
        if (funcs.count(allocation)) return id_of(allocation);
        size_t dot = allocation.rfind('.');
        if (dot != std::string::npos && funcs.count(allocation.substr(0, dot))) {
            return id_of(allocation.substr(0, dot));
        }
        return enclosing.back();
    }

    Stmt set(int id) { return runtime_call("halide_profiler_set_current_func", {instance(), id}); }

    Stmt freed(const std::string &name, int owner, const Expr &size, const Stmt &free) {
        return Block::make(
            {set(free_id),
             runtime_call("halide_profiler_memory_free", {user_context(), instance(), owner, size}),
             free, set(enclosing.back())});
    }

    /// The body of a task: one more thread works on the run while it runs.
    Stmt as_task(const Stmt &body) {
        return Block::make({runtime_call("halide_profiler_incr_active_threads", {instance()}),
                            set(enclosing.back()), body,
                            runtime_call("halide_profiler_decr_active_threads", {instance()})});
    }

    /// The launch of tasks: the launching thread only waits (or runs tasks, counted by them).
    Stmt around_tasks(const Stmt &launch) {
        return Block::make(
            {set(0), runtime_call("halide_profiler_decr_active_threads", {instance()}), launch,
             runtime_call("halide_profiler_incr_active_threads", {instance()}),
             set(enclosing.back())});
    }
};

/// The profiled run around `s`, the smallest statement holding every produce marker.
Stmt profile(const Stmt &s, const std::string &pipeline_name, bool by_timer) {
    Contents contents;
    contents.dispatch(s);
    InjectProfiling inject(contents.produced, contents.heap);
    Stmt body = inject.mutate(s);

    const std::vector<std::string> &names = inject.names;
    std::vector<Expr> name_exprs;
    for (const std::string &n : names) name_exprs.push_back(StringImm::make(n));
    Expr name_array = Call::make(Handle(), Call::make_struct, name_exprs, Call::Intrinsic);
    Expr start = Call::make(Int(32), "halide_profiler_instance_start",
                            {user_context(), StringImm::make(pipeline_name), (int)names.size(),
                             name_array, instance(), by_timer ? 1 : 0},
                            Call::Extern);
    Expr destructor =
        Call::make(Handle(), Call::register_destructor,
                   {StringImm::make("halide_profiler_instance_end"), instance()}, Call::Intrinsic);
    Expr started = Variable::make(Int(32), "profiler_started");
    body = LetStmt::make(std::string(kInstance) + ".destructor", destructor, body);
    body = LetStmt::make("profiler_started", start,
                         Block::make(AssertStmt::make(started == 0, started), body));
    int64_t bytes = (int64_t)(sizeof(halide_profiler_instance_state) +
                              names.size() * sizeof(halide_profiler_func_stats));
    return Allocate::make(kInstance, UInt(64), MemoryType::Stack, {(int)((bytes + 7) / 8)},
                          const_true(), body);
}

/// Descends through lets, blocks and ifs to the smallest statement holding every produce
/// marker, and profiles it.
Stmt profile_computation(const Stmt &s, const std::string &pipeline_name, bool by_timer) {
    if (const LetStmt *l = s.as<LetStmt>()) {
        return LetStmt::make(l->name, l->value,
                             profile_computation(l->body, pipeline_name, by_timer));
    }
    if (const Block *b = s.as<Block>()) {
        bool first = contains_produce(b->first), rest = contains_produce(b->rest);
        if (first != rest) {
            return first ? Block::make(profile_computation(b->first, pipeline_name, by_timer),
                                       b->rest)
                         : Block::make(b->first,
                                       profile_computation(b->rest, pipeline_name, by_timer));
        }
    }
    if (const IfThenElse *i = s.as<IfThenElse>()) {
        bool then_case = contains_produce(i->then_case);
        bool else_case = i->else_case.defined() && contains_produce(i->else_case);
        if (then_case != else_case) {
            return then_case ? IfThenElse::make(
                                   i->condition,
                                   profile_computation(i->then_case, pipeline_name, by_timer),
                                   i->else_case)
                             : IfThenElse::make(
                                   i->condition, i->then_case,
                                   profile_computation(i->else_case, pipeline_name, by_timer));
        }
    }
    return profile(s, pipeline_name, by_timer);
}

} // namespace

Stmt inject_profiling(const Stmt &s, const std::string &pipeline_name, bool by_timer) {
    if (!contains_produce(s)) return s;
    return profile_computation(s, pipeline_name, by_timer);
}

} // namespace internal
} // namespace loom
