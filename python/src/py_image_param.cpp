// Bindings of <loom/image_param.h>: Dimension (the symbolic shape of a buffer parameter),
// OutputImageParam and ImageParam, as Halide's bindings have them: ImageParam(hl.UInt(8), 2,
// "input"), `input[x, y]` reads it, input.set(buffer) binds the Buffer realize passes.
//
// An ImageParam is not Expr-like and keeps Python's identity hash (no __eq__), so it can be a
// dictionary key (loom.dask maps inputs to arrays that way).
#include "py_util.h"

namespace loom {
namespace python {

namespace {

using internal::Dimension;

std::string describe(const OutputImageParam &p, const char *cls) {
    if (!p.defined()) return std::string("<loom.") + cls + " undefined>";
    return std::string("<loom.") + cls + " '" + p.name() +
           "', dims: " + std::to_string(p.dimensions()) + ", type: " + type_to_string(p.type()) +
           ">";
}

/// im[key] (see call_with_key).
Expr read(const ImageParam &im, nb::handle key) { return call_with_key(im, key); }

} // namespace

void define_image_param(nb::module_ &m) {
    nb::class_<Dimension>(m, "Dimension",
                          "One dimension of a buffer parameter: symbolic bounds and the "
                          "constraints on them. Setters return the Dimension, so calls chain.")
        .def("min", &Dimension::min, "The smallest coordinate (an Expr bound at run time).")
        .def("extent", &Dimension::extent, "The number of coordinates.")
        .def("max", &Dimension::max, "The largest coordinate, min() + extent() - 1.")
        .def("stride", &Dimension::stride, "The distance in elements between neighbours.")
        .def("min_estimate", &Dimension::min_estimate)
        .def("extent_estimate", &Dimension::extent_estimate)
        .def(
            "set_min", [](Dimension &d, nb::handle min) { return d.set_min(to_expr(min)); },
            nb::arg("min"))
        .def(
            "set_extent",
            [](Dimension &d, nb::handle extent) { return d.set_extent(to_expr(extent)); },
            nb::arg("extent"))
        .def(
            "set_stride",
            [](Dimension &d, nb::handle stride) { return d.set_stride(to_expr(stride)); },
            nb::arg("stride"))
        .def(
            "set_bounds",
            [](Dimension &d, nb::handle min, nb::handle extent) {
                return d.set_bounds(to_expr(min), to_expr(extent));
            },
            nb::arg("min"), nb::arg("extent"))
        .def(
            "set_estimate",
            [](Dimension &d, nb::handle min, nb::handle extent) {
                return d.set_estimate(to_expr(min), to_expr(extent));
            },
            nb::arg("min"), nb::arg("extent"))
        .def("dim", &Dimension::dim, nb::arg("dimension"))
        .def("index", &Dimension::index);

    nb::class_<OutputImageParam>(m, "OutputImageParam",
                                 "A buffer parameter of a pipeline (an input, or the output "
                                 "buffer of a Func).")
        .def(nb::init<>())
        .def("defined", &OutputImageParam::defined)
        .def("name", &OutputImageParam::name)
        .def("type", &OutputImageParam::type)
        .def("dimensions", &OutputImageParam::dimensions)
        .def("dim", nb::overload_cast<int>(&OutputImageParam::dim), nb::arg("dimension"))
        .def("left", &OutputImageParam::left)
        .def("right", &OutputImageParam::right)
        .def("top", &OutputImageParam::top)
        .def("bottom", &OutputImageParam::bottom)
        .def("width", &OutputImageParam::width)
        .def("height", &OutputImageParam::height)
        .def("channels", &OutputImageParam::channels)
        // The setters return the same Python object, so calls chain.
        .def(
            "set_host_alignment",
            [](nb::object self, int bytes) {
                nb::cast<OutputImageParam &>(self).set_host_alignment(bytes);
                return self;
            },
            nb::arg("bytes"), "Requires the host pointer to be a multiple of `bytes`.")
        .def("host_alignment", &OutputImageParam::host_alignment)
        .def("parameter", &OutputImageParam::parameter, "The shared state (a Parameter).")
        .def(
            "set_estimates",
            [](nb::object self, nb::handle estimates) {
                nb::cast<OutputImageParam &>(self).set_estimates(to_region(estimates));
                return self;
            },
            nb::arg("estimates"),
            "The shape autoschedulers assume: a list of (min, extent) pairs or Ranges.")
        .def("__repr__", [](const OutputImageParam &p) { return describe(p, "OutputImageParam"); });

    nb::class_<ImageParam, OutputImageParam>(m, "ImageParam",
                                             "An input buffer of a pipeline: "
                                             "ImageParam(type, dimensions, name).")
        .def(nb::init<>())
        .def(nb::init<Type, int, const std::string &>(), nb::arg("type"), nb::arg("dimensions"),
             nb::arg("name") = "")
        .def("set", &ImageParam::set, nb::arg("buffer"),
             "Binds the Buffer that realize passes for this input.")
        .def("get", &ImageParam::get, "The bound Buffer (undefined when none).")
        .def("reset", &ImageParam::reset, "Unbinds the Buffer.")
        .def("__getitem__", &read, nb::arg("key"), "A read of the input: im[x, y].")
        .def("in_", nb::overload_cast<const Func &>(&ImageParam::in), nb::arg("f"),
             "A wrapper Func replacing the reads of the input in `f`.")
        .def("in_", nb::overload_cast<const std::vector<Func> &>(&ImageParam::in), nb::arg("fs"),
             "A wrapper Func replacing the reads of the input in all of `fs`.")
        .def("in_", nb::overload_cast<>(&ImageParam::in),
             "A wrapper Func replacing every read of the input.")
        .def("trace_loads", &ImageParam::trace_loads,
             "Traces every load from the input; returns the Func wrapping it.")
        .def("__repr__", [](const ImageParam &p) { return describe(p, "ImageParam"); });
}

} // namespace python
} // namespace loom
