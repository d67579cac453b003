#include <loom/pipeline.h>

#include <loom/buffer.h>
#include <loom/image_param.h>

#include "driver/jit.h"
#include "driver/jit_call_context.h"
#include "driver/pipeline_contents.h"
#include "ir/ir_printer.h"
#include "lower/infer_arguments.h"
#include "lower/lower.h"
#include "lower/output_buffers.h"
#include "lower/print_loop_nest.h"
#include "support/error.h"
#include "support/util.h"

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

namespace loom {

using namespace internal;

namespace internal {

PipelineContents &pipeline_contents(const IntrusivePtr<RefCounted> &p) {
    user_assert(p.defined()) << "Can't use an undefined Pipeline.\n";
    return *static_cast<PipelineContents *>(p.get());
}

void check_outputs_defined(const PipelineContents &c) {
    for (const Function &f : c.outputs) {
        user_assert(f.has_pure_definition())
            << "Can't realize or compile Func " << f.name() << ": it has no definition.\n";
    }
}

} // namespace internal

namespace {

/// The C name of the compiled function.
std::string function_name(const PipelineContents &c) {
    return "loom_" +
           c_identifier(c.outputs.empty() ? std::string("pipeline") : c.outputs[0].name());
}

/// The Funcs a compilation depends on, with their versions.
std::vector<std::pair<Function, uint64_t>> snapshot(const PipelineContents &c) {
    std::vector<std::pair<Function, uint64_t>> s;
    for (const auto &kv : find_transitive_calls(c.outputs)) {
        s.emplace_back(kv.second, kv.second.version());
    }
    return s;
}

bool same_snapshot(const std::vector<std::pair<Function, uint64_t>> &a,
                   const std::vector<std::pair<Function, uint64_t>> &b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); i++) {
        if (!a[i].first.same_as(b[i].first) || a[i].second != b[i].second) return false;
    }
    return true;
}

/// The buffer constraints and scalar ranges of the parameters `f` takes (and of the outputs'
/// buffers), printed: the compiled code checks them, so a change needs a recompile.
std::string constraints_key(const PipelineContents &c, const LoweredFunc &f) {
    std::ostringstream key;
    auto add_buffer = [&](const Parameter &p) {
        key << p.name() << ":";
        for (int d = 0; d < p.dimensions(); d++) {
            key << "[" << p.min_constraint(d) << "," << p.extent_constraint(d) << ","
                << p.stride_constraint(d) << "]";
        }
        key << ";";
    };
    for (const LoweredArgument &a : f.args) {
        if (!a.param.defined()) continue;
        if (a.param.is_buffer()) {
            add_buffer(a.param);
        } else {
            key << a.name << ":" << a.param.min_value() << "," << a.param.max_value() << ";";
        }
    }
    for (const Function &o : c.outputs) {
        for (int i = 0; i < o.outputs(); i++) {
            Parameter p = find_output_buffer_parameter(o, i);
            if (p.defined()) add_buffer(p);
        }
    }
    return key.str();
}

/// A bounds-query halide_buffer_t (null host) with its own dimension array.
struct QueryBuffer {
    halide_buffer_t buf{};
    std::vector<halide_dimension_t> dims;
    QueryBuffer(Type t, int d) : dims(d) {
        buf.type = t;
        buf.dimensions = d;
        buf.dim = dims.empty() ? nullptr : dims.data();
    }
    QueryBuffer(const QueryBuffer &) = delete;
};

