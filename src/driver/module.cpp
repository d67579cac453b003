// Module (include/loom/module.h): writes the files of an ahead-of-time compiled pipeline.
#include <loom/module.h>

#include "codegen/llvm/codegen_llvm.h"
#include "codegen/llvm/llvm_target.h"
#include "driver/aot_c.h"
#include "driver/aot_header.h"
#include "driver/aot_llvm.h"
#include "driver/aot_outputs.h"
#include "driver/module_contents.h"
#include "driver/pytorch_wrapper.h"
#include "driver/stmt_html.h"
#include "support/error.h"

#include <fstream>
#include <sstream>

namespace loom {

using namespace internal;

namespace {

const ModuleContents &contents_of(const IntrusivePtr<RefCounted> &p) {
    user_assert(p.defined()) << "Can't use an undefined Module.\n";
    return *static_cast<const ModuleContents *>(p.get());
}

/// Why each unsupported output type is unsupported (empty for the supported ones).
std::string unsupported_reason(OutputFileType t) {
    switch (t) {
    case OutputFileType::cpp_stub:
        return "cpp_stub: generator stubs need Generators, which Loom does not have yet";
    case OutputFileType::python_extension:
        return "python_extension: Loom has no Python bindings yet";
    case OutputFileType::registration:
        return "registration: generator registration needs Generators, which Loom does not "
               "have yet";
    case OutputFileType::schedule:
        return "schedule: Halide writes it from a Generator's autoscheduler, and Loom has no "
               "Generators yet; Pipeline::apply_autoscheduler returns the schedule as source "
               "(AutoSchedulerResults::schedule_source)";
    case OutputFileType::featurization:
        return "featurization: Loom has no autoscheduler cost-model features yet";
    case OutputFileType::hlpipe:
        return "hlpipe: Loom cannot serialize pipelines yet";
    case OutputFileType::function_info_header:
        return "function_info_header: generator function info needs Generators, which Loom "
               "does not have yet";
    case OutputFileType::compiler_log:
        return "compiler_log: Loom's compiler writes no log yet (LOOM_DEBUG_LOWERING=1 prints "
               "the lowering to stderr)";
    default:
        return "";
    }
}

void write_file(const std::string &name, const std::string &data) {
    std::ofstream out(name, std::ios::binary);
    user_assert(out.good()) << "Can't open " << name << " for writing.\n";
    out.write(data.data(), (std::streamsize)data.size());
    out.close();
    user_assert(out.good()) << "Can't write " << name << ".\n";
}

/// The archive format the target's linkers read.
llvm::object::Archive::Kind archive_kind(const Target &t) {
    if (t.os == Target::OSX || t.os == Target::IOS) return llvm::object::Archive::K_DARWIN;
    if (t.os == Target::Windows) return llvm::object::Archive::K_COFF;
    return llvm::object::Archive::K_GNU;
}

/// The archive member name for a static library "dir/prefix.a": "prefix.o".
std::string member_name(const std::string &archive, const Target &t) {
    std::string base = archive.substr(archive.find_last_of('/') + 1);
    std::string ext = output_file_extension(OutputFileType::static_library, t);
    if (base.size() > ext.size() && base.compare(base.size() - ext.size(), ext.size(), ext) == 0) {
        base.resize(base.size() - ext.size());
    }
    return base + output_file_extension(OutputFileType::object, t);
}

} // namespace

namespace internal {

std::string lowered_stmt_text(const LoweredFunc &f, bool html,
                              const std::map<std::string, Function> &env) {
    if (html) return stmt_html(f, env);
    std::ostringstream text;
    text << f;
    return text.str();
}

std::string static_library_bytes(const std::string &member, const std::string &object,
                                 const Target &target) {
    std::vector<llvm::NewArchiveMember> members;
    members.emplace_back(llvm::MemoryBufferRef(object, member));
    members.back().MemberName = member;
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> archive = llvm::writeArchiveToBuffer(
        members, llvm::SymtabWritingMode::NormalSymtab, archive_kind(target),
        /*Deterministic=*/true, /*Thin=*/false);
    if (!archive) {
        internal_error << "Writing the static library failed: "
                       << llvm::toString(archive.takeError()) << "\n";
    }
    return std::string((*archive)->getBufferStart(), (*archive)->getBufferSize());
}

} // namespace internal

namespace {

/// Writes the object file and the static library (holding that object) that `output_files`
/// asks for, if any.
void write_object_outputs(llvm::Module &module, llvm::TargetMachine &tm,
                          const std::map<OutputFileType, std::string> &output_files,
                          const Target &target) {
    auto object_file = output_files.find(OutputFileType::object);
    auto library = output_files.find(OutputFileType::static_library);
    if (object_file == output_files.end() && library == output_files.end()) return;
    std::string object = emit_module(module, tm, LLVMOutput::Object);
    if (object_file != output_files.end()) write_file(object_file->second, object);
    if (library != output_files.end()) {
        write_file(library->second,
                   static_library_bytes(member_name(library->second, target), object, target));
    }
}

} // namespace

std::map<OutputFileType, std::string>
compile_standalone_runtime(const std::map<OutputFileType, std::string> &output_files,
                           const Target &t) {
    // As Halide: only an object file and a static library make sense; other outputs are
    // ignored, and the map of those written is returned.
    std::map<OutputFileType, std::string> written;
    for (OutputFileType type : {OutputFileType::object, OutputFileType::static_library}) {
        auto it = output_files.find(type);
        if (it != output_files.end()) written.insert(*it);
    }
    user_assert(!written.empty())
        << "compile_standalone_runtime writes an object file or a static library: ask for "
           "OutputFileType::object or OutputFileType::static_library.\n";
    Target target = t.without_feature(Target::NoRuntime).without_feature(Target::JIT);
    initialize_llvm_targets();
    std::unique_ptr<llvm::TargetMachine> tm = make_target_machine(target);
    llvm::LLVMContext ctx;
    llvm::Module module("loom_standalone_runtime", ctx);
    module.setTargetTriple(tm->getTargetTriple().str());
    module.setDataLayout(tm->createDataLayout());
    link_runtime(module, target);
    optimize_module(module, *tm);
    write_object_outputs(module, *tm, written, target);
    return written;
}

void compile_standalone_runtime(const std::string &object_filename, const Target &t) {
    compile_standalone_runtime({{OutputFileType::object, object_filename}}, t);
}

std::string output_file_extension(OutputFileType type, const Target &target) {
    bool windows = target.os == Target::Windows;
    switch (type) {
    case OutputFileType::assembly:
        return ".s";
    case OutputFileType::bitcode:
        return ".bc";
    case OutputFileType::c_header:
        return ".h";
    case OutputFileType::c_source:
        return ".halide_generated.cpp";
    case OutputFileType::compiler_log:
        return ".halide_compiler_log";
    case OutputFileType::cpp_stub:
        return ".stub.h";
    case OutputFileType::featurization:
        return ".featurization";
    case OutputFileType::function_info_header:
        return ".function_info.h";
    case OutputFileType::hlpipe:
        return ".hlpipe";
    case OutputFileType::llvm_assembly:
        return ".ll";
    case OutputFileType::object:
        return windows ? ".obj" : ".o";
    case OutputFileType::python_extension:
        return ".py.cpp";
    case OutputFileType::pytorch_wrapper:
        return ".pytorch.h";
    case OutputFileType::registration:
        return ".registration.cpp";
    case OutputFileType::schedule:
        return ".schedule.h";
    case OutputFileType::static_library:
        return windows ? ".lib" : ".a";
    case OutputFileType::stmt:
        return ".stmt";
    case OutputFileType::conceptual_stmt:
        return ".conceptual.stmt";
    case OutputFileType::stmt_html:
        return ".stmt.html";
    case OutputFileType::conceptual_stmt_html:
        return ".conceptual.stmt.html";
    case OutputFileType::device_code:
        return ".device_code";
    }
    return "";
}

Module::Module() = default;

bool Module::defined() const { return contents.defined(); }

const std::string &Module::name() const { return contents_of(contents).name; }

const Target &Module::target() const { return contents_of(contents).target; }

void Module::compile(const std::map<OutputFileType, std::string> &output_files) const {
    const ModuleContents &m = contents_of(contents);
    for (const auto &kv : output_files) {
        std::string why = unsupported_reason(kv.first);
        user_assert(why.empty()) << "Module " << m.name << " can't write the output " << kv.second
                                 << ": the output type " << why << ".\n";
    }
    auto wants = [&](OutputFileType t) { return output_files.count(t) != 0; };
    // Made before anything is written: a pipeline the wrapper cannot take writes no file.
    const std::string torch_wrapper =
        wants(OutputFileType::pytorch_wrapper) ? pytorch_wrapper_text(m) : std::string();

    // Text outputs that need no LLVM.
    if (wants(OutputFileType::c_header)) {
        const std::string &f = output_files.at(OutputFileType::c_header);
        write_file(f, aot_header_text(m, f));
    }
    for (OutputFileType t : {OutputFileType::stmt, OutputFileType::conceptual_stmt}) {
        if (wants(t)) write_file(output_files.at(t), lowered_stmt_text(m.lowered, false));
    }
    for (OutputFileType t : {OutputFileType::stmt_html, OutputFileType::conceptual_stmt_html}) {
        if (wants(t)) write_file(output_files.at(t), lowered_stmt_text(m.lowered, true));
    }
    if (wants(OutputFileType::pytorch_wrapper)) {
        write_file(output_files.at(OutputFileType::pytorch_wrapper), torch_wrapper);
    }
    if (wants(OutputFileType::c_source)) {
        write_file(output_files.at(OutputFileType::c_source), aot_c_source(m));
    }
    // CPU targets have no device code: the file is written, empty.
    if (wants(OutputFileType::device_code)) {
        write_file(output_files.at(OutputFileType::device_code), "");
    }

    const OutputFileType llvm_outputs[] = {OutputFileType::object, OutputFileType::static_library,
                                           OutputFileType::assembly, OutputFileType::bitcode,
                                           OutputFileType::llvm_assembly};
    bool any_llvm = false;
    for (OutputFileType t : llvm_outputs) any_llvm |= wants(t);
    if (!any_llvm) return;

    initialize_llvm_targets();
    std::unique_ptr<llvm::TargetMachine> tm = make_target_machine(m.target);
    llvm::LLVMContext ctx;
    std::unique_ptr<llvm::Module> module = build_aot_module(m, ctx, *tm);

    write_object_outputs(*module, *tm, output_files, m.target);
    if (wants(OutputFileType::assembly)) {
        write_file(output_files.at(OutputFileType::assembly),
                   emit_module(*module, *tm, LLVMOutput::Assembly));
    }
    if (wants(OutputFileType::bitcode)) {
        write_file(output_files.at(OutputFileType::bitcode),
                   emit_module(*module, *tm, LLVMOutput::Bitcode));
    }
    if (wants(OutputFileType::llvm_assembly)) {
        write_file(output_files.at(OutputFileType::llvm_assembly),
                   emit_module(*module, *tm, LLVMOutput::LLVMAssembly));
    }
}

} // namespace loom
