// The runtime of the C back end, in plain C99: errors, printing, allocation and string building.
// Its companion loom_c_threads.c holds the thread pool, the parallel tasks and the semaphores.
//
// Code from compile_to_c calls the runtime entry points of include/loom/runtime/loom_runtime.h
// (halide_error_*, halide_malloc, halide_do_par_for, ...). Loom's own runtime (src/runtime) is
// C++ and built into libloom, but a generated .c file must build and link with any C compiler and
// only -lm -lpthread, so the back end pastes this file (after `#define _POSIX_C_SOURCE 200809L`
// and the runtime header) into every .c file it writes. Each function ports the function of the
// same name in src/runtime (error_handler.cpp, allocation.cpp, to_string.cpp,
// error_reporters.cpp), with the same messages, return codes and defaults; keep them in step.
//
// Every entry point is weak, so several generated pipelines link into one program (the linker
// keeps the first copy of each function) and a strong definition wins over them: libloom's
// runtime linked statically, or a user's own halide_error, say. The state is static: each copy
// has its own, and since every copy defines all the functions, the linker takes all of them from
// the same copy, so they share one set of handlers and one thread pool. (So the back end pastes
// both files whole, never a subset.)
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#ifndef LOOM_RUNTIME_LOOM_RUNTIME_H
#include <loom/runtime/loom_runtime.h>
#endif

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef LOOM_C_RUNTIME_COMMON
#include "loom_c_common.h"
#endif

// ---- Error and print handlers (error_handler.cpp) ----

static halide_error_handler_t loom_c_error_handler = halide_default_error;
static halide_print_t loom_c_print_handler = halide_default_print;

// Straight to the file descriptor, unbuffered, as the C++ runtime does (a message is out even if
// the program then crashes).
static void loom_c_write_all(int fd, const char *s, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w <= 0) return;
        s += w;
        n -= (size_t)w;
    }
}

LOOM_C_RUNTIME_WEAK void halide_default_error(void *user_context, const char *msg) {
    size_t n;
    (void)user_context;
    if (!msg) msg = "<null error message>";
    n = strlen(msg);
    loom_c_write_all(2, "Error: ", 7);
    loom_c_write_all(2, msg, n);
    if (n == 0 || msg[n - 1] != '\n') loom_c_write_all(2, "\n", 1);
}

LOOM_C_RUNTIME_WEAK void halide_default_print(void *user_context, const char *msg) {
    (void)user_context;
    if (!msg) return;
    loom_c_write_all(1, msg, strlen(msg));
}

LOOM_C_RUNTIME_WEAK void halide_error(void *user_context, const char *msg) {
    halide_error_handler_t f;
    if (!msg) msg = "<null error message>";
    LOOM_C_HOOK_GET(f, loom_c_error_handler);
    f(user_context, msg);
}

LOOM_C_RUNTIME_WEAK void halide_print(void *user_context, const char *msg) {
    halide_print_t f;
    LOOM_C_HOOK_GET(f, loom_c_print_handler);
    f(user_context, msg);
}

LOOM_C_RUNTIME_WEAK halide_error_handler_t
halide_set_error_handler(halide_error_handler_t handler) {
    halide_error_handler_t old;
    if (!handler) handler = halide_default_error;
    LOOM_C_HOOK_SWAP(old, loom_c_error_handler, handler);
    return old;
}

LOOM_C_RUNTIME_WEAK halide_print_t halide_set_custom_print(halide_print_t print) {
    halide_print_t old;
    if (!print) print = halide_default_print;
    LOOM_C_HOOK_SWAP(old, loom_c_print_handler, print);
    return old;
}

// ---- Allocation (allocation.cpp) ----

// Alignment of every allocation (enough for any vector width), and the slack after the
// requested size so vector loads that run a little past the end stay in bounds.
#define LOOM_C_ALIGNMENT ((size_t)128)
#define LOOM_C_SLACK ((size_t)64)

static halide_malloc_t loom_c_malloc_handler = halide_default_malloc;
static halide_free_t loom_c_free_handler = halide_default_free;

LOOM_C_RUNTIME_WEAK void *halide_default_malloc(void *user_context, size_t size) {
    // Room for the alignment shift, the original pointer saved just before the aligned block,
    // and the slack after it.
    void *orig = malloc(size + LOOM_C_ALIGNMENT + sizeof(void *) + LOOM_C_SLACK);
    uintptr_t p;
    (void)user_context;
    if (!orig) return NULL;
    p = ((uintptr_t)orig + sizeof(void *) + LOOM_C_ALIGNMENT - 1) &
        ~(uintptr_t)(LOOM_C_ALIGNMENT - 1);
    ((void **)p)[-1] = orig;
    return (void *)p;
}