/// Bounds-query buffers of the shape [0, sizes[d]) (dense) for every output, one per Func and
/// Tuple element, and their raw pointers in *raw; `caller` names the API in the error for a
/// wrong number of sizes.
std::vector<std::unique_ptr<QueryBuffer>> output_queries(const PipelineContents &c,
                                                         const std::vector<int32_t> &sizes,
                                                         const char *caller,
                                                         std::vector<halide_buffer_t *> *raw) {
    std::vector<std::unique_ptr<QueryBuffer>> queries;
    for (const Function &f : c.outputs) {
        user_assert((int)sizes.size() == f.dimensions())
            << "Func " << f.name() << " has " << f.dimensions() << " dimension"
            << (f.dimensions() == 1 ? "" : "s") << ", but " << caller << " was given "
            << sizes.size() << " size" << (sizes.size() == 1 ? "" : "s")
            << ". Pass one size per dimension.\n";
        for (const Type &t : f.output_types()) {
            queries.emplace_back(new QueryBuffer(t, f.dimensions()));
            int stride = 1;
            for (int d = 0; d < f.dimensions(); d++) {
                queries.back()->dims[d] = halide_dimension_t(0, sizes[d], stride);
                stride *= sizes[d];
            }
            raw->push_back(&queries.back()->buf);
        }
    }
    return queries;
}

/// Runs the compiled code with `ctx` as its user context; a nonzero result throws RuntimeError
/// with the runtime's message, unless a custom error handler took the error.
void call(const PipelineContents::Compiled &compiled, std::vector<void *> &argv,
          const JITCallContext &ctx) {
    void *user_context = ctx.get();
    argv[0] = &user_context; // args[0] points at __user_context
    int rc = compiled.module->argv_function()(argv.data());
    report_jit_profile(compiled.target, user_context);
    if (rc != 0 && !ctx.has_custom_error()) {
        std::string msg = ctx.error_messages();
        if (msg.empty())
            msg = "Pipeline " + compiled.lowered.name + " failed with error code " +
                  std::to_string(rc);
        throw RuntimeError(msg);
    }
}

} // namespace

Pipeline::Pipeline() = default;

Pipeline::Pipeline(const Func &output) : Pipeline(std::vector<Func>{output}) {}

Pipeline::Pipeline(const std::vector<Func> &outputs) {
    PipelineContents *c = new PipelineContents;
    contents = c;
    for (const Func &f : outputs) c->outputs.push_back(f.function());
}

bool Pipeline::defined() const { return contents.defined(); }

std::vector<Func> Pipeline::outputs() const {
    std::vector<Func> fs;
    for (const Function &f : pipeline_contents(contents).outputs) fs.push_back(Func(f));
    return fs;
}

void Pipeline::trace_pipeline() { pipeline_contents(contents).trace_pipeline = true; }

namespace {

/// Gives the arguments recorded with a definition (JITModule::load_definition) the Parameters
/// of c's inputs of the same names; false when one has none of the same kind, type and
/// dimensions (the recording then goes unused).
bool bind_recorded_arguments(const PipelineContents &c, std::vector<LoweredArgument> &args) {
    std::map<std::string, LoweredArgument> inputs;
    for (const LoweredArgument &a : input_arguments(c)) inputs.emplace(a.name, a);
    for (LoweredArgument &a : args) {
        if (a.kind == LoweredArgument::OutputBuffer || a.name == "__user_context") continue;
        auto it = inputs.find(a.name);
        if (it == inputs.end() || it->second.kind != a.kind || it->second.type != a.type ||
            (a.is_buffer() && it->second.dimensions != a.dimensions)) {
            return false;
        }
        a.param = it->second.param;
    }
    return true;
}

} // namespace

