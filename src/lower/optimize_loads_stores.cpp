#include "lower/optimize_loads_stores.h"

#include <loom/ir_operator.h>

#include "arith/constant_interval.h"
#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "simplify/simplify.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace loom {
namespace internal {

namespace {

/// Rewrite 3 carries at most this many bytes of vector values from one iteration to the next
/// (eight 256-bit registers), and at most kMaxCarriedScalars scalar values: more would spill,
/// and a spill costs a store and a load where the loads saved were cheap cache hits.
const int kMaxCarriedBytes = 256;
const int kMaxCarriedScalars = 8;
/// Rewrite 3 looks for chains among at most this many distinct loads of one buffer per loop
/// (it compares them pairwise).
const int kMaxLoadsPerBuffer = 48;

// ---- Shared helpers ----

bool is_prefetch(const Call *c) { return c->is_intrinsic(Call::prefetch); }

/// Whether a call may write memory or have other effects (a prefetch only hints).
bool has_side_effects(const Call *c) { return !c->is_pure() && !is_prefetch(c); }

/// Whether any of `exprs` calls something with side effects (not looking into prefetches).
bool any_side_effects(const std::vector<Expr> &exprs) {
    bool found = false;
    for (const Expr &e : exprs) {
        visit_exprs(e, [&](const Expr &x) {
            if (found) return false;
            if (const Call *c = x.as<Call>()) {
                if (is_prefetch(c)) return false;
                found = has_side_effects(c);
            }
            return !found;
        });
    }
    return found;
}

bool has_loads(const Expr &e) {
    bool found = false;
    visit_exprs(e, [&](const Expr &x) {
        found = found || x.as<Load>() != nullptr;
        return !found;
    });
    return found;
}

/// GPU loops, and loops run by a device API: the kernels' memory spaces and barriers are not
/// modelled here, so their code is left alone.
bool is_device_loop(const For *op) {
    return op->for_type == ForType::GPUBlock || op->for_type == ForType::GPUThread ||
           op->for_type == ForType::GPULane ||
           (op->device_api != DeviceAPI::None && op->device_api != DeviceAPI::Host);
}

/// The names an expression uses free, and the buffers it loads from.
void free_names_and_buffers(const Expr &e, std::set<std::string> *names,
                            std::set<std::string> *buffers) {
    class Collect : public IRVisitor {
    public:
        std::set<std::string> *names, *buffers;
        std::vector<std::string> bound;

    protected:
        using IRVisitor::visit;
        void visit(const Variable *op) override {
            if (std::find(bound.begin(), bound.end(), op->name) == bound.end()) {
                names->insert(op->name);
            }
        }
        void visit(const Load *op) override {
            buffers->insert(op->name);
            IRVisitor::visit(op);
        }
        void visit(const Let *op) override {
            dispatch(op->value);
            bound.push_back(op->name);
            dispatch(op->body);
            bound.pop_back();
        }
    } c;
    c.names = names;
    c.buffers = buffers;
    c.dispatch(e);
}

/// An element (or vector of elements) of a buffer: what a Load reads and a Store writes.
struct Key {
    std::string buffer;
    Type type;
    Expr index;
};

struct KeyLess {
    bool operator()(const Key &a, const Key &b) const {
        if (a.buffer != b.buffer) return a.buffer < b.buffer;
        if (a.type != b.type) return a.type < b.type;
        return deep_compare(a.index, b.index) < 0;
    }
};

/// Whether the elements indices a and b address (scalars, ramps or broadcasts) are provably
/// disjoint: they differ by a constant that no pair of lanes can bridge.
bool provably_disjoint(const Expr &a, const Expr &b) {
    auto parts = [](const Expr &e, Expr *base, int64_t *stride, int *lanes) {
        if (const Ramp *r = e.as<Ramp>()) {
            const int64_t *s = as_const_int(r->stride);
            if (!s || !r->base.type().is_scalar()) return false;
            *base = r->base;
            *stride = *s;
            *lanes = r->lanes;
            return true;
        }
        if (const Broadcast *bc = e.as<Broadcast>()) {
            if (!bc->value.type().is_scalar()) return false;
            *base = bc->value;
        } else if (e.type().is_scalar()) {
            *base = e;
        } else {
            return false;
        }
        *stride = 0;
        *lanes = 1;
        return true;
    };
    Expr ba, bb;
    int64_t sa, sb;
    int la, lb;
    if (!parts(a, &ba, &sa, &la) || !parts(b, &bb, &sb, &lb)) return false;
    // base + constant on both sides (the common case: the taps of an unrolled loop) needs no
    // simplifier.
    auto split = [](const Expr &e, Expr *rest, int64_t *c) {
        const Add *add = e.as<Add>();
        const int64_t *k = add ? as_const_int(add->b) : as_const_int(e);
        *rest = add && k ? add->a : (k ? Expr() : e);
        *c = k ? *k : 0;
    };
    Expr ra, rb;
    int64_t ca, cb, d;
    split(ba, &ra, &ca);
    split(bb, &rb, &cb);
    if (equal(ra, rb)) {
        d = ca - cb;
    } else {
        Expr diff = simplify(ba - bb);
        const int64_t *c = as_const_int(diff);
        if (!c) return false;
        d = *c;
    }
    // The lanes of a are d + i * sa and those of b j * sb, relative to bb: no value shared.
    if (la * lb > 4096) return false;
    std::set<int64_t> lanes_a;
    for (int i = 0; i < la; i++) lanes_a.insert(d + i * sa);
    for (int j = 0; j < lb; j++) {
        if (lanes_a.count(j * sb)) return false;
    }
    return true;
}

/// Fresh names that no name of the statement uses, numbered per run of the pass (the same
/// pipeline lowers to the same statement, which the JIT cache recognizes).
class Names {
public:
    explicit Names(const Stmt &s) : taken(names_referenced(s)) {}
    std::string fresh(const std::string &prefix) {
        while (true) {
            std::string n = prefix + std::to_string(counter++);
            if (!taken.count(n)) {
                taken.insert(n);
                return n;
            }
        }
    }

private:
    std::set<std::string> taken;
    int counter = 0;
};

// ---- Rewrites 1 and 2: values reused across statements ----

/// Rebuilds every Load and Store (so every node above one) as a node of its own: the analysis
/// names occurrences by address, which shared subtrees would make ambiguous.
class Uniquify : public IRMutator {
protected:
    using IRMutator::visit;
    Expr visit(const Load *op) override {
        return Load::make(op->type, op->name, mutate(op->index), mutate(op->predicate), op->param,
                          op->alignment);
    }
    Stmt visit(const Store *op) override {
        return Store::make(op->name, mutate(op->value), mutate(op->index), op->param,
                           mutate(op->predicate), op->alignment);
    }
};

/// A value that later loads may read instead of memory: the first unconditional load of an
/// element (rewrite 1) or the value a store wrote to it (rewrite 2). A store of a let's name
/// (a Tuple's values are stored so) makes the let's value the one bound.
struct Entry {
    Key key;
    const Load *load = nullptr;
    const Store *store = nullptr;
    const LetStmt *let = nullptr;
    /// The let's frame: its value is bound there or further out.
    int let_frame = 0;
    /// The statements around the source, outermost first.
    std::vector<const IRNode *> path;
    /// The outermost of them in front of which the value may be bound.
    int highest = 0;
    /// Where its let goes: the innermost statement holding the source and every use (-1:
    /// unused).
    int placement = -1;
    /// The statement whose expressions hold the source.
    int statement = 0;
    std::set<std::string> index_names;
    std::vector<const Load *> uses;
};

/// Walks the statement in execution order, recording the values each load may reuse.
class FindReuse : public IRVisitor {
public:
    std::vector<Entry> entries;

protected:
    using IRVisitor::visit;

