#ifndef LOOM_TUPLE_H
#define LOOM_TUPLE_H

/// \file Tuple: several Exprs defining or read from a multi-valued Func (Halide's Tuple).

#include <loom/expr.h>

#include <cstddef>
#include <initializer_list>
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

/// Element-wise select of Tuples of one size: element i is select(condition[i], true_value[i],
/// false_value[i]).
Tuple select(const Tuple &condition, const Tuple &true_value, const Tuple &false_value);
/// Element-wise select of Tuples under one condition.
Tuple select(const Expr &condition, const Tuple &true_value, const Tuple &false_value);
/// Multiway Tuple select: the value of the first true condition, else the last value.
template <typename... Args>
Tuple select(const Tuple &c0, const Tuple &v0, const Tuple &c1, const Tuple &v1, Args &&...rest) {
    return select(c0, v0, select(c1, v1, std::forward<Args>(rest)...));
}
template <typename... Args>
Tuple select(const Expr &c0, const Tuple &v0, const Expr &c1, const Tuple &v1, Args &&...rest) {
    return select(c0, v0, select(c1, v1, std::forward<Args>(rest)...));
}

/// mux over the elements of a Tuple: values[index], the last element when out of range.
Expr mux(const Expr &index, const Tuple &values);
/// Element-wise mux of Tuples of one size.
Tuple mux(const Expr &index, const std::initializer_list<Tuple> &values);
Tuple mux(const Expr &index, const std::vector<Tuple> &values);

} // namespace loom

#endif
