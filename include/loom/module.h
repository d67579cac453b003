#ifndef LOOM_MODULE_H
#define LOOM_MODULE_H

/// \file Module: a pipeline lowered for one target with a fixed argument list, ready to be
/// written ahead of time as object files, static libraries, headers, assembly or IR (Halide's
/// Module and OutputFileType). Pipeline::compile_to_module makes one; Pipeline::compile_to and
/// the compile_to_* shortcuts of Func and Pipeline write its files directly.

#include <loom/intrusive_ptr.h>
#include <loom/target.h>

#include <map>
#include <string>

namespace loom {

/// The kinds of file a Module can write, with Halide 21's enumerators. Loom writes assembly,
/// bitcode, c_header, c_source (one C99 translation unit: docs/c_backend.md), llvm_assembly,
/// object, static_library, the stmt forms, device_code (empty: CPU targets have no device
/// code) and pytorch_wrapper (a header defining `<name>_th_` over at::Tensors, for CPU targets:
/// docs/aot.md). The others (compiler_log, cpp_stub, featurization, function_info_header,
/// hlpipe, python_extension, registration, schedule) raise a CompileError that says why.
enum class OutputFileType {
    assembly,
    bitcode,
    c_header,
    c_source,
    compiler_log,
    cpp_stub,
    featurization,
    function_info_header,
    hlpipe,
    llvm_assembly,
    object,
    python_extension,
    pytorch_wrapper,
    registration,
    schedule,
    static_library,
    stmt,
    conceptual_stmt,
    stmt_html,
    conceptual_stmt_html,
    device_code,
};

/// How the compiled function is visible (Halide's LinkageType).
enum class LinkageType {
    External,             ///< the function only
    ExternalPlusMetadata, ///< the function, `<name>_argv` and `<name>_metadata`
    ExternalPlusArgv,     ///< the function and `<name>_argv`
    Internal,             ///< not visible outside its object file
};

/// The file name suffix Halide gives each output type (".o", ".h", ".a", ".stmt", ...), for
/// a target of the given OS (Windows uses ".obj" and ".lib").
std::string output_file_extension(OutputFileType type, const Target &target = Target());

/// Writes the runtime alone for target t, as an object file: for pipelines compiled with the
/// feature no_runtime, which call it without carrying a copy each. Its definitions are weak,
/// like those a pipeline carries, so a program still overrides any (halide_error, ...).
void compile_standalone_runtime(const std::string &object_filename, const Target &t);
/// The same as an object and/or a static library (the other output types are ignored);
/// returns the outputs written.
std::map<OutputFileType, std::string>
compile_standalone_runtime(const std::map<OutputFileType, std::string> &output_files,
                           const Target &t);

/// A lowered pipeline for one target and one argument list. Cheap to copy (shared state).
class Module {
public:
    /// An undefined Module (defined() is false).
    Module();
    bool defined() const;
    /// The name of the compiled function.
    const std::string &name() const;
    /// The target it is compiled for.
    const Target &target() const;

    /// Writes each requested file (output type -> file name). Every type is checked before
    /// anything is written: an unsupported one is a CompileError naming it.
    void compile(const std::map<OutputFileType, std::string> &output_files) const;

    /// The internal state (a ModuleContents, src/driver/module_contents.h).
    const internal::IntrusivePtr<internal::RefCounted> &get_contents() const { return contents; }
    /// Wraps internal state (used by Pipeline::compile_to_module).
    explicit Module(const internal::IntrusivePtr<internal::RefCounted> &c) : contents(c) {}

private:
    internal::IntrusivePtr<internal::RefCounted> contents;
};

} // namespace loom

#endif
