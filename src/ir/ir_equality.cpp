// Structural comparison and hashing. Each node kind lists its fields once (`fields` below);
// comparison and hashing both walk that list, and the dispatch is generated from
// ir_node_list.h, so a new node kind fails to build here until its fields are listed.

#include "ir/ir_equality.h"

#include "support/error.h"

#include <cstring>
#include <set>
#include <unordered_map>

namespace loom {
namespace internal {

namespace {

// ---- The fields of each node kind, visited in pairs (a's field, b's field). The node's type
// and kind are compared before these. ----
template <typename V>
void fields(const IntImm *a, const IntImm *b, V &v) {
    v(a->value, b->value);
}
template <typename V>
void fields(const UIntImm *a, const UIntImm *b, V &v) {
    v(a->value, b->value);
}
template <typename V>
void fields(const FloatImm *a, const FloatImm *b, V &v) {
    v(a->value, b->value);
}
template <typename V>
void fields(const StringImm *a, const StringImm *b, V &v) {
    v(a->value, b->value);
}
template <typename V>
void fields(const Cast *a, const Cast *b, V &v) {
    v(a->value, b->value);
}
template <typename V>
void fields(const Reinterpret *a, const Reinterpret *b, V &v) {
    v(a->value, b->value);
}
template <typename V>
void fields(const Variable *a, const Variable *b, V &v) {
    v(a->name, b->name);
}
#define LOOM_BINARY_FIELDS(N)                                                                      \
    template <typename V>                                                                          \
    void fields(const N *a, const N *b, V &v) {                                                    \
        v(a->a, b->a);                                                                             \
        v(a->b, b->b);                                                                             \
    }
LOOM_BINARY_FIELDS(Add)
LOOM_BINARY_FIELDS(Sub)
LOOM_BINARY_FIELDS(Mul)
LOOM_BINARY_FIELDS(Div)
LOOM_BINARY_FIELDS(Mod)
LOOM_BINARY_FIELDS(Min)
LOOM_BINARY_FIELDS(Max)
LOOM_BINARY_FIELDS(EQ)
LOOM_BINARY_FIELDS(NE)
LOOM_BINARY_FIELDS(LT)
LOOM_BINARY_FIELDS(LE)
LOOM_BINARY_FIELDS(GT)
LOOM_BINARY_FIELDS(GE)
LOOM_BINARY_FIELDS(And)
LOOM_BINARY_FIELDS(Or)
#undef LOOM_BINARY_FIELDS
template <typename V>
void fields(const Not *a, const Not *b, V &v) {
    v(a->a, b->a);
}
template <typename V>
void fields(const Select *a, const Select *b, V &v) {
    v(a->condition, b->condition);
    v(a->true_value, b->true_value);
    v(a->false_value, b->false_value);
}
template <typename V>
void fields(const Load *a, const Load *b, V &v) {
    v(a->name, b->name);
    v(a->index, b->index);
    v(a->predicate, b->predicate);
    v(a->alignment.modulus, b->alignment.modulus);
    v(a->alignment.remainder, b->alignment.remainder);
}
template <typename V>
void fields(const Ramp *a, const Ramp *b, V &v) {
    v(a->base, b->base);
    v(a->stride, b->stride);
    v(a->lanes, b->lanes);
}
template <typename V>
void fields(const Broadcast *a, const Broadcast *b, V &v) {
    v(a->value, b->value);
    v(a->lanes, b->lanes);
}
template <typename V>
void fields(const Let *a, const Let *b, V &v) {
    v(a->name, b->name);
    v(a->value, b->value);
    v(a->body, b->body);
}
template <typename V>
void fields(const Call *a, const Call *b, V &v) {
    v(a->name, b->name);
    v(a->call_type, b->call_type);
    v(a->value_index, b->value_index);
    v(a->args, b->args);
}
template <typename V>
void fields(const Shuffle *a, const Shuffle *b, V &v) {
    v(a->vectors, b->vectors);
    v(a->indices, b->indices);
}
template <typename V>
void fields(const VectorReduce *a, const VectorReduce *b, V &v) {
    v(a->op, b->op);
    v(a->value, b->value);
}
template <typename V>
void fields(const LetStmt *a, const LetStmt *b, V &v) {
    v(a->name, b->name);
    v(a->value, b->value);
    v(a->body, b->body);
}
template <typename V>
void fields(const AssertStmt *a, const AssertStmt *b, V &v) {
    v(a->condition, b->condition);
    v(a->message, b->message);
}
template <typename V>
void fields(const ProducerConsumer *a, const ProducerConsumer *b, V &v) {
    v(a->name, b->name);
    v(a->is_producer, b->is_producer);
    v(a->body, b->body);
}
template <typename V>
void fields(const For *a, const For *b, V &v) {
    v(a->name, b->name);
    v(a->min, b->min);
    v(a->extent, b->extent);
    v(a->for_type, b->for_type);
    v(a->device_api, b->device_api);
    v(a->partition_policy, b->partition_policy);
    v(a->body, b->body);
}
template <typename V>
void fields(const Store *a, const Store *b, V &v) {
    v(a->name, b->name);
    v(a->value, b->value);
    v(a->index, b->index);
    v(a->predicate, b->predicate);
    v(a->alignment.modulus, b->alignment.modulus);
    v(a->alignment.remainder, b->alignment.remainder);
}
template <typename V>
void fields(const Provide *a, const Provide *b, V &v) {
    v(a->name, b->name);
    v(a->values, b->values);
    v(a->args, b->args);
    v(a->predicate, b->predicate);
}
template <typename V>
void fields(const Allocate *a, const Allocate *b, V &v) {
    v(a->name, b->name);
    v(a->type, b->type);
    v(a->memory_type, b->memory_type);
    v(a->extents, b->extents);
    v(a->condition, b->condition);
    v(a->body, b->body);
}
template <typename V>
void fields(const Free *a, const Free *b, V &v) {
    v(a->name, b->name);
}
template <typename V>
void fields(const Realize *a, const Realize *b, V &v) {
    v(a->name, b->name);
    v(a->types, b->types);
    v(a->memory_type, b->memory_type);
    v(a->bounds, b->bounds);
    v(a->condition, b->condition);
    v(a->body, b->body);
}
template <typename V>
void fields(const Block *a, const Block *b, V &v) {
    v(a->first, b->first);
    v(a->rest, b->rest);
}
template <typename V>
void fields(const IfThenElse *a, const IfThenElse *b, V &v) {
    v(a->condition, b->condition);
    v(a->then_case, b->then_case);
    v(a->else_case, b->else_case);
}
template <typename V>
void fields(const Evaluate *a, const Evaluate *b, V &v) {
    v(a->value, b->value);
}
template <typename V>
void fields(const Atomic *a, const Atomic *b, V &v) {
    v(a->producer_name, b->producer_name);
    v(a->mutex_name, b->mutex_name);
    v(a->body, b->body);
}

template <typename V>
void fields(const Fork *a, const Fork *b, V &v) {
    v(a->first, b->first);
    v(a->rest, b->rest);
}

template <typename T>
int three_way(const T &a, const T &b) {
    return a < b ? -1 : (b < a ? 1 : 0);
}

/// Pairs of shared nodes (referenced more than once) already found equal, so comparing two
/// DAGs with much internal sharing stays linear instead of exploring every path.
using EqualPairs = std::set<std::pair<const IRNode *, const IRNode *>>;

int compare_nodes(const IRNode *a, const IRNode *b, EqualPairs &seen);

/// Compares field pairs in order; the first difference decides.
class Comparer {
public:
    int result = 0;
    EqualPairs &seen;

