#ifndef LOOM_IR_IR_EQUALITY_H
#define LOOM_IR_IR_EQUALITY_H

/// \file Structural equality, ordering and hashing of IR. Two trees are equal when they have
/// the same node kinds, types, names, constants and children, whatever their identity
/// (`same_as` is identity). Parameter, ReductionDomain and Function handles are not compared:
/// inside the IR a name identifies them (as in Halide). Float constants compare by bit pattern,
/// so NaN equals NaN and 0.0 differs from -0.0. Undefined handles are equal to each other and
/// order before every defined one. The fields compared per node kind are listed once, in
/// ir_equality.cpp, driven by ir_node_list.h. Tests: tests/unit/ir/ir_equality_test.cpp.

#include "ir/ir.h"

#include <cstdint>
#include <unordered_map>

namespace loom {
namespace internal {

/// Structural equality.
bool equal(const Expr &a, const Expr &b);
bool equal(const Stmt &a, const Stmt &b);

/// A total order consistent with equal(): negative, zero or positive.
int deep_compare(const Expr &a, const Expr &b);
int deep_compare(const Stmt &a, const Stmt &b);

/// A hash consistent with equal() (equal trees hash equal), stable within one process run.
uint64_t hash_expr(const Expr &e);
uint64_t hash_stmt(const Stmt &s);

/// Structural ordering of Exprs, for std::map/std::set keys.
struct IRDeepCompare {
    bool operator()(const Expr &a, const Expr &b) const { return deep_compare(a, b) < 0; }
    bool operator()(const Stmt &a, const Stmt &b) const { return deep_compare(a, b) < 0; }
};

/// Structural hash and equality functors, for std::unordered_map keys.
/// hash_expr with a memo that outlives the call: every node hashed is remembered by address,
/// so hashing each subexpression of one tree in turn (CSE's table) costs linear time overall
/// instead of the sum of all subtree sizes. The nodes must stay alive while `memo` is used.
uint64_t hash_expr(const Expr &e, std::unordered_map<const IRNode *, uint64_t> &memo);

struct IRDeepHash {
    size_t operator()(const Expr &e) const { return (size_t)hash_expr(e); }
};
struct IRDeepEqual {
    bool operator()(const Expr &a, const Expr &b) const { return equal(a, b); }
};

} // namespace internal
} // namespace loom

#endif
