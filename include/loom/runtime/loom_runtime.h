// The C ABI shared by compiled pipelines, the runtime and their callers. The structs have
// exactly the layout of Halide's halide_buffer_t family, so Halide callers and Loom pipelines can
// exchange buffers. This header is shipped with generated code and is valid C (C99) and C++:
// the C++-only conveniences (constructors, members, halide_type_of) sit under __cplusplus.
#ifndef LOOM_RUNTIME_LOOM_RUNTIME_H
#define LOOM_RUNTIME_LOOM_RUNTIME_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

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

struct halide_buffer_t;
/// What a device API implements behind its halide_device_interface_t; its layout is private to
/// the runtime (src/runtime/device_interface.h).
struct halide_device_interface_impl_t;

/// The entry points of one device API (CUDA, OpenCL, ...), with Halide's exact layout, so a
/// buffer carries a pointer to the code that manages its device allocation. Every device module
/// fills the first fourteen with the runtime's halide_device_* / halide_copy_* functions below,
/// which keep the buffer's fields and dirty flags, and puts what is specific to the API in
/// `impl`; compute_capability is the API's own (null where it has none). Callers may use the
/// pointers or the functions alike.
struct halide_device_interface_t {
    int (*device_malloc)(void *user_context, struct halide_buffer_t *buf,
                         const struct halide_device_interface_t *device_interface);
    int (*device_free)(void *user_context, struct halide_buffer_t *buf);
    int (*device_sync)(void *user_context, struct halide_buffer_t *buf);
    void (*device_release)(void *user_context,
                           const struct halide_device_interface_t *device_interface);
    int (*copy_to_host)(void *user_context, struct halide_buffer_t *buf);
    int (*copy_to_device)(void *user_context, struct halide_buffer_t *buf,
                          const struct halide_device_interface_t *device_interface);
    int (*device_and_host_malloc)(void *user_context, struct halide_buffer_t *buf,
                                  const struct halide_device_interface_t *device_interface);
    int (*device_and_host_free)(void *user_context, struct halide_buffer_t *buf);
    int (*buffer_copy)(void *user_context, struct halide_buffer_t *src,
                       const struct halide_device_interface_t *dst_device_interface,
                       struct halide_buffer_t *dst);
    int (*device_crop)(void *user_context, const struct halide_buffer_t *src,
                       struct halide_buffer_t *dst);
    int (*device_slice)(void *user_context, const struct halide_buffer_t *src, int slice_dim,
                        int slice_pos, struct halide_buffer_t *dst);
    int (*device_release_crop)(void *user_context, struct halide_buffer_t *buf);
    int (*wrap_native)(void *user_context, struct halide_buffer_t *buf, uint64_t handle,
                       const struct halide_device_interface_t *device_interface);
    int (*detach_native)(void *user_context, struct halide_buffer_t *buf);
    int (*compute_capability)(void *user_context, int *major, int *minor);
    const struct halide_device_interface_impl_t *impl;
};

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
        flags = v ? (flags | halide_buffer_flag_host_dirty)
                  : (flags & ~(uint64_t)halide_buffer_flag_host_dirty);
    }
    void set_device_dirty(bool v = true) {
        flags = v ? (flags | halide_buffer_flag_device_dirty)
                  : (flags & ~(uint64_t)halide_buffer_flag_device_dirty);
    }
    /// Waits for the device work on this buffer through its interface; without an interface
    /// there is nothing to wait for (0), as in Halide.
    int device_sync(void *ctx = NULL) {
        if (device_interface && device_interface->device_sync) {
            return device_interface->device_sync(ctx, this);
        }
        return 0;
    }
    bool get_flag(halide_buffer_flags flag) const { return (flags & flag) != 0; }
    void set_flag(halide_buffer_flags flag, bool value) {
        flags = value ? (flags | flag) : (flags & ~(uint64_t)flag);
    }
    /// The number of elements: the product of the extents.
    size_t number_of_elements() const {
        size_t n = 1;
        for (int i = 0; i < dimensions; i++) n *= dim[i].extent;
        return n;
    }
    /// The offset in elements from host of the lowest-addressed element (negative strides
    /// point below host).
    ptrdiff_t begin_offset() const {
        ptrdiff_t lo = 0;
        for (int i = 0; i < dimensions; i++) {
            if (dim[i].stride < 0) lo += (ptrdiff_t)(dim[i].extent - 1) * dim[i].stride;
        }
        return lo;
    }
    /// One past the offset of the highest-addressed element.
    ptrdiff_t end_offset() const {
        ptrdiff_t hi = 0;
        for (int i = 0; i < dimensions; i++) {
            if (dim[i].stride > 0) hi += (ptrdiff_t)(dim[i].extent - 1) * dim[i].stride;
        }
        return hi + 1;
    }
    /// The lowest-addressed byte, and one past the highest-addressed element's bytes.
    uint8_t *begin() const { return host + begin_offset() * type.bytes(); }
    uint8_t *end() const { return host + end_offset() * type.bytes(); }
    /// Number of bytes spanned from the lowest to the highest addressed element, inclusive.
    size_t size_in_bytes() const { return (size_t)(end_offset() - begin_offset()) * type.bytes(); }
    /// The element at coordinates pos[0 .. dimensions - 1].
    uint8_t *address_of(const int *pos) const {
        ptrdiff_t index = 0;
        for (int i = 0; i < dimensions; i++) {
            index += (ptrdiff_t)dim[i].stride * (pos[i] - dim[i].min);
        }
        return host + index * type.bytes();
    }
