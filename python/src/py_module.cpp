// Bindings of <loom/module.h>: Module, OutputFileType, LinkageType and
// compile_standalone_runtime.
#include "py_util.h"

#include <nanobind/stl/map.h>

namespace loom {
namespace python {

void define_module(nb::module_ &m) {
    nb::enum_<OutputFileType>(m, "OutputFileType", "A kind of file a Module can write.")
        .value("assembly", OutputFileType::assembly)
        .value("bitcode", OutputFileType::bitcode)
        .value("c_header", OutputFileType::c_header)
        .value("c_source", OutputFileType::c_source)
        .value("compiler_log", OutputFileType::compiler_log)
        .value("cpp_stub", OutputFileType::cpp_stub)
        .value("featurization", OutputFileType::featurization)
        .value("function_info_header", OutputFileType::function_info_header)
        .value("hlpipe", OutputFileType::hlpipe)
        .value("llvm_assembly", OutputFileType::llvm_assembly)
        .value("object", OutputFileType::object)
        .value("python_extension", OutputFileType::python_extension)
        .value("pytorch_wrapper", OutputFileType::pytorch_wrapper)
        .value("registration", OutputFileType::registration)
        .value("schedule", OutputFileType::schedule)
        .value("static_library", OutputFileType::static_library)
        .value("stmt", OutputFileType::stmt)
        .value("conceptual_stmt", OutputFileType::conceptual_stmt)
        .value("stmt_html", OutputFileType::stmt_html)
        .value("conceptual_stmt_html", OutputFileType::conceptual_stmt_html)
        .value("device_code", OutputFileType::device_code);

    nb::enum_<LinkageType>(m, "LinkageType", "How a compiled function is visible.")
        .value("External", LinkageType::External)
        .value("ExternalPlusMetadata", LinkageType::ExternalPlusMetadata)
        .value("ExternalPlusArgv", LinkageType::ExternalPlusArgv)
        .value("Internal", LinkageType::Internal);

    nb::class_<Module>(m, "Module",
                       "A pipeline lowered for one target and argument list, ready to write "
                       "files (Pipeline.compile_to_module).")
        .def("defined", &Module::defined)
        .def("name", &Module::name)
        .def("target", &Module::target)
        .def(
            "compile",
            [](const Module &mod, const std::map<OutputFileType, std::string> &outputs) {
                nb::gil_scoped_release release;
                mod.compile(outputs);
            },
            nb::arg("outputs"))
        .def("__repr__", [](const Module &mod) {
            return mod.defined() ? "<loom.Module '" + mod.name() + "'>"
                                 : std::string("<loom.Module undefined>");
        });

    m.def(
        "compile_standalone_runtime",
        [](const std::string &filename, const Target &t) {
            nb::gil_scoped_release release;
            compile_standalone_runtime(filename, t);
        },
        nb::arg("filename"), nb::arg("target"));
    m.def(
        "compile_standalone_runtime",
        [](const std::map<OutputFileType, std::string> &outputs, const Target &t) {
            nb::gil_scoped_release release;
            return compile_standalone_runtime(outputs, t);
        },
        nb::arg("outputs"), nb::arg("target"));
}

} // namespace python
} // namespace loom
