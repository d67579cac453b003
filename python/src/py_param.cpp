// Bindings of <loom/param.h>: Param, a scalar argument of a pipeline whose type is chosen at
// run time (the C++ Param<void>), as Halide's bindings have it: Param(hl.Int(32), "p", 3).
// It is Expr-like: `p + 1` builds an Expr, and it converts to an Expr wherever one is taken.
#include "py_util.h"

namespace loom {
namespace python {

namespace {

/// Calls fn with the Python number h as the C++ value that keeps it exactly: bool, int64 (or
/// uint64 above its range) or double. Param<void>::set checks that the value fits the type.
template <typename Fn>
void with_number(nb::handle h, Fn &&fn) {
    if (!is_python_number(h)) {
        throw nb::type_error(("A Param's value is a number, got " +
                              nb::cast<std::string>(nb::str(h.type().attr("__name__"))))
                                 .c_str());
    }
    if (nb::isinstance<nb::bool_>(h)) return fn(nb::cast<bool>(h));
    if (nb::isinstance<nb::float_>(h) || !nb::hasattr(h, "__index__")) {
        return fn(nb::cast<double>(nb::float_(h)));
    }
    nb::int_ i(h);
    if (int64_t v; nb::try_cast<int64_t>(i, v)) return fn(v);
    if (uint64_t v; nb::try_cast<uint64_t>(i, v)) return fn(v);
    throw nb::value_error(
        ("The integer " + nb::cast<std::string>(nb::str(h)) + " does not fit in 64 bits").c_str());
}

void set_value(Param<> &p, nb::handle value) {
    with_number(value, [&](auto v) { p.set(v); });
}

/// The current value as a Python bool, int or float, following the parameter's type.
nb::object get_value(const Param<> &p) {
    Type t = p.type();
    if (t.is_bool()) return nb::cast(p.get<bool>());
    if (t.is_int()) return nb::cast(p.get<int64_t>());
    if (t.is_uint()) return nb::cast(p.get<uint64_t>());
    if (t.is_float() || t.is_bfloat()) return nb::cast(p.get<double>());
    throw nb::type_error(("The value of Param '" + p.name() + "' of type " + type_to_string(t) +
                          " cannot be read from Python")
                             .c_str());
}

Expr optional_expr(nb::handle h) { return h.is_none() ? Expr() : to_expr(h); }

} // namespace

void define_param(nb::module_ &m) {
    nb::class_<Param<>> param(m, "Param",
                              "A scalar argument of a pipeline: Param(type), Param(type, name), "
                              "Param(type, value) or Param(type, name, value).");
    param.def(nb::init<Type>(), nb::arg("type"))
        .def(nb::init<Type, const std::string &>(), nb::arg("type"), nb::arg("name"))
        .def(
            "__init__",
            [](Param<> *self, Type t, nb::handle value) {
                new (self) Param<>(t);
                set_value(*self, value);
            },
            nb::arg("type"), nb::arg("value"))
        .def(
            "__init__",
            [](Param<> *self, Type t, const std::string &name, nb::handle value) {
                new (self) Param<>(t, name);
                set_value(*self, value);
            },
            nb::arg("type"), nb::arg("name"), nb::arg("value"))
        .def("name", &Param<>::name)
        .def("type", &Param<>::type)
        .def("set", &set_value, nb::arg("value"),
             "Sets the value (a CompileError when it does not fit the type exactly).")
        .def("value", &get_value, "The current value, as a Python number.")
        .def(
            "set_estimate",
            [](Param<> &p, nb::handle value) {
                with_number(value, [&](auto v) { p.set_estimate(v); });
            },
            nb::arg("value"), "The value autoschedulers assume.")
        .def("estimate", &Param<>::estimate, "The estimate (undefined when none).")
        .def(
            "set_range",
            [](Param<> &p, nb::handle min, nb::handle max) {
                p.set_range(optional_expr(min), optional_expr(max));
            },
            nb::arg("min").none(), nb::arg("max").none(),
            "Constrains the value to [min, max] (None leaves a side open).")
        .def(
            "set_min_value",
            [](Param<> &p, nb::handle min) { p.set_min_value(optional_expr(min)); },
            nb::arg("min").none())
        .def(
            "set_max_value",
            [](Param<> &p, nb::handle max) { p.set_max_value(optional_expr(max)); },
            nb::arg("max").none())
        .def("min_value", &Param<>::min_value)
        .def("max_value", &Param<>::max_value)
        .def("parameter", &Param<>::parameter, "The shared state (a Parameter).")
        .def("logical_not", [](const Param<> &p) { return !Expr(p); })
        .def("__repr__", [](const Param<> &p) {
            return "<loom.Param '" + p.name() + "' type " + type_to_string(p.type()) + ">";
        });
    add_expr_operators(param);
    nb::implicitly_convertible<Param<>, Expr>();
}

} // namespace python
} // namespace loom
