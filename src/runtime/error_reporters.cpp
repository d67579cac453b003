// The error reporters compiled pipelines call when an argument check fails. Each formats
// Halide's message, hands it to halide_error, and returns the error code the pipeline returns.
// Buffer-related reporters print the name they are given verbatim; the lowering passes names
// such as "Input buffer input" so messages read like Halide's.

#include "runtime/message.h"

namespace {

/// "Parameter p is v but must be at least/at most bound", for every scalar kind.
template <typename T>
int param_out_of_range(void *uc, const char *param_name, T val, const char *relation, T bound,
                       int code) {
    Message m;
    m << "Parameter " << param_name << " is " << val << " but must be " << relation << " " << bound;
    return report(uc, m, code);
}

} // namespace

extern "C" {

int halide_error_bad_type(void *uc, const char *func_name, uint32_t type_given_bits,
                          uint32_t correct_type_bits) {
    Message m;
    m << func_name << " has type " << unpack_type(correct_type_bits)
      << " but type of the buffer passed in is " << unpack_type(type_given_bits);
    return report(uc, m, halide_error_code_bad_type);
}

int halide_error_bad_dimensions(void *uc, const char *func_name, int32_t dimensions_given,
                                int32_t correct_dimensions) {
    Message m;
    m << func_name << " requires a buffer of exactly " << correct_dimensions
      << " dimensions, but the buffer passed in has " << dimensions_given << " dimensions";
    return report(uc, m, halide_error_code_bad_dimensions);
}

int halide_error_access_out_of_bounds(void *uc, const char *func_name, int dimension,
                                      int min_touched, int max_touched, int min_valid,
                                      int max_valid) {
    Message m;
    if (min_touched < min_valid) {
        m << func_name << " is accessed at " << min_touched << ", which is before the min ("
          << min_valid << ") in dimension " << dimension;
    } else if (max_touched > max_valid) {
        m << func_name << " is accessed at " << max_touched << ", which is beyond the max ("
          << max_valid << ") in dimension " << dimension;
    } else {
        m << func_name << " is accessed at [" << min_touched << ", " << max_touched
          << "], which is within its bounds [" << min_valid << ", " << max_valid
          << "] in dimension " << dimension;
    }
    return report(uc, m, halide_error_code_access_out_of_bounds);
}

int halide_error_buffer_allocation_too_large(void *uc, const char *buffer_name,
                                             uint64_t allocation_size, uint64_t max_size) {
    Message m;
    m << "Total allocation for buffer " << buffer_name << " is " << allocation_size
      << ", which exceeds the maximum size of " << max_size;
    return report(uc, m, halide_error_code_buffer_allocation_too_large);
}

int halide_error_buffer_extents_too_large(void *uc, const char *buffer_name, int64_t actual_size,
                                          int64_t max_size) {
    Message m;
    m << "Product of extents for buffer " << buffer_name << " is " << actual_size
      << ", which exceeds the maximum size of " << max_size;
    return report(uc, m, halide_error_code_buffer_extents_too_large);
}

int halide_error_buffer_extents_negative(void *uc, const char *buffer_name, int dimension,
                                         int extent) {
    Message m;
    m << "The extents for buffer " << buffer_name << " dimension " << dimension << " is negative ("
      << extent << ")";
    return report(uc, m, halide_error_code_buffer_extents_negative);
}

int halide_error_constraint_violated(void *uc, const char *var, int val,
                                     const char *constrained_var, int constrained_val) {
    Message m;
    m << "Constraint violated: " << var << " (" << val << ") == " << constrained_var << " ("
      << constrained_val << ")";
    return report(uc, m, halide_error_code_constraint_violated);
}

int halide_error_param_too_small_i64(void *uc, const char *param_name, int64_t val,
                                     int64_t min_val) {
    return param_out_of_range(uc, param_name, val, "at least", min_val,
                              halide_error_code_param_too_small);
}

int halide_error_param_too_small_u64(void *uc, const char *param_name, uint64_t val,
                                     uint64_t min_val) {
    return param_out_of_range(uc, param_name, val, "at least", min_val,
                              halide_error_code_param_too_small);
}

int halide_error_param_too_small_f64(void *uc, const char *param_name, double val, double min_val) {
    return param_out_of_range(uc, param_name, val, "at least", min_val,
                              halide_error_code_param_too_small);
}

int halide_error_param_too_large_i64(void *uc, const char *param_name, int64_t val,
                                     int64_t max_val) {
    return param_out_of_range(uc, param_name, val, "at most", max_val,
                              halide_error_code_param_too_large);
}

int halide_error_param_too_large_u64(void *uc, const char *param_name, uint64_t val,
                                     uint64_t max_val) {
    return param_out_of_range(uc, param_name, val, "at most", max_val,
                              halide_error_code_param_too_large);
}

int halide_error_param_too_large_f64(void *uc, const char *param_name, double val, double max_val) {
    return param_out_of_range(uc, param_name, val, "at most", max_val,
                              halide_error_code_param_too_large);
}

int halide_error_out_of_memory(void *uc) {
    // A fixed string: formatting must not need memory when memory has run out.
    halide_error(uc, "Out of memory (halide_malloc returned nullptr)");
    return halide_error_code_out_of_memory;
}

int halide_error_buffer_argument_is_null(void *uc, const char *buffer_name) {
    Message m;
    m << "Buffer argument " << buffer_name << " is nullptr";
    return report(uc, m, halide_error_code_buffer_argument_is_null);
}

int halide_error_requirement_failed(void *uc, const char *condition, const char *message) {
    Message m;
    m << "Requirement Failed: (" << condition << ") " << message;
    return report(uc, m, halide_error_code_requirement_failed);
}

int halide_error_explicit_bounds_too_small(void *uc, const char *func_name, const char *var_name,
                                           int min_bound, int max_bound, int min_required,
                                           int max_required) {
    Message m;
    m << "Bounds given for " << var_name << " in " << func_name << " (from " << min_bound << " to "
      << max_bound << ") do not cover required region (from " << min_required << " to "
      << max_required << ")";
    return report(uc, m, halide_error_code_explicit_bounds_too_small);
}

int halide_error_constraints_make_required_region_smaller(void *uc, const char *buffer_name,
                                                          int dimension, int constrained_min,
                                                          int constrained_extent, int required_min,
                                                          int required_extent) {
    Message m;
    m << "Applying the constraints on " << buffer_name
      << " to the required region made it smaller in dimension " << dimension << ". "
      << "Required size: " << required_min << " to " << required_min + required_extent - 1
      << ". Constrained size: " << constrained_min << " to "
      << constrained_min + constrained_extent - 1 << ".";
    return report(uc, m, halide_error_code_constraints_make_required_region_smaller);
}

int halide_error_unaligned_host_ptr(void *uc, const char *func_name, int alignment) {
    Message m;
    m << "The host pointer of " << func_name << " is not aligned to a " << alignment
      << " bytes boundary.";
    return report(uc, m, halide_error_code_unaligned_host_ptr);
}

int halide_error_host_is_null(void *uc, const char *func_name) {
    Message m;
    m << "The host pointer of " << func_name
      << " is null, but the pipeline will access it on the host.";
    return report(uc, m, halide_error_code_host_is_null);
}

int halide_error_bad_fold(void *uc, const char *func_name, const char *var_name,
                          const char *loop_name) {
    Message m;
    m << "The folded storage dimension " << var_name << " of " << func_name
      << " was accessed out of order by loop " << loop_name << ".";
    return report(uc, m, halide_error_code_bad_fold);
}

int halide_error_fold_factor_too_small(void *uc, const char *func_name, const char *var_name,
                                       int fold_factor, const char *loop_name,
                                       int required_extent) {
    Message m;
    m << "The fold factor (" << fold_factor << ") of dimension " << var_name << " of " << func_name
      << " is too small to store the required region accessed by loop " << loop_name << " ("
      << required_extent << ").";
    return report(uc, m, halide_error_code_fold_factor_too_small);
}

int halide_error_storage_bound_too_small(void *uc, const char *func_name, const char *var_name,
                                         int provided_size, int required_size) {
    Message m;
    m << "The explicit allocation bound (" << provided_size << ") of dimension " << var_name
      << " of " << func_name << " is too small to store the required region (" << required_size
      << ").";
    return report(uc, m, halide_error_code_storage_bound_too_small);
}

int halide_error_specialize_fail(void *uc, const char *message) {
    Message m;
    m << message;
    return report(uc, m, halide_error_code_specialize_fail);
}

int halide_error_extern_stage_failed(void *uc, const char *extern_stage_name, int result) {
    Message m;
    m << "Call to external stage " << extern_stage_name << " returned non-zero value: " << result;
    return report(uc, m, result);
}

int halide_error_bounds_inference_call_failed(void *uc, const char *extern_stage_name, int result) {
    Message m;
    m << "Bounds inference call to external stage " << extern_stage_name
      << " returned non-zero value: " << result;
    return report(uc, m, result);
}

int halide_error_no_device_interface(void *uc) {
    Message m;
    m << "Buffer has a non-zero device but no device interface.";
    return report(uc, m, halide_error_code_no_device_interface);
}

int halide_error_device_interface_no_device(void *uc) {
    Message m;
    m << "Buffer has a non-null device_interface but device is 0.";
    return report(uc, m, halide_error_code_device_interface_no_device);
}

int halide_error_host_and_device_dirty(void *uc) {
    Message m;
    m << "Buffer has both host and device dirty bits set.";
    return report(uc, m, halide_error_code_host_and_device_dirty);
}

int halide_error_buffer_is_null(void *uc, const char *routine) {
    Message m;
    m << "Buffer pointer passed to " << routine << " is null.";
    return report(uc, m, halide_error_code_buffer_is_null);
}

int halide_error_device_dirty_with_no_device_support(void *uc, const char *buffer_name) {
    Message m;
    m << "The buffer " << buffer_name
      << " is dirty on device, but this pipeline was compiled with no support for device to "
         "host copies.";
    return report(uc, m, halide_error_code_device_dirty_with_no_device_support);
}

int halide_error_device_crop_failed(void *uc) {
    Message m;
    m << "Buffer could not be cropped (runtime error or unimplemented device option).";
    return report(uc, m, halide_error_code_device_crop_failed);
}

} // extern "C"
