#ifndef LOOM_SIMPLIFY_SIMPLIFY_H
#define LOOM_SIMPLIFY_SIMPLIFY_H

/// \file The simplifier: constant folding, canonical forms and algebraic rewrites of Exprs and
/// Stmts, never changing a result (DESIGN.md §4: Euclidean division, x / 0 == 0, wrap-around
/// for every integer type but Int(32), whose overflow is assumed not to happen; float
/// arithmetic is never reassociated). The rules live in one file per operator family
/// (simplify_add_sub.cpp, ...); tests/unit/simplify shows examples of each and checks them
/// against an independent evaluator on random expressions.
///
/// Canonical forms the simplifier establishes (other passes may rely on them):
///  - constants are on the right of commutative operators: (x + 3), min(x, 3), (x == 3);
///  - integer subtraction of a constant becomes addition: (x - 3) -> (x + -3);
///  - constant terms are gathered outermost: ((x + y) + 7);
///  - a > b and a >= b become b < a and b <= a;
///  - no-op statements are removed; an empty result is Evaluate(0) (see is_no_op).

#include "arith/constant_interval.h"
#include "arith/modulus_remainder.h"
#include "ir/ir.h"

#include <map>
#include <string>

namespace loom {
namespace internal {

/// Simplify an expression. `bounds` and `alignment` give facts about named Variables (e.g. loop
/// variables or parameters) that rules may use.
Expr simplify(const Expr &e, const std::map<std::string, ConstantInterval> &bounds = {},
              const std::map<std::string, ModulusRemainder> &alignment = {});

/// Simplify a statement: the expressions in it, plus removal of dead loops, branches, lets and
/// asserts, using loop ranges and branch conditions as facts in the bodies.
Stmt simplify(const Stmt &s, const std::map<std::string, ConstantInterval> &bounds = {},
              const std::map<std::string, ModulusRemainder> &alignment = {});

/// True when the simplifier proves the (scalar or vector) boolean `cond` always true. False
/// means "could not prove", not "false".
bool can_prove(const Expr &cond, const std::map<std::string, ConstantInterval> &bounds = {});

/// True for the statements the simplifier considers empty: undefined, or Evaluate of a
/// constant.
bool is_no_op(const Stmt &s);

} // namespace internal
} // namespace loom

#endif
