#ifndef LOOM_PIPELINE_H
#define LOOM_PIPELINE_H

/// \file Pipeline: one or more output Funcs compiled and run together (Halide's Pipeline). A
/// Func's own realize/compile_jit/... forward to a Pipeline of that one Func.

#include <loom/argument.h>
#include <loom/autoscheduler.h>
#include <loom/extern.h>
#include <loom/func.h>
#include <loom/jit_handlers.h>
#include <loom/module.h>
#include <loom/realization.h>
#include <loom/target.h>

#include <map>
#include <string>
#include <vector>

namespace loom {

class Callable;

class Pipeline {
public:
    /// An empty pipeline (defined() is false).
    Pipeline();
    /// A pipeline computing one Func.
    Pipeline(const Func &output);
    /// A pipeline computing several Funcs together (one output buffer per Func, or per Tuple
    /// element of each Func, in order).
    Pipeline(const std::vector<Func> &outputs);

    bool defined() const;
    /// The output Funcs.
    std::vector<Func> outputs() const;
    /// The index-th Func of the pipeline in realization order (producers first, outputs last):
    /// what autoscheduler-written schedule source uses to name Funcs.
    Func get_func(size_t index);

    /// Schedule every Func of the pipeline with the named autoscheduler (see
    /// <loom/autoscheduler.h>), replacing the schedules it had. Needs estimates for every output
    /// dimension and for the inputs whose sizes bounds inference cannot derive.
    AutoSchedulerResults apply_autoscheduler(const Target &target,
                                             const AutoschedulerParams &autoscheduler_params) const;
    /// Register a scheduler under a new name (an existing name is a CompileError).
    static void add_autoscheduler(const std::string &autoscheduler_name,
                                  const AutoSchedulerFn &autoscheduler);

    /// Compute the outputs over [0, size) in each dimension (all outputs must have the same
    /// dimensionality) into newly allocated Buffers.
    Realization realize(std::vector<int32_t> sizes = {}, const Target &target = Target());
    /// Compute the outputs into existing buffers, over their whole shape.
    void realize(RealizationArg outputs, const Target &target = Target());

    /// Run the pipeline in bounds-query mode for outputs of the given sizes, then allocate
    /// and bind a Buffer of the required shape to every ImageParam that has none.
    void infer_input_bounds(const std::vector<int32_t> &sizes = {},
                            const Target &target = Target());
    /// The same for outputs given as buffers (which may themselves be bounds queries).
    void infer_input_bounds(RealizationArg outputs, const Target &target = Target());

    /// realize / infer_input_bounds with a JITUserContext passed to the compiled code and to
    /// the handlers (null: as without one). See <loom/jit_handlers.h>.
    Realization realize(JITUserContext *context, std::vector<int32_t> sizes = {},
                        const Target &target = Target());
    void realize(JITUserContext *context, RealizationArg outputs, const Target &target = Target());
    void infer_input_bounds(JITUserContext *context, const std::vector<int32_t> &sizes,
                            const Target &target = Target());
    void infer_input_bounds(JITUserContext *context, RealizationArg outputs,
                            const Target &target = Target());

    /// C functions that calls to these names (HalideExtern, define_extern) resolve to, ahead of
    /// the process's own symbols. Replaces the previous map; the next realize recompiles.
    void set_jit_externs(const std::map<std::string, JITExtern> &externs);
    /// The map given to set_jit_externs (empty when none).
    const std::map<std::string, JITExtern> &get_jit_externs();
    /// The run-time hooks used by this pipeline's realize calls (mutable; takes effect at the
    /// next realize).
    JITHandlers &jit_handlers();

    /// Lower and JIT-compile now (realize does it on demand; compiled code is cached until a
    /// Func of the pipeline changes, the target changes or invalidate_cache is called).
    void compile_jit(const Target &target = Target());
    /// The pipeline JIT-compiled as a function of `args` (in that order), then one output
    /// buffer per output Func and Tuple element: see <loom/callable.h>. A parameter the
    /// pipeline uses that `args` lacks is a CompileError, as for compile_to_file.
    Callable compile_to_callable(const std::vector<Argument> &args,
                                 const Target &target = Target());
    /// The arguments the compiled pipeline takes, excluding outputs: scalar Params and input
    /// buffers (ImageParams and Buffers used in the algorithm), in order of first use.
    std::vector<Argument> infer_arguments();
    /// Print the loop nest the schedule describes (produce/consume blocks and loops) to stderr,
    /// as Halide does; RVars show as their RDom's name.
    void print_loop_nest();
    /// Report the begin and end of every run of the JIT-compiled pipeline to halide_trace
    /// ("Begin pipeline f.0()"), as Target::TracePipeline does.
    void trace_pipeline();
    /// Write the final lowered statement (before code generation) to `filename`.
    void compile_to_lowered_stmt(const std::string &filename, const std::vector<Argument> &args,
                                 StmtOutputFormat fmt = StmtOutputFormat::Text,
                                 const Target &target = Target());
    /// Forget the compiled code, so the next realize recompiles.
    void invalidate_cache();