#endif
} halide_buffer_t;

/// A scalar value of any argument type (Halide's untagged union, wrapped in a struct).
struct halide_scalar_value_t {
    union {
        bool b;
        int8_t i8;
        int16_t i16;
        int32_t i32;
        int64_t i64;
        uint8_t u8;
        uint16_t u16;
        uint32_t u32;
        uint64_t u64;
        float f32;
        double f64;
        void *handle;
    } u;
};

/// What an argument of a compiled pipeline is.
enum halide_argument_kind_t {
    halide_argument_kind_input_scalar = 0,
    halide_argument_kind_input_buffer = 1,
    halide_argument_kind_output_buffer = 2
};

/// One argument of an AOT-compiled pipeline, as described by its `<name>_metadata()` (Halide's
/// layout). The scalar pointers are null for buffers and may be null for scalars;
/// buffer_estimates, for buffers, points at 2 * dimensions (min, extent) pointers, each
/// possibly null.
struct halide_filter_argument_t {
    const char *name;
    int32_t kind; ///< a halide_argument_kind_t
    int32_t dimensions;
    struct halide_type_t type;
    const struct halide_scalar_value_t *scalar_def, *scalar_min, *scalar_max, *scalar_estimate;
    int64_t const *const *buffer_estimates;
};

/// What `<name>_metadata()` of an AOT-compiled pipeline returns: its arguments in calling order
/// (the user context first when the target has user_context), target string and name.
struct halide_filter_metadata_t {
#ifdef __cplusplus
    static const int32_t VERSION = 1;
#endif
    int32_t version; ///< VERSION (1)
    int32_t num_arguments;
    const struct halide_filter_argument_t *arguments;
    const char *target;
    const char *name;
};

/// Error codes returned by compiled pipelines and the runtime (0 is success): Halide's names and
/// values.
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
    halide_error_code_unimplemented = -20,
    halide_error_code_symbol_not_found = -21,
    halide_error_code_internal_error = -22,
    halide_error_code_device_run_failed = -23,
    halide_error_code_unaligned_host_ptr = -24,
    halide_error_code_bad_fold = -25,
    halide_error_code_fold_factor_too_small = -26,
    halide_error_code_requirement_failed = -27,
    halide_error_code_buffer_extents_negative = -28,
    halide_error_code_gpu_device_error = -29,
    halide_error_code_trace_failed = -30,
    halide_error_code_specialize_fail = -31,
    halide_error_code_device_wrap_native_failed = -32,
    halide_error_code_device_detach_native_failed = -33,
    halide_error_code_host_is_null = -34,
    halide_error_code_bad_extern_fold = -35,
    halide_error_code_device_interface_no_device = -36,
    halide_error_code_host_and_device_dirty = -37,
    halide_error_code_buffer_is_null = -38,
    halide_error_code_device_buffer_copy_failed = -39,
    halide_error_code_device_crop_unsupported = -40,
    halide_error_code_device_crop_failed = -41,
    halide_error_code_incompatible_device_interface = -42,
    halide_error_code_bad_dimensions = -43,
    halide_error_code_device_dirty_with_no_device_support = -44,
    halide_error_code_storage_bound_too_small = -45,
    halide_error_code_split_factor_not_positive = -46,
    halide_error_code_vscale_invalid = -47,
    halide_error_code_cannot_profile_pipeline = -48,
};

// ---- Runtime entry points (src/runtime). Names and signatures follow Halide's runtime, so a
// user can override any of them in an AOT build by defining a function of the same name. ----

/// Allocates `size` bytes aligned to 128 bytes, with slack past the end so vector loads that run
/// a little beyond the last element stay inside the allocation. Returns null on failure.
void *halide_malloc(void *user_context, size_t size);
/// Frees memory from halide_malloc (null is ignored).
void halide_free(void *user_context, void *ptr);
/// Reports an error message through the current error handler.
void halide_error(void *user_context, const char *msg);
/// Prints a message through the current print handler.
void halide_print(void *user_context, const char *msg);

/// Handler types for the setters below.
typedef void (*halide_error_handler_t)(void *user_context, const char *msg);
typedef void (*halide_print_t)(void *user_context, const char *msg);
typedef void *(*halide_malloc_t)(void *user_context, size_t size);
typedef void (*halide_free_t)(void *user_context, void *ptr);

