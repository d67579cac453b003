#include "driver/jit_call_context.h"

#include <loom/runtime/loom_runtime.h>

#include "support/error.h"

#include <atomic>
#include <mutex>
#include <unordered_map>

namespace loom {
namespace internal {

namespace {

/// The contexts of the calls in progress (a count each: one context may serve several
/// concurrent calls).
struct Registry {
    std::mutex mutex;
    struct Call {
        int count = 0;      ///< calls in progress with this context
        std::string errors; ///< their error messages, when no custom handler takes them
    };
    std::unordered_map<const void *, Call> active;
};

Registry &registry() {
    static Registry *r = new Registry; // never destroyed: handlers may run during exit
    return *r;
}

/// The JITUserContext behind a runtime function's user_context, if it is one of a call in
/// progress.
JITUserContext *active_context(void *uc) {
    if (!uc) return nullptr;
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    return r.active.count(uc) ? static_cast<JITUserContext *>(uc) : nullptr;
}

// The handlers installed before the trampolines, called for everything else.
std::atomic<halide_error_handler_t> fallback_error{halide_default_error};
std::atomic<halide_print_t> fallback_print{halide_default_print};
std::atomic<halide_malloc_t> fallback_malloc{halide_default_malloc};
std::atomic<halide_free_t> fallback_free{halide_default_free};
std::atomic<halide_do_par_for_t> fallback_do_par_for{halide_default_do_par_for};
std::atomic<halide_do_task_t> fallback_do_task{halide_default_do_task};
std::atomic<halide_trace_t> fallback_trace{halide_default_trace};

/// A runtime task as JITHandlers spells it (the user context typed).
using JITTask = int (*)(JITUserContext *, int, uint8_t *);

void error_trampoline(void *uc, const char *msg) {
    JITUserContext *c = active_context(uc);
    if (c && c->handlers.custom_error) return c->handlers.custom_error(c, msg);
    if (c) {
        // Kept for the RuntimeError the call throws (whichever thread reported it), as Halide's
        // JIT does, instead of printing.
        Registry &r = registry();
        std::lock_guard<std::mutex> lock(r.mutex);
        auto it = r.active.find(uc);
        if (it != r.active.end()) {
            std::string &errors = it->second.errors;
            if (!errors.empty() && errors.back() != '\n') errors += '\n';
            errors += msg;
            return;
        }
    }
    fallback_error.load()(uc, msg);
}

void print_trampoline(void *uc, const char *msg) {
    JITUserContext *c = active_context(uc);
    if (c && c->handlers.custom_print) return c->handlers.custom_print(c, msg);
    fallback_print.load()(uc, msg);
}

void *malloc_trampoline(void *uc, size_t size) {
    JITUserContext *c = active_context(uc);
    if (c && c->handlers.custom_malloc) return c->handlers.custom_malloc(c, size);
    return fallback_malloc.load()(uc, size);
}

void free_trampoline(void *uc, void *ptr) {
    JITUserContext *c = active_context(uc);
    if (c && c->handlers.custom_free) return c->handlers.custom_free(c, ptr);
    fallback_free.load()(uc, ptr);
}

int do_par_for_trampoline(void *uc, halide_task_t f, int min, int size, uint8_t *closure) {
    JITUserContext *c = active_context(uc);
    if (c && c->handlers.custom_do_par_for) {
        return c->handlers.custom_do_par_for(c, (JITTask)f, min, size, closure);
    }
    return fallback_do_par_for.load()(uc, f, min, size, closure);
}

int do_task_trampoline(void *uc, halide_task_t f, int idx, uint8_t *closure) {
    JITUserContext *c = active_context(uc);
    if (c && c->handlers.custom_do_task) {
        return c->handlers.custom_do_task(c, (JITTask)f, idx, closure);
    }
    return fallback_do_task.load()(uc, f, idx, closure);
}

int32_t trace_trampoline(void *uc, const halide_trace_event_t *e) {
    JITUserContext *c = active_context(uc);
    if (c && c->handlers.custom_trace) return c->handlers.custom_trace(c, e);
    return fallback_trace.load()(uc, e);
}

/// Puts the trampolines in place (again, if someone replaced them since), remembering what
/// they replace.
void install_trampolines() {
    if (auto prev = halide_set_error_handler(error_trampoline); prev != error_trampoline) {
        fallback_error = prev;
    }
    if (auto prev = halide_set_custom_print(print_trampoline); prev != print_trampoline) {
        fallback_print = prev;
    }
    if (auto prev = halide_set_custom_malloc(malloc_trampoline); prev != malloc_trampoline) {
        fallback_malloc = prev;
    }
    if (auto prev = halide_set_custom_free(free_trampoline); prev != free_trampoline) {
        fallback_free = prev;
    }
    if (auto prev = halide_set_custom_do_par_for(do_par_for_trampoline);
        prev != do_par_for_trampoline) {
        fallback_do_par_for = prev;
    }
    if (auto prev = halide_set_custom_do_task(do_task_trampoline); prev != do_task_trampoline) {
        fallback_do_task = prev;
    }
    if (auto prev = halide_set_custom_trace(trace_trampoline); prev != trace_trampoline) {
        fallback_trace = prev;
    }
}

/// Fills the handlers `to` lacks from `from`.
void fill_missing(JITHandlers &to, const JITHandlers &from) {
#define LOOM_FILL(field)                                                                           \
    if (!to.field) to.field = from.field;
    LOOM_FILL(custom_print)
    LOOM_FILL(custom_malloc)
    LOOM_FILL(custom_free)
    LOOM_FILL(custom_do_task)
    LOOM_FILL(custom_do_par_for)
    LOOM_FILL(custom_error)
    LOOM_FILL(custom_trace)
    LOOM_FILL(custom_get_symbol)
    LOOM_FILL(custom_load_library)
    LOOM_FILL(custom_get_library_symbol)
#undef LOOM_FILL
}

} // namespace

JITCallContext::JITCallContext(JITUserContext *user, const JITHandlers &pipeline_handlers)
    : ctx_(user ? user : &local_) {
    saved_ = ctx_->handlers;
    fill_missing(ctx_->handlers, pipeline_handlers);
    install_trampolines();
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.active[ctx_].count++;
}

JITCallContext::~JITCallContext() {
    {
        Registry &r = registry();
        std::lock_guard<std::mutex> lock(r.mutex);
        if (--r.active[ctx_].count == 0) r.active.erase(ctx_);
    }
    ctx_->handlers = saved_;
}

std::string JITCallContext::error_messages() const {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.active.find(ctx_);
    return it == r.active.end() ? std::string() : it->second.errors;
}

std::map<std::string, void *> jit_extern_addresses(const std::map<std::string, JITExtern> &m) {
    std::map<std::string, void *> result;
    for (const auto &kv : m) {
        void *address = kv.second.extern_c_function().address();
        user_assert(address) << "The JITExtern for " << kv.first << " has no function.\n";
        result[kv.first] = address;
    }
    return result;
}

void report_jit_profile(const Target &t, void *user_context) {
    if (!t.has_feature(Target::Profile) && !t.has_feature(Target::ProfileByTimer)) return;
    halide_profiler_report(user_context);
    halide_profiler_reset();
}

} // namespace internal
} // namespace loom