    explicit Comparer(EqualPairs &s) : seen(s) {}

    void operator()(const Expr &a, const Expr &b) {
        if (!result) result = compare_nodes(a.get(), b.get(), seen);
    }
    void operator()(const Stmt &a, const Stmt &b) {
        if (!result) result = compare_nodes(a.get(), b.get(), seen);
    }
    void operator()(double a, double b) {
        // By bit pattern: a total order in which NaN equals itself.
        uint64_t x, y;
        std::memcpy(&x, &a, 8);
        std::memcpy(&y, &b, 8);
        (*this)(x, y);
    }
    void operator()(const Type &a, const Type &b) {
        if (!result) result = three_way(a, b);
    }
    void operator()(const Range &a, const Range &b) {
        (*this)(a.min, b.min);
        (*this)(a.extent, b.extent);
    }
    template <typename T>
    void operator()(const std::vector<T> &a, const std::vector<T> &b) {
        if (result) return;
        if (a.size() != b.size()) {
            result = a.size() < b.size() ? -1 : 1;
            return;
        }
        for (size_t i = 0; i < a.size() && !result; i++) (*this)(a[i], b[i]);
    }
    // Integers, enums and strings.
    template <typename T>
    void operator()(const T &a, const T &b) {
        if (!result) result = three_way(a, b);
    }
};

int compare_nodes(const IRNode *a, const IRNode *b, EqualPairs &seen) {
    if (a == b) return 0;
    if (!a) return -1;
    if (!b) return 1;
    if (a->node_type != b->node_type) return a->node_type < b->node_type ? -1 : 1;
    bool shared = a->ref_count.load(std::memory_order_relaxed) > 1 &&
                  b->ref_count.load(std::memory_order_relaxed) > 1;
    if (shared && seen.count({a, b})) return 0;
    if (is_expr_node(a->node_type)) {
        int c = three_way(static_cast<const BaseExprNode *>(a)->type,
                          static_cast<const BaseExprNode *>(b)->type);
        if (c) return c;
    }
    Comparer cmp(seen);
    switch (a->node_type) {
#define LOOM_IR_EXPR(N)                                                                            \
    case IRNodeType::N:                                                                            \
        fields(static_cast<const N *>(a), static_cast<const N *>(b), cmp);                         \
        break;
#define LOOM_IR_STMT(N) LOOM_IR_EXPR(N)
#include "ir/ir_node_list.h"
#undef LOOM_IR_EXPR
#undef LOOM_IR_STMT
    }
    if (shared && cmp.result == 0) seen.insert({a, b});
    return cmp.result;
}

int compare_roots(const IRNode *a, const IRNode *b) {
    EqualPairs seen;
    return compare_nodes(a, b, seen);
}

uint64_t mix(uint64_t h, uint64_t v) {
    // A 64-bit mixing step (from splitmix64), combined order-dependently.
    v += 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ULL;
    v = (v ^ (v >> 27)) * 0x94d049bb133111ebULL;
    return h ^ (v ^ (v >> 31));
}

/// Hashes the first field of each pair. Nodes shared within the tree (referenced more than
/// once) are hashed once, so hashing a DAG with much sharing stays linear.
class Hasher {
public:
    uint64_t h = 0;
    std::unordered_map<const IRNode *, uint64_t> *memo;
    bool memo_all; ///< remember every node, not only shared ones (a memo kept across calls)

