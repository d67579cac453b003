// The OpenCL device API of the runtime (src/runtime/opencl.cpp), with the names and signatures of
// Halide's HalideRuntimeOpenCL.h. Pipelines compiled for a Target with the OpenCL feature carry
// it; it reaches OpenCL through the ICD loader (libOpenCL.so.1), opened at first use, so
// nothing links against OpenCL. Valid C (C99) and C++.
//
// A buffer's device field holds its cl_mem. The cl_mem covers the bytes the buffer spans, from
// its lowest-addressed element (the element at its mins when no stride is negative); a crop or
// slice is a sub-buffer of its parent's allocation.
//
// Settings read when the context is created (the first use, or the first after
// halide_device_release): the platform (HL_OCL_PLATFORM_NAME or
// halide_opencl_set_platform_name: the first platform whose name contains it), the device type
// (HL_OCL_DEVICE_TYPE or halide_opencl_set_device_type: "cpu", "gpu" or "acc"; by default a GPU
// if any platform has one, else any device), and the device's index among the platform's
// devices of that type (HL_GPU_DEVICE or halide_set_gpu_device; default 0). Build options
// (HL_OCL_BUILD_OPTIONS or halide_opencl_set_build_options) are read when a program is built.
#ifndef LOOM_RUNTIME_LOOM_RUNTIME_OPENCL_H
#define LOOM_RUNTIME_LOOM_RUNTIME_OPENCL_H

#include <loom/runtime/loom_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HALIDE_RUNTIME_OPENCL

/// The OpenCL device interface, for halide_device_malloc, halide_copy_to_device, ... and
/// Runtime::Buffer's device methods.
const struct halide_device_interface_t *halide_opencl_device_interface(void);

/// Called by generated code at the start of every pipeline run, with the address of the
/// pipeline's `void *` state (null at first) and its OpenCL C source (`size` counts the
/// terminating NUL). Builds the program once per state and context (later calls only check);
/// a failed build is reported with the compiler's log. Returns 0 or an error code.
int halide_opencl_initialize_kernels(void *user_context, void **state_ptr, const char *src,
                                     int size);
/// Called by generated code to launch kernel `entry_name` of the program of `state_ptr` on
/// blocks (x, y, z) of threads (x, y, z) work-items, with shared_mem_bytes of __local memory
/// passed as a trailing argument when positive. args is null-terminated; args[i] points at the
/// value (arg_sizes[i] bytes), or for a buffer (arg_is_buffer[i]) at its device field. The
/// launch is asynchronous (in order with the copies). Returns 0 or an error code.
int halide_opencl_run(void *user_context, void *state_ptr, const char *entry_name, int blocksX,
                      int blocksY, int blocksZ, int threadsX, int threadsY, int threadsZ,
                      int shared_mem_bytes, size_t arg_sizes[], void *args[],
                      int8_t arg_is_buffer[]);
/// Called by generated code at the end of a run. The program stays cached (until
/// halide_device_release); nothing to do.
void halide_opencl_finalize_kernels(void *user_context, void *state_ptr);

/// Chooses the platform: the first whose name contains `n` (copied). Null: back to
/// HL_OCL_PLATFORM_NAME. Takes effect when the next context is created.
void halide_opencl_set_platform_name(const char *n);
/// The platform name asked for (the setter's, else HL_OCL_PLATFORM_NAME), or null. A program
/// may replace it to choose per user context.
const char *halide_opencl_get_platform_name(void *user_context);
/// Chooses the device type: "cpu", "gpu" or "acc" (copied). Null: back to HL_OCL_DEVICE_TYPE.
void halide_opencl_set_device_type(const char *n);
/// The device type asked for (the setter's, else HL_OCL_DEVICE_TYPE), or null.
const char *halide_opencl_get_device_type(void *user_context);
/// Options added to every program build (copied). Null: back to HL_OCL_BUILD_OPTIONS.
void halide_opencl_set_build_options(const char *n);
/// The extra build options (the setter's, else HL_OCL_BUILD_OPTIONS), or null.
const char *halide_opencl_get_build_options(void *user_context);

/// Makes buf (without a device allocation) use `mem`, a cl_mem of the runtime's context that the
/// caller keeps owning and that covers the bytes buf spans. The dirty flags are left alone.
int halide_opencl_wrap_cl_mem(void *user_context, struct halide_buffer_t *buf, uint64_t mem);
/// Forgets the cl_mem halide_opencl_wrap_cl_mem gave buf, without releasing it.
int halide_opencl_detach_cl_mem(void *user_context, struct halide_buffer_t *buf);
/// buf's cl_mem, or 0 when it has no OpenCL allocation.
uintptr_t halide_opencl_get_cl_mem(void *user_context, struct halide_buffer_t *buf);
/// The byte offset of buf's cl_mem within the allocation it is a sub-buffer of (a crop or
/// slice), else 0.
uint64_t halide_opencl_get_crop_offset(void *user_context, struct halide_buffer_t *buf);

#ifdef __cplusplus
} // extern "C"
#endif

#endif