/// Each installs a handler (null restores the default) and returns the previous one. The default
/// error handler writes "Error: <msg>" to stderr and never aborts; the default print handler
/// writes to stdout. (The JIT collects a call's messages through its own handler, per call.)
halide_error_handler_t halide_set_error_handler(halide_error_handler_t handler);
halide_print_t halide_set_custom_print(halide_print_t print);
halide_malloc_t halide_set_custom_malloc(halide_malloc_t user_malloc);
halide_free_t halide_set_custom_free(halide_free_t user_free);

/// The handlers the defaults above implement, so a custom handler can chain to them.
void halide_default_error(void *user_context, const char *msg);
void halide_default_print(void *user_context, const char *msg);
void *halide_default_malloc(void *user_context, size_t size);
void halide_default_free(void *user_context, void *ptr);

/// Error reporters called by compiled pipelines. Each formats a message like Halide's, passes it
/// to halide_error and returns the matching (negative) halide_error_code_t.
/// Types are packed as code | bits << 8 | lanes << 16.
int halide_error_bad_type(void *user_context, const char *func_name, uint32_t type_given_bits,
                          uint32_t correct_type_bits);
int halide_error_bad_dimensions(void *user_context, const char *func_name, int32_t dimensions_given,
                                int32_t correct_dimensions);
int halide_error_access_out_of_bounds(void *user_context, const char *func_name, int dimension,
                                      int min_touched, int max_touched, int min_valid,
                                      int max_valid);
int halide_error_buffer_allocation_too_large(void *user_context, const char *buffer_name,
                                             uint64_t allocation_size, uint64_t max_size);
int halide_error_buffer_extents_too_large(void *user_context, const char *buffer_name,
                                          int64_t actual_size, int64_t max_size);
int halide_error_buffer_extents_negative(void *user_context, const char *buffer_name, int dimension,
                                         int extent);
int halide_error_constraint_violated(void *user_context, const char *var, int val,
                                     const char *constrained_var, int constrained_val);
int halide_error_param_too_small_i64(void *user_context, const char *param_name, int64_t val,
                                     int64_t min_val);
int halide_error_param_too_small_u64(void *user_context, const char *param_name, uint64_t val,
                                     uint64_t min_val);
int halide_error_param_too_small_f64(void *user_context, const char *param_name, double val,
                                     double min_val);
int halide_error_param_too_large_i64(void *user_context, const char *param_name, int64_t val,
                                     int64_t max_val);
int halide_error_param_too_large_u64(void *user_context, const char *param_name, uint64_t val,
                                     uint64_t max_val);
int halide_error_param_too_large_f64(void *user_context, const char *param_name, double val,
                                     double max_val);
int halide_error_out_of_memory(void *user_context);
int halide_error_buffer_argument_is_null(void *user_context, const char *buffer_name);
int halide_error_requirement_failed(void *user_context, const char *condition, const char *message);
int halide_error_explicit_bounds_too_small(void *user_context, const char *func_name,
                                           const char *var_name, int min_bound, int max_bound,
                                           int min_required, int max_required);

/// Further reporters with Halide's messages, for checks later lowering passes add.
int halide_error_constraints_make_required_region_smaller(void *user_context,
                                                          const char *buffer_name, int dimension,
                                                          int constrained_min,
                                                          int constrained_extent, int required_min,
                                                          int required_extent);
int halide_error_unaligned_host_ptr(void *user_context, const char *func_name, int alignment);
int halide_error_host_is_null(void *user_context, const char *func_name);
int halide_error_bad_fold(void *user_context, const char *func_name, const char *var_name,
                          const char *loop_name);
int halide_error_fold_factor_too_small(void *user_context, const char *func_name,
                                       const char *var_name, int fold_factor, const char *loop_name,
                                       int required_extent);
int halide_error_storage_bound_too_small(void *user_context, const char *func_name,
                                         const char *var_name, int provided_size,
                                         int required_size);
int halide_error_specialize_fail(void *user_context, const char *message);
/// These two return `result` (the extern stage's own nonzero code).
int halide_error_extern_stage_failed(void *user_context, const char *extern_stage_name, int result);
int halide_error_bounds_inference_call_failed(void *user_context, const char *extern_stage_name,
                                              int result);

/// Reporters for a buffer's device state, with Halide's messages: a device handle without an
/// interface, an interface without a device handle, both dirty bits set, a null buffer passed to
/// `routine`, a device-dirty buffer given to a pipeline that cannot copy it back, and a crop or
/// slice the device interface could not make.
int halide_error_no_device_interface(void *user_context);
int halide_error_device_interface_no_device(void *user_context);
int halide_error_host_and_device_dirty(void *user_context);
int halide_error_buffer_is_null(void *user_context, const char *routine);
int halide_error_device_dirty_with_no_device_support(void *user_context, const char *buffer_name);
int halide_error_device_crop_failed(void *user_context);