LOOM_C_RUNTIME_WEAK void halide_default_free(void *user_context, void *ptr) {
    (void)user_context;
    if (ptr) free(((void **)ptr)[-1]);
}

LOOM_C_RUNTIME_WEAK void *halide_malloc(void *user_context, size_t size) {
    halide_malloc_t f;
    LOOM_C_HOOK_GET(f, loom_c_malloc_handler);
    return f(user_context, size);
}

LOOM_C_RUNTIME_WEAK void halide_free(void *user_context, void *ptr) {
    halide_free_t f;
    LOOM_C_HOOK_GET(f, loom_c_free_handler);
    f(user_context, ptr);
}

LOOM_C_RUNTIME_WEAK halide_malloc_t halide_set_custom_malloc(halide_malloc_t user_malloc) {
    halide_malloc_t old;
    if (!user_malloc) user_malloc = halide_default_malloc;
    LOOM_C_HOOK_SWAP(old, loom_c_malloc_handler, user_malloc);
    return old;
}

LOOM_C_RUNTIME_WEAK halide_free_t halide_set_custom_free(halide_free_t user_free) {
    halide_free_t old;
    if (!user_free) user_free = halide_default_free;
    LOOM_C_HOOK_SWAP(old, loom_c_free_handler, user_free);
    return old;
}

// ---- String building (to_string.cpp): each writes at most up to end - 1, keeps the result
// NUL-terminated and returns a pointer to the NUL, so calls chain. ----

LOOM_C_RUNTIME_WEAK char *halide_string_to_string(char *dst, char *end, const char *arg) {
    if (dst >= end) return dst;
    if (!arg) arg = "<nullptr>";
    for (;;) {
        if (dst == end) {
            // Out of room: the last byte becomes the terminator.
            dst[-1] = 0;
            return dst - 1;
        }
        *dst = *arg;
        if (*dst == 0) return dst;
        dst++;
        arg++;
    }
}

LOOM_C_RUNTIME_WEAK char *halide_uint64_to_string(char *dst, char *end, uint64_t arg, int digits) {
    // 20 digits hold any uint64; more only come from zero padding, capped here.
    char buf[64];
    char *p = buf + sizeof(buf) - 1;
    int i;
    *p = 0;
    for (i = 0; (i < digits || arg) && p > buf; i++) {
        uint64_t top = arg / 10;
        *--p = (char)('0' + (arg - top * 10));
        arg = top;
    }
    return halide_string_to_string(dst, end, p);
}

LOOM_C_RUNTIME_WEAK char *halide_int64_to_string(char *dst, char *end, int64_t arg, int digits) {
    if (arg < 0) {
        dst = halide_string_to_string(dst, end, "-");
        // Negate in unsigned arithmetic so INT64_MIN works.
        return halide_uint64_to_string(dst, end, (uint64_t)0 - (uint64_t)arg, digits);
    }
    return halide_uint64_to_string(dst, end, (uint64_t)arg, digits);
}

LOOM_C_RUNTIME_WEAK char *halide_double_to_string(char *dst, char *end, double arg,
                                                  int scientific) {
    // "%f" of the largest double needs 309 integer digits, 1 point, 6 decimals and a sign.
    char buf[400];
    snprintf(buf, sizeof(buf), scientific ? "%e" : "%f", arg);
    return halide_string_to_string(dst, end, buf);
}

LOOM_C_RUNTIME_WEAK char *halide_pointer_to_string(char *dst, char *end, const void *arg) {
    const char *hex = "0123456789abcdef";
    char buf[24];
    char *p = buf + sizeof(buf) - 1;
    uint64_t bits = (uint64_t)(uintptr_t)arg;
    *p = 0;
    do {
        *--p = hex[bits & 15];
        bits >>= 4;
    } while (bits);
    *--p = 'x';
    *--p = '0';
    return halide_string_to_string(dst, end, p);
}

LOOM_C_RUNTIME_WEAK char *halide_type_to_string(char *dst, char *end,
                                                const struct halide_type_t *arg) {
    const char *name;
    switch (arg->code) {
    case halide_type_int:
        name = "int";
        break;
    case halide_type_uint:
        name = "uint";
        break;
    case halide_type_float:
        name = "float";
        break;
    case halide_type_handle:
        name = "handle";
        break;
    case halide_type_bfloat:
        name = "bfloat";
        break;
    default:
        name = "bad_type_code";
        break;
    }
    dst = halide_string_to_string(dst, end, name);
    dst = halide_uint64_to_string(dst, end, arg->bits, 1);
    if (arg->lanes != 1) {
        dst = halide_string_to_string(dst, end, "x");
        dst = halide_uint64_to_string(dst, end, arg->lanes, 1);
    }
    return dst;
}

