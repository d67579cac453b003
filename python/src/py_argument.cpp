// Bindings of <loom/argument.h>: Argument and ArgumentKind. Params, ImageParams and Buffers
// convert to Arguments implicitly, so `f.compile_to_file("f", [im, p])` works as in Halide.
#include "py_util.h"

namespace loom {
namespace python {

void define_argument(nb::module_ &m) {
    nb::enum_<Argument::Kind>(m, "ArgumentKind", "What a pipeline argument is.")
        .value("InputScalar", Argument::InputScalar)
        .value("InputBuffer", Argument::InputBuffer)
        .value("OutputBuffer", Argument::OutputBuffer);

    nb::class_<Argument> argument(m, "Argument",
                                  "A scalar parameter, input buffer or output buffer of a "
                                  "compiled pipeline.");
    argument.def(nb::init<>())
        .def(nb::init<const std::string &, Argument::Kind, const Type &, int>(), nb::arg("name"),
             nb::arg("kind"), nb::arg("type"), nb::arg("dimensions"))
        .def(
            "__init__", [](Argument *self, const Param<> &p) { new (self) Argument(p); },
            nb::arg("param"))
        .def(
            "__init__", [](Argument *self, const OutputImageParam &im) { new (self) Argument(im); },
            nb::arg("im"))
        .def(
            "__init__", [](Argument *self, const ImageParam &im) { new (self) Argument(im); },
            nb::arg("im"))
        .def(
            "__init__", [](Argument *self, const Buffer<void> &b) { new (self) Argument(b); },
            nb::arg("buffer"))
        .def_rw("name", &Argument::name)
        .def_rw("kind", &Argument::kind)
        .def_rw("type", &Argument::type)
        .def_prop_rw(
            "dimensions", [](const Argument &a) { return (int)a.dimensions; },
            [](Argument &a, int d) { a.dimensions = (uint8_t)d; })
        .def("is_buffer", &Argument::is_buffer)
        .def("is_scalar", &Argument::is_scalar)
        .def("is_input", &Argument::is_input)
        .def("is_output", &Argument::is_output)
        .def("__eq__", [](const Argument &a, const Argument &b) { return a == b; })
        .def("__repr__", [](const Argument &a) {
            static const char *kinds[] = {"InputScalar", "InputBuffer", "OutputBuffer"};
            std::string s =
                "<loom.Argument '" + a.name + "' " + kinds[a.kind] + " " + type_to_string(a.type);
            if (a.is_buffer()) s += " dimensions=" + std::to_string(a.dimensions);
            return s + ">";
        });
    nb::implicitly_convertible<Param<>, Argument>();
    nb::implicitly_convertible<OutputImageParam, Argument>();
    nb::implicitly_convertible<ImageParam, Argument>();
    nb::implicitly_convertible<Buffer<void>, Argument>();
}

} // namespace python
} // namespace loom