// ---- Device memory (src/runtime/device_interface.cpp). Each checks the buffer first: a null
// buffer, a device handle without an interface (or the reverse) and both dirty bits set are
// errors. Every failure is reported through halide_error and returns a nonzero
// halide_error_code_t; 0 is success. ----

/// Allocates device memory for buf's shape on `device_interface` (a no-op when buf already has
/// an allocation there; an allocation on another interface is an error).
int halide_device_malloc(void *user_context, struct halide_buffer_t *buf,
                         const struct halide_device_interface_t *device_interface);
/// Frees buf's device allocation (if any) and clears device, device_interface and device_dirty.
int halide_device_free(void *user_context, struct halide_buffer_t *buf);
/// halide_device_free with the signature of a destructor, for generated code's cleanups.
void halide_device_free_as_destructor(void *user_context, void *buf);
/// Waits for the device work on buf to finish.
int halide_device_sync(void *user_context, struct halide_buffer_t *buf);
/// Waits for all work of one device API (whose interface must not be null).
int halide_device_sync_global(void *user_context,
                              const struct halide_device_interface_t *device_interface);
/// Releases everything a device API holds (contexts, modules); not thread-safe with pipelines
/// running on it. Must be called explicitly by AOT programs that want the resources back.
void halide_device_release(void *user_context,
                           const struct halide_device_interface_t *device_interface);
/// Copies device -> host when buf is device_dirty, then clears device_dirty; otherwise does
/// nothing.
int halide_copy_to_host(void *user_context, struct halide_buffer_t *buf);
/// Copies host -> device when buf is host_dirty (or its device allocation is new, so holds
/// nothing yet), allocating on `device_interface` (null: buf's own) if needed; clears
/// host_dirty.
int halide_copy_to_device(void *user_context, struct halide_buffer_t *buf,
                          const struct halide_device_interface_t *device_interface);
/// Allocates host and device memory together (buf must have neither), for APIs that can share
/// them; free with halide_device_and_host_free.
int halide_device_and_host_malloc(void *user_context, struct halide_buffer_t *buf,
                                  const struct halide_device_interface_t *device_interface);
/// Frees what halide_device_and_host_malloc allocated; host becomes null.
int halide_device_and_host_free(void *user_context, struct halide_buffer_t *buf);
/// halide_device_and_host_free with the signature of a destructor.
void halide_device_and_host_free_as_destructor(void *user_context, void *buf);
/// Copies the elements of dst's region (which must lie inside src's) from src, reading src's
/// newest copy (host when both are current), into dst's device memory on
/// `dst_device_interface` (allocated if needed), or into dst's host memory when it is null. The
/// written side of dst becomes the dirty one.
int halide_buffer_copy(void *user_context, struct halide_buffer_t *src,
                       const struct halide_device_interface_t *dst_device_interface,
                       struct halide_buffer_t *dst);
/// Gives dst (same dimensions as src, a region inside it, no device allocation of its own) a
/// device handle aliasing that region of src's allocation, with src's interface and
/// device_dirty flag. Release with halide_device_release_crop, before src's allocation is
/// freed. A src without a device allocation leaves dst alone.
int halide_device_crop(void *user_context, const struct halide_buffer_t *src,
                       struct halide_buffer_t *dst);
/// As halide_device_crop, for dst = src sliced at slice_pos in dimension slice_dim.
int halide_device_slice(void *user_context, const struct halide_buffer_t *src, int slice_dim,
                        int slice_pos, struct halide_buffer_t *dst);
/// Releases a crop's or slice's alias (not the allocation it aliases).
int halide_device_release_crop(void *user_context, struct halide_buffer_t *buf);
/// Makes buf (without a device allocation) use a device handle of the API (a CUDA device
/// pointer, an OpenCL cl_mem, ...) that the caller keeps owning.
int halide_device_wrap_native(void *user_context, struct halide_buffer_t *buf, uint64_t handle,
                              const struct halide_device_interface_t *device_interface);
/// Forgets a wrapped handle without freeing it.
int halide_device_detach_native(void *user_context, struct halide_buffer_t *buf);

/// The GPU that device APIs use: n as set here, else the environment's HL_GPU_DEVICE, else -1
/// (the API's choice). A program may replace halide_get_gpu_device to choose per user context.
void halide_set_gpu_device(int n);
int halide_get_gpu_device(void *user_context);

/// Whether device APIs may keep freed device allocations for reuse instead of returning them
/// to the driver at once (by default they may). Setting false also asks every registered pool
/// to release its unused allocations, and returns the first nonzero result. A program may
/// replace halide_can_reuse_device_allocations to decide per user context.
int halide_reuse_device_allocations(void *user_context, bool flag);
bool halide_can_reuse_device_allocations(void *user_context);

/// A device API's cache of unused allocations, released by halide_reuse_device_allocations(false).
struct halide_device_allocation_pool {
    int (*release_unused)(void *user_context);
    struct halide_device_allocation_pool *next;
};
/// Registers a pool (of static lifetime; its next field is overwritten).
void halide_register_device_allocation_pool(struct halide_device_allocation_pool *pool);

