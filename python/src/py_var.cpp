// Bindings of <loom/var.h>: Var and the implicit Vars `_`, `_0` ... `_9`.
#include "py_util.h"

namespace loom {
namespace python {

void define_var(nb::module_ &m) {
    nb::class_<Var> var(m, "Var", "A pure variable: the name of one dimension of a Func.");
    var.def(nb::init<>())
        .def(nb::init<const std::string &>(), nb::arg("name"))
        .def("name", &Var::name)
        .def("same_as", &Var::same_as, nb::arg("other"))
        .def("is_implicit", nb::overload_cast<>(&Var::is_implicit, nb::const_))
        .def("implicit_index", nb::overload_cast<>(&Var::implicit_index, nb::const_))
        .def("is_placeholder", nb::overload_cast<>(&Var::is_placeholder, nb::const_))
        .def_static("implicit", &Var::implicit, nb::arg("n"))
        .def_static("outermost", &Var::outermost)
        .def("__str__", &Var::name)
        .def("__repr__", [](const Var &v) { return "<loom.Var '" + v.name() + "'>"; });
    add_expr_operators(var);
    nb::implicitly_convertible<Var, Expr>();

    m.attr("_") = _;
    const Var *implicit[] = {&_0, &_1, &_2, &_3, &_4, &_5, &_6, &_7, &_8, &_9};
    for (int i = 0; i < 10; i++) m.attr(("_" + std::to_string(i)).c_str()) = *implicit[i];
}

} // namespace python
} // namespace loom