    /// A statement around the walk.
    struct Frame {
        const IRNode *node;
        /// The clock when it started.
        int64_t start;
    };
    std::vector<Frame> frames;
    /// The frames whose walk is in a part of their statement that may not run (an if's
    /// branches, a loop body), innermost last.
    std::vector<int> conditional;
    /// Events are numbered in walk order: the last time each name was written (a buffer, or
    /// its address escaping) or bound (a let, loop or allocation), the last call with side
    /// effects (or Atomic, Fork, device loop) and the last assertion. Something happened
    /// since a frame started when its time is later than the frame's start. (An event in one
    /// branch of an if counts for the other branch's frames above the if, conservatively.)
    int64_t clock = 0;
    std::map<std::string, int64_t> touched;
    int64_t last_barrier = -1, last_assert = -1;
    /// The values available now, by element.
    std::map<Key, int, KeyLess> live;
    /// Inside the lazily evaluated part of an expression.
    int lazy = 0;
    /// Numbers the statements whose expressions are walked.
    int statement = 0;
    /// The statement being visited calls something with side effects (its loads are not
    /// sources: their order against the call is unknown).
    bool impure_statement = false;
    /// For each LetStmt around the walk, the outermost frame in front of which its value could
    /// be computed (-1: none).
    std::map<const LetStmt *, int> let_highest;

    void push(const IRNode *n) { frames.push_back(Frame{n, clock}); }
    void pop() {
        if (!conditional.empty() && conditional.back() == (int)frames.size() - 1) {
            conditional.pop_back();
        }
        frames.pop_back();
    }
    /// The walk enters the part of the innermost statement that may not run.
    void enter_conditional() { conditional.push_back((int)frames.size() - 1); }

