#ifndef LOOM_IR_IR_UTILS_H
#define LOOM_IR_IR_UTILS_H

/// \file Small queries on IR used by every pass: constants, variable uses, purity, and the
/// lossless cast. Tests: tests/unit/ir/ir_utils_test.cpp.

#include "ir/ir.h"

#include <set>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// Whether `e` mentions the Variable `name` free (uses inside a Let/LetStmt/For body that
/// rebinds `name` do not count).
bool expr_uses_var(const Expr &e, const std::string &name);
bool stmt_uses_var(const Stmt &s, const std::string &name);
/// Whether `e` mentions any of `names` free.
bool expr_uses_vars(const Expr &e, const std::set<std::string> &names);
bool stmt_uses_vars(const Stmt &s, const std::set<std::string> &names);
/// Every Variable name and every Load/Store buffer name in `s`, bound inside it or not (what a
/// statement moved elsewhere must take along).
std::set<std::string> names_referenced(const Stmt &s);
/// Whether e has more than `limit` nodes, counting shared nodes at each use (the walk stops
/// there): how passes decide an expression is too large to copy or expand.
bool expr_larger_than(const Expr &e, int limit);
/// The statements of a nest of Blocks, in order (undefined ones left out).
std::vector<Stmt> flatten_blocks(const Stmt &s);

/// Whether `e` is a constant: an Int/UInt/Float/String immediate, or a broadcast of one.
bool is_const(const Expr &e);
/// Whether `e` is a numeric constant (or broadcast of one) equal to `v`.
bool is_const(const Expr &e, int64_t v);
/// The value of an IntImm (or broadcast of one); null otherwise.
const int64_t *as_const_int(const Expr &e);
/// The value of a UIntImm (or broadcast of one); null otherwise. Bools are UIntImms.
const uint64_t *as_const_uint(const Expr &e);
/// The value of a FloatImm (or broadcast of one); null otherwise.
const double *as_const_float(const Expr &e);
// The pointers above point into e's node: from a temporary (as_const_int(simplify(x))) they
// would dangle once the temporary dies, so name the Expr first.
const int64_t *as_const_int(Expr &&) = delete;
const uint64_t *as_const_uint(Expr &&) = delete;
const double *as_const_float(Expr &&) = delete;
/// Constant zero / one of any numeric type (or broadcast); is_const_one is also `true`.
bool is_const_zero(const Expr &e);
bool is_const_one(const Expr &e);
/// The bool constants (or broadcasts of them).
bool is_const_true(const Expr &e);
bool is_const_false(const Expr &e);
/// A numeric constant (or broadcast) greater / less than zero.
bool is_positive_const(const Expr &e);
bool is_negative_const(const Expr &e);
/// An integer constant 2^k with k >= 0; sets *bits = k.
bool is_const_power_of_two_integer(const Expr &e, int *bits);

/// Whether evaluating `e` has no side effects and its value depends only on its variables:
/// no impure calls and no loads from internal (mutable) allocations. Loads from input buffers
/// (a Load with a Parameter) and calls to Funcs and images are pure.
bool is_pure(const Expr &e);

/// `e` converted to `t` when that provably loses no information (constants that fit, widening
/// casts, broadcasts of those); an undefined Expr otherwise. Lane counts must match.
Expr lossless_cast(Type t, const Expr &e);

} // namespace internal
} // namespace loom

#endif
