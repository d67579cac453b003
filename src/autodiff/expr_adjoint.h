#ifndef LOOM_AUTODIFF_EXPR_ADJOINT_H
#define LOOM_AUTODIFF_EXPR_ADJOINT_H

/// \file Reverse-mode differentiation of one Expr (Li et al. 2018, §4.1: "within each function
/// we perform a similar backpropagation through the expression tree"). The adjoint of the
/// expression's value (a seed) is propagated down to its leaves with the chain rule; what
/// reaches each call to a Func or input buffer, and each scalar float Param, is returned.
/// Integer-typed subexpressions carry no adjoint (indices, conditions, casts to integers), nor do
/// floor/ceil/round/trunc. Lets are substituted first, so a shared value's adjoint is summed over
/// its uses. Example: reverse_accumulate(sin(f(x)) * g(x + 1), s) gives
/// {f(x): s * g(x + 1) * cos(f(x)), g(x + 1): s * sin(f(x))}.
/// Tests: tests/correctness/autodiff_operators.cpp.

#include "ir/ir.h"

#include <string>
#include <vector>

namespace loom {
namespace internal {

/// A call to a Func or input buffer (structurally equal calls merged) and the adjoint that
/// reaches it.
struct CallAdjoint {
    Expr expr;        ///< the call (keeps `call` alive)
    const Call *call; ///< expr as a Call
    Expr adjoint;
};

/// A scalar float Param and the adjoint that reaches it.
struct ParamAdjoint {
    Parameter param;
    Expr adjoint;
};

struct ExprAdjoints {
    std::vector<CallAdjoint> calls;
    std::vector<ParamAdjoint> params;
};

/// The adjoints of the calls and Params of `e` when its value has the adjoint `seed`. `func`
/// names the Func `e` defines, for the CompileError raised by a call without a derivative (an
/// extern C function).
ExprAdjoints reverse_accumulate(const Expr &e, const Expr &seed, const std::string &func);

} // namespace internal
} // namespace loom

#endif
