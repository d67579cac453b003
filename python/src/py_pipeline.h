#ifndef LOOM_PYTHON_PY_PIPELINE_H
#define LOOM_PYTHON_PY_PIPELINE_H

/// \file What Func and Pipeline share in Python: realize / infer_input_bounds / compile_jit
/// (Buffers in and out, the GIL released while compiling and running), the compile_to_*
/// family, and the Python-callable wrapper of a Callable. Halide's Python API has no
/// Realization class: realize returns a Buffer, or a tuple of Buffers for several outputs.

#include "py_util.h"

#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>

namespace loom {
namespace python {

/// realize's result: the Buffer for one output, a tuple of Buffers for several.
nb::object realization_to_python(const Realization &r);
/// Whether h is a Buffer or a non-empty list/tuple of Buffers (realize's destination form).
bool is_buffer_or_buffers(nb::handle h);
/// One Buffer or a list/tuple of them.
std::vector<Buffer<void>> to_buffers(nb::handle h);

/// A JIT-compiled Callable with what a Python call needs: the name, kind and type of each
/// argument slot (the inputs given to compile_to_callable, then one buffer per output), so
/// Python values can be checked and converted (py_callable.cpp).
struct PyCallable {
    struct Slot {
        std::string name;
        bool is_buffer;
        Type type; ///< of a scalar
    };
    Callable callable;
    std::vector<Slot> slots;
};
/// The wrapper of `c`, compiled with `args` for the pipeline computing `outputs`.
PyCallable make_py_callable(const Callable &c, const std::vector<Argument> &args,
                            const std::vector<Func> &outputs);

/// The output Funcs of a Func (itself) or a Pipeline.
inline std::vector<Func> outputs_of(const Func &f) { return {f}; }
inline std::vector<Func> outputs_of(const Pipeline &p) { return p.outputs(); }

/// realize, infer_input_bounds and compile_jit on Func or Pipeline (T).
template <typename T>
void add_realize_methods(nb::class_<T> &cls) {
    cls.def(
           "realize",
           [](T &self, nb::handle sizes_or_outputs, const Target &t) -> nb::object {
               if (is_buffer_or_buffers(sizes_or_outputs)) {
                   std::vector<Buffer<void>> outputs = to_buffers(sizes_or_outputs);
                   nb::gil_scoped_release release;
                   self.realize(outputs, t);
                   return nb::none();
               }
               std::vector<int32_t> sizes;
               if (!sizes_or_outputs.is_none()) {
                   sizes = nb::cast<std::vector<int32_t>>(sizes_or_outputs);
               }
               std::optional<Realization> r;
               {
                   nb::gil_scoped_release release;
                   r.emplace(self.realize(sizes, t));
               }
               return realization_to_python(*r);
           },
           nb::arg("sizes") = nb::none(), nb::arg("target") = Target(),
           "Computes the outputs over [0, size) in each dimension and returns the Buffer (a "
           "tuple of Buffers for several outputs); or, given Buffers, fills them.")
        .def(
            "infer_input_bounds",
            [](T &self, nb::handle sizes_or_outputs, const Target &t) {
                if (is_buffer_or_buffers(sizes_or_outputs)) {
                    std::vector<Buffer<void>> outputs = to_buffers(sizes_or_outputs);
                    nb::gil_scoped_release release;
                    self.infer_input_bounds(outputs, t);
                } else {
                    auto sizes = nb::cast<std::vector<int32_t>>(sizes_or_outputs);
                    nb::gil_scoped_release release;
                    self.infer_input_bounds(sizes, t);
                }
            },
            nb::arg("dst"), nb::arg("target") = Target(),
            "Binds a Buffer of the required shape to every ImageParam without one, for outputs "
            "of the given sizes or Buffers.")
        .def(
            "compile_jit",
            [](T &self, const Target &t) {
                nb::gil_scoped_release release;
                self.compile_jit(t);
            },
            nb::arg("target") = Target());
}

/// The compile_to_* family on Func or Pipeline (T). A missing target is the environment's
/// (HL_TARGET, else the host), read at the call; an empty fn_name is the first output's name.
template <typename T>
void add_compile_methods(nb::class_<T> &cls) {
    using Args = std::vector<Argument>;
    using FileMethod =
        void (T::*)(const std::string &, const Args &, const std::string &, const Target &);
    auto with_fn_name = [](FileMethod method) {
        return [method](T &self, const std::string &filename, const Args &args,
                        const std::string &fn_name, const std::optional<Target> &target) {
            Target t = target ? *target : get_target_from_environment();
            nb::gil_scoped_release release;
            (self.*method)(filename, args, fn_name, t);
        };
    };
    auto without_fn_name = [](FileMethod method) {
        return [method](T &self, const std::string &filename, const Args &args,
                        const std::optional<Target> &target) {
            Target t = target ? *target : get_target_from_environment();
            nb::gil_scoped_release release;
            (self.*method)(filename, args, "", t);
        };
    };
    // Halide's forms: fn_name defaults to "" for these (name, first argument's name) ...
    struct Optional {
        const char *name, *file_arg;
        FileMethod method;
    };
    const Optional optional_name[] = {
        {"compile_to_static_library", "filename_prefix", &T::compile_to_static_library},
        {"compile_to_file", "filename_prefix", &T::compile_to_file},
        {"compile_to_header", "filename", &T::compile_to_header},
        {"compile_to_c", "filename", &T::compile_to_c}};
    for (const Optional &o : optional_name) {
        cls.def(o.name, with_fn_name(o.method), nb::arg(o.file_arg), nb::arg("arguments"),
                nb::arg("fn_name") = "", nb::arg("target") = nb::none());
    }
    // ... and these take either a fn_name or only a target.
    const std::pair<const char *, FileMethod> two_forms[] = {
        {"compile_to_object", &T::compile_to_object},
        {"compile_to_assembly", &T::compile_to_assembly},
        {"compile_to_llvm_assembly", &T::compile_to_llvm_assembly},
        {"compile_to_bitcode", &T::compile_to_bitcode}};
    for (const auto &[name, method] : two_forms) {
        cls.def(name, with_fn_name(method), nb::arg("filename"), nb::arg("arguments"),
                nb::arg("fn_name"), nb::arg("target") = nb::none())
            .def(name, without_fn_name(method), nb::arg("filename"), nb::arg("arguments"),
                 nb::arg("target") = nb::none());
    }
    cls.def(
           "compile_to",
           [](T &self, const std::map<OutputFileType, std::string> &outputs, const Args &args,
              const std::string &fn_name, const std::optional<Target> &target) {
               Target t = target ? *target : get_target_from_environment();
               nb::gil_scoped_release release;
               self.compile_to(outputs, args, fn_name, t);
           },
           nb::arg("outputs"), nb::arg("arguments"), nb::arg("fn_name"),
           nb::arg("target") = nb::none(),
           "Writes a file of each requested OutputFileType: {OutputFileType.object: 'f.o', ...}.")
        .def(
            "compile_to_lowered_stmt",
            [](T &self, const std::string &filename, const Args &args, StmtOutputFormat fmt,
               const Target &t) {
                nb::gil_scoped_release release;
                self.compile_to_lowered_stmt(filename, args, fmt, t);
            },
            nb::arg("filename"), nb::arg("arguments"), nb::arg("fmt") = StmtOutputFormat::Text,
            nb::arg("target") = Target())
        .def(
            "compile_to_callable",
            [](T &self, const Args &args, const Target &t) {
                std::optional<Callable> c;
                {
                    nb::gil_scoped_release release;
                    c.emplace(self.compile_to_callable(args, t));
                }
                return make_py_callable(*c, args, outputs_of(self));
            },
            nb::arg("arguments"), nb::arg("target") = Target(),
            "JIT-compiles the pipeline as a function of `arguments` (then one buffer per "
            "output), called with Buffers (or arrays) and numbers.");
}

} // namespace python
} // namespace loom

#endif
