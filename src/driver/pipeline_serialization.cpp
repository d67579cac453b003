// The public serialization API (<loom/serialization.h>): the Pipeline's own state around the
// front end's encoding (src/lang/serialization.h): requirements, output buffer constraints,
// trace_pipeline, and the refusal of what holds C function pointers.
#include <loom/serialization.h>

#include "driver/pipeline_contents.h"
#include "ir/ir_visitor.h"
#include "lang/serialization.h"
#include "lower/output_buffers.h"
#include "support/error.h"

#include <fstream>
#include <iterator>
#include <sstream>

namespace loom {

using namespace internal;

namespace {

/// The pipeline's outputs, for messages: "f" or "f, g".
std::string output_names(const PipelineContents &c) {
    std::string s;
    for (const Function &f : c.outputs) s += (s.empty() ? "" : ", ") + f.name();
    return s;
}

/// The Funcs of the pipeline that call the extern function `name` (by a call or as an extern
/// stage), for messages.
std::string callers_of(const PipelineContents &c, const std::string &name) {
    std::string s;
    for (const auto &kv : find_transitive_calls(c.outputs)) {
        const Function &f = kv.second;
        bool calls = f.extern_function_name() == name;
        auto check = [&](const Expr &e) {
            if (!e.defined()) return;
            visit_exprs(e, [&](const Expr &x) {
                const Call *call = x.as<Call>();
                calls = calls || (call && call->name == name && call->call_type != Call::Halide &&
                                  call->call_type != Call::Image);
                return !calls;
            });
        };
        for (int stage = 0; stage < num_stages(f); stage++) {
            const Definition &d = stage_definition(f, stage);
            for (const Expr &e : d.values) check(e);
            for (const Expr &e : d.args) check(e);
        }
        if (calls) s += (s.empty() ? "Func \"" : ", Func \"") + f.name() + "\"";
    }
    return s.empty() ? "no Func" : s;
}

/// A CompileError for state that only means something in this process.
void check_serializable(const PipelineContents &c) {
    const std::string cant = "Can't serialize the pipeline computing " + output_names(c) + ": ";
    for (const auto &kv : c.jit_externs) {
        user_error << cant << callers_of(c, kv.first) << " (calling the extern function \""
                   << kv.first << "\") would call the C function pointer given to "
                   << "set_jit_externs, and a pointer can't be serialized. Export the function "
                   << "from the program that deserializes (extern \"C\", linked with -rdynamic), "
                   << "or call set_jit_externs on the deserialized pipeline.\n";
    }
    const JITHandlers &h = c.jit_handlers;
    const std::pair<const char *, bool> handlers[] = {
        {"custom_print", h.custom_print != nullptr},
        {"custom_malloc", h.custom_malloc != nullptr},
        {"custom_free", h.custom_free != nullptr},
        {"custom_do_task", h.custom_do_task != nullptr},
        {"custom_do_par_for", h.custom_do_par_for != nullptr},
        {"custom_error", h.custom_error != nullptr},
        {"custom_trace", h.custom_trace != nullptr},
        {"custom_get_symbol", h.custom_get_symbol != nullptr},
        {"custom_load_library", h.custom_load_library != nullptr},
        {"custom_get_library_symbol", h.custom_get_library_symbol != nullptr}};
    for (const auto &handler : handlers) {
        user_assert(!handler.second)
            << cant << "its jit_handlers()." << handler.first << " is a C function pointer, "
            << "which can't be serialized. Set the handler on the deserialized pipeline.\n";
    }
}

/// c's definition as bytes (without the refusal of what only this process can run).
std::vector<uint8_t> serialize_contents(const PipelineContents &c,
                                        std::map<std::string, Parameter> *params) {
    PipelineDefinition def;
    def.outputs = c.outputs;
    for (const Requirement &r : c.requirements) {
        def.requirements.emplace_back(r.condition, r.error_args);
    }
    for (const Function &f : c.outputs) {
        std::vector<Parameter> buffers;
        for (int i = 0; i < f.outputs(); i++) {
            buffers.push_back(find_output_buffer_parameter(f, i));
        }
        // Only outputs whose output_buffer() was asked for carry constraints.
        bool any = false;
        for (const Parameter &p : buffers) any = any || p.defined();
        def.output_buffers.push_back(any ? buffers : std::vector<Parameter>());
    }
    def.trace_pipeline = c.trace_pipeline;
    return serialize_definition(def, params);
}

std::vector<uint8_t> serialize(const Pipeline &pipeline, std::map<std::string, Parameter> *params) {
    const PipelineContents &c = pipeline_contents(pipeline.get_contents());
    check_serializable(c);
    return serialize_contents(c, params);
}

Pipeline deserialize(const std::vector<uint8_t> &data,
                     const std::map<std::string, Parameter> &user_params,
                     std::map<std::string, Parameter> *params) {
    PipelineDefinition def = deserialize_definition(data.data(), data.size(), user_params, params);
    std::vector<Func> outputs;
    for (const Function &f : def.outputs) outputs.push_back(Func(f));
    Pipeline p(outputs);
    PipelineContents &c = pipeline_contents(p.get_contents());
    for (const auto &r : def.requirements) c.requirements.push_back({r.first, r.second});
    c.trace_pipeline = def.trace_pipeline;
    for (size_t i = 0; i < def.outputs.size(); i++) {
        const Function &f = def.outputs[i];
        const std::vector<Parameter> &buffers = def.output_buffers[i];
        if (buffers.empty()) continue;
        user_assert(buffers.size() == (size_t)f.outputs() && f.has_pure_definition())
            << "Can't deserialize the pipeline: the data is corrupt (the output buffers of Func \""
            << f.name() << "\" do not match its outputs).\n";
        for (int k = 0; k < f.outputs(); k++) {
            const Parameter &from = buffers[k];
            if (!from.defined()) continue;
            Parameter to = output_buffer_parameter(f, k);
            user_assert(from.is_buffer() && from.dimensions() == to.dimensions())
                << "Can't deserialize the pipeline: the data is corrupt (output buffer " << k
                << " of Func \"" << f.name() << "\" has the wrong shape).\n";
            for (int d = 0; d < to.dimensions(); d++) {
                to.set_min_constraint(d, from.min_constraint(d));
                to.set_extent_constraint(d, from.extent_constraint(d));
                to.set_stride_constraint(d, from.stride_constraint(d));
                to.set_min_constraint_estimate(d, from.min_constraint_estimate(d));
                to.set_extent_constraint_estimate(d, from.extent_constraint_estimate(d));
            }
            to.set_host_alignment(from.host_alignment());
        }
    }
    return p;
}

std::vector<uint8_t> read_all(std::istream &in, const std::string &what) {
    std::vector<uint8_t> data((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
    user_assert(!in.bad()) << "Can't deserialize the pipeline: reading " << what << " failed.\n";
    return data;
}

std::vector<uint8_t> read_file(const std::string &filename) {
    std::ifstream in(filename, std::ios::binary);
    user_assert(in.is_open()) << "Can't deserialize the pipeline: can't open \"" << filename
                              << "\" for reading.\n";
    return read_all(in, "\"" + filename + "\"");
}

void write_file(const std::vector<uint8_t> &data, const std::string &filename) {
    std::ofstream out(filename, std::ios::binary | std::ios::trunc);
    user_assert(out.is_open()) << "Can't serialize the pipeline: can't open \"" << filename
                               << "\" for writing.\n";
    out.write((const char *)data.data(), (std::streamsize)data.size());
    out.close();
    user_assert(out.good()) << "Can't serialize the pipeline: writing \"" << filename
                            << "\" failed.\n";
}

} // namespace

std::string internal::definition_bytes(const PipelineContents &c) {
    try {
        std::vector<uint8_t> bytes = serialize_contents(c, nullptr);
        return std::string(bytes.begin(), bytes.end());
    } catch (const Error &) {
        // E.g. a Handle Param holding a pointer: the pipeline is compiled as usual, without a
        // record.
        return std::string();
    }
}

void serialize_pipeline(const Pipeline &pipeline, std::vector<uint8_t> &data) {
    data = serialize(pipeline, nullptr);
}

void serialize_pipeline(const Pipeline &pipeline, std::vector<uint8_t> &data,
                        std::map<std::string, Parameter> &params) {
    data = serialize(pipeline, &params);
}

void serialize_pipeline(const Pipeline &pipeline, const std::string &filename) {
    write_file(serialize(pipeline, nullptr), filename);
}

void serialize_pipeline(const Pipeline &pipeline, const std::string &filename,
                        std::map<std::string, Parameter> &params) {
    write_file(serialize(pipeline, &params), filename);
}

Pipeline deserialize_pipeline(const std::vector<uint8_t> &data,
                              const std::map<std::string, Parameter> &user_params) {
    return deserialize(data, user_params, nullptr);
}

Pipeline deserialize_pipeline(const std::string &filename,
                              const std::map<std::string, Parameter> &user_params) {
    return deserialize(read_file(filename), user_params, nullptr);
}

Pipeline deserialize_pipeline(std::istream &in,
                              const std::map<std::string, Parameter> &user_params) {
    return deserialize(read_all(in, "the stream"), user_params, nullptr);
}

std::map<std::string, Parameter> deserialize_parameters(const std::vector<uint8_t> &data) {
    std::map<std::string, Parameter> params;
    deserialize_definition(data.data(), data.size(), {}, &params);
    return params;
}

std::map<std::string, Parameter> deserialize_parameters(const std::string &filename) {
    return deserialize_parameters(read_file(filename));
}

std::map<std::string, Parameter> deserialize_parameters(std::istream &in) {
    return deserialize_parameters(read_all(in, "the stream"));
}

} // namespace loom