    void invalidate_buffer(const std::string &b, const Expr &index = Expr()) {
        for (auto it = live.begin(); it != live.end();) {
            if (it->first.buffer == b &&
                !(index.defined() && provably_disjoint(index, it->first.index))) {
                it = live.erase(it);
            } else {
                ++it;
            }
        }
    }
    void invalidate_name(const std::string &n) {
        for (auto it = live.begin(); it != live.end();) {
            if (entries[it->second].index_names.count(n)) {
                it = live.erase(it);
            } else {
                ++it;
            }
        }
    }
    void barrier() {
        last_barrier = ++clock;
        live.clear();
    }
    void bind(const std::string &n) {
        touched[n] = ++clock;
        invalidate_name(n);
    }
    void write(const std::string &b, const Expr &index = Expr()) {
        touched[b] = ++clock;
        invalidate_buffer(b, index);
    }

    /// Starts a statement whose own expressions are `exprs`.
    void begin(const IRNode *n, const std::vector<Expr> &exprs) {
        push(n);
        statement++;
        impure_statement = any_side_effects(exprs);
        if (impure_statement) barrier();
    }

    /// The outermost frame in front of which an expression using `names` and loading from
    /// `buffers` evaluates to what it does here; -1 if none.
    int highest_frame(const std::set<std::string> &names, const std::set<std::string> &buffers,
                      bool loads) const {
        // The last event that changes the value, then the outermost frame started after it
        // (frames start in order), inside the innermost conditional part.
        int64_t last = std::max(last_barrier, loads ? last_assert : int64_t(-1));
        for (const std::set<std::string> *set : {&names, &buffers}) {
            for (const std::string &n : *set) {
                auto it = touched.find(n);
                if (it != touched.end()) last = std::max(last, it->second);
            }
        }
        auto first = std::lower_bound(frames.begin(), frames.end(), last,
                                      [](const Frame &f, int64_t t) { return f.start < t; });
        int highest = (int)(first - frames.begin());
        if (!conditional.empty()) highest = std::max(highest, conditional.back() + 1);
        return highest < (int)frames.size() ? highest : -1;
    }

    int add_entry(const Key &key, const Load *load, const Store *store, int highest,
                  const LetStmt *let = nullptr) {
        Entry e;
        e.key = key;
        e.load = load;
        e.store = store;
        e.let = let;
        e.statement = statement;
        e.highest = highest;
        for (const Frame &f : frames) e.path.push_back(f.node);
        std::set<std::string> buffers;
        free_names_and_buffers(key.index, &e.index_names, &buffers);
        entries.push_back(std::move(e));
        int id = (int)entries.size() - 1;
        live[key] = id;
        return id;
    }

