// The CUDA device API of the C runtime (src/runtime/cuda.cpp), with the names and signatures of
// Halide's HalideRuntimeCuda.h. The runtime opens the NVIDIA driver (libcuda.so.1) with dlopen
// at first use, so a program carrying it needs no CUDA library to link or start; without a
// driver every call reports an error naming libcuda and returns a nonzero halide_error_code_t.
//
// Device memory lives in the primary context of the GPU halide_get_gpu_device() names
// (HL_GPU_DEVICE, else device 0), retained once per process and made current around each call,
// so any thread may call. A buffer's `device` field is the CUdeviceptr of the element at its
// mins. Valid C (C99) and C++.
#ifndef LOOM_RUNTIME_LOOM_RUNTIME_CUDA_H
#define LOOM_RUNTIME_LOOM_RUNTIME_CUDA_H

#include <loom/runtime/loom_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HALIDE_RUNTIME_CUDA

/// The CUDA device interface, for halide_device_malloc, halide_copy_to_device, Buffer's
/// device methods and compiled pipelines. Its compute_capability gives the GPU's sm version.
const struct halide_device_interface_t *halide_cuda_device_interface(void);

/// Called by generated code at the start of every run of a pipeline with CUDA kernels: loads
/// the module's PTX text `src` (`size` bytes, the terminating NUL included) into the current
/// context once, keeping it in a structure that the pipeline's `*state_ptr` (initially null)
/// points to afterwards; later calls find it there and do nothing. A PTX that the driver cannot
/// compile is reported with the driver's JIT log. Returns 0 or a nonzero halide_error_code_t.
int halide_cuda_initialize_kernels(void *user_context, void **state_ptr, const char *src, int size);

/// Launches kernel `entry_name` of the module that halide_cuda_initialize_kernels loaded into
/// `state_ptr`, on a grid of blocksX x blocksY x blocksZ blocks of threadsX x threadsY x threadsZ
/// threads with `shared_mem_bytes` of dynamic shared memory, on the default stream.
/// `args` is null-terminated; args[i] points to the i-th argument's value (arg_sizes[i] bytes),
/// which for a buffer (arg_is_buffer[i] != 0) is a uint64_t holding the buffer's device field.
/// A launch over the device's or the kernel's limits (threads per block, block and grid
/// dimensions, shared memory) is refused with a message naming the kernel, the launch and the
/// limit. With HL_CUDA_SYNC set (not "0") when the context is created, the call waits for the
/// kernel, so a failing kernel is reported here by name. Returns 0 or a nonzero
/// halide_error_code_t.
int halide_cuda_run(void *user_context, void *state_ptr, const char *entry_name, int blocksX,
                    int blocksY, int blocksZ, int threadsX, int threadsY, int threadsZ,
                    int shared_mem_bytes, size_t arg_sizes[], void *args[], int8_t arg_is_buffer[]);

/// Called by generated code at the end of a run; the module stays loaded for the next run
/// (halide_device_release unloads it).
void halide_cuda_finalize_kernels(void *user_context, void *state_ptr);

/// Makes buf (without a device allocation) use `device_ptr`, a CUdeviceptr covering buf's
/// elements (the element at buf's mins, as the device field holds it), which the caller keeps
/// owning. The dirty flags are left as they are.
int halide_cuda_wrap_device_ptr(void *user_context, struct halide_buffer_t *buf,
                                uint64_t device_ptr);

/// Forgets the pointer halide_cuda_wrap_device_ptr gave buf, without freeing it; buf's device
/// becomes 0.
int halide_cuda_detach_device_ptr(void *user_context, struct halide_buffer_t *buf);

/// buf's CUdeviceptr, or 0 when it has no device allocation (or one of another device API,
/// which is reported).
uintptr_t halide_cuda_get_device_ptr(void *user_context, struct halide_buffer_t *buf);

/// Returns the device allocations kept for reuse (see halide_reuse_device_allocations) to the
/// driver.
int halide_cuda_release_unused_device_allocations(void *user_context);

#ifdef __cplusplus
} // extern "C"
#endif

#endif
