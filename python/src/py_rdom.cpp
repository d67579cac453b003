// Bindings of <loom/rdom.h>: RVar and RDom.
#include "py_util.h"

#include <sstream>

namespace loom {
namespace python {

namespace {

template <typename T>
std::string printed(const T &v) {
    std::ostringstream os;
    os << v;
    return os.str();
}

} // namespace

void define_rdom(nb::module_ &m) {
    nb::class_<RVar> rvar(m, "RVar", "One dimension of a reduction domain.");
    rvar.def(nb::init<>())
        .def(nb::init<const std::string &>(), nb::arg("name"))
        // A one-dimensional RDom stands for its RVar (the implicit conversion below uses it).
        .def(
            "__init__", [](RVar *self, const RDom &r) { new (self) RVar(r); }, nb::arg("rdom"))
        .def("min", &RVar::min)
        .def("extent", &RVar::extent)
        .def("name", &RVar::name)
        .def("__str__", &RVar::name)
        .def("__repr__", [](const RVar &v) { return "<loom.RVar " + printed(v) + ">"; });
    add_expr_operators(rvar);
    nb::implicitly_convertible<RVar, Expr>();

    nb::class_<RDom> rdom(m, "RDom",
                          "A reduction domain: RDom([Range(0, w), Range(0, h)], name) or "
                          "RDom(buffer), RDom(image_param).");
    rdom.def(nb::init<>())
        .def(nb::init<const Region &, std::string>(), nb::arg("region"), nb::arg("name") = "")
        .def(nb::init<const Buffer<void> &>(), nb::arg("buffer"))
        .def(nb::init<const OutputImageParam &>(), nb::arg("image_param"))
        .def("defined", &RDom::defined)
        .def("same_as", &RDom::same_as, nb::arg("other"))
        .def("dimensions", &RDom::dimensions)
        .def("__len__", &RDom::dimensions)
        .def("__getitem__", &RDom::operator[], nb::arg("index"))
        .def("where", &RDom::where, nb::arg("predicate"))
        .def_ro("x", &RDom::x)
        .def_ro("y", &RDom::y)
        .def_ro("z", &RDom::z)
        .def_ro("w", &RDom::w)
        .def("__repr__", [](const RDom &r) { return "<loom.RDom " + printed(r) + ">"; });
    add_expr_operators(rdom);
    nb::implicitly_convertible<RDom, Expr>();
    nb::implicitly_convertible<RDom, RVar>();
}

} // namespace python
} // namespace loom