    void use(int id, const Load *op) {
        Entry &e = entries[id];
        // The frames the source's and this walk share are a prefix: its last one (the
        // innermost statement holding both) by bisection.
        int lo = 0, hi = (int)std::min(e.path.size(), frames.size()) - 1;
        if (hi < 0) return;
        while (lo < hi) {
            int mid = (lo + hi + 1) / 2;
            if (e.path[mid] == frames[mid].node) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        int lca = e.path[lo] == frames[lo].node ? lo : -1;
        if (lca < e.highest) return;
        e.placement = e.placement < 0 ? lca : std::min(e.placement, lca);
        if (e.let) e.placement = std::min(e.placement, e.let_frame);
        e.uses.push_back(op);
    }

    // ---- Expressions ----

    void visit(const Load *op) override {
        IRVisitor::visit(op);
        if (!is_const_one(op->predicate) || op->type.is_handle() || has_loads(op->index)) return;
        Key key{op->name, op->type, op->index};
        auto it = live.find(key);
        if (it != live.end()) {
            // A load repeated within one statement is CSE's: it binds it next to its uses
            // (bound here, in front of the statement, a stencil's taps would all be live at
            // once).
            const Entry &e = entries[it->second];
            if (!(e.load && e.statement == statement)) use(it->second, op);
            return;
        }
        if (lazy || impure_statement) return;
        std::set<std::string> names, buffers{op->name};
        free_names_and_buffers(op->index, &names, &buffers);
        int highest = highest_frame(names, buffers, true);
        if (highest >= 0) add_entry(key, op, nullptr, highest);
    }

    void visit(const Let *op) override {
        dispatch(op->value);
        bind(op->name);
        dispatch(op->body);
        invalidate_name(op->name);
    }

    void visit(const Select *op) override {
        dispatch(op->condition);
        lazy++;
        dispatch(op->true_value);
        dispatch(op->false_value);
        lazy--;
    }

    void visit(const And *op) override {
        dispatch(op->a);
        lazy++;
        dispatch(op->b);
        lazy--;
    }

    void visit(const Or *op) override {
        dispatch(op->a);
        lazy++;
        dispatch(op->b);
        lazy--;
    }

    void visit(const Call *op) override {
        // A prefetch's argument is an address, not a value read.
        if (is_prefetch(op)) return;
        if (op->is_intrinsic(Call::if_then_else)) {
            dispatch(op->args[0]);
            lazy++;
            for (size_t i = 1; i < op->args.size(); i++) dispatch(op->args[i]);
            lazy--;
            return;
        }
        IRVisitor::visit(op);
    }

    void visit(const Variable *op) override {
        // A buffer's address passed somewhere: it may be written through it.
        if (op->type.is_handle() && !frames.empty()) write(op->name);
    }

    // ---- Statements ----

    void visit(const LetStmt *op) override {
        begin(op, {op->value});
        dispatch(op->value);
        int highest = -1;
        if (!impure_statement && !op->value.type().is_handle()) {
            std::set<std::string> names, buffers;
            free_names_and_buffers(op->value, &names, &buffers);
            highest = highest_frame(names, buffers, has_loads(op->value));
        }
        impure_statement = false;
        let_highest[op] = highest;
        bind(op->name);
        dispatch(op->body);
        invalidate_name(op->name);
        let_highest.erase(op);
        pop();
    }

    /// The LetStmt around the walk that defines the value of the variable `v` (and its
    /// frame), if any.
    const LetStmt *defining_let(const Variable *v, int *frame) const {
        for (int f = (int)frames.size() - 1; f >= 0; f--) {
            const IRNode *n = frames[f].node;
            if (n->node_type == IRNodeType::LetStmt) {
                const LetStmt *l = static_cast<const LetStmt *>(n);
                *frame = f;
                if (l->name == v->name) return l;
            } else if (n->node_type == IRNodeType::For) {
                if (static_cast<const For *>(n)->name == v->name) return nullptr;
            }
        }
        return nullptr;
    }

    void visit(const AssertStmt *op) override {
        // The message is evaluated only when the assertion fails, and then nothing follows.
        begin(op, {op->condition});
        dispatch(op->condition);
        impure_statement = false;
        last_assert = ++clock;
        pop();
    }

    void visit(const ProducerConsumer *op) override {
        push(op);
        dispatch(op->body);
        pop();
    }

    void visit(const For *op) override {
        begin(op, {op->min, op->extent});
        dispatch(op->min);
        dispatch(op->extent);
        impure_statement = false;
        if (is_device_loop(op)) {
            barrier();
            pop();
            return;
        }
        bind(op->name);
        // What the body may do happens before its second iteration: values it could
        // overwrite are gone. Inside the body nothing from outside is reused (nor carried
        // out): the values would stay live across the loop.
        class Summary : public IRVisitor {
        public:
            std::set<std::string> stored;
            bool barrier = false;

        protected:
            using IRVisitor::visit;
            void visit(const Store *s) override {
                stored.insert(s->name);
                IRVisitor::visit(s);
            }
            void visit(const Free *s) override { stored.insert(s->name); }
            void visit(const Variable *v) override {
                if (v->type.is_handle()) stored.insert(v->name);
            }
            void visit(const Call *c) override {
                if (is_prefetch(c)) return;
                barrier = barrier || has_side_effects(c);
                IRVisitor::visit(c);
            }
            void visit(const Atomic *) override { barrier = true; }
            void visit(const Fork *) override { barrier = true; }
            void visit(const For *f) override {
                barrier = barrier || is_device_loop(f);
                IRVisitor::visit(f);
            }
        } summary;
        summary.dispatch(op->body);
        if (summary.barrier) live.clear();
        for (const std::string &b : summary.stored) invalidate_buffer(b);
        enter_conditional();
        std::map<Key, int, KeyLess> outside;
        outside.swap(live);
        dispatch(op->body);
        live.swap(outside);
        invalidate_name(op->name);
        pop();
    }

    void visit(const Store *op) override {
        begin(op, {op->value, op->index, op->predicate});
        dispatch(op->value);
        dispatch(op->index);
        dispatch(op->predicate);
        int highest = -1;
        const LetStmt *let = nullptr;
        int let_frame = 0;
        if (!impure_statement && is_const_one(op->predicate) && !op->value.type().is_handle() &&
            !has_loads(op->index)) {
            const Variable *v = op->value.as<Variable>();
            let = v ? defining_let(v, &let_frame) : nullptr;
            if (let) {
                // The let's value, computed where the let was (or further out), is what the
                // store writes.
                highest = let_highest.at(let);
            } else {
                std::set<std::string> names, buffers;
                free_names_and_buffers(op->value, &names, &buffers);
                highest = highest_frame(names, buffers, has_loads(op->value));
            }
        }
        impure_statement = false;
        write(op->name, op->index);
        if (highest >= 0) {
            int id = add_entry(Key{op->name, op->value.type(), op->index}, nullptr,
                               let ? nullptr : op, highest, let);
            entries[id].let_frame = let_frame;
        }
        pop();
    }

    void visit(const Allocate *op) override {
        std::vector<Expr> exprs = op->extents;
        exprs.push_back(op->condition);
        begin(op, exprs);
        for (const Expr &e : exprs) dispatch(e);
        impure_statement = false;
        bind(op->name);
        invalidate_buffer(op->name);
        dispatch(op->body);
        invalidate_buffer(op->name);
        pop();
    }

    void visit(const Free *op) override {
        push(op);
        write(op->name);
        pop();
    }

    void visit(const Block *op) override {
        push(op);
        dispatch(op->first);
        dispatch(op->rest);
        pop();
    }

    void visit(const IfThenElse *op) override {
        begin(op, {op->condition});
        dispatch(op->condition);
        impure_statement = false;
        enter_conditional();
        std::map<Key, int, KeyLess> before = live;
        dispatch(op->then_case);
        std::map<Key, int, KeyLess> after_then;
        after_then.swap(live);
        live = before;
        dispatch(op->else_case);
        // Available after the if: what both branches left available.
        for (auto it = live.begin(); it != live.end();) {
            auto t = after_then.find(it->first);
            if (t == after_then.end() || t->second != it->second) {
                it = live.erase(it);
            } else {
                ++it;
            }
        }
        pop();
    }

    void visit(const Evaluate *op) override {
        begin(op, {op->value});
        dispatch(op->value);
        impure_statement = false;
        pop();
    }

    // Concurrency (and nodes that should not be here): nothing is reused across them, and
    // nothing inside them is touched.
    void opaque(const IRNode *n) {
        push(n);
        barrier();
        pop();
    }
    void visit(const Atomic *op) override { opaque(op); }
    void visit(const Fork *op) override { opaque(op); }
    void visit(const Provide *op) override { opaque(op); }
    void visit(const Realize *op) override { opaque(op); }
};

/// Puts the lets FindReuse decided on in place and reads the values through them.
class ApplyReuse : public IRMutator {
public:
    ApplyReuse(const std::vector<Entry> &entries, Names &names) : entries(entries) {
        for (size_t id = 0; id < entries.size(); id++) {
            const Entry &e = entries[id];
            var.push_back(e.placement >= 0 ? names.fresh("lso.t") : std::string());
            if (e.placement < 0) continue;
            lets_at[e.path[e.placement]].push_back((int)id);
            if (e.load) reads[e.load] = (int)id;
            if (e.store) stores[e.store] = (int)id;
            if (e.let) let_values[e.let] = (int)id;
            for (const Load *l : e.uses) reads[l] = (int)id;
        }
    }