// ---- Error reporters (error_reporters.cpp) ----

// Formats a message into a fixed buffer (no heap, as message.h's Message), hands it to
// halide_error and returns `code`. The format's directives are the pieces Message appends:
//   %s  const char * (null prints "<nullptr>")   %d  int            %D  int64_t
//   %U  uint64_t                                  %e  double, as "%e" %T  packed type (uint32_t)
// where a packed type is code | bits << 8 | lanes << 16.
static int loom_c_report(void *user_context, int code, const char *format, ...) {
    char buf[1024];
    char *dst = buf, *end = buf + sizeof(buf);
    va_list args;
    buf[0] = 0;
    va_start(args, format);
    while (*format) {
        if (format[0] != '%' || format[1] == 0) {
            // Literal text, one run at a time.
            char piece[64];
            size_t n = 0;
            while (format[n] && format[n] != '%' && n < sizeof(piece) - 1) {
                piece[n] = format[n];
                n++;
            }
            if (n == 0) piece[n++] = *format; // a lone '%' at the very end
            piece[n] = 0;
            dst = halide_string_to_string(dst, end, piece);
            format += n;
            continue;
        }
        switch (format[1]) {
        case 's':
            dst = halide_string_to_string(dst, end, va_arg(args, const char *));
            break;
        case 'd':
            dst = halide_int64_to_string(dst, end, va_arg(args, int), 1);
            break;
        case 'D':
            dst = halide_int64_to_string(dst, end, va_arg(args, int64_t), 1);
            break;
        case 'U':
            dst = halide_uint64_to_string(dst, end, va_arg(args, uint64_t), 1);
            break;
        case 'e':
            dst = halide_double_to_string(dst, end, va_arg(args, double), 1);
            break;
        case 'T': {
            uint32_t bits = va_arg(args, uint32_t);
            struct halide_type_t t;
            t.code = (uint8_t)(bits & 0xff);
            t.bits = (uint8_t)((bits >> 8) & 0xff);
            t.lanes = (uint16_t)(bits >> 16);
            dst = halide_type_to_string(dst, end, &t);
            break;
        }
        default:
            dst = halide_string_to_string(dst, end, "%");
            break;
        }
        format += 2;
    }
    va_end(args);
    halide_error(user_context, buf);
    return code;
}

LOOM_C_RUNTIME_WEAK int halide_error_bad_type(void *uc, const char *func_name,
                                              uint32_t type_given_bits,
                                              uint32_t correct_type_bits) {
    return loom_c_report(uc, halide_error_code_bad_type,
                         "%s has type %T but type of the buffer passed in is %T", func_name,
                         correct_type_bits, type_given_bits);
}

LOOM_C_RUNTIME_WEAK int halide_error_bad_dimensions(void *uc, const char *func_name,
                                                    int32_t dimensions_given,
                                                    int32_t correct_dimensions) {
    return loom_c_report(
        uc, halide_error_code_bad_dimensions,
        "%s requires a buffer of exactly %d dimensions, but the buffer passed in has %d dimensions",
        func_name, (int)correct_dimensions, (int)dimensions_given);
}

LOOM_C_RUNTIME_WEAK int halide_error_access_out_of_bounds(void *uc, const char *func_name,
                                                          int dimension, int min_touched,
                                                          int max_touched, int min_valid,
                                                          int max_valid) {
    const int code = halide_error_code_access_out_of_bounds;
    if (min_touched < min_valid) {
        return loom_c_report(uc, code,
                             "%s is accessed at %d, which is before the min (%d) in dimension %d",
                             func_name, min_touched, min_valid, dimension);
    } else if (max_touched > max_valid) {
        return loom_c_report(uc, code,
                             "%s is accessed at %d, which is beyond the max (%d) in dimension %d",
                             func_name, max_touched, max_valid, dimension);
    }
    return loom_c_report(
        uc, code, "%s is accessed at [%d, %d], which is within its bounds [%d, %d] in dimension %d",
        func_name, min_touched, max_touched, min_valid, max_valid, dimension);
}

LOOM_C_RUNTIME_WEAK int halide_error_buffer_allocation_too_large(void *uc, const char *buffer_name,
                                                                 uint64_t allocation_size,
                                                                 uint64_t max_size) {
    return loom_c_report(
        uc, halide_error_code_buffer_allocation_too_large,
        "Total allocation for buffer %s is %U, which exceeds the maximum size of %U", buffer_name,
        allocation_size, max_size);
}

