// halide_malloc / halide_free and their replaceable handlers.

#include <loom/runtime/loom_runtime.h>

#include "runtime/runtime_libc.h"

namespace {

// Alignment of every allocation (a cache line pair; enough for any vector width), and the slack
// after the requested size so vector loads that run a little past the end stay in bounds.
const size_t kAlignment = 128;
const size_t kSlack = 64;

} // namespace

// External linkage: one copy per program even when several AOT pipelines carry the runtime
// (see error_handler.cpp).
namespace loom_runtime {

halide_malloc_t current_malloc = halide_default_malloc;
halide_free_t current_free = halide_default_free;

} // namespace loom_runtime

using namespace loom_runtime;

extern "C" {

void *halide_default_malloc(void *user_context, size_t size) {
    // Room for the alignment shift, the saved original pointer just before the aligned block,
    // and the slack after it.
    void *orig = malloc(size + kAlignment + sizeof(void *) + kSlack);
    if (!orig) return NULL;
    uintptr_t p =
        ((uintptr_t)orig + sizeof(void *) + kAlignment - 1) & ~(uintptr_t)(kAlignment - 1);
    ((void **)p)[-1] = orig;
    return (void *)p;
}

void halide_default_free(void *user_context, void *ptr) {
    if (ptr) free(((void **)ptr)[-1]);
}

void *halide_malloc(void *user_context, size_t size) {
    halide_malloc_t f = __atomic_load_n(&current_malloc, __ATOMIC_ACQUIRE);
    return f(user_context, size);
}

void halide_free(void *user_context, void *ptr) {
    halide_free_t f = __atomic_load_n(&current_free, __ATOMIC_ACQUIRE);
    f(user_context, ptr);
}

halide_malloc_t halide_set_custom_malloc(halide_malloc_t user_malloc) {
    if (!user_malloc) user_malloc = halide_default_malloc;
    return __atomic_exchange_n(&current_malloc, user_malloc, __ATOMIC_ACQ_REL);
}

halide_free_t halide_set_custom_free(halide_free_t user_free) {
    if (!user_free) user_free = halide_default_free;
    return __atomic_exchange_n(&current_free, user_free, __ATOMIC_ACQ_REL);
}

} // extern "C"
