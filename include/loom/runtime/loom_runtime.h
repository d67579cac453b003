// The C ABI shared by compiled pipelines, the runtime and their callers. The structs have
// exactly the layout of Halide's halide_buffer_t family, so Halide callers and Loom pipelines can
// exchange buffers. This header is shipped with generated code: C only, no C++ types.
#ifndef LOOM_RUNTIME_LOOM_RUNTIME_H
#define LOOM_RUNTIME_LOOM_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The kind of a scalar element.
typedef enum halide_type_code_t {
    halide_type_int = 0,    ///< signed two's complement integer
    halide_type_uint = 1,   ///< unsigned integer (bool is uint with 1 bit)
    halide_type_float = 2,  ///< IEEE floating point
    halide_type_handle = 3, ///< opaque pointer
    halide_type_bfloat = 4, ///< brain floating point
} halide_type_code_t;

/// A runtime type: code, bits per lane and number of lanes.
struct halide_type_t {
    uint8_t code; ///< a halide_type_code_t
    uint8_t bits;
    uint16_t lanes;
#ifdef __cplusplus
    halide_type_t(halide_type_code_t code_, uint8_t bits_, uint16_t lanes_ = 1)
        : code((uint8_t)code_), bits(bits_), lanes(lanes_) {}
    halide_type_t() : code(0), bits(0), lanes(0) {}
    bool operator==(const halide_type_t &o) const {
        return code == o.code && bits == o.bits && lanes == o.lanes;
    }
    bool operator!=(const halide_type_t &o) const { return !(*this == o); }
    /// Bytes per scalar element.
    int bytes() const { return (bits + 7) / 8; }
#endif
};

/// One dimension of a buffer: the first coordinate, the number of coordinates, and the distance
/// between consecutive coordinates in elements.
typedef struct halide_dimension_t {
    int32_t min, extent, stride;
    uint32_t flags; ///< reserved
#ifdef __cplusplus
    halide_dimension_t() : min(0), extent(0), stride(0), flags(0) {}
    halide_dimension_t(int32_t m, int32_t e, int32_t s, uint32_t f = 0)
        : min(m), extent(e), stride(s), flags(f) {}
    bool operator==(const halide_dimension_t &o) const {
        return min == o.min && extent == o.extent && stride == o.stride && flags == o.flags;
    }
    bool operator!=(const halide_dimension_t &o) const { return !(*this == o); }
#endif
} halide_dimension_t;

typedef enum halide_buffer_flags {
    halide_buffer_flag_host_dirty = 1,
    halide_buffer_flag_device_dirty = 2,
} halide_buffer_flags;

struct halide_device_interface_t;

/// The buffer descriptor every pipeline takes. A buffer whose host pointer and device handle are
/// both null is a bounds query: the pipeline fills in the region it needs instead of running.
typedef struct halide_buffer_t {
    uint64_t device;
    const struct halide_device_interface_t *device_interface;
    uint8_t *host;
    uint64_t flags;
    struct halide_type_t type;
    int32_t dimensions;
    halide_dimension_t *dim;
    void *padding;
#ifdef __cplusplus
    bool is_bounds_query() const { return host == NULL && device == 0; }
    bool host_dirty() const { return (flags & halide_buffer_flag_host_dirty) != 0; }
    bool device_dirty() const { return (flags & halide_buffer_flag_device_dirty) != 0; }
    void set_host_dirty(bool v = true) {
        flags = v ? (flags | halide_buffer_flag_host_dirty) : (flags & ~(uint64_t)halide_buffer_flag_host_dirty);
    }
    void set_device_dirty(bool v = true) {
        flags = v ? (flags | halide_buffer_flag_device_dirty) : (flags & ~(uint64_t)halide_buffer_flag_device_dirty);
    }
    /// Number of bytes spanned from the lowest to the highest addressed element, inclusive.
    size_t size_in_bytes() const {
        int64_t lo = 0, hi = 0;
        for (int i = 0; i < dimensions; i++) {
            int64_t span = (int64_t)(dim[i].extent - 1) * dim[i].stride;
            if (span < 0) lo += span; else hi += span;
        }
        return (size_t)(hi - lo + 1) * type.bytes();
    }
#endif
} halide_buffer_t;

/// Error codes returned by compiled pipelines (0 is success). Values match Halide's.
enum halide_error_code_t {
    halide_error_code_success = 0,
    halide_error_code_generic_error = -1,
    halide_error_code_explicit_bounds_too_small = -2,
    halide_error_code_bad_type = -3,
    halide_error_code_access_out_of_bounds = -4,
    halide_error_code_buffer_allocation_too_large = -5,
    halide_error_code_buffer_extents_too_large = -6,
    halide_error_code_constraints_make_required_region_smaller = -7,
    halide_error_code_constraint_violated = -8,
    halide_error_code_param_too_small = -9,
    halide_error_code_param_too_large = -10,
    halide_error_code_out_of_memory = -11,
    halide_error_code_buffer_argument_is_null = -12,
    halide_error_code_debug_to_file_failed = -13,
    halide_error_code_copy_to_host_failed = -14,
    halide_error_code_copy_to_device_failed = -15,
    halide_error_code_device_malloc_failed = -16,
    halide_error_code_device_sync_failed = -17,
    halide_error_code_device_free_failed = -18,
    halide_error_code_no_device_interface = -19,
    halide_error_code_bad_dimensions = -43,
    halide_error_code_buffer_extents_negative = -28,
    halide_error_code_requirement_failed = -27,
    halide_error_code_internal_error = -23,
};

#ifdef __cplusplus
} // extern "C"
#endif

#endif
