// Bindings of <loom/tuple.h>: Tuple, and the conversions of Python tuples to Tuples that the
// select, mux, evaluate and definition bindings share (py_util.h).
#include "py_util.h"

namespace loom {
namespace python {

bool is_tuple_like(nb::handle h) {
    return nb::isinstance<Tuple>(h) || nb::isinstance<nb::tuple>(h) || nb::isinstance<nb::list>(h);
}

Tuple to_tuple(nb::handle h) {
    if (Tuple *t = nullptr; nb::try_cast<Tuple *>(h, t) && t) return *t;
    if (FuncRef *f = nullptr; nb::try_cast<FuncRef *>(h, f) && f) return Tuple(*f);
    return Tuple(to_exprs(h));
}

nb::tuple tuple_to_python(const Tuple &t) {
    nb::list out;
    for (const Expr &e : t.as_vector()) out.append(nb::cast(e));
    return nb::tuple(out);
}

void define_tuple(nb::module_ &m) {
    nb::class_<Tuple>(m, "Tuple",
                      "The values of a Func of several outputs: Tuple([a, b]), Tuple((a, b)) or "
                      "Tuple(f[x]) (every value of a call).")
        .def(
            "__init__", [](Tuple *self, nb::handle values) { new (self) Tuple(to_tuple(values)); },
            nb::arg("values"))
        .def("size", &Tuple::size)
        .def("__len__", &Tuple::size)
        .def(
            "__getitem__",
            [](const Tuple &t, long i) {
                // Negative indices count from the end, as for Python sequences; an IndexError
                // ends iteration.
                long n = (long)t.size();
                if (i < 0) i += n;
                if (i < 0 || i >= n) throw nb::index_error("Tuple index out of range");
                return t[(size_t)i];
            },
            nb::arg("index"))
        .def("__iter__", [](const Tuple &t) { return nb::iter(tuple_to_python(t)); })
        .def("as_vector", &Tuple::as_vector)
        .def("__repr__", [](const Tuple &t) {
            return "<loom.Tuple of size " + std::to_string(t.size()) + ">";
        });
}

} // namespace python
} // namespace loom
