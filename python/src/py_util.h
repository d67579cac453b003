#ifndef LOOM_PYTHON_PY_UTIL_H
#define LOOM_PYTHON_PY_UTIL_H

/// \file What every binding file shares: the conversion of Python values to Exprs with Halide's
/// rules for Python numbers, the operator set of every Expr-like class, and the declarations of
/// the per-header `define_*` functions that loom_module.cpp calls in order.
///
/// Python numbers follow Halide 21's Python bindings (checked against the wheel):
///   - an int that fits in 32 bits meets an Expr as a C++ `int` does (`u8 + 3` is uint8; `u8 +
///     300` is a CompileError: the constant would change value), a larger one is an int64 Expr;
///   - a float is a float32 Expr (a RuntimeWarning when that loses precision; wrap it in f64()
///     to keep it), so `u8 + 1.5` is float32;
///   - a bool in arithmetic is the int 0 or 1; `Expr(True)` alone is a bool Expr.

#include <loom/loom.h>

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

namespace loom {
namespace python {

namespace nb = nanobind;

/// A Python int, float or bool (numpy scalars included), as opposed to an Expr-like object.
bool is_python_number(nb::handle h);
/// A Python number alone as an Expr: int32 or int64 for an int, float32 for a float (with
/// Halide's precision warning), bool for a bool.
Expr number_to_expr(nb::handle h);
/// Whether h converts to an Expr (a number, or an object of an Expr-like class).
bool is_expr_like(nb::handle h);
/// h as an Expr; a TypeError naming the type when it is not Expr-like.
Expr to_expr(nb::handle h);
/// A list or tuple (or one object) of Expr-likes as Exprs.
std::vector<Expr> to_exprs(nb::handle h);
/// The coordinates of `f[key]` (one object or a tuple/list of them) as a call of `callee`
/// (a Func or ImageParam): with Vars only, the pure form (which expands the placeholder `_`);
/// else with Exprs.
template <typename Callee>
auto call_with_key(const Callee &callee, nb::handle key) {
    std::vector<nb::handle> items;
    if (nb::isinstance<nb::tuple>(key) || nb::isinstance<nb::list>(key)) {
        for (nb::handle h : key) items.push_back(h);
    } else {
        items.push_back(key);
    }
    std::vector<Var> vars;
    for (nb::handle h : items) {
        Var *v = nullptr;
        if (!nb::try_cast<Var *>(h, v) || !v) break;
        vars.push_back(*v);
    }
    if (vars.size() == items.size()) return callee(vars);
    std::vector<Expr> args;
    for (nb::handle h : items) args.push_back(to_expr(h));
    return callee(args);
}
/// h as a VarOrRVar (Var, RVar, or a one-dimensional RDom).
VarOrRVar to_var_or_rvar(nb::handle h);
/// A list or tuple of Ranges or (min, extent) pairs as a Region; None is an undefined Range
/// (unbounded in that dimension).
Region to_region(nb::handle h);

/// Whether h is a Tuple or a Python tuple or list (the forms a Tuple value takes).
bool is_tuple_like(nb::handle h);
/// h as a Tuple: a Tuple, a FuncRef (all its values), or a tuple/list of Expr-likes.
Tuple to_tuple(nb::handle h);
/// The elements of a Tuple as a Python tuple of Exprs (what Halide's bindings return for a
/// select of Tuples and for argmax/argmin).
nb::tuple tuple_to_python(const Tuple &t);

/// `a op b` (or `b op a` when reversed) with b a Python object, following the rules above:
/// the C++ `(Expr, int)` overloads for 32-bit ints, Exprs otherwise. Returns NotImplemented
/// when b is not Expr-like, so Python tries the other operand.
template <typename Op>
nb::object binary_op(const Expr &a, nb::handle b, bool reversed, Op op) {
    if (!is_expr_like(b)) return nb::borrow(Py_NotImplemented);
    // NumPy integer scalars count as ints, as in Halide's bindings (np.int16(3) has __index__).
    bool integral = nb::isinstance<nb::int_>(b) || nb::isinstance<nb::bool_>(b) ||
                    (!nb::isinstance<nb::float_>(b) && nb::hasattr(b, "__index__"));
    if (long long v;
        integral && nb::try_cast<long long>(nb::int_(b), v) && v >= INT32_MIN && v <= INT32_MAX) {
        return nb::cast(reversed ? op((int)v, a) : op(a, (int)v));
    }
    Expr e = to_expr(b);
    return nb::cast(reversed ? op(e, a) : op(a, e));
}

/// Adds Python's arithmetic, comparison and bitwise operators to an Expr-like class (Expr,
/// Var, RVar, RDom, FuncRef, Param, ...), each converting self to an Expr first. `/` is
/// Halide's division (integer division rounding down for ints); `//` is the same for ints and
/// floor(a / b) for floats; `**` by a Python int is repeated multiplication, else pow().
template <typename Class>
void add_expr_operators(nb::class_<Class> &cls);

/// Python's view of an Expr-like object: `str(e)` and `repr(e)` as Halide's bindings print
/// them.
std::string expr_repr(const Expr &e);

// The binding files, one per public header, in the order loom_module.cpp calls them (a class
// must be registered before signatures that mention it are used).
void define_error(nb::module_ &m);
void define_type(nb::module_ &m);
void define_expr(nb::module_ &m);
void define_var(nb::module_ &m);
void define_rdom(nb::module_ &m);
void define_tuple(nb::module_ &m);
void define_target(nb::module_ &m);
void define_buffer(nb::module_ &m);
void define_parameter(nb::module_ &m);
void define_param(nb::module_ &m);
void define_image_param(nb::module_ &m);
void define_extern(nb::module_ &m);
void define_schedule(nb::module_ &m);
void define_func(nb::module_ &m);
void define_ir_operator(nb::module_ &m);
void define_concise_casts(nb::module_ &m);
void define_inline_reductions(nb::module_ &m);
void define_boundary_conditions(nb::module_ &m);
void define_lambda(nb::module_ &m);
void define_argument(nb::module_ &m);
void define_realization(nb::module_ &m);
void define_pipeline(nb::module_ &m);
void define_pipeline_fusion(nb::module_ &m);
void define_scratchpad(nb::module_ &m);
void define_callable(nb::module_ &m);
void define_module(nb::module_ &m);
void define_autoscheduler(nb::module_ &m);
void define_serialization(nb::module_ &m);
void define_derivative(nb::module_ &m);

} // namespace python
} // namespace loom

#include "py_operators.h"

#endif
