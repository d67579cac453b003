// halide_error / halide_print and their replaceable handlers.

#include <loom/runtime/loom_runtime.h>

#include "runtime/runtime_libc.h"

// The handlers have external linkage (in a namespace of their own) so
// that, when several AOT pipelines each carry a weak copy of the runtime into one program, the
// linker keeps one copy of this state along with one copy of the functions using it.
namespace loom_runtime {

halide_error_handler_t current_error = halide_default_error;
halide_print_t current_print = halide_default_print;

} // namespace loom_runtime

using namespace loom_runtime;

namespace {

void write_all(int fd, const char *s, size_t n) {
    while (n > 0) {
        long w = write(fd, s, n);
        if (w <= 0) return;
        s += w;
        n -= (size_t)w;
    }
}

} // namespace

extern "C" {

void halide_default_error(void *user_context, const char *msg) {
    if (!msg) msg = "<null error message>";
    size_t n = strlen(msg);
    write_all(2, "Error: ", 7);
    write_all(2, msg, n);
    if (n == 0 || msg[n - 1] != '\n') write_all(2, "\n", 1);
}

void halide_default_print(void *user_context, const char *msg) {
    if (!msg) return;
    write_all(1, msg, strlen(msg));
}

void halide_error(void *user_context, const char *msg) {
    if (!msg) msg = "<null error message>";
    halide_error_handler_t f = __atomic_load_n(&current_error, __ATOMIC_ACQUIRE);
    f(user_context, msg);
}

void halide_print(void *user_context, const char *msg) {
    halide_print_t f = __atomic_load_n(&current_print, __ATOMIC_ACQUIRE);
    f(user_context, msg);
}

halide_error_handler_t halide_set_error_handler(halide_error_handler_t handler) {
    if (!handler) handler = halide_default_error;
    return __atomic_exchange_n(&current_error, handler, __ATOMIC_ACQ_REL);
}

halide_print_t halide_set_custom_print(halide_print_t print) {
    if (!print) print = halide_default_print;
    return __atomic_exchange_n(&current_print, print, __ATOMIC_ACQ_REL);
}

} // extern "C"
