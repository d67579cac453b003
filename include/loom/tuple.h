#ifndef LOOM_TUPLE_H
#define LOOM_TUPLE_H

/// \file Tuple: several Exprs defining or read from a multi-valued Func (Halide's Tuple).

#include <loom/expr.h>

#include <cstddef>
#include <utility>
#include <vector>

namespace loom {

class FuncRef;

/// An ordered list of Exprs: the values of a Tuple-valued Func. `f(x) = {a, b}` and
/// `f(x) = Tuple(a, b)` both define f with two values.
class Tuple {
public:
    /// A one-element Tuple.
    explicit Tuple(const Expr &e) : exprs{e} {}
    /// A Tuple of two or more elements (also what a brace list `{a, b, ...}` builds).
    template <typename... Args>
    Tuple(const Expr &a, const Expr &b, Args &&...rest)
        : exprs{a, b, Expr(std::forward<Args>(rest))...} {}
    /// A Tuple of the given elements (at least one; an empty list is a CompileError).
    explicit Tuple(const std::vector<Expr> &e);
    /// All the values of a call to a Func: Tuple(f(x)) has f.outputs() elements. Implicit, as
    /// in Halide: `Tuple t = f(x);`.
    Tuple(const FuncRef &f);

    /// The number of elements.
    size_t size() const { return exprs.size(); }
    /// Element i (a CompileError when out of range).
    Expr &operator[](size_t i);
    Expr operator[](size_t i) const;
    /// The elements.
    const std::vector<Expr> &as_vector() const { return exprs; }

private:
    std::vector<Expr> exprs;
};

} // namespace loom

#endif
