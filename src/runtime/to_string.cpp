// The string builders compiled print() calls use. Each writes at most up to end - 1, keeps the
// result NUL-terminated and returns a pointer to the NUL, so calls chain.

#include <loom/runtime/loom_runtime.h>

#include "runtime/runtime_libc.h"

extern "C" {

char *halide_string_to_string(char *dst, char *end, const char *arg) {
    if (dst >= end) return dst;
    if (!arg) arg = "<nullptr>";
    while (true) {
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

char *halide_uint64_to_string(char *dst, char *end, uint64_t arg, int digits) {
    // 20 digits hold any uint64; more only come from zero padding, capped here.
    char buf[64];
    char *p = buf + sizeof(buf) - 1;
    *p = 0;
    for (int i = 0; (i < digits || arg) && p > buf; i++) {
        uint64_t top = arg / 10;
        *--p = (char)('0' + (arg - top * 10));
        arg = top;
    }
    return halide_string_to_string(dst, end, p);
}

char *halide_int64_to_string(char *dst, char *end, int64_t arg, int digits) {
    if (arg < 0) {
        dst = halide_string_to_string(dst, end, "-");
        // Negate in unsigned arithmetic so INT64_MIN works.
        return halide_uint64_to_string(dst, end, (uint64_t)0 - (uint64_t)arg, digits);
    }
    return halide_uint64_to_string(dst, end, (uint64_t)arg, digits);
}

char *halide_double_to_string(char *dst, char *end, double arg, int scientific) {
    // "%f" of the largest double needs 309 integer digits, 1 point, 6 decimals and a sign.
    char buf[400];
    snprintf(buf, sizeof(buf), scientific ? "%e" : "%f", arg);
    return halide_string_to_string(dst, end, buf);
}

char *halide_pointer_to_string(char *dst, char *end, const void *arg) {
    const char *hex = "0123456789abcdef";
    char buf[24];
    char *p = buf + sizeof(buf) - 1;
    *p = 0;
    uint64_t bits = (uint64_t)(uintptr_t)arg;
    do {
        *--p = hex[bits & 15];
        bits >>= 4;
    } while (bits);
    *--p = 'x';
    *--p = '0';
    return halide_string_to_string(dst, end, p);
}

char *halide_type_to_string(char *dst, char *end, const struct halide_type_t *arg) {
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

} // extern "C"
