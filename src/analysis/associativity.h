#ifndef LOOM_ANALYSIS_ASSOCIATIVITY_H
#define LOOM_ANALYSIS_ASSOCIATIVITY_H

/// \file The associativity prover: decides whether an update definition
/// `f(args) = values` (values may read f(args)) combines the old value of f with a new
/// contribution through an associative binary operator. rfactor uses the binary form and its
/// identity to build partial results; atomic() uses the operator kind to pick hardware atomics.
///
/// Recognized, per Tuple element i (x_i is f(args)[i], g does not read f):
///   x_i + g, x_i * g, min(x_i, g), max(x_i, g), x_i && g, x_i || g, bitwise and/or/xor,
///   either operand order; integer forms through a widening cast of x_i and a narrowing cast
///   back (cast<T>(cast<W>(x_i) + g) is x_i + cast<T>(g) in wrap-around arithmetic);
///   an element left unchanged (x_i).
/// and the two-element argmin/argmax form
///   {min(x_0, g), select(g < x_0, h, x_1)} (or <=, >, max, and the mirrored select).
/// Float + and * are treated as associative, as Halide does (the result may differ by rounding).

#include <loom/expr.h>

#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The operator applied to one Tuple element.
enum class AssociativeOpKind {
    Add,
    Mul,
    Min,
    Max,
    And,
    Or,
    BitAnd,
    BitOr,
    BitXor,
    Unchanged,
    ArgMinIndex,
    ArgMaxIndex
};

/// The result of prove_associativity.
struct AssociativeOp {
    bool associative = false;
    /// Why not, for error messages (empty when associative).
    std::string reason;
    /// Per element: the binary operator as an Expr over Variables named x_names[j] (the
    /// accumulated value) and y_names[j] (a contribution), of f's value types.
    std::vector<Expr> pattern;
    std::vector<std::string> x_names, y_names;
    /// Per element: the contribution of this update (the `g` above), in the definition's terms.
    std::vector<Expr> ys;
    /// Per element: the identity of the operator (pattern(identity, y) == y).
    std::vector<Expr> identities;
    /// Per element: which operator it is.
    std::vector<AssociativeOpKind> kinds;
};

/// Proves `func(args) = values` associative (see the file comment). Calls to `func` in the
/// values must be at exactly `args`; any other read of func makes it not associative.
AssociativeOp prove_associativity(const std::string &func, const std::vector<Expr> &args,
                                  const std::vector<Expr> &values);

/// The name of a kind ("+", "min", "argmin index", ...), for messages.
const char *associative_op_kind_name(AssociativeOpKind k);

} // namespace internal
} // namespace loom

#endif
