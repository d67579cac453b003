// Ahead-of-time compilation members of Func (declared in <loom/func.h>): each forwards to the
// Func's Pipeline, naming the function after the Func when no name is given.
#include <loom/func.h>

#include <loom/pipeline.h>

#include "support/error.h"
#include "support/util.h"

namespace loom {

namespace {

std::string name_or(const Func &f, const std::string &fn_name) {
    user_assert(f.defined()) << "Can't compile Func " << f.name() << ": it has no definition.\n";
    // Halide's default: the Func's name made a C identifier ("f$1", a reused name, is "f_1").
    return fn_name.empty() ? internal::c_identifier(f.name()) : fn_name;
}

} // namespace

void Func::compile_to_static_library(const std::string &filename_prefix,
                                     const std::vector<Argument> &args, const std::string &fn_name,
                                     const Target &target) {
    pipeline().compile_to_static_library(filename_prefix, args, name_or(*this, fn_name), target);
}

void Func::compile_to_file(const std::string &filename_prefix, const std::vector<Argument> &args,
                           const std::string &fn_name, const Target &target) {
    pipeline().compile_to_file(filename_prefix, args, name_or(*this, fn_name), target);
}

void Func::compile_to_object(const std::string &filename, const std::vector<Argument> &args,
                             const std::string &fn_name, const Target &target) {
    pipeline().compile_to_object(filename, args, name_or(*this, fn_name), target);
}

void Func::compile_to_object(const std::string &filename, const std::vector<Argument> &args,
                             const Target &target) {
    compile_to_object(filename, args, "", target);
}

void Func::compile_to_header(const std::string &filename, const std::vector<Argument> &args,
                             const std::string &fn_name, const Target &target) {
    pipeline().compile_to_header(filename, args, name_or(*this, fn_name), target);
}

void Func::compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                               const std::string &fn_name, const Target &target) {
    pipeline().compile_to_assembly(filename, args, name_or(*this, fn_name), target);
}

void Func::compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                               const Target &target) {
    compile_to_assembly(filename, args, "", target);
}

void Func::compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                    const std::string &fn_name, const Target &target) {
    pipeline().compile_to_llvm_assembly(filename, args, name_or(*this, fn_name), target);
}

void Func::compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                    const Target &target) {
    compile_to_llvm_assembly(filename, args, "", target);
}

void Func::compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                              const std::string &fn_name, const Target &target) {
    pipeline().compile_to_bitcode(filename, args, name_or(*this, fn_name), target);
}

void Func::compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                              const Target &target) {
    compile_to_bitcode(filename, args, "", target);
}

void Func::compile_to_c(const std::string &filename, const std::vector<Argument> &args,
                        const std::string &fn_name, const Target &target) {
    pipeline().compile_to_c(filename, args, name_or(*this, fn_name), target);
}

Module Func::compile_to_module(const std::vector<Argument> &args, const std::string &fn_name,
                               const Target &target) {
    return pipeline().compile_to_module(args, name_or(*this, fn_name), target);
}

void Func::compile_to(const std::map<OutputFileType, std::string> &output_files,
                      const std::vector<Argument> &args, const std::string &fn_name,
                      const Target &target) {
    pipeline().compile_to(output_files, args, name_or(*this, fn_name), target);
}

} // namespace loom
