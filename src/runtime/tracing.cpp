// Tracing: halide_trace and its replaceable handler, the default text tracer, and
// halide_trace_helper, which compiled pipelines call with the fields of one event (the lowering
// pass is src/lower/inject_tracing.cpp). The text format is Halide's, byte for byte:
//   Begin pipeline f.0()
//   Tag f.0() tag = "func_type_and_dim: 1 0 32 1 2 0 2 0 2"
//   Begin realization f.0(0, 2, 0, 2)
//   Store f.0(<0, 1, 2, 3>, 0) = <0, 1, 2, 3>
// Halide's binary trace files (HL_TRACE_FILE) are not written: events are always printed.

#include <loom/runtime/loom_runtime.h>

#include "runtime/runtime_libc.h"

// External linkage in a namespace of their own, as in error_handler.cpp, so several AOT
// pipelines in one program share one handler and one id counter.
namespace loom_runtime {

halide_trace_t current_trace = halide_default_trace;
int32_t trace_ids = 0;

} // namespace loom_runtime

using namespace loom_runtime;

namespace {

const char *const event_names[] = {
    "Load",    "Store",       "Begin realization", "End realization", "Produce", "End produce",
    "Consume", "End consume", "Begin pipeline",    "End pipeline",    "Tag",
};

/// The value of a 16-bit IEEE half as a double.
double half_to_double(uint16_t h) {
    int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    double v;
    if (exp == 0) {
        v = mant / 1024.0 / 16384.0; // subnormal: mant * 2^-24
    } else if (exp == 31) {
        v = mant ? __builtin_nan("") : __builtin_inf();
    } else {
        v = 1.0 + mant / 1024.0;
        for (int e = exp - 15; e > 0; e--) v *= 2;
        for (int e = exp - 15; e < 0; e++) v /= 2;
    }
    return sign ? -v : v;
}

/// Appends element i of a value of type t at p.
char *append_element(char *dst, char *end, const void *p, const halide_type_t &t, int i) {
    switch (t.code) {
    case halide_type_int:
        switch (t.bits) {
        case 8:
            return halide_int64_to_string(dst, end, ((const int8_t *)p)[i], 1);
        case 16:
            return halide_int64_to_string(dst, end, ((const int16_t *)p)[i], 1);
        case 32:
            return halide_int64_to_string(dst, end, ((const int32_t *)p)[i], 1);
        default:
            return halide_int64_to_string(dst, end, ((const int64_t *)p)[i], 1);
        }
    case halide_type_uint:
        switch (t.bits) {
        case 1:
        case 8:
            return halide_uint64_to_string(dst, end, ((const uint8_t *)p)[i], 1);
        case 16:
            return halide_uint64_to_string(dst, end, ((const uint16_t *)p)[i], 1);
        case 32:
            return halide_uint64_to_string(dst, end, ((const uint32_t *)p)[i], 1);
        default:
            return halide_uint64_to_string(dst, end, ((const uint64_t *)p)[i], 1);
        }
    case halide_type_float:
        // As Halide: doubles in scientific notation, narrower floats as "%f".
        switch (t.bits) {
        case 16:
            return halide_double_to_string(dst, end, half_to_double(((const uint16_t *)p)[i]), 0);
        case 32:
            return halide_double_to_string(dst, end, ((const float *)p)[i], 0);
        default:
            return halide_double_to_string(dst, end, ((const double *)p)[i], 1);
        }
    case halide_type_bfloat: {
        uint32_t bits = (uint32_t)((const uint16_t *)p)[i] << 16;
        float f;
        memcpy(&f, &bits, sizeof(f));
        return halide_double_to_string(dst, end, f, 0);
    }
    default:
        return halide_pointer_to_string(dst, end, ((void *const *)p)[i]);
    }
}

} // namespace

extern "C" {

int32_t halide_default_trace(void *user_context, const struct halide_trace_event_t *e) {
    int32_t id = __atomic_add_fetch(&trace_ids, 1, __ATOMIC_SEQ_CST);
    char buf[4096];
    char *dst = buf, *end = buf + sizeof(buf);
    int code = (int)e->event;
    dst = halide_string_to_string(dst, end,
                                  code >= 0 && code <= 10 ? event_names[code] : "Unknown event");
    dst = halide_string_to_string(dst, end, " ");
    dst = halide_string_to_string(dst, end, e->func);
    dst = halide_string_to_string(dst, end, ".");
    dst = halide_int64_to_string(dst, end, e->value_index, 1);
    dst = halide_string_to_string(dst, end, "(");
    const bool is_access = code == halide_trace_load || code == halide_trace_store;
    // Coordinates of a vector access come one vector per dimension.
    int lanes = is_access && e->type.lanes > 1 ? e->type.lanes : 1;
    for (int i = 0; e->coordinates && i < e->dimensions; i++) {
        if (i > 0) dst = halide_string_to_string(dst, end, ", ");
        if (lanes > 1 && i % lanes == 0) {
            // ", " already separates the previous vector from this one.
            dst = halide_string_to_string(dst, end, "<");
        }
        dst = halide_int64_to_string(dst, end, e->coordinates[i], 1);
        if (lanes > 1 && i % lanes == lanes - 1) dst = halide_string_to_string(dst, end, ">");
    }
    dst = halide_string_to_string(dst, end, ")");
    if (is_access && e->value) {
        dst = halide_string_to_string(dst, end, " = ");
        if (lanes > 1) dst = halide_string_to_string(dst, end, "<");
        for (int i = 0; i < lanes; i++) {
            if (i > 0) dst = halide_string_to_string(dst, end, ", ");
            dst = append_element(dst, end, e->value, e->type, i);
        }
        if (lanes > 1) dst = halide_string_to_string(dst, end, ">");
    }
    if (e->trace_tag && *e->trace_tag) {
        dst = halide_string_to_string(dst, end, " tag = \"");
        dst = halide_string_to_string(dst, end, e->trace_tag);
        dst = halide_string_to_string(dst, end, "\"");
    }
    dst = halide_string_to_string(dst, end, "\n");
    halide_print(user_context, buf);
    return id;
}

int32_t halide_trace(void *user_context, const struct halide_trace_event_t *event) {
    halide_trace_t f = __atomic_load_n(&current_trace, __ATOMIC_ACQUIRE);
    return f(user_context, event);
}

halide_trace_t halide_set_custom_trace(halide_trace_t trace) {
    if (!trace) trace = halide_default_trace;
    return __atomic_exchange_n(&current_trace, trace, __ATOMIC_ACQ_REL);
}

int32_t halide_trace_helper(void *user_context, const char *func, void *value, int32_t *coordinates,
                            int type_code, int type_bits, int type_lanes, int event, int parent_id,
                            int value_index, int dimensions, const char *trace_tag) {
    halide_trace_event_t e;
    e.func = func;
    e.value = value;
    e.coordinates = coordinates;
    e.trace_tag = trace_tag;
    e.type.code = (uint8_t)type_code;
    e.type.bits = (uint8_t)type_bits;
    e.type.lanes = (uint16_t)type_lanes;
    e.event = (halide_trace_event_code_t)event;
    e.parent_id = parent_id;
    e.value_index = value_index;
    e.dimensions = dimensions;
    return halide_trace(user_context, &e);
}

} // extern "C"
