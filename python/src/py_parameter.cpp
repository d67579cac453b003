// Bindings of <loom/parameter.h>: Parameter, the shared state behind a Param or ImageParam, as
// Halide's bindings have it. Serialization maps names to Parameters (get_params, user_params,
// deserialize_parameters); `im.parameter()` is the one behind an ImageParam.
#include "py_util.h"

namespace loom {
namespace python {

namespace {

/// A Python number as a constant Expr that keeps its value (int64, uint64 above that range,
/// float64 or bool), for set_scalar_expr to convert to the parameter's type.
Expr exact_number(nb::handle h) {
    if (!is_python_number(h)) {
        throw nb::type_error(("A Parameter's value is a number, got " +
                              nb::cast<std::string>(nb::str(h.type().attr("__name__"))))
                                 .c_str());
    }
    if (nb::isinstance<nb::bool_>(h)) return Expr((uint64_t)nb::cast<bool>(h));
    if (nb::isinstance<nb::float_>(h) || !nb::hasattr(h, "__index__")) {
        return Expr(nb::cast<double>(nb::float_(h)));
    }
    nb::int_ i(h);
    if (int64_t v; nb::try_cast<int64_t>(i, v)) return Expr(v);
    return Expr(nb::cast<uint64_t>(i));
}

/// The value of a scalar parameter as a Python bool, int or float.
nb::object scalar_value(const Parameter &p) {
    const Type t = p.type();
    if (t.is_bool()) return nb::bool_(p.scalar<bool>());
    if (t == Int(8)) return nb::int_(p.scalar<int8_t>());
    if (t == Int(16)) return nb::int_(p.scalar<int16_t>());
    if (t == Int(32)) return nb::int_(p.scalar<int32_t>());
    if (t == Int(64)) return nb::int_(p.scalar<int64_t>());
    if (t == UInt(8)) return nb::int_(p.scalar<uint8_t>());
    if (t == UInt(16)) return nb::int_(p.scalar<uint16_t>());
    if (t == UInt(32)) return nb::int_(p.scalar<uint32_t>());
    if (t == UInt(64)) return nb::int_(p.scalar<uint64_t>());
    if (t == Float(16)) return nb::float_((double)float16_t::make_from_bits(p.scalar<uint16_t>()));
    if (t == BFloat(16)) {
        return nb::float_((double)bfloat16_t::make_from_bits(p.scalar<uint16_t>()));
    }
    if (t == Float(32)) return nb::float_(p.scalar<float>());
    if (t == Float(64)) return nb::float_(p.scalar<double>());
    throw nb::type_error(("The value of Parameter '" + p.name() + "' of type " + type_to_string(t) +
                          " cannot be read from Python")
                             .c_str());
}

} // namespace

void define_parameter(nb::module_ &m) {
    nb::class_<Parameter>(m, "Parameter",
                          "The shared state behind a Param or ImageParam (Halide's Parameter): "
                          "Parameter(type, is_buffer, dimensions, name).")
        .def(nb::init<>())
        .def(nb::init<const Parameter &>(), nb::arg("p"))
        .def(nb::init<Type, bool, int, const std::string &>(), nb::arg("type"),
             nb::arg("is_buffer"), nb::arg("dimensions"), nb::arg("name"))
        .def("defined", &Parameter::defined)
        .def("name", &Parameter::name)
        .def("type", &Parameter::type)
        .def("dimensions", &Parameter::dimensions)
        .def("is_buffer", &Parameter::is_buffer)
        .def("same_as", &Parameter::same_as, nb::arg("other"),
             "Whether both refer to the same parameter.")
        .def("scalar_expr", &Parameter::scalar_expr, "The value of a scalar, as a constant.")
        .def("scalar", &scalar_value, "The value of a scalar, as a Python number.")
        .def(
            "set_scalar",
            [](Parameter &p, nb::handle value) { p.set_scalar_expr(exact_number(value)); },
            nb::arg("value"), "Sets the value of a scalar (converted to its type).")
        .def("min_value", &Parameter::min_value)
        .def("max_value", &Parameter::max_value)
        .def("estimate", &Parameter::estimate)
        .def("buffer", &Parameter::buffer, "The Buffer bound to a buffer parameter.")
        .def("set_buffer", &Parameter::set_buffer, nb::arg("buffer"),
             "Binds the Buffer realize passes for a buffer parameter.")
        .def("min_constraint", &Parameter::min_constraint, nb::arg("dim"))
        .def("extent_constraint", &Parameter::extent_constraint, nb::arg("dim"))
        .def("stride_constraint", &Parameter::stride_constraint, nb::arg("dim"))
        .def("host_alignment", &Parameter::host_alignment)
        .def("__repr__", [](const Parameter &p) {
            if (!p.defined()) return std::string("<loom.Parameter undefined>");
            return "<loom.Parameter '" + p.name() + "' type " + type_to_string(p.type()) + ">";
        });
}

} // namespace python
} // namespace loom