/// String building for print(). Each writes at most up to `end - 1`, always NUL-terminates
/// (when dst < end) and returns a pointer to the terminating NUL, so calls chain:
///   p = halide_string_to_string(p, end, "x = "); p = halide_int64_to_string(p, end, x, 1);
char *halide_string_to_string(char *dst, char *end, const char *arg);
/// Decimal, zero-padded to at least `digits` digits.
char *halide_int64_to_string(char *dst, char *end, int64_t arg, int digits);
char *halide_uint64_to_string(char *dst, char *end, uint64_t arg, int digits);
/// Like printf's "%f" (6 decimals) when scientific == 0, like "%e" otherwise; "nan", "inf".
char *halide_double_to_string(char *dst, char *end, double arg, int scientific);
/// "0x" followed by the address in hex.
char *halide_pointer_to_string(char *dst, char *end, const void *arg);

/// The value of IEEE binary16 bits (a Float(16) element), exactly.
float halide_float16_bits_to_float(uint16_t bits);
double halide_float16_bits_to_double(uint16_t bits);
/// The type's name ("uint8", "float32x4", "bool"), packed or as a struct.
char *halide_type_to_string(char *dst, char *end, const struct halide_type_t *arg);

/// A parallel loop's body: runs iteration `task_number` with the loop's captured variables.
typedef int (*halide_task_t)(void *user_context, int task_number, uint8_t *closure);
typedef int (*halide_do_par_for_t)(void *user_context, halide_task_t f, int min, int size,
                                   uint8_t *closure);
typedef int (*halide_do_task_t)(void *user_context, halide_task_t f, int idx, uint8_t *closure);
/// Runs f for every index in [min, min + size) on the thread pool (or the custom handler) and
/// returns 0 or the first nonzero result of f. Compiled parallel loops call it.
int halide_do_par_for(void *user_context, halide_task_t f, int min, int size, uint8_t *closure);
/// Runs one iteration (through the custom handler, if any); the thread pool calls it.
int halide_do_task(void *user_context, halide_task_t f, int idx, uint8_t *closure);
int halide_default_do_par_for(void *user_context, halide_task_t f, int min, int size,
                              uint8_t *closure);
int halide_default_do_task(void *user_context, halide_task_t f, int idx, uint8_t *closure);
/// Replace the handlers (null restores the default); each returns the previous one.
halide_do_par_for_t halide_set_custom_do_par_for(halide_do_par_for_t do_par_for);
halide_do_task_t halide_set_custom_do_task(halide_do_task_t do_task);
/// The number of threads parallel loops use (the calling thread included); n <= 0 means the
/// default: LOOM_NUM_THREADS, else HL_NUM_THREADS, else the number of CPUs. Returns the old
/// count.
int halide_set_num_threads(int n);
/// Stops and joins the worker threads (the next parallel loop starts them again).
void halide_shutdown_thread_pool(void);

/// A counting semaphore: how an async producer (Func::async) tells its consumers what it has
/// computed, and how they tell it which storage they are done with. Opaque.
struct halide_semaphore_t {
    uint64_t _private[2];
};
/// A semaphore and the count a task must acquire from it before each call.
struct halide_semaphore_acquire_t {
    struct halide_semaphore_t *semaphore;
    int count;
};
/// Sets the count to n. Returns 0.
int halide_semaphore_init(struct halide_semaphore_t *, int n);
/// Adds n to the count (waking waiters). Returns the new count.
int halide_semaphore_release(struct halide_semaphore_t *, int n);
/// Takes n from the count if it holds at least n; never blocks.
bool halide_semaphore_try_acquire(struct halide_semaphore_t *, int n);
typedef int (*halide_semaphore_init_t)(struct halide_semaphore_t *, int);
typedef int (*halide_semaphore_release_t)(struct halide_semaphore_t *, int);
typedef bool (*halide_semaphore_try_acquire_t)(struct halide_semaphore_t *, int);

/// A task that runs the iterations [min, min + extent) of a serial loop. task_parent is passed
/// through to halide_do_parallel_tasks calls the task makes.
typedef int (*halide_loop_task_t)(void *user_context, int min, int extent, uint8_t *closure,
                                  void *task_parent);
/// One of the tasks halide_do_parallel_tasks runs (Halide's layout).
struct halide_parallel_task_t {
    halide_loop_task_t fn;
    uint8_t *closure;
    const char *name; ///< for debugging
    /// Acquired before every call of fn (each call runs one iteration when there are any).
    struct halide_semaphore_acquire_t *semaphores;
    int num_semaphores;
    int min, extent;
    /// Threads the task needs to finish (more than one when it waits on tasks it starts).
    int min_threads;
    /// The iterations run in order, one at a time.
    bool serial;
};
/// Runs the tasks concurrently and returns when all have finished: 0, or the first nonzero
/// result. Loom's default runs every task but the first on a thread of its own (started when
/// no idle one is left), since tasks may wait on each other through semaphores; the calling
/// thread runs the first.
int halide_do_parallel_tasks(void *user_context, int num_tasks,
                             struct halide_parallel_task_t *tasks, void *task_parent);