    using IRMutator::mutate;
    Stmt mutate(const Stmt &s) override {
        auto it = lets_at.find(s.get());
        if (it == lets_at.end()) return IRMutator::mutate(s);
        // In order of the sources: a store's value may read an earlier load's let.
        std::vector<std::pair<int, Expr>> lets;
        for (int id : it->second) {
            const Entry &e = entries[id];
            Expr value = e.load    ? Expr(e.load)
                         : e.store ? mutate(e.store->value)
                                   : mutate(e.let->value);
            lets.emplace_back(id, value);
            in_scope.insert(id);
        }
        Stmt body = IRMutator::mutate(s);
        for (auto l = lets.rbegin(); l != lets.rend(); ++l) {
            in_scope.erase(l->first);
            body = LetStmt::make(var[l->first], l->second, body);
        }
        return body;
    }

protected:
    using IRMutator::visit;

    Expr visit(const Load *op) override {
        auto it = reads.find(op);
        if (it != reads.end() && in_scope.count(it->second)) {
            return Variable::make(op->type, var[it->second]);
        }
        return IRMutator::visit(op);
    }

    Stmt visit(const LetStmt *op) override {
        auto it = let_values.find(op);
        if (it != let_values.end() && in_scope.count(it->second)) {
            Type t = op->value.type();
            return LetStmt::make(op->name, Variable::make(t, var[it->second]), mutate(op->body));
        }
        return IRMutator::visit(op);
    }

