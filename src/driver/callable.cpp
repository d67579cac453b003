// Callable (include/loom/callable.h) and compile_to_callable: the pipeline lowered with the
// user's argument list as for an ahead-of-time function (make_aot_module), JIT-compiled, and
// called through its argv entry point with the arguments put in lowering's order.
#include <loom/callable.h>
#include <loom/func.h>
#include <loom/pipeline.h>

#include "driver/aot_outputs.h"
#include "driver/jit.h"
#include "driver/jit_call_context.h"
#include "driver/module_contents.h"
#include "driver/pipeline_contents.h"
#include "support/error.h"
#include "support/util.h"

#include <sstream>

namespace loom {

namespace internal {

struct CallableContents {
    std::string name;
    ModuleContents module;
    std::shared_ptr<JITModule> jit;
    JITHandlers handlers;
    /// The Buffers the algorithm uses that the argument list does not name, passed in their
    /// place on every call (an ahead-of-time function embeds them).
    std::vector<std::pair<int, Buffer<void>>> embedded;
};

} // namespace internal

using namespace internal;

namespace {

std::string describe(const Callable::ArgKind &k) {
    switch (k.kind) {
    case Callable::ArgKind::Context:
        return "a JITUserContext*";
    case Callable::ArgKind::Buffer:
        return "a buffer";
    default:
        break;
    }
    std::ostringstream s;
    s << "a scalar of type " << Type(k.type);
    return s.str();
}

} // namespace

Callable::Callable() = default;

Callable::Callable(std::shared_ptr<CallableContents> c) : contents(std::move(c)) {}

bool Callable::defined() const { return contents != nullptr; }

std::string Callable::check(size_t argc, const ArgKind *kinds) const {
    if (!contents) return "Can't call an undefined Callable: make one with compile_to_callable.\n";
    const std::vector<AotArgument> &args = contents->module.public_args;
    std::ostringstream msg;
    if (argc - 1 != args.size()) {
        msg << "Callable " << contents->name << " takes " << args.size() << " argument"
            << (args.size() == 1 ? "" : "s")
            << " (those given to compile_to_callable, then one buffer per output), but was "
               "given "
            << argc - 1 << ".\n";
        return msg.str();
    }
    for (size_t i = 0; i < args.size(); i++) {
        const LoweredArgument &a = args[i].arg;
        const ArgKind &k = kinds[i + 1];
        ArgKind expected{a.is_buffer() ? ArgKind::Buffer : ArgKind::Scalar, a.type};
        bool ok = k.kind == expected.kind && (k.kind != ArgKind::Scalar || Type(k.type) == a.type);
        if (!ok) {
            msg << "Argument " << i + 1 << " of Callable " << contents->name << " (" << a.name
                << ") must be " << describe(expected) << ", but was given " << describe(k) << ".\n";
            return msg.str();
        }
    }
    return "";
}

int Callable::report(JITUserContext *context, const std::string &message) const {
    JITCallContext ctx(context, contents ? contents->handlers : JITHandlers());
    if (!ctx.has_custom_error()) throw RuntimeError(message);
    ctx.get()->handlers.custom_error(ctx.get(), message.c_str());
    return halide_error_code_generic_error;
}

int Callable::call_checked(size_t argc, const ArgKind *kinds, const void *const *argv) const {
    std::string mismatch = check(argc, kinds);
    if (!mismatch.empty()) return report(*(JITUserContext *const *)argv[0], mismatch);
    return call_argv_fast(argc, argv);
}

int Callable::call_argv_fast(size_t argc, const void *const *argv) const {
    user_assert(contents) << "Can't call an undefined Callable: make one with "
                             "compile_to_callable.\n";
    const ModuleContents &m = contents->module;
    user_assert(argc == m.public_args.size() + 1)
        << "Callable " << contents->name << " takes " << m.public_args.size() + 1
        << " argv entries (the JITUserContext** first, then one per argument and output), but "
           "call_argv_fast was given "
        << argc << ".\n";
    JITCallContext ctx(argv[0] ? *(JITUserContext *const *)argv[0] : nullptr, contents->handlers);
    std::vector<void *> lowered(m.lowered.args.size(), nullptr);
    void *user_context = ctx.get();
    lowered[0] = &user_context; // points at __user_context
    for (size_t i = 0; i < m.public_args.size(); i++) {
        int at = m.public_args[i].lowered_index;
        if (at >= 0) lowered[at] = const_cast<void *>(argv[i + 1]);
    }
    for (const auto &e : contents->embedded) lowered[e.first] = e.second.raw_buffer();
    int rc = contents->jit->argv_function()(lowered.data());
    report_jit_profile(m.target, user_context);
    if (rc != 0 && !ctx.has_custom_error()) {
        std::string msg = ctx.error_messages();
        if (msg.empty()) {
            msg = "Callable " + contents->name + " failed with error code " + std::to_string(rc);
        }
        throw RuntimeError(msg);
    }
    return rc;
}

Callable Pipeline::compile_to_callable(const std::vector<Argument> &args, const Target &target) {
    PipelineContents &c = pipeline_contents(contents);
    check_outputs_defined(c);
    Target t = jit_target_for(target);
    if (c.trace_pipeline) t = t.with_feature(Target::TracePipeline);
    std::string name = c_identifier(c.outputs[0].name());
    Module module =
        make_aot_module(c.outputs, c.requirements, args, name, t, LinkageType::ExternalPlusArgv);
    auto callable = std::make_shared<CallableContents>();
    callable->name = name;
    callable->module = *static_cast<const ModuleContents *>(module.get_contents().get());
    callable->handlers = c.jit_handlers;
    for (int i : callable->module.embedded) {
        callable->embedded.emplace_back(i, callable->module.lowered.args[i].param.buffer());
    }
    callable->jit =
        JITModule::compile(callable->module.lowered, t, jit_extern_addresses(c.jit_externs));
    return Callable(std::move(callable));
}

Callable Func::compile_to_callable(const std::vector<Argument> &args, const Target &target) {
    user_assert(defined()) << "Can't compile Func " << name()
                           << " to a Callable: it has no definition.\n";
    return pipeline().compile_to_callable(args, target);
}

} // namespace loom
