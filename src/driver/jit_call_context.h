#ifndef LOOM_DRIVER_JIT_CALL_CONTEXT_H
#define LOOM_DRIVER_JIT_CALL_CONTEXT_H

/// \file How JIT-compiled code reaches the user's run-time hooks (<loom/jit_handlers.h>).
///
/// The runtime's handlers (halide_set_error_handler, halide_set_custom_print/_malloc/_free/
/// _do_par_for/_do_task) are process-wide, so Loom installs trampolines there once: when the
/// user_context a runtime function receives is a JITUserContext of a call in progress (registered
/// by JITCallContext), the trampoline calls that context's handler if it has one; otherwise it
/// calls whatever handler was installed before (the runtime's default, or an AOT user's). The
/// handlers in the context are the user's, with the pipeline's filled in where the user set none.
/// Tests: tests/correctness/extern_jit_handlers.cpp.

#include <loom/extern.h>
#include <loom/jit_handlers.h>
#include <loom/target.h>

#include <map>
#include <string>

namespace loom {
namespace internal {

/// The JITUserContext compiled code is given for one call (the first argument,
/// "__user_context"), registered for the trampolines while this object lives.
class JITCallContext {
public:
    /// `user` may be null (Loom then makes a context). The user's context gets the pipeline's
    /// handlers where it has none, for the duration of the call only.
    JITCallContext(JITUserContext *user, const JITHandlers &pipeline_handlers);
    ~JITCallContext();
    JITCallContext(const JITCallContext &) = delete;
    JITCallContext &operator=(const JITCallContext &) = delete;

    /// The pointer to pass as __user_context.
    JITUserContext *get() const { return ctx_; }
    /// Whether a custom error handler receives this call's errors (a failing call then
    /// returns normally instead of throwing, as in Halide).
    bool has_custom_error() const { return ctx_->handlers.custom_error != nullptr; }
    /// The error messages reported so far by this call (from any thread), when no custom error
    /// handler took them.
    std::string error_messages() const;

private:
    JITUserContext local_;
    JITUserContext *ctx_;
    JITHandlers saved_;
};

/// After a JIT call of code compiled for t: with Target::Profile or ProfileByTimer, prints the
/// profiler's report through the call's print handler and resets it, as Halide's JIT does (so
/// each call reports its own run).
void report_jit_profile(const Target &t, void *user_context);

/// The addresses set_jit_externs gave, by name (what JITModule::compile takes).
std::map<std::string, void *> jit_extern_addresses(const std::map<std::string, JITExtern> &m);

} // namespace internal
} // namespace loom

#endif
