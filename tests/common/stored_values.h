// Counting the work a pipeline does, for tests that check how it grows with the image: the
// values it stores in every Func (the ones Loom makes for itself included), by tracing stores.
#ifndef LOOM_TESTS_COMMON_STORED_VALUES_H
#define LOOM_TESTS_COMMON_STORED_VALUES_H

#include <loom/loom.h>

#include <cstdint>
#include <functional>

namespace loom_test {

inline int64_t &stored_values_counter() {
    static int64_t n = 0;
    return n;
}

/// The values `run` stores (a vector store counts its lanes) when it realizes `p`, which is
/// compiled here for the JIT target with stores traced.
inline int64_t values_stored(loom::Pipeline p, const std::function<void()> &run) {
    p.jit_handlers().custom_trace = [](loom::JITUserContext *, const halide_trace_event_t *e) {
        if (e->event == halide_trace_store) stored_values_counter() += e->type.lanes;
        return 0;
    };
    p.compile_jit(loom::get_jit_target_from_environment().with_feature(loom::Target::TraceStores));
    stored_values_counter() = 0;
    run();
    return stored_values_counter();
}

} // namespace loom_test

#endif