typedef int (*halide_do_loop_task_t)(void *, halide_loop_task_t, int, int, uint8_t *, void *);
typedef int (*halide_do_parallel_tasks_t)(void *, int, struct halide_parallel_task_t *,
                                          void *task_parent);
/// Runs one call of a loop task (through the custom handler, if any).
int halide_do_loop_task(void *user_context, halide_loop_task_t f, int min, int extent,
                        uint8_t *closure, void *task_parent);
halide_do_loop_task_t halide_set_custom_do_loop_task(halide_do_loop_task_t do_task);
/// Replaces the whole parallel runtime; null arguments restore the defaults.
void halide_set_custom_parallel_runtime(halide_do_par_for_t, halide_do_task_t,
                                        halide_do_loop_task_t, halide_do_parallel_tasks_t,
                                        halide_semaphore_init_t, halide_semaphore_try_acquire_t,
                                        halide_semaphore_release_t);
int halide_default_do_parallel_tasks(void *user_context, int num_tasks,
                                     struct halide_parallel_task_t *tasks, void *task_parent);
int halide_default_do_loop_task(void *user_context, halide_loop_task_t f, int min, int extent,
                                uint8_t *closure, void *task_parent);
int halide_default_semaphore_init(struct halide_semaphore_t *, int n);
int halide_default_semaphore_release(struct halide_semaphore_t *, int n);
bool halide_default_semaphore_try_acquire(struct halide_semaphore_t *, int n);

/// Loom's async lowering (src/lower/async_producers.h): blocks until n can be acquired from
/// the semaphore. Returns 0, or halide_error_code_generic_error when a task of the same fork failed
/// (its error was reported), so the waiting side stops instead of waiting forever.
int loom_semaphore_acquire(struct halide_semaphore_t *semaphore, int n);
/// Runs `producer` and `consumer` (loop tasks over [0, 1)) concurrently through
/// halide_do_parallel_tasks. When either fails, the `num_semaphores` semaphores the two share
/// are marked failed, which wakes the other side if it waits on one. Returns 0 or the first
/// failure's code.
int loom_do_fork(void *user_context, halide_loop_task_t producer, uint8_t *producer_closure,
                 halide_loop_task_t consumer, uint8_t *consumer_closure,
                 struct halide_semaphore_t **semaphores, int num_semaphores);

/// Loom's GPU offload (src/lower/offload_gpu_loops.h), before each kernel launch: makes buf's
/// device copy current when the kernel reads it (halide_copy_to_device), or only allocates it on
/// iface when the kernel only writes it and the host holds nothing newer. Returns 0 or an error
/// code.
int loom_prepare_device_buffer(void *user_context, struct halide_buffer_t *buf,
                               const struct halide_device_interface_t *iface, int read);

/// The cache of Func::memoize (src/runtime/memoization_cache.cpp). Its entries hold copies of
/// computed values: lookup copies a hit into tuple_buffers[i]->host and returns 0, or returns
/// 1 on a miss; store copies the buffers in. The limit is on the bytes of values held (1 MiB by
/// default); least recently used entries go first.
void halide_memoization_cache_set_size(int64_t size);
int halide_memoization_cache_lookup(void *user_context, const uint8_t *cache_key, int32_t size,
                                    struct halide_buffer_t *realized_bounds, int32_t tuple_count,
                                    struct halide_buffer_t **tuple_buffers);
int halide_memoization_cache_store(void *user_context, const uint8_t *cache_key, int32_t size,
                                   struct halide_buffer_t *realized_bounds, int32_t tuple_count,
                                   struct halide_buffer_t **tuple_buffers, bool has_eviction_key,
                                   uint64_t eviction_key);
/// Nothing to do in Loom (values are copied out of the cache); kept for Halide's ABI.
void halide_memoization_cache_release(void *user_context, void *host);
/// Drops the entries stored with this eviction key.
void halide_memoization_cache_evict(void *user_context, uint64_t eviction_key);
/// Drops every entry.
void halide_memoization_cache_cleanup(void);

/// Trace event kinds (Halide's codes): what a halide_trace_event_t reports.
enum halide_trace_event_code_t {
    halide_trace_load = 0,
    halide_trace_store = 1,
    halide_trace_begin_realization = 2,
    halide_trace_end_realization = 3,
    halide_trace_produce = 4,
    halide_trace_end_produce = 5,
    halide_trace_consume = 6,
    halide_trace_end_consume = 7,
    halide_trace_begin_pipeline = 8,
    halide_trace_end_pipeline = 9,
    halide_trace_tag = 10
};