    Stmt visit(const Store *op) override {
        auto it = stores.find(op);
        if (it != stores.end() && in_scope.count(it->second)) {
            return Store::make(op->name, Variable::make(op->value.type(), var[it->second]),
                               mutate(op->index), op->param, mutate(op->predicate), op->alignment);
        }
        return IRMutator::visit(op);
    }

private:
    const std::vector<Entry> &entries;
    std::vector<std::string> var;
    std::map<const IRNode *, std::vector<int>> lets_at;
    std::map<const Load *, int> reads;
    std::map<const Store *, int> stores;
    std::map<const LetStmt *, int> let_values;
    std::set<int> in_scope;
};

Stmt reuse_values(const Stmt &s, Names &names) {
    Stmt u = Uniquify().mutate(s);
    FindReuse find;
    find.dispatch(u);
    // Stores of one let's name to several buffers (or elements) share one binding of its
    // value, at the outermost place any of them needs.
    std::map<const LetStmt *, int> first;
    for (size_t id = 0; id < find.entries.size(); id++) {
        Entry &e = find.entries[id];
        if (!e.let || e.placement < 0) continue;
        auto it = first.find(e.let);
        if (it == first.end()) {
            first[e.let] = (int)id;
            continue;
        }
        Entry &f = find.entries[it->second];
        f.placement = std::min(f.placement, e.placement);
        f.uses.insert(f.uses.end(), e.uses.begin(), e.uses.end());
        e.placement = -1;
        e.uses.clear();
    }
    bool any = false;
    for (const Entry &e : find.entries) any = any || e.placement >= 0;
    if (!any) return s;
    return ApplyReuse(find.entries, names).mutate(u);
}

// ---- Rewrite 3: sliding loads ----

/// Tracks the lets around a point of a loop body, to express an index in the names bound
/// outside the body (and the loop variable).
class LetScope {
public:
    void push(const std::string &n, const Expr &v) { lets.emplace_back(n, v); }
    void pop() { lets.pop_back(); }
    /// e with the lets substituted, innermost first (a value may use outer lets, or an outer
    /// binding of its own name); undefined if it grows too large.
    Expr expand(Expr e) const {
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
            if (!expr_uses_var(e, it->first)) continue;
            e = substitute(it->first, it->second, e);
            if (expr_larger_than(e, 400)) return Expr();
        }
        return e;
    }

private:
    std::vector<std::pair<std::string, Expr>> lets;
};

/// What a loop body does that rules rewrite 3 out (for the loop or a buffer).
class BodySummary : public IRVisitor {
public:
    bool ok = true;
    std::set<std::string> written, allocated, escaped;

protected:
    using IRVisitor::visit;
    void visit(const For *) override { ok = false; }
    void visit(const AssertStmt *) override { ok = false; }
    void visit(const Atomic *) override { ok = false; }
    void visit(const Fork *) override { ok = false; }
    void visit(const Provide *) override { ok = false; }
    void visit(const Realize *) override { ok = false; }
    void visit(const Call *op) override {
        if (is_prefetch(op)) return;
        ok = ok && !has_side_effects(op);
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        written.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Free *op) override { written.insert(op->name); }
    void visit(const Allocate *op) override {
        allocated.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Variable *op) override {
        if (op->type.is_handle()) escaped.insert(op->name);
    }
};

/// The loads of a loop body that rewrite 3 may replace, by element (index expanded), and
/// whether each is loaded unconditionally.
class CollectSlidingLoads : public IRVisitor {
public:
    struct Info {
        bool unconditional = false;
        const Load *example = nullptr;
    };
    std::map<Key, Info, KeyLess> loads;

    CollectSlidingLoads(const std::string &var, const BodySummary &summary)
        : var(var), summary(summary) {}

    /// The element a load of the body reads, in terms of names bound outside the body; false if
    /// rewrite 3 leaves it alone.
    static bool key_of(const Load *op, const std::string &var, const BodySummary &summary,
                       const LetScope &scope, Key *key) {
        if (!is_const_one(op->predicate) || op->type.is_handle() || op->type.is_bool() ||
            summary.written.count(op->name) || summary.allocated.count(op->name) ||
            summary.escaped.count(op->name)) {
            return false;
        }
        Expr index = scope.expand(op->index);
        if (!index.defined() || !expr_uses_var(index, var)) return false;
        bool ok = true;
        visit_exprs(index, [&](const Expr &x) {
            if (const Call *c = x.as<Call>()) ok = ok && c->is_pure();
            ok = ok && !x.as<Load>() && !x.as<Let>();
            return ok;
        });
        if (!ok) return false;
        *key = Key{op->name, op->type, index};
        return true;
    }

protected:
    using IRVisitor::visit;