LOOM_C_RUNTIME_WEAK int halide_error_buffer_extents_too_large(void *uc, const char *buffer_name,
                                                              int64_t actual_size,
                                                              int64_t max_size) {
    return loom_c_report(
        uc, halide_error_code_buffer_extents_too_large,
        "Product of extents for buffer %s is %D, which exceeds the maximum size of %D", buffer_name,
        actual_size, max_size);
}

LOOM_C_RUNTIME_WEAK int halide_error_buffer_extents_negative(void *uc, const char *buffer_name,
                                                             int dimension, int extent) {
    return loom_c_report(uc, halide_error_code_buffer_extents_negative,
                         "The extents for buffer %s dimension %d is negative (%d)", buffer_name,
                         dimension, extent);
}

LOOM_C_RUNTIME_WEAK int halide_error_constraint_violated(void *uc, const char *var, int val,
                                                         const char *constrained_var,
                                                         int constrained_val) {
    return loom_c_report(uc, halide_error_code_constraint_violated,
                         "Constraint violated: %s (%d) == %s (%d)", var, val, constrained_var,
                         constrained_val);
}

LOOM_C_RUNTIME_WEAK int halide_error_param_too_small_i64(void *uc, const char *param_name,
                                                         int64_t val, int64_t min_val) {
    return loom_c_report(uc, halide_error_code_param_too_small,
                         "Parameter %s is %D but must be at least %D", param_name, val, min_val);
}

LOOM_C_RUNTIME_WEAK int halide_error_param_too_small_u64(void *uc, const char *param_name,
                                                         uint64_t val, uint64_t min_val) {
    return loom_c_report(uc, halide_error_code_param_too_small,
                         "Parameter %s is %U but must be at least %U", param_name, val, min_val);
}

LOOM_C_RUNTIME_WEAK int halide_error_param_too_small_f64(void *uc, const char *param_name,
                                                         double val, double min_val) {
    return loom_c_report(uc, halide_error_code_param_too_small,
                         "Parameter %s is %e but must be at least %e", param_name, val, min_val);
}

LOOM_C_RUNTIME_WEAK int halide_error_param_too_large_i64(void *uc, const char *param_name,
                                                         int64_t val, int64_t max_val) {
    return loom_c_report(uc, halide_error_code_param_too_large,
                         "Parameter %s is %D but must be at most %D", param_name, val, max_val);
}

LOOM_C_RUNTIME_WEAK int halide_error_param_too_large_u64(void *uc, const char *param_name,
                                                         uint64_t val, uint64_t max_val) {
    return loom_c_report(uc, halide_error_code_param_too_large,
                         "Parameter %s is %U but must be at most %U", param_name, val, max_val);
}

LOOM_C_RUNTIME_WEAK int halide_error_param_too_large_f64(void *uc, const char *param_name,
                                                         double val, double max_val) {
    return loom_c_report(uc, halide_error_code_param_too_large,
                         "Parameter %s is %e but must be at most %e", param_name, val, max_val);
}

LOOM_C_RUNTIME_WEAK int halide_error_out_of_memory(void *uc) {
    // A fixed string: formatting must not need memory when memory has run out.
    halide_error(uc, "Out of memory (halide_malloc returned nullptr)");
    return halide_error_code_out_of_memory;
}

LOOM_C_RUNTIME_WEAK int halide_error_buffer_argument_is_null(void *uc, const char *buffer_name) {
    return loom_c_report(uc, halide_error_code_buffer_argument_is_null,
                         "Buffer argument %s is nullptr", buffer_name);
}

LOOM_C_RUNTIME_WEAK int halide_error_requirement_failed(void *uc, const char *condition,
                                                        const char *message) {
    return loom_c_report(uc, halide_error_code_requirement_failed, "Requirement Failed: (%s) %s",
                         condition, message);
}

LOOM_C_RUNTIME_WEAK int halide_error_explicit_bounds_too_small(void *uc, const char *func_name,
                                                               const char *var_name, int min_bound,
                                                               int max_bound, int min_required,
                                                               int max_required) {
    return loom_c_report(uc, halide_error_code_explicit_bounds_too_small,
                         "Bounds given for %s in %s (from %d to %d) do not cover required region "
                         "(from %d to %d)",
                         var_name, func_name, min_bound, max_bound, min_required, max_required);
}

