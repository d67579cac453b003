#ifndef LOOM_PYTHON_PY_OPERATORS_H
#define LOOM_PYTHON_PY_OPERATORS_H

/// \file The definition of add_expr_operators (declared in py_util.h): templated on the class,
/// so it lives in a header that only binding files include.

#include "py_util.h"

namespace loom {
namespace python {

/// `a ** n` for a Python int n, as Halide's bindings do it: repeated multiplication in a's
/// type, and 1 / a**-n for a negative n.
Expr integer_power(const Expr &a, long long n);
/// `a // b` from the quotient q = a / b: q for integers, floor(q) (in q's type) for floats.
Expr floor_quotient(const Expr &q);
/// `a & b` and `a | b` with b a Python object: && and || when both are bools, bitwise
/// otherwise; NotImplemented when b is not Expr-like.
nb::object and_op(const Expr &a, nb::handle b, bool reversed);
nb::object or_op(const Expr &a, nb::handle b, bool reversed);

template <typename Class>
void add_expr_operators(nb::class_<Class> &cls) {
    auto self = [](const Class &c) { return Expr(c); };
#define LOOM_PY_BINARY(py_name, py_rname, expr)                                                    \
    cls.def(                                                                                       \
        py_name,                                                                                   \
        [self](const Class &c, nb::handle o) {                                                     \
            return binary_op(self(c), o, false, [](auto a, auto b) { return expr; });              \
        },                                                                                         \
        nb::is_operator());                                                                        \
    cls.def(                                                                                       \
        py_rname,                                                                                  \
        [self](const Class &c, nb::handle o) {                                                     \
            return binary_op(self(c), o, true, [](auto a, auto b) { return expr; });               \
        },                                                                                         \
        nb::is_operator());
    LOOM_PY_BINARY("__add__", "__radd__", a + b)
    LOOM_PY_BINARY("__sub__", "__rsub__", a - b)
    LOOM_PY_BINARY("__mul__", "__rmul__", a * b)
    LOOM_PY_BINARY("__truediv__", "__rtruediv__", a / b)
    LOOM_PY_BINARY("__mod__", "__rmod__", a % b)
    LOOM_PY_BINARY("__floordiv__", "__rfloordiv__", floor_quotient(a / b))
    LOOM_PY_BINARY("__xor__", "__rxor__", a ^ b)
    // A shifted int literal is an int32 Expr (1 << u8 is int32), a shift amount takes the
    // shifted value's type (u8 << 1 is uint8), as in Halide's bindings.
    LOOM_PY_BINARY("__lshift__", "__rlshift__", Expr(a) << b)
    LOOM_PY_BINARY("__rshift__", "__rrshift__", Expr(a) >> b)
#undef LOOM_PY_BINARY
    // & and | are logical on bools (a Python bool is then a bool Expr), bitwise otherwise.
#define LOOM_PY_LOGIC(py_name, py_rname, fn)                                                       \
    cls.def(                                                                                       \
        py_name, [self](const Class &c, nb::handle o) { return fn(self(c), o, false); },           \
        nb::is_operator());                                                                        \
    cls.def(                                                                                       \
        py_rname, [self](const Class &c, nb::handle o) { return fn(self(c), o, true); },           \
        nb::is_operator());
    LOOM_PY_LOGIC("__and__", "__rand__", and_op)
    LOOM_PY_LOGIC("__or__", "__ror__", or_op)
#undef LOOM_PY_LOGIC
    // Comparisons have no reflected forms: Python swaps them itself (a < b is b > a).
#define LOOM_PY_COMPARE(py_name, expr)                                                             \
    cls.def(                                                                                       \
        py_name,                                                                                   \
        [self](const Class &c, nb::handle o) {                                                     \
            return binary_op(self(c), o, false, [](auto a, auto b) { return expr; });              \
        },                                                                                         \
        nb::is_operator());
    LOOM_PY_COMPARE("__lt__", a < b)
    LOOM_PY_COMPARE("__le__", a <= b)
    LOOM_PY_COMPARE("__gt__", a > b)
    LOOM_PY_COMPARE("__ge__", a >= b)
    LOOM_PY_COMPARE("__eq__", a == b)
    LOOM_PY_COMPARE("__ne__", a != b)
#undef LOOM_PY_COMPARE
    cls.def(
        "__pow__",
        [self](const Class &c, nb::handle o) -> nb::object {
            if (nb::isinstance<nb::int_>(o) && !nb::isinstance<nb::bool_>(o)) {
                return nb::cast(integer_power(self(c), nb::cast<long long>(o)));
            }
            return binary_op(self(c), o, false,
                             [](auto a, auto b) { return pow(Expr(a), Expr(b)); });
        },
        nb::is_operator());
    cls.def(
        "__rpow__",
        [self](const Class &c, nb::handle o) {
            return binary_op(self(c), o, true,
                             [](auto a, auto b) { return pow(Expr(a), Expr(b)); });
        },
        nb::is_operator());
    cls.def("__neg__", [self](const Class &c) { return -self(c); });
    cls.def("__pos__", [self](const Class &c) { return self(c); });
    cls.def("__invert__", [self](const Class &c) { return ~self(c); });
    cls.def("__bool__", [self](const Class &c) -> bool {
        throw nb::value_error(("The loom.Expr (" + expr_repr(self(c)) +
                               ") cannot be converted to a bool. If this error occurs using the "
                               "'and'/'or' keywords, consider using the '&'/'|' operators "
                               "instead.")
                                  .c_str());
    });
    // Defining __eq__ removes the inherited hash: an Expr-like is not a dictionary key (== builds
    // an Expr), as in Halide's bindings.
    cls.attr("__hash__") = nb::none();
}

} // namespace python
} // namespace loom

#endif
