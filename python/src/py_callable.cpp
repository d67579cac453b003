// Bindings of <loom/callable.h>: Callable, called from Python as Halide's Python Callable is:
// c(in_buffer, 2.5, out_buffer), the arguments given to compile_to_callable in order and then
// one buffer per output, positionally or by name. A buffer slot takes a Buffer or anything
// Buffer() wraps (a NumPy array, a DLPack tensor); a scalar slot a Python number of a kind the
// Param's type holds. The pipeline runs without the GIL; its errors raise HalideError.
#include "py_pipeline.h"

#include <cstring>

namespace loom {
namespace python {

namespace {

[[noreturn]] void argument_error(const PyCallable::Slot &s, const std::string &what) {
    throw nb::type_error(("Callable argument '" + s.name + "' " + what).c_str());
}

/// The value of Python number h as a scalar of s.type, in the first bytes of `out`.
void store_scalar(nb::handle h, const PyCallable::Slot &s, uint64_t &out) {
    const Type &t = s.type;
    auto store = [&](auto v) { std::memcpy(&out, &v, sizeof(v)); };
    if (t.is_bool()) {
        if (!nb::isinstance<nb::bool_>(h)) argument_error(s, "must be a bool");
        store((bool)nb::cast<bool>(h));
        return;
    }
    if (t.is_int_or_uint()) {
        if (!PyIndex_Check(h.ptr())) {
            argument_error(s, "must be an integer of type " + type_to_string(t) + ", not " +
                                  nb::cast<std::string>(nb::str(h.type().attr("__name__"))));
        }
        nb::int_ value = nb::steal<nb::int_>(PyNumber_Index(h.ptr()));
        if (!value.is_valid()) throw nb::python_error();
        if (t.is_uint()) {
            unsigned long long v = PyLong_AsUnsignedLongLong(value.ptr());
            if (PyErr_Occurred() || (t.bits() < 64 && v >> t.bits())) {
                PyErr_Clear();
                argument_error(s, "value " + nb::cast<std::string>(nb::str(h)) +
                                      " does not fit in " + type_to_string(t));
            }
            switch (t.bits()) {
            case 8:
                return store((uint8_t)v);
            case 16:
                return store((uint16_t)v);
            case 32:
                return store((uint32_t)v);
            default:
                return store((uint64_t)v);
            }
        }
        long long v = PyLong_AsLongLong(value.ptr());
        const long long limit = t.bits() < 64 ? 1LL << (t.bits() - 1) : 0;
        if (PyErr_Occurred() || (t.bits() < 64 && (v < -limit || v >= limit))) {
            PyErr_Clear();
            argument_error(s, "value " + nb::cast<std::string>(nb::str(h)) + " does not fit in " +
                                  type_to_string(t));
        }
        switch (t.bits()) {
        case 8:
            return store((int8_t)v);
        case 16:
            return store((int16_t)v);
        case 32:
            return store((int32_t)v);
        default:
            return store((int64_t)v);
        }
    }
    if (t.is_float()) {
        double v = PyFloat_AsDouble(h.ptr());
        if (v == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            argument_error(s, "must be a number");
        }
        if (t.is_bfloat()) return store(bfloat16_t(v));
        switch (t.bits()) {
        case 16:
            return store(float16_t(v));
        case 32:
            return store((float)v);
        default:
            return store(v);
        }
    }
    argument_error(s, "has type " + type_to_string(t) + ", which Python can't pass");
}

/// The Buffer to pass for h: h itself, or Buffer(h) for an array.
Buffer<void> buffer_argument(nb::handle h, const PyCallable::Slot &s) {
    Buffer<void> b = nb::isinstance<Buffer<void>>(h)
                         ? nb::cast<Buffer<void>>(h)
                         : nb::cast<Buffer<void>>(nb::type<Buffer<void>>()(h));
    if (!b.defined()) argument_error(s, "is an undefined Buffer");
    return b;
}

void call(const PyCallable &c, const nb::args &args, const nb::kwargs &kwargs) {
    const size_t n = c.slots.size();
    if (args.size() > n) {
        throw nb::type_error(("Callable takes " + std::to_string(n) + " arguments but " +
                              std::to_string(args.size()) + " were given")
                                 .c_str());
    }
    std::vector<nb::handle> given(n);
    for (size_t i = 0; i < args.size(); i++) given[i] = args[i];
    for (auto [key, value] : kwargs) {
        std::string name = nb::cast<std::string>(key);
        size_t i = 0;
        while (i < n && c.slots[i].name != name) i++;
        if (i == n) throw nb::type_error(("Callable has no argument '" + name + "'").c_str());
        if (given[i].is_valid()) {
            throw nb::type_error(("Callable got argument '" + name + "' twice").c_str());
        }
        given[i] = value;
    }
    // argv[0] is the JITUserContext** (none: null); then one pointer per slot.
    std::vector<const void *> argv(n + 1, nullptr);
    std::vector<uint64_t> scalars(n);
    std::vector<Buffer<void>> buffers(n);
    for (size_t i = 0; i < n; i++) {
        const PyCallable::Slot &s = c.slots[i];
        if (!given[i].is_valid()) argument_error(s, "is missing");
        if (s.is_buffer) {
            buffers[i] = buffer_argument(given[i], s);
            argv[i + 1] = buffers[i].raw_buffer();
        } else {
            store_scalar(given[i], s, scalars[i]);
            argv[i + 1] = &scalars[i];
        }
    }
    nb::gil_scoped_release release;
    c.callable.call_argv_fast(argv.size(), argv.data());
}

} // namespace

PyCallable make_py_callable(const Callable &c, const std::vector<Argument> &args,
                            const std::vector<Func> &outputs) {
    PyCallable p{c, {}};
    for (const Argument &a : args) p.slots.push_back({a.name, a.is_buffer(), a.type});
    // The output buffers are named as in a compiled function's signature: the Func's name, with
    // the element index for a Func of several values.
    for (const Func &f : outputs) {
        for (int i = 0; i < f.outputs(); i++) {
            std::string name = f.outputs() == 1 ? f.name() : f.name() + "_" + std::to_string(i);
            p.slots.push_back({name, true, f.types()[i]});
        }
    }
    return p;
}

void define_callable(nb::module_ &m) {
    nb::class_<PyCallable>(m, "Callable",
                           "A JIT-compiled pipeline (compile_to_callable) called like a "
                           "function: its arguments in order, then one buffer per output.")
        .def("__call__", &call)
        .def("defined", [](const PyCallable &c) { return c.callable.defined(); })
        .def(
            "arguments",
            [](const PyCallable &c) {
                std::vector<std::string> names;
                for (const auto &s : c.slots) names.push_back(s.name);
                return names;
            },
            "The names of the argument slots, outputs last.")
        .def("__repr__", [](const PyCallable &c) {
            std::string s = "<loom.Callable (";
            for (size_t i = 0; i < c.slots.size(); i++) s += (i ? ", " : "") + c.slots[i].name;
            return s + ")>";
        });
}

} // namespace python
} // namespace loom