    void visit(const Load *op) override {
        IRVisitor::visit(op);
        Key key;
        if (!key_of(op, var, summary, scope, &key)) return;
        Info &info = loads[key];
        bool unconditional = conditional == 0;
        if (!info.example || (unconditional && !info.unconditional)) info.example = op;
        info.unconditional = info.unconditional || unconditional;
    }
    void visit(const LetStmt *op) override {
        dispatch(op->value);
        scope.push(op->name, op->value);
        dispatch(op->body);
        scope.pop();
    }
    void visit(const Let *op) override {
        dispatch(op->value);
        scope.push(op->name, op->value);
        dispatch(op->body);
        scope.pop();
    }
    void visit(const IfThenElse *op) override {
        dispatch(op->condition);
        conditional++;
        dispatch(op->then_case);
        dispatch(op->else_case);
        conditional--;
    }
    void visit(const Select *op) override {
        dispatch(op->condition);
        conditional++;
        dispatch(op->true_value);
        dispatch(op->false_value);
        conditional--;
    }
    void visit(const And *op) override {
        dispatch(op->a);
        conditional++;
        dispatch(op->b);
        conditional--;
    }
    void visit(const Or *op) override {
        dispatch(op->a);
        conditional++;
        dispatch(op->b);
        conditional--;
    }
    void visit(const Call *op) override {
        if (is_prefetch(op)) return;
        if (op->is_intrinsic(Call::if_then_else)) {
            dispatch(op->args[0]);
            conditional++;
            for (size_t i = 1; i < op->args.size(); i++) dispatch(op->args[i]);
            conditional--;
            return;
        }
        IRVisitor::visit(op);
    }

private:
    std::string var;
    const BodySummary &summary;
    LetScope scope;
    int conditional = 0;
};

/// The body's loads of the chosen elements replaced by the variables holding them.
class ReplaceSlidingLoads : public IRMutator {
public:
    ReplaceSlidingLoads(const std::string &var, const BodySummary &summary,
                        const std::map<Key, Expr, KeyLess> &values)
        : var(var), summary(summary), values(values) {}

protected:
    using IRMutator::visit;

    Expr visit(const Load *op) override {
        Key key;
        if (CollectSlidingLoads::key_of(op, var, summary, scope, &key)) {
            auto it = values.find(key);
            if (it != values.end()) return it->second;
        }
        return IRMutator::visit(op);
    }
    Stmt visit(const LetStmt *op) override {
        Expr value = mutate(op->value);
        scope.push(op->name, op->value);
        Stmt body = mutate(op->body);
        scope.pop();
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return LetStmt::make(op->name, value, body);
    }
    Expr visit(const Let *op) override {
        Expr value = mutate(op->value);
        scope.push(op->name, op->value);
        Expr body = mutate(op->body);
        scope.pop();
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return Let::make(op->name, value, body);
    }
    Expr visit(const Call *op) override {
        if (is_prefetch(op)) return op;
        return IRMutator::visit(op);
    }

private:
    std::string var;
    const BodySummary &summary;
    const std::map<Key, Expr, KeyLess> &values;
    LetScope scope;
};

/// Whether indices a and b address the same elements (for every value of the names in them).
bool same_index(const Expr &a, const Expr &b) {
    if (a.type() != b.type()) return false;
    return is_const_zero(simplify(a - b));
}

class SlideLoads : public IRMutator {
public:
    explicit SlideLoads(Names &names) : names(names) {}

protected:
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        if (is_device_loop(op)) return op;
        Stmt s = IRMutator::visit(op);
        const For *loop = s.as<For>();
        if (loop && loop->for_type == ForType::Serial) return slide(loop);
        return s;
    }
    Stmt visit(const Atomic *op) override { return op; }
    Stmt visit(const Fork *op) override { return op; }

private:
    Names &names;

    /// The chains of elements of one buffer: c_0, ..., c_{n-1} with c_k(y + 1) == c_{k+1}(y).
    std::vector<std::vector<Key>> chains(const std::vector<Key> &keys, const std::string &var) {
        Expr next_var = Variable::make(Int(32), var) + 1;
        std::vector<Expr> next;
        // The names each index uses: equal indices use the same ones (once simplified; the
        // check skips most pairs without calling the simplifier).
        std::vector<std::set<std::string>> names(keys.size()), next_names(keys.size());
        for (size_t k = 0; k < keys.size(); k++) {
            next.push_back(simplify(substitute(var, next_var, keys[k].index)));
            std::set<std::string> buffers;
            free_names_and_buffers(simplify(keys[k].index), &names[k], &buffers);
            free_names_and_buffers(next[k], &next_names[k], &buffers);
        }
        std::vector<int> succ(keys.size(), -1), pred(keys.size(), -1);
        for (size_t a = 0; a < keys.size(); a++) {
            for (size_t b = 0; b < keys.size(); b++) {
                if (a == b || keys[a].type != keys[b].type || pred[b] >= 0 ||
                    next_names[a] != names[b]) {
                    continue;
                }
                if (same_index(next[a], keys[b].index)) {
                    succ[a] = (int)b;
                    pred[b] = (int)a;
                    break;
                }
            }
        }
        std::vector<std::vector<Key>> result;
        for (size_t h = 0; h < keys.size(); h++) {
            if (pred[h] >= 0 || succ[h] < 0) continue;
            std::vector<Key> chain;
            std::set<int> seen;
            for (int k = (int)h; k >= 0 && !seen.count(k); k = succ[k]) {
                seen.insert(k);
                chain.push_back(keys[k]);
            }
            result.push_back(chain);
        }
        // (A cycle has no head: its elements repeat, which an affine index never does.)
        return result;
    }

