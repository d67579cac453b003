#ifndef LOOM_SIMPLIFY_CSE_H
#define LOOM_SIMPLIFY_CSE_H

/// \file Common-subexpression elimination (Halide's CSE semantics).
/// Within one expression, every non-trivial subexpression that occurs more than once
/// (structurally equal, ir_equality.h) is computed once into a Let ("cse.t<n>") wrapped around
/// the expression; its uses become Variables. Lets are nested so that each value only uses
/// the ones outside it.
/// Not lifted:
///  - Variables and constants, and expressions too cheap to be worth a name: a Broadcast or
///    Cast of such a thing, an Add/Sub/Mul with a constant operand (x + 1), and any Ramp
///    with a constant stride (code generation recognizes dense and strided accesses by their
///    Ramp index; the ramp's base is lifted when it repeats);
///  - anything containing a Call with side effects (two random() calls, an extern call
///    that is not pure): each occurrence must run;
///  - anything inside a lazily evaluated branch (if_then_else's value arguments) or a Let's
///    value or body: these are eliminated separately, inside the branch, value or body, so
///    nothing is evaluated where it was not before and no Let-bound name escapes its scope.
/// The Stmt version applies the Expr version to every Expr of the Stmt separately.
/// Tests: tests/unit/lower/cse_test.cpp.

#include "ir/ir.h"

namespace loom {
namespace internal {

/// e with repeated subexpressions lifted into Lets.
Expr common_subexpression_elimination(const Expr &e);
/// Every Expr of s with its repeated subexpressions lifted into Lets.
Stmt common_subexpression_elimination(const Stmt &s);

} // namespace internal
} // namespace loom

#endif
