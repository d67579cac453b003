// Bindings of <loom/scratchpad.h> (a Loom extension): Scratchpad. Func.store_in takes one (in
// py_func.cpp): a scratchpad is a MemoryType value past the named ones, which the MemoryType
// enum cannot hold in Python.
#include "py_util.h"

#include <loom/scratchpad.h>

namespace loom {
namespace python {

void define_scratchpad(nb::module_ &m) {
    nb::class_<Scratchpad>(
        m, "Scratchpad",
        "A named memory of fixed size (a DSP's scratchpad; Vocke's paper, section 3.2), for "
        "Func.store_in. Buffers placed in it are allocated statically; a CompileError names the "
        "Func and the sizes when they would not fit or cannot be bounded. A Loom extension, not "
        "in Halide.")
        .def(nb::init<const std::string &, int64_t, int>(), nb::arg("name"), nb::arg("size_bytes"),
             nb::arg("alignment") = 64,
             "Declares the memory `name` (a C identifier) of size_bytes bytes whose buffers "
             "start at multiples of alignment (a power of two).")
        .def("name", &Scratchpad::name)
        .def("size", &Scratchpad::size)
        .def("alignment", &Scratchpad::alignment)
        .def("__repr__", [](const Scratchpad &s) {
            return "<loom.Scratchpad '" + s.name() + "' of " + std::to_string(s.size()) +
                   " bytes, aligned to " + std::to_string(s.alignment()) + ">";
        });
}

} // namespace python
} // namespace loom
