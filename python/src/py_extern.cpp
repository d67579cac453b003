// Bindings of <loom/extern.h>: NameMangling and ExternFuncArgument, the arguments of
// Func.define_extern. Funcs, Buffers, Exprs, numbers, Params and ImageParams convert to
// ExternFuncArgument implicitly, so `f.define_extern("name", [g, im, 3], ...)` works as in
// Halide. The C function is found by name in the process: load its library with
// ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL) first.
#include "py_util.h"

namespace loom {
namespace python {

void define_extern(nb::module_ &m) {
    nb::enum_<NameMangling>(m, "NameMangling", "How an extern stage's function name is mangled.")
        .value("Default", NameMangling::Default)
        .value("C", NameMangling::C)
        .value("CPlusPlus", NameMangling::CPlusPlus);

    nb::class_<ExternFuncArgument>(m, "ExternFuncArgument",
                                   "One argument of an extern stage (Func.define_extern).")
        .def(nb::init<>())
        .def(
            "__init__",
            [](ExternFuncArgument *self, const Buffer<void> &b) {
                new (self) ExternFuncArgument(b);
            },
            nb::arg("buffer"))
        .def(nb::init<Expr>(), nb::arg("expr"))
        .def(nb::init<int>(), nb::arg("value"))
        .def(nb::init<float>(), nb::arg("value"))
        .def(nb::init<const Func &>(), nb::arg("func"))
        .def(
            "__init__",
            [](ExternFuncArgument *self, const Param<> &p) { new (self) ExternFuncArgument(p); },
            nb::arg("param"))
        .def(
            "__init__",
            [](ExternFuncArgument *self, const ImageParam &p) { new (self) ExternFuncArgument(p); },
            nb::arg("im"))
        .def(nb::init<const OutputImageParam &>(), nb::arg("im"))
        .def("is_func", &ExternFuncArgument::is_func)
        .def("is_expr", &ExternFuncArgument::is_expr)
        .def("is_buffer", &ExternFuncArgument::is_buffer)
        .def("is_image_param", &ExternFuncArgument::is_image_param)
        .def("defined", &ExternFuncArgument::defined);
    nb::implicitly_convertible<Buffer<void>, ExternFuncArgument>();
    nb::implicitly_convertible<Func, ExternFuncArgument>();
    nb::implicitly_convertible<ImageParam, ExternFuncArgument>();
    nb::implicitly_convertible<OutputImageParam, ExternFuncArgument>();
    nb::implicitly_convertible<Param<>, ExternFuncArgument>();
    nb::implicitly_convertible<Expr, ExternFuncArgument>();
}

} // namespace python
} // namespace loom
