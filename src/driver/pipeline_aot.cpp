// Ahead-of-time compilation members of Pipeline (declared in <loom/pipeline.h>): each makes a
// Module for the given arguments and target and writes the requested files.
#include <loom/pipeline.h>

#include <loom/module.h>

#include "driver/aot_outputs.h"
#include "driver/module_contents.h"
#include "driver/pipeline_contents.h"
#include "ir/ir_printer.h"
#include "lower/lower.h"
#include "support/error.h"
#include "support/util.h"

#include <cctype>
#include <fstream>
#include <map>
#include <sstream>

namespace loom {

using namespace internal;

namespace {

bool is_c_identifier(const std::string &s) {
    if (s.empty() || isdigit((unsigned char)s[0])) return false;
    for (char c : s) {
        if (!isalnum((unsigned char)c) && c != '_') return false;
    }
    return true;
}

const char *kind_name(bool is_buffer) { return is_buffer ? "a buffer" : "a scalar"; }

std::string type_string(Type t) {
    std::ostringstream os;
    os << t;
    return os.str();
}

} // namespace

namespace internal {

Module make_aot_module(const std::vector<Function> &outputs,
                       const std::vector<Requirement> &requirements,
                       const std::vector<Argument> &args, const std::string &fn_name,
                       const Target &target, LinkageType linkage) {
    user_assert(is_c_identifier(fn_name))
        << "Can't compile a pipeline to a function named \"" << fn_name
        << "\": the name must be a C identifier (letters, digits and '_', not starting with "
           "a digit).\n";
    std::map<std::string, size_t> listed;
    for (size_t i = 0; i < args.size(); i++) {
        const Argument &a = args[i];
        user_assert(!a.is_output())
            << "Argument " << a.name << " of " << fn_name
            << " is an output buffer: list only the inputs; the outputs come last, one per "
               "output Func (or Tuple element).\n";
        user_assert(listed.emplace(a.name, i).second)
            << "Argument " << a.name << " appears twice in the argument list of " << fn_name
            << ".\n";
    }

    IntrusivePtr<ModuleContents> m(new ModuleContents);
    m->name = fn_name;
    m->target = target;
    m->lowered = lower(outputs, fn_name, target, requirements);
    m->external = linkage != LinkageType::Internal;
    m->with_argv =
        linkage == LinkageType::ExternalPlusArgv || linkage == LinkageType::ExternalPlusMetadata;
    m->with_metadata = linkage == LinkageType::ExternalPlusMetadata;

    // Where each listed argument goes in the lowered function (-1: unused).
    std::vector<int> lowered_index(args.size(), -1);
    std::vector<LoweredArgument> lowered_of(args.size());
    std::vector<AotArgument> outs;
    const std::vector<LoweredArgument> &la = m->lowered.args;
    for (size_t i = 1; i < la.size(); i++) {
        const LoweredArgument &a = la[i];
        if (a.kind == LoweredArgument::OutputBuffer) {
            outs.push_back(AotArgument{a, (int)i});
            continue;
        }
        auto it = listed.find(a.name);
        if (it == listed.end()) {
            if (a.is_buffer() && a.param.defined() && a.param.is_bound_buffer()) {
                m->embedded.push_back((int)i);
                continue;
            }
            user_error << "Generated code refers to " << (a.is_buffer() ? "image " : "parameter ")
                       << a.name << ", which was not found in the argument list.\n";
        }
        const Argument &u = args[it->second];
        user_assert(u.is_buffer() == a.is_buffer())
            << "Argument " << u.name << " of " << fn_name << " is listed as "
            << kind_name(u.is_buffer()) << ", but the pipeline uses it as "
            << kind_name(a.is_buffer()) << ".\n";
        user_assert(u.type == a.type)
            << "Argument " << u.name << " of " << fn_name << " is listed with type "
            << type_string(u.type) << ", but the pipeline uses it with type " << type_string(a.type)
            << ".\n";
        user_assert(!a.is_buffer() || u.dimensions == a.dimensions)
            << "Argument " << u.name << " of " << fn_name << " is listed with " << (int)u.dimensions
            << " dimensions, but the pipeline uses it with " << a.dimensions << ".\n";
        lowered_index[it->second] = (int)i;
        lowered_of[it->second] = a;
    }
    for (size_t i = 0; i < args.size(); i++) {
        AotArgument p;
        p.lowered_index = lowered_index[i];
        if (p.lowered_index >= 0) {
            p.arg = lowered_of[i];
        } else {
            p.arg.name = args[i].name;
            p.arg.kind =
                args[i].is_buffer() ? LoweredArgument::InputBuffer : LoweredArgument::Scalar;
            p.arg.type = args[i].type;
            p.arg.dimensions = args[i].dimensions;
        }
        m->public_args.push_back(p);
    }
    m->public_args.insert(m->public_args.end(), outs.begin(), outs.end());
    return Module(IntrusivePtr<RefCounted>(m.get()));
}

} // namespace internal

Module Pipeline::compile_to_module(const std::vector<Argument> &args, const std::string &fn_name,
                                   const Target &target, LinkageType linkage_type) {
    PipelineContents &c = pipeline_contents(contents);
    check_outputs_defined(c);
    std::string name = fn_name.empty() && !c.outputs.empty()
                           ? internal::c_identifier(c.outputs[0].name())
                           : fn_name;
    return make_aot_module(c.outputs, c.requirements, args, name, target, linkage_type);
}

void Pipeline::compile_to(const std::map<OutputFileType, std::string> &output_files,
                          const std::vector<Argument> &args, const std::string &fn_name,
                          const Target &target) {
    compile_to_module(args, fn_name, target).compile(output_files);
}

void Pipeline::compile_to_static_library(const std::string &filename_prefix,
                                         const std::vector<Argument> &args,
                                         const std::string &fn_name, const Target &target) {
    compile_to({{OutputFileType::static_library,
                 filename_prefix + output_file_extension(OutputFileType::static_library, target)},
                {OutputFileType::c_header,
                 filename_prefix + output_file_extension(OutputFileType::c_header, target)}},
               args, fn_name, target);
}

void Pipeline::compile_to_file(const std::string &filename_prefix,
                               const std::vector<Argument> &args, const std::string &fn_name,
                               const Target &target) {
    compile_to({{OutputFileType::object,
                 filename_prefix + output_file_extension(OutputFileType::object, target)},
                {OutputFileType::c_header,
                 filename_prefix + output_file_extension(OutputFileType::c_header, target)}},
               args, fn_name, target);
}

void Pipeline::compile_to_object(const std::string &filename, const std::vector<Argument> &args,
                                 const std::string &fn_name, const Target &target) {
    compile_to({{OutputFileType::object, filename}}, args, fn_name, target);
}

void Pipeline::compile_to_header(const std::string &filename, const std::vector<Argument> &args,
                                 const std::string &fn_name, const Target &target) {
    compile_to({{OutputFileType::c_header, filename}}, args, fn_name, target);
}

void Pipeline::compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                                   const std::string &fn_name, const Target &target) {
    compile_to({{OutputFileType::assembly, filename}}, args, fn_name, target);
}