/// One trace event, with the layout of Halide's struct. For loads and stores `value` points at
/// the value (type.lanes elements of `type`) and `coordinates` holds the site (for vectors, one
/// vector of lanes per dimension, lanes innermost); for realization, produce and consume events
/// it holds min0, extent0, min1, extent1, ...; for pipeline and tag events it is null.
/// `dimensions` is the length of `coordinates`; `parent_id` the id halide_trace returned for the
/// enclosing event (see Halide's Func::trace_* documentation for the hierarchy).
struct halide_trace_event_t {
    const char *func; ///< the Func, image or pipeline named by the event
    void *value;
    int32_t *coordinates;
    const char *trace_tag; ///< the text of a halide_trace_tag event, else null
    struct halide_type_t type;
    enum halide_trace_event_code_t event;
    int32_t parent_id;
    int32_t value_index; ///< the Tuple element of a load or store
    int32_t dimensions;
};

/// Reports a trace event through the current trace handler; returns the event's id (positive)
/// that later events name as their parent.
int32_t halide_trace(void *user_context, const struct halide_trace_event_t *event);
/// The default handler: prints one line per event through halide_print, in Halide's text
/// format ("Store f.0(1, 2) = 3").
int32_t halide_default_trace(void *user_context, const struct halide_trace_event_t *event);
typedef int32_t (*halide_trace_t)(void *user_context, const struct halide_trace_event_t *);
/// Installs a trace handler (null restores the default) and returns the previous one.
halide_trace_t halide_set_custom_trace(halide_trace_t trace);
/// What compiled pipelines call: builds the event from its fields and calls halide_trace.
int32_t halide_trace_helper(void *user_context, const char *func, void *value, int32_t *coordinates,
                            int type_code, int type_bits, int type_lanes, int event, int parent_id,
                            int value_index, int dimensions, const char *trace_tag);

struct halide_thread;

/// Halide's mutex: one word, zero when unlocked (the profiler's lock; a spin lock in Loom, held
/// only for a few instructions at a time).
struct halide_mutex {
    uintptr_t _private[1];
};

// ---- The profiler (src/runtime/profiler.cpp): pipelines compiled with Target::Profile or
// ProfileByTimer report, per Func, the time spent computing it, its share of the run, the
// heap memory it allocated and the threads active while it ran (src/lower/inject_profiling.h).
// A sampling thread (Profile) or SIGPROF timer (ProfileByTimer) looks every `sleep_time`
// microseconds at which Func each running pipeline is computing; when a run ends, its samples
// are scaled to its wall-clock time, so the Funcs' times add up to the run's. Structures and
// functions are Halide's, with its layouts. ----

/// Per-Func statistics (times in nanoseconds, memory in bytes).
struct halide_profiler_func_stats {
    uint64_t time;           ///< time spent computing this Func
    uint64_t memory_current; ///< its heap allocations live now
    uint64_t memory_peak;    ///< the most it had live at once
    uint64_t memory_total;   ///< all it allocated
    uint64_t stack_peak;     ///< unused by Loom (0): stack buffers are not counted
    uint64_t active_threads_numerator, active_threads_denominator; ///< threads busy per sample
    const char *name;                                              ///< the Func's name
    int num_allocs;                                                ///< its heap allocations
} __attribute__((aligned(8)));

/// Per-pipeline statistics, accumulated over its runs since the last reset; a linked list.
struct halide_profiler_pipeline_stats {
    uint64_t time; ///< wall-clock time of all runs (ns)
    uint64_t memory_current, memory_peak, memory_total;
    uint64_t active_threads_numerator, active_threads_denominator;
    const char *name;
    struct halide_profiler_func_stats *funcs;
    void *next;
    int num_funcs;
    int runs;
    int samples;
    int num_allocs;
} __attribute__((aligned(8)));

/// One run of a profiled pipeline, on the stack of the generated code (with its num_funcs
/// halide_profiler_func_stats right after it), in the list of running instances until it ends.
struct halide_profiler_instance_state {
    uint64_t billed_time; ///< time the sampler attributed to this run's Funcs (ns)
    uint64_t start_time;  ///< when the run started (ns, CLOCK_MONOTONIC)
    uint64_t memory_current, memory_peak, memory_total;
    uint64_t active_threads_numerator, active_threads_denominator;
    struct halide_profiler_instance_state *next;
    struct halide_profiler_instance_state **prev_next;
    struct halide_profiler_pipeline_stats *pipeline_stats;
    struct halide_profiler_func_stats *funcs;
    int current_func;   ///< the id of the Func being computed (0: none; see inject_profiling)
    int active_threads; ///< threads working on this run now
    int samples;
    int num_allocs;
    int should_collect_statistics;
} __attribute__((aligned(8)));