LOOM_C_RUNTIME_WEAK int halide_error_constraints_make_required_region_smaller(
    void *uc, const char *buffer_name, int dimension, int constrained_min, int constrained_extent,
    int required_min, int required_extent) {
    // The last coordinates in 64 bits: the C++ runtime's int sums, without their overflow.
    return loom_c_report(uc, halide_error_code_constraints_make_required_region_smaller,
                         "Applying the constraints on %s to the required region made it smaller "
                         "in dimension %d. Required size: %d to %D. Constrained size: %d to %D.",
                         buffer_name, dimension, required_min,
                         (int64_t)required_min + required_extent - 1, constrained_min,
                         (int64_t)constrained_min + constrained_extent - 1);
}

LOOM_C_RUNTIME_WEAK int halide_error_unaligned_host_ptr(void *uc, const char *func_name,
                                                        int alignment) {
    return loom_c_report(uc, halide_error_code_unaligned_host_ptr,
                         "The host pointer of %s is not aligned to a %d bytes boundary.", func_name,
                         alignment);
}

LOOM_C_RUNTIME_WEAK int halide_error_host_is_null(void *uc, const char *func_name) {
    return loom_c_report(uc, halide_error_code_host_is_null,
                         "The host pointer of %s is null, but the pipeline will access it on the "
                         "host.",
                         func_name);
}

LOOM_C_RUNTIME_WEAK int halide_error_bad_fold(void *uc, const char *func_name, const char *var_name,
                                              const char *loop_name) {
    return loom_c_report(uc, halide_error_code_bad_fold,
                         "The folded storage dimension %s of %s was accessed out of order by loop "
                         "%s.",
                         var_name, func_name, loop_name);
}

LOOM_C_RUNTIME_WEAK int halide_error_fold_factor_too_small(void *uc, const char *func_name,
                                                           const char *var_name, int fold_factor,
                                                           const char *loop_name,
                                                           int required_extent) {
    return loom_c_report(uc, halide_error_code_fold_factor_too_small,
                         "The fold factor (%d) of dimension %s of %s is too small to store the "
                         "required region accessed by loop %s (%d).",
                         fold_factor, var_name, func_name, loop_name, required_extent);
}

LOOM_C_RUNTIME_WEAK int halide_error_storage_bound_too_small(void *uc, const char *func_name,
                                                             const char *var_name,
                                                             int provided_size, int required_size) {
    return loom_c_report(uc, halide_error_code_storage_bound_too_small,
                         "The explicit allocation bound (%d) of dimension %s of %s is too small "
                         "to store the required region (%d).",
                         provided_size, var_name, func_name, required_size);
}

LOOM_C_RUNTIME_WEAK int halide_error_specialize_fail(void *uc, const char *message) {
    return loom_c_report(uc, halide_error_code_specialize_fail, "%s", message);
}

LOOM_C_RUNTIME_WEAK int halide_error_extern_stage_failed(void *uc, const char *extern_stage_name,
                                                         int result) {
    return loom_c_report(uc, result, "Call to external stage %s returned non-zero value: %d",
                         extern_stage_name, result);
}

LOOM_C_RUNTIME_WEAK int
halide_error_bounds_inference_call_failed(void *uc, const char *extern_stage_name, int result) {
    return loom_c_report(uc, result,
                         "Bounds inference call to external stage %s returned non-zero value: %d",
                         extern_stage_name, result);
}

LOOM_C_RUNTIME_WEAK int halide_error_no_device_interface(void *uc) {
    return loom_c_report(uc, halide_error_code_no_device_interface,
                         "Buffer has a non-zero device but no device interface.");
}

LOOM_C_RUNTIME_WEAK int halide_error_device_interface_no_device(void *uc) {
    return loom_c_report(uc, halide_error_code_device_interface_no_device,
                         "Buffer has a non-null device_interface but device is 0.");
}

LOOM_C_RUNTIME_WEAK int halide_error_host_and_device_dirty(void *uc) {
    return loom_c_report(uc, halide_error_code_host_and_device_dirty,
                         "Buffer has both host and device dirty bits set.");
}

LOOM_C_RUNTIME_WEAK int halide_error_buffer_is_null(void *uc, const char *routine) {
    return loom_c_report(uc, halide_error_code_buffer_is_null,
                         "Buffer pointer passed to %s is null.", routine);
}

LOOM_C_RUNTIME_WEAK int halide_error_device_dirty_with_no_device_support(void *uc,
                                                                         const char *buffer_name) {
    return loom_c_report(uc, halide_error_code_device_dirty_with_no_device_support,
                         "The buffer %s is dirty on device, but this pipeline was compiled with no "
                         "support for device to host copies.",
                         buffer_name);
}

LOOM_C_RUNTIME_WEAK int halide_error_device_crop_failed(void *uc) {
    return loom_c_report(uc, halide_error_code_device_crop_failed,
                         "Buffer could not be cropped (runtime error or unimplemented device "
                         "option).");
}
