#ifndef LOOM_RUNTIME_MESSAGE_H
#define LOOM_RUNTIME_MESSAGE_H

// A fixed-size message builder for the runtime's error reports (no heap, no STL): collect
// pieces with <<, then pass str() to halide_error. Internal linkage, so nothing but the
// extern "C" entry points leaves the runtime.

#include <loom/runtime/loom_runtime.h>

namespace {

class Message {
public:
    Message() : dst(buf), end(buf + sizeof(buf)) { buf[0] = 0; }
    Message &operator<<(const char *s) {
        dst = halide_string_to_string(dst, end, s);
        return *this;
    }
    Message &operator<<(int x) { return *this << (int64_t)x; }
    Message &operator<<(int64_t x) {
        dst = halide_int64_to_string(dst, end, x, 1);
        return *this;
    }
    Message &operator<<(uint64_t x) {
        dst = halide_uint64_to_string(dst, end, x, 1);
        return *this;
    }
    // Doubles print in scientific notation, as in Halide's runtime error messages.
    Message &operator<<(double x) {
        dst = halide_double_to_string(dst, end, x, 1);
        return *this;
    }
    Message &operator<<(const halide_type_t &t) {
        dst = halide_type_to_string(dst, end, &t);
        return *this;
    }
    const char *str() const { return buf; }

private:
    char buf[1024];
    char *dst, *end;
};

// Unpacks a type passed as code | bits << 8 | lanes << 16.
inline halide_type_t unpack_type(uint32_t bits) {
    return halide_type_t((halide_type_code_t)(bits & 0xff), (uint8_t)((bits >> 8) & 0xff),
                         (uint16_t)(bits >> 16));
}

// Reports the message and returns the code.
inline int report(void *user_context, const Message &m, int code) {
    halide_error(user_context, m.str());
    return code;
}

} // namespace

#endif