void Pipeline::compile_to_llvm_assembly(const std::string &filename,
                                        const std::vector<Argument> &args,
                                        const std::string &fn_name, const Target &target) {
    compile_to({{OutputFileType::llvm_assembly, filename}}, args, fn_name, target);
}

void Pipeline::compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                                  const std::string &fn_name, const Target &target) {
    compile_to({{OutputFileType::bitcode, filename}}, args, fn_name, target);
}

void Pipeline::compile_to_c(const std::string &filename, const std::vector<Argument> &args,
                            const std::string &fn_name, const Target &target) {
    compile_to({{OutputFileType::c_source, filename}}, args, fn_name, target);
}

void Pipeline::compile_to_lowered_stmt(const std::string &filename,
                                       const std::vector<Argument> &args, StmtOutputFormat fmt,
                                       const Target &target) {
    PipelineContents &c = pipeline_contents(contents);
    check_outputs_defined(c);
    (void)args; // the statement is the same whatever the argument order
    std::string name = "loom_" + internal::c_identifier(c.outputs.empty() ? std::string("pipeline")
                                                                          : c.outputs[0].name());
    LoweredFunc f = lower(c.outputs, name, target, c.requirements);
    std::ofstream out(filename);
    user_assert(out.good()) << "compile_to_lowered_stmt: can't open " << filename << "\n";
    out << lowered_stmt_text(f, fmt == StmtOutputFormat::HTML, find_transitive_calls(c.outputs));
}

} // namespace loom
