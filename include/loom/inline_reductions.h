#ifndef LOOM_INLINE_REDUCTIONS_H
#define LOOM_INLINE_REDUCTIONS_H

/// \file Inline reductions (Halide's sum, product, maximum, minimum, argmax, argmin): each
/// reduces an expression over a reduction domain and returns a call to an anonymous Func that
/// holds the reduction. The domain is the given RDom, or else the one whose RVars appear in
/// the expression; the other free Vars of the expression become the Func's pure arguments, so
/// `f(x) = sum(g(x, r))` reduces over r separately for each x.

#include <loom/expr.h>
#include <loom/rdom.h>
#include <loom/tuple.h>

#include <string>

namespace loom {

class Func;

/// The sum of `e` over the RDom it uses (computed in e's type, so narrow types wrap).
Expr sum(Expr e, const std::string &name = "sum");
/// The sum of `e` over the RDom it uses, clamping to e's type's range at each step instead of
/// wrapping.
Expr saturating_sum(Expr e, const std::string &name = "saturating_sum");
/// The product of `e` over the RDom it uses.
Expr product(Expr e, const std::string &name = "product");
/// The largest value of `e` over the RDom it uses (e's type's lowest value, -inf for floats,
/// when the domain is empty).
Expr maximum(Expr e, const std::string &name = "maximum");
/// The smallest value of `e` over the RDom it uses (the type's highest value, +inf for
/// floats, when the domain is empty).
Expr minimum(Expr e, const std::string &name = "minimum");

/// The same over the explicit domain `r`; RVars of other domains in `e` are free variables.
Expr sum(const RDom &r, Expr e, const std::string &name = "sum");
Expr saturating_sum(const RDom &r, Expr e, const std::string &name = "saturating_sum");
Expr product(const RDom &r, Expr e, const std::string &name = "product");
Expr maximum(const RDom &r, Expr e, const std::string &name = "maximum");
Expr minimum(const RDom &r, Expr e, const std::string &name = "minimum");

/// The coordinates (one per RDom dimension) of the first point where `e` is largest, then the
/// largest value, as a Tuple.
Tuple argmax(Expr e, const std::string &name = "argmax");
/// The coordinates of the first point where `e` is smallest, then the smallest value.
Tuple argmin(Expr e, const std::string &name = "argmin");
Tuple argmax(const RDom &r, Expr e, const std::string &name = "argmax");
Tuple argmin(const RDom &r, Expr e, const std::string &name = "argmin");

/// The same reductions held in the given Func (which must be undefined: the reduction defines
/// it), so that it can be scheduled: Func s; f(x) = sum(g(x, r), s); s.compute_at(f, x).
Expr sum(Expr e, const Func &f);
Expr saturating_sum(Expr e, const Func &f);
Expr product(Expr e, const Func &f);
Expr maximum(Expr e, const Func &f);
Expr minimum(Expr e, const Func &f);
Expr sum(const RDom &r, Expr e, const Func &f);
Expr saturating_sum(const RDom &r, Expr e, const Func &f);
Expr product(const RDom &r, Expr e, const Func &f);
Expr maximum(const RDom &r, Expr e, const Func &f);
Expr minimum(const RDom &r, Expr e, const Func &f);
Tuple argmax(Expr e, const Func &f);
Tuple argmin(Expr e, const Func &f);
Tuple argmax(const RDom &r, Expr e, const Func &f);
Tuple argmin(const RDom &r, Expr e, const Func &f);

} // namespace loom

#endif
