// Bindings of <loom/type.h>: Type, TypeCode and the type constructors Int, UInt, Float, BFloat,
// Bool, Handle.
#include "py_util.h"

namespace loom {
namespace python {

void define_type(nb::module_ &m) {
    nb::enum_<halide_type_code_t>(m, "TypeCode")
        .value("Int", halide_type_int)
        .value("UInt", halide_type_uint)
        .value("Float", halide_type_float)
        .value("Handle", halide_type_handle)
        .value("BFloat", halide_type_bfloat);

    nb::class_<Type>(m, "Type", "The type of an expression: a code, a bit width and lanes.")
        .def(nb::init<>())
        .def(nb::init<halide_type_code_t, int, int>(), nb::arg("code"), nb::arg("bits"),
             nb::arg("lanes"))
        .def("code", &Type::code)
        .def("bits", &Type::bits)
        .def("bytes", &Type::bytes)
        .def("lanes", &Type::lanes)
        .def("with_code", &Type::with_code, nb::arg("code"))
        .def("with_bits", &Type::with_bits, nb::arg("bits"))
        .def("with_lanes", &Type::with_lanes, nb::arg("lanes"))
        .def("element_of", &Type::element_of)
        .def("narrow", &Type::narrow)
        .def("widen", &Type::widen)
        .def("is_bool", &Type::is_bool)
        .def("is_vector", &Type::is_vector)
        .def("is_scalar", &Type::is_scalar)
        .def("is_float", &Type::is_float)
        .def("is_bfloat", &Type::is_bfloat)
        .def("is_int", &Type::is_int)
        .def("is_uint", &Type::is_uint)
        .def("is_int_or_uint", &Type::is_int_or_uint)
        .def("is_handle", &Type::is_handle)
        .def("can_represent", nb::overload_cast<Type>(&Type::can_represent, nb::const_),
             nb::arg("other"))
        .def("max", &Type::max, "The largest value of the type, as an Expr.")
        .def("min", &Type::min, "The smallest value of the type, as an Expr.")
        .def(
            "__eq__", [](const Type &a, const Type &b) { return a == b; }, nb::is_operator())
        .def(
            "__ne__", [](const Type &a, const Type &b) { return a != b; }, nb::is_operator())
        .def("__hash__",
             [](const Type &t) { return ((int)t.code() << 24) ^ (t.bits() << 16) ^ t.lanes(); })
        .def("__str__", [](const Type &t) { return type_to_string(t); })
        .def("__repr__", [](const Type &t) { return "<loom.Type " + type_to_string(t) + ">"; });

    m.def("Int", &Int, nb::arg("bits"), nb::arg("lanes") = 1);
    m.def("UInt", &UInt, nb::arg("bits"), nb::arg("lanes") = 1);
    m.def("Float", &Float, nb::arg("bits"), nb::arg("lanes") = 1);
    m.def("BFloat", &BFloat, nb::arg("bits"), nb::arg("lanes") = 1);
    m.def("Bool", &Bool, nb::arg("lanes") = 1);
    m.def(
        "Handle", [](int lanes) { return Handle(lanes); }, nb::arg("lanes") = 1);
}

} // namespace python
} // namespace loom
