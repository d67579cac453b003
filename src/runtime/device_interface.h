#ifndef LOOM_RUNTIME_DEVICE_INTERFACE_H
#define LOOM_RUNTIME_DEVICE_INTERFACE_H

// What a device API implements for the runtime's halide_device_* and halide_copy_* functions
// (device_interface.cpp). Those do everything common to all APIs, in one place: they check the
// buffer, keep its device, device_interface and dirty flags, allocate before a first copy, route
// copies between APIs through host memory, and report every failure through halide_error. The
// functions here only move memory.
//
// A device module (src/runtime/cuda.cpp, opencl.cpp, ...: a runtime module of its own, see
// driver/runtime_modules.h) defines one halide_device_interface_impl_t and one
// halide_device_interface_t whose first fourteen entries are the runtime's functions, in the
// order of the struct (halide_device_malloc, halide_device_free, halide_device_sync,
// halide_device_release, halide_copy_to_host, halide_copy_to_device,
// halide_device_and_host_malloc, halide_device_and_host_free, halide_buffer_copy,
// halide_device_crop, halide_device_slice, halide_device_release_crop,
// halide_device_wrap_native, halide_device_detach_native), then its compute_capability (or
// null) and the impl.
//
// Each function returns 0 or a nonzero error code; a failing one may report details through
// halide_error first (the caller then reports which operation failed). The runtime calls them
// only on buffers it has checked, with the device copy lock held for copies, crops and slices.

#include <loom/runtime/loom_runtime.h>

struct halide_device_interface_impl_t {
    /// Allocates device memory for buf's shape and sets buf->device (buf has no allocation).
    int (*device_malloc)(void *user_context, halide_buffer_t *buf);
    /// Frees buf->device, an allocation device_malloc made.
    int (*device_free)(void *user_context, halide_buffer_t *buf);
    /// Waits for the API's work on buf, or on everything when buf is null.
    int (*device_sync)(void *user_context, halide_buffer_t *buf);
    /// Releases everything the API holds (contexts, compiled kernels, cached allocations).
    void (*device_release)(void *user_context);
    /// Copy buf's elements from its device allocation to its host memory, and back.
    int (*copy_to_host)(void *user_context, halide_buffer_t *buf);
    int (*copy_to_device)(void *user_context, halide_buffer_t *buf);
    /// Optional, for APIs whose host and device memory can be one mapping: allocates both for
    /// buf (which has neither), and frees them, setting host to null and device to 0. Null: the
    /// host memory comes from halide_malloc and the device memory from device_malloc.
    int (*device_and_host_malloc)(void *user_context, halide_buffer_t *buf);
    int (*device_and_host_free)(void *user_context, halide_buffer_t *buf);
    /// Optional: copies the elements of dst's region (inside src's) from src's device
    /// allocation (on this API) when from_device, else from its host memory, into dst's device
    /// allocation (on this API) when to_device, else into its host memory. For a combination it
    /// does not handle it returns halide_error_code_incompatible_device_interface without
    /// reporting, and the runtime goes through host memory. Null: always through host memory.
    int (*buffer_copy)(void *user_context, const halide_buffer_t *src, bool from_device,
                       halide_buffer_t *dst, bool to_device);
    /// Optional: set dst->device to an alias of dst's region (inside src's) in src's allocation,
    /// for a crop (same dimensions) or a slice (src without dimension slice_dim, at slice_pos);
    /// device_release_crop releases such an alias. Null: device crops and slices are
    /// unsupported.
    int (*device_crop)(void *user_context, const halide_buffer_t *src, halide_buffer_t *dst);
    int (*device_slice)(void *user_context, const halide_buffer_t *src, int slice_dim,
                        int slice_pos, halide_buffer_t *dst);
    int (*device_release_crop)(void *user_context, halide_buffer_t *buf);
    /// Optional: make buf->device refer to a native handle the caller owns, and forget it. Null:
    /// the native handle is the device field itself.
    int (*wrap_native)(void *user_context, halide_buffer_t *buf, uint64_t handle);
    int (*detach_native)(void *user_context, halide_buffer_t *buf);
};

#endif