    // Ahead-of-time compilation (src/driver/pipeline_aot.cpp; the generated function's ABI is
    // in src/driver/aot_llvm.h). `args` are the inputs in the order the function takes them
    // (the outputs follow); `fn_name` defaults to the first output's name.

    /// The pipeline lowered for `target` as the function `fn_name` taking `args`.
    Module compile_to_module(const std::vector<Argument> &args, const std::string &fn_name,
                             const Target &target = get_target_from_environment(),
                             LinkageType linkage_type = LinkageType::ExternalPlusMetadata);
    /// Writes the files of the given types (compile_to_module(...).compile(output_files)).
    void compile_to(const std::map<OutputFileType, std::string> &output_files,
                    const std::vector<Argument> &args, const std::string &fn_name,
                    const Target &target = get_target_from_environment());
    /// `<prefix>.a` (the pipeline and, unless the target has no_runtime, the runtime) and
    /// `<prefix>.h`: a C or C++ program links the archive with -lm -lpthread -ldl, no libloom.
    void compile_to_static_library(const std::string &filename_prefix,
                                   const std::vector<Argument> &args, const std::string &fn_name,
                                   const Target &target = get_target_from_environment());
    /// `<prefix>.o` and `<prefix>.h.`
    void compile_to_file(const std::string &filename_prefix, const std::vector<Argument> &args,
                         const std::string &fn_name,
                         const Target &target = get_target_from_environment());
    /// One output each: an object file, the C header, target assembly, LLVM IR text, bitcode.
    void compile_to_object(const std::string &filename, const std::vector<Argument> &args,
                           const std::string &fn_name,
                           const Target &target = get_target_from_environment());
    void compile_to_header(const std::string &filename, const std::vector<Argument> &args,
                           const std::string &fn_name,
                           const Target &target = get_target_from_environment());
    void compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                             const std::string &fn_name,
                             const Target &target = get_target_from_environment());
    void compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                  const std::string &fn_name,
                                  const Target &target = get_target_from_environment());
    void compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                            const std::string &fn_name,
                            const Target &target = get_target_from_environment());
    /// The pipeline as one C99 translation unit that carries its runtime and builds with any C
    /// compiler (docs/c_backend.md); the header of compile_to_header declares it.
    void compile_to_c(const std::string &filename, const std::vector<Argument> &args,
                      const std::string &fn_name,
                      const Target &target = get_target_from_environment());

    /// A condition checked at the start of every run; when false the pipeline fails with
    /// halide_error_requirement_failed and the printed error arguments.
    void add_requirement(const Expr &condition, const std::vector<Expr> &error_args);
    template <typename... Args>
    void add_requirement(const Expr &condition, Args &&...error_args) {
        std::vector<Expr> collected;
        collect(collected, std::forward<Args>(error_args)...);
        add_requirement(condition, static_cast<const std::vector<Expr> &>(collected));
    }

    /// The internal state (a PipelineContents, src/driver/pipeline_contents.h).
    const internal::IntrusivePtr<internal::RefCounted> &get_contents() const { return contents; }
    /// Wraps existing internal state (used by Func::pipeline()).
    explicit Pipeline(const internal::IntrusivePtr<internal::RefCounted> &c) : contents(c) {}

private:
    static void collect(std::vector<Expr> &) {}
    template <typename... Args>
    static void collect(std::vector<Expr> &out, const char *s, Args &&...rest) {
        out.push_back(Expr(std::string(s)));
        collect(out, std::forward<Args>(rest)...);
    }
    template <typename... Args>
    static void collect(std::vector<Expr> &out, const std::vector<Expr> &v, Args &&...rest) {
        out.insert(out.end(), v.begin(), v.end());
        collect(out, std::forward<Args>(rest)...);
    }
    template <typename... Args>
    static void collect(std::vector<Expr> &out, std::vector<Expr> &v, Args &&...rest) {
        out.insert(out.end(), v.begin(), v.end());
        collect(out, std::forward<Args>(rest)...);
    }
    template <typename T, typename... Args>
    static void collect(std::vector<Expr> &out, T &&x, Args &&...rest) {
        out.push_back(Expr(std::forward<T>(x)));
        collect(out, std::forward<Args>(rest)...);
    }

    internal::IntrusivePtr<internal::RefCounted> contents;
};

} // namespace loom

#endif
