#include "simplify/cse.h"

#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"

#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace loom {
namespace internal {

namespace {

/// Whether e is worth a Let of its own when it occurs several times.
bool should_extract(const Expr &e) {
    if (is_const(e) || e.as<Variable>() || e.as<StringImm>()) return false;
    if (const Broadcast *b = e.as<Broadcast>()) return should_extract(b->value);
    if (const Cast *c = e.as<Cast>()) return should_extract(c->value);
    if (const Add *a = e.as<Add>()) return !(is_const(a->a) || is_const(a->b));
    if (const Sub *a = e.as<Sub>()) return !(is_const(a->a) || is_const(a->b));
    if (const Mul *a = e.as<Mul>()) return !(is_const(a->a) || is_const(a->b));
    // A ramp of constant stride stays in place (its base may be lifted): code generation
    // sees a dense or strided access only in a Ramp index, and a let-bound one gathered
    // (nl_means' weighted_sum[t] + weight[t] * ..., twice per vector).
    if (const Ramp *r = e.as<Ramp>()) return !is_const(r->stride);
    return true;
}

/// Nodes whose children are not part of the expression's eagerly evaluated body: a Let (its
/// body sees the Let's name) and if_then_else (its branches run only when chosen).
bool is_barrier(const Expr &e) {
    if (e.as<Let>()) return true;
    const Call *c = e.as<Call>();
    return c && c->is_intrinsic(Call::if_then_else);
}

/// One distinct subexpression: how often its parents (each counted once) use it, whether it
/// may be lifted, and its position in post-order.
struct Entry {
    int uses = 0;
    bool liftable = true;
    bool impure = false; ///< contains a side-effecting call
    int order = -1;
    std::string name;
};

using HashMemo = std::unordered_map<const IRNode *, uint64_t>;

/// Deep hash of a subexpression, sharing one memo for the whole tree being eliminated.
struct MemoHash {
    HashMemo *memo;
    size_t operator()(const Expr &e) const { return (size_t)hash_expr(e, *memo); }
};

using Table = std::unordered_map<Expr, Entry, MemoHash, IRDeepEqual>;

/// Names the lifted values "cse.t0", "cse.t1", ... in order within one run, skipping names the
/// input already uses. Deterministic (unlike unique_name's process-wide counter): the same
/// input always gives the same output, which the JIT's cache of compiled code (keyed by the
/// printed lowered function) relies on.
class Namer {
public:
    template <typename Node>
    explicit Namer(const Node &input) {
        visit_exprs(input, [&](const Expr &e) {
            if (const Variable *v = e.as<Variable>()) taken.insert(v->name);
            if (const Let *l = e.as<Let>()) taken.insert(l->name);
            return true;
        });
    }
    std::string next() {
        std::string n;
        do {
            n = "cse.t" + std::to_string(counter++);
        } while (taken.count(n));
        return n;
    }

private:
    std::unordered_set<std::string> taken;
    int counter = 0;
};

Expr cse(const Expr &e, Namer &namer);

/// Counts, for each distinct subexpression, the distinct parents that use it; the children of a
/// node already seen are not visited again (so (a+b)*(a+b) counts a+b twice, a and b once),
/// unless the node is never lifted.
class Count : public IRMutator {
public:
    HashMemo memo; ///< before table: the table's hasher points at it
    Table table{16, MemoHash{&memo}, IRDeepEqual()};
    std::vector<Expr> post_order;

    Expr mutate(const Expr &e) override {
        if (!e.defined()) return e;
        bool impure;
        auto it = table.find(e);
        if (it != table.end()) {
            it->second.uses++;
            impure = it->second.impure;
            // A node never lifted (a ramp, x + 1) is evaluated at each occurrence, so its
            // children are used once more each time, as in Halide: a repeated ramp's base
            // gets its Let.
            if (!it->second.liftable && !impure && !is_barrier(e)) {
                frames.push_back(false);
                IRMutator::mutate(e);
                frames.pop_back();
            }
        } else {
            table[e].uses = 1;
            // Children report whether they contain a side-effecting call into this frame.
            frames.push_back(false);
            if (is_barrier(e)) {
                frames.back() = !pure_call_tree(e);
            } else {
                IRMutator::mutate(e);
            }
            impure = frames.back();
            frames.pop_back();
            if (const Call *c = e.as<Call>()) impure = impure || !c->is_pure();
            Entry &entry = table[e];
            entry.impure = impure;
            entry.liftable = !impure && should_extract(e);
            entry.order = (int)post_order.size();
            post_order.push_back(e);
        }
        if (!frames.empty()) frames.back() = frames.back() || impure;
        return e;
    }

private:
    /// Whether every Call under e is pure.
    static bool pure_call_tree(const Expr &e) {
        bool pure = true;
        visit_exprs(e, [&](const Expr &x) {
            if (const Call *c = x.as<Call>()) pure = pure && c->is_pure();
            return pure;
        });
        return pure;
    }
    std::vector<bool> frames;
};

/// Replaces the lifted subexpressions with their Variables, and eliminates within barriers.
class Replace : public IRMutator {
public:
    Replace(const Table &table, Namer &namer) : table(table), namer(namer) {}

    Expr mutate(const Expr &e) override {
        if (!e.defined()) return e;
        auto it = table.find(e);
        if (it != table.end() && !it->second.name.empty()) {
            return Variable::make(e.type(), it->second.name);
        }
        return rewrite(e);
    }

    /// e with its children replaced (but not e itself).
    Expr rewrite(const Expr &e) {
        if (const Let *l = e.as<Let>()) {
            // Count does not enter a Let, so its value is eliminated on its own as well (an
            // inlined Func's repeated calls inside a let value were left duplicated).
            return Let::make(l->name, cse(l->value, namer), cse(l->body, namer));
        }
        const Call *c = e.as<Call>();
        if (c && c->is_intrinsic(Call::if_then_else)) {
            std::vector<Expr> args = c->args;
            args[0] = mutate(args[0]);
            for (size_t i = 1; i < args.size(); i++) {
                args[i] = cse(args[i], namer);
            }
            return Call::make(c->type, c->name, args, c->call_type, c->func, c->value_index,
                              c->param);
        }
        return IRMutator::mutate(e);
    }

private:
    const Table &table;
    Namer &namer;
};

/// Applies CSE to each top-level Expr of a Stmt.
class CSEStmt : public IRMutator {
public:
    explicit CSEStmt(const Stmt &s) : namer(s) {}
    using IRMutator::mutate;
    Expr mutate(const Expr &e) override { return cse(e, namer); }

private:
    Namer namer;
};

Expr cse(const Expr &e, Namer &namer) {
    if (!e.defined()) return e;
    Count count;
    count.mutate(e);

    // The lifted subexpressions, innermost (first finished) first.
    Table &table = count.table;
    std::vector<Expr> lifted;
    for (const Expr &x : count.post_order) {
        Entry &entry = table[x];
        if (entry.uses > 1 && entry.liftable) {
            entry.name = namer.next();
            lifted.push_back(x);
        }
    }
    if (lifted.empty()) return Replace(table, namer).rewrite(e);

    Replace replace(table, namer);
    Expr body = replace.mutate(e);
    for (auto it = lifted.rbegin(); it != lifted.rend(); ++it) {
        body = Let::make(table[*it].name, replace.rewrite(*it), body);
    }
    return body;
}

} // namespace

Expr common_subexpression_elimination(const Expr &e) {
    Namer namer(e);
    return cse(e, namer);
}

Stmt common_subexpression_elimination(const Stmt &s) { return CSEStmt(s).mutate(s); }

} // namespace internal
} // namespace loom
