// Bindings of <loom/derivative.h>: propagate_adjoints and Derivative, as in Halide's Python
// bindings (`d[f]`, `d[f, update_id]`, `d[buffer]`, `d[param]`), plus lookups Halide's bindings
// lack: by ImageParam and by name, and `d(...)` as the C++ operator() is spelled. See
// docs/autodiff.md.
#include "py_util.h"

namespace loom {
namespace python {

namespace {

/// The adjoint of what `key` names: a Func, (Func, update_id), Buffer, Param, ImageParam or
/// name. Undefined (`defined()` is False) when the output does not depend on it.
Func lookup(const Derivative &d, nb::handle key) {
    if (nb::isinstance<nb::tuple>(key) && nb::len(key) == 2) {
        return d(nb::cast<const Func &>(key[0]), nb::cast<int>(key[1]));
    }
    if (Func *f = nullptr; nb::try_cast<Func *>(key, f) && f) return d(*f);
    if (Buffer<void> *b = nullptr; nb::try_cast<Buffer<void> *>(key, b) && b) return d(*b);
    if (Param<> *p = nullptr; nb::try_cast<Param<> *>(key, p) && p) return d(*p);
    if (ImageParam *p = nullptr; nb::try_cast<ImageParam *>(key, p) && p) return d(p->name());
    if (nb::isinstance<nb::str>(key)) return d(nb::cast<std::string>(key));
    throw nb::type_error(("A Derivative is indexed by a Func, (Func, update_id), Buffer, Param, "
                          "ImageParam or name, got " +
                          nb::cast<std::string>(nb::str(key.type().attr("__name__"))))
                             .c_str());
}

} // namespace

void define_derivative(nb::module_ &m) {
    nb::class_<Derivative>(m, "Derivative",
                           "The adjoint Funcs made by propagate_adjoints: d[f] (pure definition), "
                           "d[f, update_id], d[buffer], d[param], d[image_param], d['name'].")
        .def("__getitem__", &lookup, nb::arg("key"))
        .def(
            "__call__",
            [](const Derivative &d, const Func &f, int update_id) { return d(f, update_id); },
            nb::arg("func"), nb::arg("update_id") = -1)
        .def(
            "__call__", [](const Derivative &d, nb::handle key) { return lookup(d, key); },
            nb::arg("key"));

    m.def(
        "propagate_adjoints",
        [](const Func &output, const Func &adjoint, nb::handle bounds) {
            return propagate_adjoints(output, adjoint, to_region(bounds));
        },
        nb::arg("output"), nb::arg("adjoint"), nb::arg("output_bounds"),
        "The adjoints of everything `output` depends on, given `adjoint`, the adjoint of its "
        "values over `output_bounds` (a list of Ranges or (min, extent) pairs).");
    m.def(
        "propagate_adjoints",
        [](const Func &output, const Buffer<void> &adjoint) {
            if (adjoint.defined() && adjoint.type() != Float(32)) {
                throw nb::type_error(("propagate_adjoints: the adjoint Buffer of \"" +
                                      output.name() + "\" must be float32, not " +
                                      type_to_string(adjoint.type()) +
                                      " (pass a Func and its bounds for other types)")
                                         .c_str());
            }
            return propagate_adjoints(output, Buffer<float>(adjoint));
        },
        nb::arg("output"), nb::arg("adjoint"),
        "propagate_adjoints with the adjoint of the output in a float32 Buffer, over its shape.");
    m.def(
        "propagate_adjoints", [](const Func &output) { return propagate_adjoints(output); },
        nb::arg("output"), "The gradient of a scalar output (its adjoint is 1).");
}

} // namespace python
} // namespace loom
