#ifndef LOOM_JIT_HANDLERS_H
#define LOOM_JIT_HANDLERS_H

/// \file Run-time hooks for JIT-compiled pipelines (Halide's JITHandlers and JITUserContext).
///
/// A handler applies, for one realize, from the first place that sets it: the JITUserContext
/// passed to realize(&ctx, ...), then the Pipeline's (or Func's) jit_handlers(), then Loom's
/// default. Every handler receives the JITUserContext the compiled code was given: the one
/// passed to realize (so a handler can cast it to the caller's derived struct), or one Loom
/// makes for the call. With a custom_error handler in effect a failing realize returns without
/// throwing (the handler saw the message); otherwise it throws RuntimeError.
///
/// custom_get_symbol, custom_load_library and custom_get_library_symbol are
/// stored but not called yet: Loom's runtime has no dynamic loader that would call
/// them.

#include <cstddef>
#include <cstdint>

struct halide_trace_event_t;

namespace loom {

struct JITUserContext;

/// Custom overrides of runtime functions for JIT-compiled code. Null means "not set here".
struct JITHandlers {
    /// Called with the text of print() / print_when() and runtime messages.
    void (*custom_print)(JITUserContext *, const char *){nullptr};
    /// Allocation of the pipeline's heap buffers, and its release.
    void *(*custom_malloc)(JITUserContext *, size_t){nullptr};
    void (*custom_free)(JITUserContext *, void *){nullptr};
    /// Runs one task of a parallel loop (the default calls the task).
    int (*custom_do_task)(JITUserContext *, int (*)(JITUserContext *, int, uint8_t *), int,
                          uint8_t *){nullptr};
    /// Runs a parallel loop: every index in [min, min + extent) (the default uses Loom's
    /// thread pool, which runs each index through custom_do_task).
    int (*custom_do_par_for)(JITUserContext *, int (*)(JITUserContext *, int, uint8_t *), int, int,
                             uint8_t *){nullptr};
    /// Receives the message of a run-time error; realize then returns without throwing.
    void (*custom_error)(JITUserContext *, const char *){nullptr};
    /// Receives the trace events of Funcs marked trace_loads/trace_stores/trace_realizations
    /// (and of the Target's trace features); returns the event's id (see halide_trace).
    int32_t (*custom_trace)(JITUserContext *, const halide_trace_event_t *){nullptr};
    /// Symbol and library lookup for the runtime (stored; see the file comment).
    void *(*custom_get_symbol)(const char *name){nullptr};
    void *(*custom_load_library)(const char *name){nullptr};
    void *(*custom_get_library_symbol)(void *lib, const char *name){nullptr};
};

/// The context given to a JIT-compiled pipeline for one realize. Derive from it to carry your
/// own state to your handlers; set `handlers` to override handlers for calls with it.
struct JITUserContext {
    /// Unused by Loom (Halide keeps its error text there); kept for source compatibility.
    void *error_buffer{nullptr};
    JITHandlers handlers;
};

} // namespace loom

#endif