    Hasher(std::unordered_map<const IRNode *, uint64_t> *m, bool all = false)
        : memo(m), memo_all(all) {}

    void operator()(const Expr &a, const Expr &) { h = mix(h, hash_node(a.get())); }
    void operator()(const Stmt &a, const Stmt &) { h = mix(h, hash_node(a.get())); }
    void operator()(double a, double) {
        uint64_t x;
        std::memcpy(&x, &a, 8);
        h = mix(h, x);
    }
    void operator()(const std::string &a, const std::string &) {
        h = mix(h, std::hash<std::string>()(a));
    }
    void operator()(const Type &a, const Type &) {
        h = mix(h, (uint64_t)a.code() | ((uint64_t)a.bits() << 8) | ((uint64_t)a.lanes() << 16));
    }
    void operator()(const Range &a, const Range &b) {
        (*this)(a.min, b.min);
        (*this)(a.extent, b.extent);
    }
    template <typename T>
    void operator()(const std::vector<T> &a, const std::vector<T> &) {
        h = mix(h, a.size());
        for (const T &x : a) (*this)(x, x);
    }
    // Integers and enums.
    template <typename T>
    void operator()(const T &a, const T &) {
        h = mix(h, (uint64_t)a);
    }

    uint64_t hash_node(const IRNode *n) {
        if (!n) return 0x5bd1e995;
        bool shared = memo_all || n->ref_count.load(std::memory_order_relaxed) > 1;
        if (shared) {
            auto it = memo->find(n);
            if (it != memo->end()) return it->second;
        }
        Hasher sub(memo, memo_all);
        sub.h = mix(0, (uint64_t)n->node_type + 1);
        if (is_expr_node(n->node_type)) {
            const Type &t = static_cast<const BaseExprNode *>(n)->type;
            sub(t, t);
        }
        switch (n->node_type) {
#define LOOM_IR_EXPR(N)                                                                            \
    case IRNodeType::N:                                                                            \
        fields(static_cast<const N *>(n), static_cast<const N *>(n), sub);                         \
        break;
#define LOOM_IR_STMT(N) LOOM_IR_EXPR(N)
#include "ir/ir_node_list.h"
#undef LOOM_IR_EXPR
#undef LOOM_IR_STMT
        }
        if (shared) (*memo)[n] = sub.h;
        return sub.h;
    }
};

} // namespace

bool equal(const Expr &a, const Expr &b) { return compare_roots(a.get(), b.get()) == 0; }
bool equal(const Stmt &a, const Stmt &b) { return compare_roots(a.get(), b.get()) == 0; }

int deep_compare(const Expr &a, const Expr &b) { return compare_roots(a.get(), b.get()); }
int deep_compare(const Stmt &a, const Stmt &b) { return compare_roots(a.get(), b.get()); }

uint64_t hash_expr(const Expr &e) {
    std::unordered_map<const IRNode *, uint64_t> memo;
    return Hasher(&memo).hash_node(e.get());
}

uint64_t hash_expr(const Expr &e, std::unordered_map<const IRNode *, uint64_t> &memo) {
    return Hasher(&memo, true).hash_node(e.get());
}

uint64_t hash_stmt(const Stmt &s) {
    std::unordered_map<const IRNode *, uint64_t> memo;
    return Hasher(&memo).hash_node(s.get());
}

} // namespace internal
} // namespace loom