    Stmt slide(const For *loop) {
        BodySummary summary;
        summary.dispatch(loop->body);
        if (!summary.ok) return loop;
        // min and extent are evaluated again in front of the loop.
        for (const Expr &e : {loop->min, loop->extent}) {
            if (has_loads(e) || any_side_effects({e})) return loop;
        }
        CollectSlidingLoads collect(loop->name, summary);
        collect.dispatch(loop->body);

        std::map<std::string, std::vector<Key>> by_buffer;
        std::map<Key, const Load *, KeyLess> example;
        for (const auto &l : collect.loads) {
            if (!l.second.unconditional) continue;
            std::vector<Key> &keys = by_buffer[l.first.buffer];
            if ((int)keys.size() < kMaxLoadsPerBuffer) keys.push_back(l.first);
            example[l.first] = l.second.example;
        }
        std::vector<std::vector<Key>> all;
        for (const auto &b : by_buffer) {
            for (const std::vector<Key> &c : chains(b.second, loop->name)) all.push_back(c);
        }
        if (all.empty()) return loop;
        // Longest chains first, within the budget of values carried.
        std::stable_sort(all.begin(), all.end(),
                         [](const std::vector<Key> &a, const std::vector<Key> &b) {
                             return a.size() > b.size();
                         });
        int bytes_left = kMaxCarriedBytes, scalars_left = kMaxCarriedScalars;
        std::map<Key, Expr, KeyLess> values;
        std::vector<Stmt> preload, rotate;
        std::vector<std::pair<std::string, Expr>> lets;
        std::vector<std::tuple<std::string, Type, int>> buffers;
        Expr y_min = loop->min;
        for (std::vector<Key> chain : all) {
            Type t = chain[0].type;
            int carried = (int)chain.size() - 1;
            if (t.is_vector()) {
                carried = std::min(carried, bytes_left / (t.bytes() * t.lanes()));
                bytes_left -= carried * t.bytes() * t.lanes();
            } else {
                carried = std::min(carried, scalars_left);
                scalars_left -= carried;
            }
            if (carried <= 0) continue;
            chain.erase(chain.begin(), chain.end() - (carried + 1));
            std::string r = names.fresh("lso.r");
            int lanes = t.lanes();
            buffers.emplace_back(r, t.element_of(), carried * lanes);
            auto slot = [&](int k) {
                return lanes == 1 ? Expr(k) : Ramp::make(Expr(k * lanes), 1, lanes);
            };
            std::vector<Expr> vars;
            for (int k = 0; k <= carried; k++) {
                std::string v = r + ".v" + std::to_string(k);
                vars.push_back(Variable::make(t, v));
                const Load *ex = example[chain[k]];
                if (k < carried) {
                    lets.emplace_back(v, Load::make(t, r, slot(k), const_true(lanes)));
                    Expr first = simplify(substitute(loop->name, y_min, chain[k].index));
                    preload.push_back(
                        Store::make(r,
                                    Load::make(t, chain[k].buffer, first, const_true(lanes),
                                               ex->param, ex->alignment),
                                    slot(k), Parameter(), const_true(lanes)));
                } else {
                    lets.emplace_back(v, Load::make(t, chain[k].buffer, chain[k].index,
                                                    const_true(lanes), ex->param, ex->alignment));
                }
                values[chain[k]] = vars.back();
            }
            for (int k = 0; k < carried; k++) {
                rotate.push_back(
                    Store::make(r, vars[k + 1], slot(k), Parameter(), const_true(lanes)));
            }
        }
        if (buffers.empty()) return loop;

        Stmt body = ReplaceSlidingLoads(loop->name, summary, values).mutate(loop->body);
        body = Block::make(body, Block::make(rotate));
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
            body = LetStmt::make(it->first, it->second, body);
        }
        Stmt first = Block::make(preload);
        ConstantInterval extent = constant_integer_bounds(loop->extent);
        if (!(extent.min_defined && extent.min > 0)) {
            first = IfThenElse::make(0 < loop->extent, first);
        }
        Stmt result = Block::make(first, loop->with_body(body));
        for (auto it = buffers.rbegin(); it != buffers.rend(); ++it) {
            result = Allocate::make(std::get<0>(*it), std::get<1>(*it), MemoryType::Register,
                                    {Expr(std::get<2>(*it))}, const_true(), result);
        }
        return result;
    }
};

} // namespace

Stmt optimize_loads_stores(const Stmt &s) {
    Names names(s);
    Stmt r = reuse_values(s, names);
    return SlideLoads(names).mutate(r);
}

} // namespace internal
} // namespace loom