/// The profiler's global state.
struct halide_profiler_state {
    struct halide_mutex lock; ///< guards everything below; the sampler takes it per sample
    struct halide_profiler_pipeline_stats *pipelines;
    struct halide_thread *sampling_thread;            ///< non-null while the sampling thread runs
    struct halide_profiler_instance_state *instances; ///< the runs in progress
    void (*get_remote_profiler_state)(int *func, int *active_workers); ///< unused by Loom
    int sleep_time; ///< microseconds between samples (default 1000); may be changed
    int shutdown;   ///< set to stop the sampling thread
};

/// The global state, for programmatic inspection (lock it while reading).
struct halide_profiler_state *halide_profiler_get_state(void);
/// The statistics of the pipeline of that name (null when it has not run since the last
/// reset). Takes the lock on entry.
struct halide_profiler_pipeline_stats *
halide_profiler_get_pipeline_state(const char *pipeline_name);
/// Takes one sample of every running instance: the time since *prev_t goes to the Func each is
/// computing; *prev_t becomes now. The caller holds the lock (a timer interrupt handler calls
/// it this way). Returns 0.
int halide_profiler_sample(struct halide_profiler_state *s, uint64_t *prev_t);
/// Forgets every pipeline's statistics; waits for running instances to end first.
void halide_profiler_reset(void);
/// Stops the sampling thread and forgets everything (waits for running instances first).
void halide_profiler_shutdown(void);
/// Prints every pipeline's statistics since the last reset through halide_print, in Halide's
/// format. Also happens at process exit (for what was not reported yet). The JIT reports and
/// resets after each call, as Halide's does.
void halide_profiler_report(void *user_context);
void halide_profiler_lock(struct halide_profiler_state *s);
void halide_profiler_unlock(struct halide_profiler_state *s);

/// What profiled pipelines call (src/lower/inject_profiling.h). instance_start initializes
/// `instance` (room for num_funcs func stats after it), names func i func_names[i], and starts
/// the sampler: a thread, or with by_timer a SIGPROF interval timer. instance_end (run as a
/// destructor, so also when the run fails) merges the run into its pipeline's statistics.
int halide_profiler_instance_start(void *user_context, const char *pipeline_name, int num_funcs,
                                   const char *const *func_names,
                                   struct halide_profiler_instance_state *instance, int by_timer);
void halide_profiler_instance_end(void *user_context, void *instance);
/// The Func the run computes now (one value per run: of several threads, the last to set it).
/// Returns 0.
int halide_profiler_set_current_func(struct halide_profiler_instance_state *instance, int func_id);
/// A thread starts (incr) or stops (decr) working on the run. Return 0.
int halide_profiler_incr_active_threads(struct halide_profiler_instance_state *instance);
int halide_profiler_decr_active_threads(struct halide_profiler_instance_state *instance);
/// Func func_id allocated (freed) `bytes` bytes of heap. Return 0.
int halide_profiler_memory_allocate(void *user_context,
                                    struct halide_profiler_instance_state *instance, int func_id,
                                    uint64_t bytes);
int halide_profiler_memory_free(void *user_context, struct halide_profiler_instance_state *instance,
                                int func_id, uint64_t bytes);

#ifdef __cplusplus
} // extern "C"
#endif

#ifdef __cplusplus
/// The runtime type of the C++ scalar type T (Halide's halide_type_of): bool is uint1, pointers
/// are 64-bit handles.
template <typename T>
struct loom_halide_type_of_impl;
#define LOOM_DEFINE_TYPE_OF(T, CODE, BITS)                                                         \
    template <>                                                                                    \
    struct loom_halide_type_of_impl<T> {                                                           \
        static halide_type_t get() { return halide_type_t(CODE, BITS); }                           \
    };
LOOM_DEFINE_TYPE_OF(bool, halide_type_uint, 1)
LOOM_DEFINE_TYPE_OF(int8_t, halide_type_int, 8)
LOOM_DEFINE_TYPE_OF(int16_t, halide_type_int, 16)
LOOM_DEFINE_TYPE_OF(int32_t, halide_type_int, 32)
LOOM_DEFINE_TYPE_OF(int64_t, halide_type_int, 64)
LOOM_DEFINE_TYPE_OF(uint8_t, halide_type_uint, 8)
LOOM_DEFINE_TYPE_OF(uint16_t, halide_type_uint, 16)
LOOM_DEFINE_TYPE_OF(uint32_t, halide_type_uint, 32)
LOOM_DEFINE_TYPE_OF(uint64_t, halide_type_uint, 64)
LOOM_DEFINE_TYPE_OF(float, halide_type_float, 32)
LOOM_DEFINE_TYPE_OF(double, halide_type_float, 64)
#undef LOOM_DEFINE_TYPE_OF
template <typename T>
struct loom_halide_type_of_impl<T *> {
    static halide_type_t get() { return halide_type_t(halide_type_handle, 64); }
};
template <typename T>
struct loom_halide_type_of_impl<const T> : loom_halide_type_of_impl<T> {};

/// The halide_type_t of the C++ type T.
template <typename T>
inline halide_type_t halide_type_of() {
    return loom_halide_type_of_impl<T>::get();
}
#endif

#endif