void Pipeline::compile_jit(const Target &requested) {
    PipelineContents &c = pipeline_contents(contents);
    // The default Target means the one compiled for last (as in Halide: compile_jit(t) then
    // realize() runs the code compiled for t), else HL_JIT_TARGET's.
    const bool unspecified = requested == get_host_target();
    Target target = unspecified && c.compiled ? c.compiled->target : jit_target_for(requested);
    if (c.trace_pipeline) target = target.with_feature(Target::TracePipeline);
    check_outputs_defined(c);
    auto funcs = snapshot(c);
    if (c.compiled && c.compiled->target == target && same_snapshot(c.compiled->funcs, funcs) &&
        constraints_key(c, c.compiled->lowered) == c.compiled->constraints) {
        return;
    }
    auto compiled = std::make_unique<PipelineContents::Compiled>();
    compiled->target = target;
    compiled->funcs = funcs;
    const std::map<std::string, void *> externs = jit_extern_addresses(c.jit_externs);
    // A process that compiled the same definition before recorded its lowered arguments and
    // object file in the disk cache: then neither lowering nor LLVM runs. LOOM_DEBUG_LOWERING
    // and LOOM_DUMP_LLVM ask to see them run.
    const std::string definition = !JITModule::disk_cache_on() ||
                                           get_env("LOOM_DEBUG_LOWERING") == "1" ||
                                           get_env("LOOM_DUMP_LLVM") == "1"
                                       ? std::string()
                                       : definition_bytes(c);
    if (!definition.empty()) {
        auto recorded = JITModule::load_definition(definition, function_name(c), target, externs);
        if (recorded && bind_recorded_arguments(c, recorded->args)) {
            compiled->lowered.name = function_name(c);
            compiled->lowered.args = std::move(recorded->args);
            compiled->module = recorded->module;
        }
    }
    if (!compiled->module) {
        auto start = std::chrono::steady_clock::now();
        compiled->lowered = lower(c.outputs, function_name(c), target, c.requirements);
        if (get_env("LOOM_TIME_PASSES") == "1") {
            std::cerr << "[lower " << compiled->lowered.name << "] total: "
                      << std::chrono::duration<double, std::milli>(
                             std::chrono::steady_clock::now() - start)
                             .count()
                      << " ms\n";
        }
        compiled->module = JITModule::compile(compiled->lowered, target, externs);
        if (!definition.empty()) {
            JITModule::record_definition(definition, compiled->lowered, target, externs);
        }
    }
    compiled->constraints = constraints_key(c, compiled->lowered);
    c.compiled = std::move(compiled);
}

void Pipeline::invalidate_cache() {
    if (contents.defined()) pipeline_contents(contents).compiled.reset();
}

Realization Pipeline::realize(std::vector<int32_t> sizes, const Target &target) {
    return realize(nullptr, std::move(sizes), target);
}

namespace {

/// argv for the compiled code. `outputs` are the output buffers; `queries` (may be null)
/// replace unbound ImageParams by bounds-query buffers.
std::vector<void *> build_argv(const PipelineContents::Compiled &compiled,
                               const std::vector<halide_buffer_t *> &outputs,
                               std::map<std::string, QueryBuffer *> *queries,
                               std::vector<Buffer<void>> &keep_alive) {
    std::vector<void *> argv;
    size_t next_output = 0;
    size_t num_outputs = 0;
    for (const LoweredArgument &a : compiled.lowered.args) {
        num_outputs += a.kind == LoweredArgument::OutputBuffer;
    }
    user_assert(outputs.size() == num_outputs)
        << "The pipeline has " << num_outputs << " output buffer" << (num_outputs == 1 ? "" : "s")
        << " (one per Func and Tuple element), but realize was given " << outputs.size() << ".\n";
    for (const LoweredArgument &a : compiled.lowered.args) {
        if (a.name == "__user_context") {
            argv.push_back(nullptr);
        } else if (a.kind == LoweredArgument::Scalar) {
            argv.push_back(a.param.scalar_address());
        } else if (a.kind == LoweredArgument::InputBuffer) {
            if (queries && queries->count(a.name)) {
                argv.push_back(&queries->at(a.name)->buf);
                continue;
            }
            Buffer<void> b = a.param.buffer();
            user_assert(b.defined())
                << "ImageParam " << a.name << " is not bound to a Buffer. Call " << a.name
                << ".set(buffer) before realizing (or infer_input_bounds to allocate one).\n";
            keep_alive.push_back(b);
            argv.push_back(b.raw_buffer());
        } else {
            halide_buffer_t *out = outputs[next_output++];
            argv.push_back(out);
        }
    }
    return argv;
}

} // namespace

Realization Pipeline::realize(JITUserContext *context, std::vector<int32_t> sizes,
                              const Target &target) {
    PipelineContents &c = pipeline_contents(contents);
    check_outputs_defined(c);
    std::vector<int> shape(sizes.begin(), sizes.end());
    // As Halide: a bounds query first, since the schedule may compute (and store) more than the
    // requested region (an update vectorized with TailStrategy::RoundUp writes whole vectors);
    // the outputs are allocated with the queried shape and cropped back to the request.
    std::vector<halide_buffer_t *> raw;
    std::vector<std::unique_ptr<QueryBuffer>> queries = output_queries(c, sizes, "realize", &raw);
    compile_jit(target);
    if (!target.has_feature(Target::NoBoundsQuery)) {
        std::vector<Buffer<void>> keep_alive;
        std::vector<void *> argv = build_argv(*c.compiled, raw, nullptr, keep_alive);
        JITCallContext ctx(context, c.jit_handlers);
        call(*c.compiled, argv, ctx);
    }
    std::vector<Buffer<void>> buffers;
    bool needs_crop = false;
    for (const std::unique_ptr<QueryBuffer> &q : queries) {
        std::vector<int> extents, mins;
        bool covers_request = true;
        for (size_t d = 0; d < q->dims.size(); d++) {
            const halide_dimension_t &dim = q->dims[d];
            extents.push_back(dim.extent);
            mins.push_back(dim.min);
            covers_request = covers_request && dim.min <= 0 && dim.min + dim.extent >= shape[d];
        }
        if (!covers_request) {
            // The query moved the region off the request (an output constraint such as
            // dim(0).set_min(5)): allocate the request itself, and the pipeline's own checks
            // report whether it can compute it.
            extents = shape;
            mins.assign(shape.size(), 0);
        }
        buffers.emplace_back(q->buf.type, extents);
        if (!mins.empty()) buffers.back().set_min(mins);
        needs_crop = needs_crop || extents != shape || mins != std::vector<int>(shape.size(), 0);
    }
    Realization r(buffers);
    realize(context, RealizationArg(r), target);
    // Buffers this call allocated come back valid on the host (outputs computed on a GPU are
    // left device-dirty by the pipeline, as in Halide); outputs the caller passes stay as the
    // pipeline leaves them.
    for (Buffer<void> &b : buffers) {
        int err = b.copy_to_host();
        user_assert(err == 0) << "realize: copying output " << b.name()
                              << " from the device to the host failed (error " << err << ").\n";
    }
    if (needs_crop) {
        std::vector<std::pair<int, int>> requested;
        for (int extent : shape) requested.emplace_back(0, extent);
        for (Buffer<void> &b : buffers) b.crop(requested);
        return Realization(buffers);
    }
    return r;
}

void Pipeline::realize(RealizationArg outputs, const Target &target) {
    realize(nullptr, std::move(outputs), target);
}

void Pipeline::realize(JITUserContext *context, RealizationArg outputs, const Target &target) {
    compile_jit(target);
    PipelineContents &c = pipeline_contents(contents);
    std::vector<Buffer<void>> keep_alive;
    std::vector<halide_buffer_t *> raw = outputs.raw_buffers();
    std::vector<void *> argv = build_argv(*c.compiled, raw, nullptr, keep_alive);
    JITCallContext ctx(context, c.jit_handlers);
    call(*c.compiled, argv, ctx);
}

namespace {

/// Halide's infer_input_bounds protocol: run the pipeline with a bounds-query buffer for every
/// unbound ImageParam (repeating until the shapes settle, since one input's required region
/// may depend on another's shape), then bind a Buffer of each queried shape.
void bind_queried_inputs(PipelineContents &c, const std::vector<halide_buffer_t *> &outputs,
                         JITUserContext *context) {
    std::vector<std::unique_ptr<QueryBuffer>> in_queries;
    std::map<std::string, QueryBuffer *> queries;
    for (const LoweredArgument &a : c.compiled->lowered.args) {
        if (a.kind != LoweredArgument::InputBuffer || a.param.buffer().defined()) continue;
        in_queries.emplace_back(new QueryBuffer(a.type, a.dimensions));
        queries[a.name] = in_queries.back().get();
    }
    if (queries.empty()) return;
    for (int iter = 0; iter < 16; iter++) {
        std::vector<std::vector<halide_dimension_t>> before;
        for (auto &q : in_queries) before.push_back(q->dims);
        std::vector<Buffer<void>> keep_alive;
        std::vector<void *> argv = build_argv(*c.compiled, outputs, &queries, keep_alive);
        JITCallContext ctx(context, c.jit_handlers);
        call(*c.compiled, argv, ctx);
        bool changed = false;
        for (size_t i = 0; i < in_queries.size(); i++) changed |= in_queries[i]->dims != before[i];
        if (!changed) break;
    }
    for (const LoweredArgument &a : c.compiled->lowered.args) {
        auto it = queries.find(a.name);
        if (it == queries.end()) continue;
        std::vector<int> extents, mins;
        for (const halide_dimension_t &d : it->second->dims) {
            extents.push_back(d.extent);
            mins.push_back(d.min);
        }
        Buffer<void> b(a.type, extents);
        if (!mins.empty()) b.set_min(mins);
        Parameter p = a.param;
        p.set_buffer(b);
    }
}

} // namespace

void Pipeline::infer_input_bounds(const std::vector<int32_t> &sizes, const Target &target) {
    infer_input_bounds(nullptr, sizes, target);
}

void Pipeline::infer_input_bounds(JITUserContext *context, const std::vector<int32_t> &sizes,
                                  const Target &target) {
    PipelineContents &c = pipeline_contents(contents);
    check_outputs_defined(c);
    // The outputs are bounds queries too, of the requested shape.
    std::vector<halide_buffer_t *> raw;
    std::vector<std::unique_ptr<QueryBuffer>> out_queries =
        output_queries(c, sizes, "infer_input_bounds", &raw);
    compile_jit(target);
    bind_queried_inputs(c, raw, context);
}

void Pipeline::infer_input_bounds(RealizationArg outputs, const Target &target) {
    infer_input_bounds(nullptr, std::move(outputs), target);
}

void Pipeline::infer_input_bounds(JITUserContext *context, RealizationArg outputs,
                                  const Target &target) {
    compile_jit(target);
    bind_queried_inputs(pipeline_contents(contents), outputs.raw_buffers(), context);
}

std::vector<LoweredArgument> internal::input_arguments(const PipelineContents &c) {
    std::vector<Expr> extra;
    for (const Requirement &r : c.requirements) {
        extra.push_back(r.condition);
        extra.insert(extra.end(), r.error_args.begin(), r.error_args.end());
    }
    return infer_input_arguments(c.outputs, find_transitive_calls(c.outputs), extra);
}

std::vector<Argument> Pipeline::infer_arguments() {
    PipelineContents &c = pipeline_contents(contents);
    check_outputs_defined(c);
    std::vector<Argument> result;
    for (const LoweredArgument &a : input_arguments(c)) {
        result.emplace_back(a.name, a.is_buffer() ? Argument::InputBuffer : Argument::InputScalar,
                            a.type, a.dimensions);
    }
    return result;
}

void Pipeline::print_loop_nest() {
    PipelineContents &c = pipeline_contents(contents);
    check_outputs_defined(c);
    std::cerr << internal::print_loop_nest(c.outputs);
}

// compile_to_lowered_stmt is in pipeline_aot.cpp with the other compile_to_* members.

void Pipeline::add_requirement(const Expr &condition, const std::vector<Expr> &error_args) {
    PipelineContents &c = pipeline_contents(contents);
    user_assert(condition.defined() && condition.type().is_bool())
        << "Pipeline::add_requirement needs a boolean condition.\n";
    c.requirements.push_back(Requirement{condition, error_args});
    invalidate_cache();
}

} // namespace loom
