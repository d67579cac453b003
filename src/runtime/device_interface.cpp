// The device-memory functions of the C runtime: the bookkeeping every device API shares, on top
// of the API-specific halide_device_interface_impl_t (device_interface.h). This is the one place
// that reads and writes a buffer's device, device_interface and dirty flags:
//   - copy_to_host copies only a device_dirty buffer, then clears device_dirty;
//   - copy_to_device copies a host_dirty buffer (or one whose device allocation it just made),
//     allocating if needed, then clears host_dirty;
//   - device_free clears device, device_interface and device_dirty;
//   - a buffer with both dirty bits, a device handle without an interface (or the reverse), or
//     a device allocation on another interface than the one asked for is an error.
// Every failure is reported through halide_error and returns a nonzero halide_error_code_t.
// Also here: the settings every device API reads (which GPU, whether freed allocations may be
// kept for reuse).

#include "runtime/device_interface.h"

#include "runtime/message.h"
#include "runtime/runtime_libc.h"

// External linkage, so that when several AOT pipelines carry the runtime one lock serves them
// all (see error_handler.cpp).
namespace loom_runtime {

/// Held while a buffer's memory is copied or aliased, so two threads copying the same buffer
/// see consistent dirty flags.
SyncStorage device_copy_mutex;

/// halide_set_gpu_device's choice (-1 and not set: the environment's).
int gpu_device = -1;
bool gpu_device_set = false;

bool reuse_device_allocations = true;
/// The registered pools (a list through their next fields), and the lock guarding it.
halide_device_allocation_pool *device_allocation_pools = NULL;
SyncStorage device_allocation_pools_mutex;

} // namespace loom_runtime

namespace {

class ScopedLock {
public:
    explicit ScopedLock(loom_runtime::SyncStorage &m) : mutex(m) { pthread_mutex_lock(&mutex); }
    ~ScopedLock() { pthread_mutex_unlock(&mutex); }

private:
    loom_runtime::SyncStorage &mutex;
};

class DeviceCopyLock : public ScopedLock {
public:
    DeviceCopyLock() : ScopedLock(loom_runtime::device_copy_mutex) {}
};

/// The value of a decimal environment variable (possibly negative), or `fallback` when it is
/// unset or not a number.
int env_int(const char *name, int fallback) {
    const char *s = getenv(name);
    if (!s) return fallback;
    bool negative = *s == '-';
    if (negative) s++;
    if (*s < '0' || *s > '9') return fallback;
    int v = 0;
    for (; *s >= '0' && *s <= '9'; s++) v = v * 10 + (*s - '0');
    return *s ? fallback : negative ? -v : v;
}

/// Reports "<routine>: <what>" and returns code.
int fail(void *uc, int code, const char *routine, const char *what) {
    Message m;
    m << routine << ": " << what;
    return report(uc, m, code);
}

/// The invariants every routine checks first, with Halide's reporters.
int check_buffer(void *uc, const halide_buffer_t *buf, const char *routine) {
    if (!buf) return halide_error_buffer_is_null(uc, routine);
    if (buf->device && !buf->device_interface) return halide_error_no_device_interface(uc);
    if (!buf->device && buf->device_interface) return halide_error_device_interface_no_device(uc);
    if (buf->host_dirty() && buf->device_dirty()) return halide_error_host_and_device_dirty(uc);
    return 0;
}

/// A device_dirty flag without a device allocation: the newest data is nowhere.
int dirty_without_device(void *uc, const char *routine) {
    return fail(uc, halide_error_code_no_device_interface, routine,
                "the buffer is dirty on the device but has no device allocation");
}

/// Whether dst has src's element size and dimension count and its region lies inside src's.
bool region_inside(const halide_buffer_t *src, const halide_buffer_t *dst) {
    if (src->dimensions != dst->dimensions || src->type.bytes() != dst->type.bytes()) {
        return false;
    }
    for (int i = 0; i < src->dimensions; i++) {
        const halide_dimension_t &s = src->dim[i], &d = dst->dim[i];
        if (d.min < s.min || (int64_t)d.min + d.extent > (int64_t)s.min + s.extent) return false;
    }
    return true;
}

/// Copies dimensions 0..d of one box, row by row: s and d point at its first element in src
/// and dst, extents are dst's.
void copy_box(const uint8_t *s, uint8_t *d, const halide_buffer_t *src, const halide_buffer_t *dst,
              int dim, int bytes) {
    if (dim < 0) {
        memcpy(d, s, bytes);
        return;
    }
    int extent = dst->dim[dim].extent;
    if (dim == 0 && src->dim[0].stride == 1 && dst->dim[0].stride == 1) {
        memcpy(d, s, (size_t)extent * bytes);
        return;
    }
    ptrdiff_t ss = (ptrdiff_t)src->dim[dim].stride * bytes;
    ptrdiff_t ds = (ptrdiff_t)dst->dim[dim].stride * bytes;
    for (int i = 0; i < extent; i++) copy_box(s + i * ss, d + i * ds, src, dst, dim - 1, bytes);
}

/// Copies the elements of dst's region from src, both in host memory (region_inside holds).
void copy_host_region(const halide_buffer_t *src, halide_buffer_t *dst) {
    int bytes = dst->type.bytes();
    ptrdiff_t offset = 0;
    for (int i = 0; i < dst->dimensions; i++) {
        offset += (ptrdiff_t)(dst->dim[i].min - src->dim[i].min) * src->dim[i].stride;
    }
    const uint8_t *from = src->host + offset * bytes;
    // A region copied onto itself (a buffer into a view of its own memory) stays as it is.
    bool same = from == dst->host;
    for (int i = 0; same && i < dst->dimensions; i++)
        same = src->dim[i].stride == dst->dim[i].stride;
    if (same) return;
    copy_box(from, dst->host, src, dst, dst->dimensions - 1, bytes);
}

int device_malloc_unlocked(void *uc, halide_buffer_t *buf, const halide_device_interface_t *iface,
                           const char *routine) {
    if (!iface) {
        return fail(uc, halide_error_code_no_device_interface, routine,
                    "no device interface was given");
    }
    if (buf->device_interface) {
        if (buf->device_interface != iface) {
            return fail(uc, halide_error_code_incompatible_device_interface, routine,
                        "the buffer has a device allocation on another device interface (free "
                        "it first)");
        }
        return 0;
    }
    if (iface->impl->device_malloc(uc, buf) != 0 || !buf->device) {
        return fail(uc, halide_error_code_device_malloc_failed, routine,
                    "the device API could not allocate the buffer");
    }
    buf->device_interface = iface;
    return 0;
}

int copy_to_host_unlocked(void *uc, halide_buffer_t *buf, const char *routine) {
    if (!buf->device_dirty()) return 0;
    if (!buf->device) return dirty_without_device(uc, routine);
    if (!buf->host) {
        return fail(uc, halide_error_code_copy_to_host_failed, routine,
                    "the buffer has no host memory to copy into");
    }
    if (buf->device_interface->impl->copy_to_host(uc, buf) != 0) {
        return fail(uc, halide_error_code_copy_to_host_failed, routine,
                    "the device API could not copy the buffer to the host");
    }
    buf->set_device_dirty(false);
    return 0;
}

int copy_to_device_unlocked(void *uc, halide_buffer_t *buf, const halide_device_interface_t *iface,
                            const char *routine) {
    if (!iface) iface = buf->device_interface;
    if (!iface) {
        return fail(uc, halide_error_code_no_device_interface, routine,
                    "no device interface was given and the buffer has no device allocation");
    }
    if (buf->device_interface && buf->device_interface != iface) {
        return fail(uc, halide_error_code_incompatible_device_interface, routine,
                    "the buffer has a device allocation on another device interface (free it "
                    "first)");
    }
    // A new allocation holds nothing yet: the host's contents go over even when the host is
    // not marked dirty.
    bool fresh = !buf->device;
    if (fresh) {
        if (buf->device_dirty()) return dirty_without_device(uc, routine);
        int r = device_malloc_unlocked(uc, buf, iface, routine);
        if (r != 0) return r;
    }
    if (!buf->host_dirty() && !fresh) return 0;
    if (!buf->host) {
        if (!buf->host_dirty()) return 0; // a device-only buffer: nothing to copy
        return fail(uc, halide_error_code_copy_to_device_failed, routine,
                    "the buffer is dirty on the host but has no host memory");
    }
    if (iface->impl->copy_to_device(uc, buf) != 0) {
        return fail(uc, halide_error_code_copy_to_device_failed, routine,
                    "the device API could not copy the buffer to the device");
    }
    buf->set_host_dirty(false);
    return 0;
}

/// The result of an impl's buffer_copy: 0, or reported as the copy's failure.
int copied(void *uc, int r) {
    if (r == 0) return 0;
    return fail(uc, halide_error_code_device_buffer_copy_failed, "halide_buffer_copy",
                "the device API could not copy between the buffers");
}

/// Brings a source whose newest data is on the device to its host memory, for a copy the
/// device API cannot make directly.
int source_to_host(void *uc, halide_buffer_t *src) {
    if (!src->host) {
        return fail(uc, halide_error_code_incompatible_device_interface, "halide_buffer_copy",
                    "the source's data is only in device memory that the destination's device "
                    "API cannot read, and the source has no host memory to copy through");
    }
    return copy_to_host_unlocked(uc, src, "halide_buffer_copy");
}

int copy_into_host(void *uc, halide_buffer_t *src, bool from_device, halide_buffer_t *dst) {
    if (from_device) {
        const halide_device_interface_impl_t *impl = src->device_interface->impl;
        if (impl->buffer_copy) {
            int r = impl->buffer_copy(uc, src, true, dst, false);
            if (r != halide_error_code_incompatible_device_interface) return copied(uc, r);
        }
        int r = source_to_host(uc, src);
        if (r != 0) return r;
    }
    copy_host_region(src, dst);
    return 0;
}

/// dst has a device allocation on the interface asked for.
int copy_into_device(void *uc, halide_buffer_t *src, bool from_device, halide_buffer_t *dst) {
    const halide_device_interface_impl_t *impl = dst->device_interface->impl;
    // Another API's device memory is read through the source's host memory.
    if (from_device && src->device_interface != dst->device_interface) {
        int r = source_to_host(uc, src);
        if (r != 0) return r;
        from_device = false;
    }
    if (impl->buffer_copy) {
        int r = impl->buffer_copy(uc, src, from_device, dst, true);
        if (r != halide_error_code_incompatible_device_interface) return copied(uc, r);
    }
    // Through host memory: the source's, then the destination's, then a full upload.
    if (from_device) {
        int r = source_to_host(uc, src);
        if (r != 0) return r;
    }
    if (!dst->host) {
        return fail(uc, halide_error_code_incompatible_device_interface, "halide_buffer_copy",
                    "the device API cannot copy into the destination directly, and the "
                    "destination has no host memory to copy through");
    }
    copy_host_region(src, dst);
    if (impl->copy_to_device(uc, dst) != 0) {
        return fail(uc, halide_error_code_copy_to_device_failed, "halide_buffer_copy",
                    "the device API could not copy the buffer to the device");
    }
    return 0;
}

int buffer_copy_unlocked(void *uc, halide_buffer_t *src, const halide_device_interface_t *dst_iface,
                         halide_buffer_t *dst) {
    const char *routine = "halide_buffer_copy";
    int r = check_buffer(uc, src, routine);
    if (r == 0) r = check_buffer(uc, dst, routine);
    if (r != 0) return r;
    if (!region_inside(src, dst)) {
        return fail(uc, halide_error_code_device_buffer_copy_failed, routine,
                    "the destination must have the source's element size and dimensions, and "
                    "its region must lie inside the source's");
    }
    // The source's newest data: its host memory unless the device has newer data or there is
    // no host memory.
    bool from_device = src->device_dirty() || !src->host;
    if (from_device && !src->device) {
        return src->host ? dirty_without_device(uc, routine)
                         : fail(uc, halide_error_code_device_buffer_copy_failed, routine,
                                "the source has neither host memory nor a device allocation");
    }
    if (dst_iface) {
        if (dst->device_interface && dst->device_interface != dst_iface) {
            return fail(uc, halide_error_code_incompatible_device_interface, routine,
                        "the destination has a device allocation on another device interface");
        }
        r = device_malloc_unlocked(uc, dst, dst_iface, routine);
        if (r == 0) r = copy_into_device(uc, src, from_device, dst);
    } else {
        if (!dst->host) {
            return fail(uc, halide_error_code_host_is_null, routine,
                        "the destination has no host memory");
        }
        r = copy_into_host(uc, src, from_device, dst);
    }
    if (r != 0) return r;
    // dst's region is all of dst, so the side written now holds its newest data.
    dst->set_host_dirty(!dst_iface);
    dst->set_device_dirty(dst_iface != NULL);
    return 0;
}

/// The checks halide_device_crop and halide_device_slice share; `shape_ok` says whether dst's
/// shape is a crop or slice of src's. Returns 1 when src has no device allocation (nothing to
/// do), 0 to go on, or an error code.
int check_alias(void *uc, const halide_buffer_t *src, const halide_buffer_t *dst, bool shape_ok,
                const char *routine) {
    int r = check_buffer(uc, src, routine);
    if (r == 0) r = check_buffer(uc, dst, routine);
    if (r != 0) return r;
    if (!src->device) return 1;
    if (dst->device) {
        return fail(uc, halide_error_code_device_crop_failed, routine,
                    "the destination buffer already has a device allocation");
    }
    if (!shape_ok) {
        return fail(uc, halide_error_code_device_crop_failed, routine,
                    "the destination's shape is not a region of the source's");
    }
    return 0;
}

/// Gives dst the alias the impl made: src's interface and device_dirty flag.
int finish_alias(void *uc, int r, const halide_buffer_t *src, halide_buffer_t *dst) {
    if (r != 0 || !dst->device) {
        dst->device = 0;
        return halide_error_device_crop_failed(uc);
    }
    dst->device_interface = src->device_interface;
    dst->set_device_dirty(src->device_dirty());
    return 0;
}

/// halide_device_and_host_malloc without an API-specific one: host memory from halide_malloc.
int default_device_and_host_malloc(void *uc, halide_buffer_t *buf,
                                   const halide_device_interface_t *iface, const char *routine) {
    uint8_t *block = (uint8_t *)halide_malloc(uc, buf->size_in_bytes());
    if (!block) return halide_error_out_of_memory(uc);
    // host is the element at the mins; with negative strides the block starts below it.
    buf->host = block - buf->begin_offset() * buf->type.bytes();
    int r = device_malloc_unlocked(uc, buf, iface, routine);
    if (r != 0) {
        halide_free(uc, block);
        buf->host = NULL;
    }
    return r;
}

} // namespace

extern "C" {

int halide_device_malloc(void *uc, halide_buffer_t *buf, const halide_device_interface_t *iface) {
    int r = check_buffer(uc, buf, "halide_device_malloc");
    if (r != 0) return r;
    return device_malloc_unlocked(uc, buf, iface, "halide_device_malloc");
}

int halide_device_free(void *uc, halide_buffer_t *buf) {
    int r = check_buffer(uc, buf, "halide_device_free");
    if (r != 0) return r;
    if (buf->device_interface) {
        if (buf->device_interface->impl->device_free(uc, buf) != 0) {
            return fail(uc, halide_error_code_device_free_failed, "halide_device_free",
                        "the device API could not free the buffer's device allocation");
        }
        buf->device = 0;
        buf->device_interface = NULL;
    }
    buf->set_device_dirty(false);
    return 0;
}

void halide_device_free_as_destructor(void *uc, void *buf) {
    halide_device_free(uc, (halide_buffer_t *)buf);
}

int loom_prepare_device_buffer(void *uc, halide_buffer_t *buf,
                               const halide_device_interface_t *iface, int read) {
    // Write-only with no newer host data: the device's contents don't matter, so a fresh
    // allocation is not filled from the host (the common case of a pipeline's intermediates
    // and outputs).
    bool allocate_only =
        !read && !buf->host_dirty() && (!buf->device_interface || buf->device_interface == iface);
    if (!allocate_only) return halide_copy_to_device(uc, buf, iface);
    if (buf->device) return 0;
    return halide_device_malloc(uc, buf, iface);
}

int halide_device_sync(void *uc, halide_buffer_t *buf) {
    int r = check_buffer(uc, buf, "halide_device_sync");
    if (r != 0) return r;
    if (!buf->device_interface) {
        return fail(uc, halide_error_code_no_device_interface, "halide_device_sync",
                    "the buffer has no device allocation");
    }
    if (buf->device_interface->impl->device_sync(uc, buf) != 0) {
        return fail(uc, halide_error_code_device_sync_failed, "halide_device_sync",
                    "the device API could not finish the buffer's work");
    }
    return 0;
}

int halide_device_sync_global(void *uc, const halide_device_interface_t *iface) {
    if (!iface) {
        return fail(uc, halide_error_code_no_device_interface, "halide_device_sync_global",
                    "no device interface was given");
    }
    if (iface->impl->device_sync(uc, NULL) != 0) {
        return fail(uc, halide_error_code_device_sync_failed, "halide_device_sync_global",
                    "the device API could not finish its work");
    }
    return 0;
}

void halide_device_release(void *uc, const halide_device_interface_t *iface) {
    if (!iface) {
        fail(uc, halide_error_code_no_device_interface, "halide_device_release",
             "no device interface was given");
        return;
    }
    iface->impl->device_release(uc);
}

int halide_copy_to_host(void *uc, halide_buffer_t *buf) {
    DeviceCopyLock lock;
    int r = check_buffer(uc, buf, "halide_copy_to_host");
    if (r != 0) return r;
    return copy_to_host_unlocked(uc, buf, "halide_copy_to_host");
}

int halide_copy_to_device(void *uc, halide_buffer_t *buf, const halide_device_interface_t *iface) {
    DeviceCopyLock lock;
    int r = check_buffer(uc, buf, "halide_copy_to_device");
    if (r != 0) return r;
    return copy_to_device_unlocked(uc, buf, iface, "halide_copy_to_device");
}

int halide_device_and_host_malloc(void *uc, halide_buffer_t *buf,
                                  const halide_device_interface_t *iface) {
    const char *routine = "halide_device_and_host_malloc";
    int r = check_buffer(uc, buf, routine);
    if (r != 0) return r;
    if (!iface) {
        return fail(uc, halide_error_code_no_device_interface, routine,
                    "no device interface was given");
    }
    if (buf->host || buf->device) {
        return fail(uc, halide_error_code_device_malloc_failed, routine,
                    "the buffer already has host memory or a device allocation");
    }
    if (iface->impl->device_and_host_malloc) {
        if (iface->impl->device_and_host_malloc(uc, buf) != 0 || !buf->host || !buf->device) {
            return fail(uc, halide_error_code_device_malloc_failed, routine,
                        "the device API could not allocate the buffer");
        }
        buf->device_interface = iface;
    } else {
        r = default_device_and_host_malloc(uc, buf, iface, routine);
        if (r != 0) return r;
    }
    buf->set_host_dirty(false);
    buf->set_device_dirty(false);
    return 0;
}

int halide_device_and_host_free(void *uc, halide_buffer_t *buf) {
    const char *routine = "halide_device_and_host_free";
    int r = check_buffer(uc, buf, routine);
    if (r != 0) return r;
    const halide_device_interface_t *iface = buf->device_interface;
    if (iface && iface->impl->device_and_host_free) {
        if (iface->impl->device_and_host_free(uc, buf) != 0) {
            return fail(uc, halide_error_code_device_free_failed, routine,
                        "the device API could not free the buffer");
        }
    } else {
        // The default allocation: device memory from device_malloc (possibly freed already),
        // host memory from halide_malloc.
        if (iface && iface->impl->device_free(uc, buf) != 0) {
            return fail(uc, halide_error_code_device_free_failed, routine,
                        "the device API could not free the buffer's device allocation");
        }
        if (buf->host) halide_free(uc, buf->begin());
    }
    buf->host = NULL;
    buf->device = 0;
    buf->device_interface = NULL;
    buf->set_host_dirty(false);
    buf->set_device_dirty(false);
    return 0;
}

void halide_device_and_host_free_as_destructor(void *uc, void *buf) {
    halide_device_and_host_free(uc, (halide_buffer_t *)buf);
}

int halide_buffer_copy(void *uc, halide_buffer_t *src, const halide_device_interface_t *dst_iface,
                       halide_buffer_t *dst) {
    DeviceCopyLock lock;
    return buffer_copy_unlocked(uc, src, dst_iface, dst);
}

int halide_device_crop(void *uc, const halide_buffer_t *src, halide_buffer_t *dst) {
    DeviceCopyLock lock;
    const char *routine = "halide_device_crop";
    int r = check_alias(uc, src, dst, src && dst && region_inside(src, dst), routine);
    if (r != 0) return r == 1 ? 0 : r;
    const halide_device_interface_impl_t *impl = src->device_interface->impl;
    if (!impl->device_crop) {
        return fail(uc, halide_error_code_device_crop_unsupported, routine,
                    "the buffer's device API cannot crop device allocations");
    }
    return finish_alias(uc, impl->device_crop(uc, src, dst), src, dst);
}

int halide_device_slice(void *uc, const halide_buffer_t *src, int slice_dim, int slice_pos,
                        halide_buffer_t *dst) {
    DeviceCopyLock lock;
    const char *routine = "halide_device_slice";
    bool shape_ok =
        src && dst && dst->dimensions == src->dimensions - 1 && slice_dim >= 0 &&
        slice_dim < src->dimensions && slice_pos >= src->dim[slice_dim].min &&
        (int64_t)slice_pos < (int64_t)src->dim[slice_dim].min + src->dim[slice_dim].extent;
    int r = check_alias(uc, src, dst, shape_ok, routine);
    if (r != 0) return r == 1 ? 0 : r;
    const halide_device_interface_impl_t *impl = src->device_interface->impl;
    if (!impl->device_slice) {
        return fail(uc, halide_error_code_device_crop_unsupported, routine,
                    "the buffer's device API cannot slice device allocations");
    }
    return finish_alias(uc, impl->device_slice(uc, src, slice_dim, slice_pos, dst), src, dst);
}

int halide_device_release_crop(void *uc, halide_buffer_t *buf) {
    DeviceCopyLock lock;
    const char *routine = "halide_device_release_crop";
    int r = check_buffer(uc, buf, routine);
    if (r != 0) return r;
    if (!buf->device) return 0;
    int (*release)(void *, halide_buffer_t *) = buf->device_interface->impl->device_release_crop;
    if (release && release(uc, buf) != 0) {
        return fail(uc, halide_error_code_device_free_failed, routine,
                    "the device API could not release the crop");
    }
    buf->device = 0;
    buf->device_interface = NULL;
    buf->set_device_dirty(false);
    return 0;
}

int halide_device_wrap_native(void *uc, halide_buffer_t *buf, uint64_t handle,
                              const halide_device_interface_t *iface) {
    const char *routine = "halide_device_wrap_native";
    int r = check_buffer(uc, buf, routine);
    if (r != 0) return r;
    if (!iface) {
        return fail(uc, halide_error_code_no_device_interface, routine,
                    "no device interface was given");
    }
    if (buf->device_interface && buf->device_interface != iface) {
        return fail(uc, halide_error_code_incompatible_device_interface, routine,
                    "the buffer has a device allocation on another device interface");
    }
    if (buf->device) {
        return fail(uc, halide_error_code_device_wrap_native_failed, routine,
                    "the buffer already has a device allocation");
    }
    if (iface->impl->wrap_native) {
        if (iface->impl->wrap_native(uc, buf, handle) != 0 || !buf->device) {
            buf->device = 0;
            return fail(uc, halide_error_code_device_wrap_native_failed, routine,
                        "the device API could not wrap the handle");
        }
    } else {
        buf->device = handle;
    }
    buf->device_interface = iface;
    return 0;
}

void halide_set_gpu_device(int n) {
    loom_runtime::gpu_device = n;
    __atomic_store_n(&loom_runtime::gpu_device_set, true, __ATOMIC_RELEASE);
}

int halide_get_gpu_device(void *uc) {
    if (__atomic_load_n(&loom_runtime::gpu_device_set, __ATOMIC_ACQUIRE)) {
        return loom_runtime::gpu_device;
    }
    return env_int("HL_GPU_DEVICE", -1);
}

int halide_reuse_device_allocations(void *uc, bool flag) {
    __atomic_store_n(&loom_runtime::reuse_device_allocations, flag, __ATOMIC_RELEASE);
    if (flag) return 0;
    ScopedLock lock(loom_runtime::device_allocation_pools_mutex);
    int result = 0;
    for (halide_device_allocation_pool *p = loom_runtime::device_allocation_pools; p; p = p->next) {
        int r = p->release_unused(uc);
        if (r != 0 && result == 0) result = r;
    }
    return result;
}

bool halide_can_reuse_device_allocations(void *uc) {
    return __atomic_load_n(&loom_runtime::reuse_device_allocations, __ATOMIC_ACQUIRE);
}

void halide_register_device_allocation_pool(halide_device_allocation_pool *pool) {
    ScopedLock lock(loom_runtime::device_allocation_pools_mutex);
    pool->next = loom_runtime::device_allocation_pools;
    loom_runtime::device_allocation_pools = pool;
}

int halide_device_detach_native(void *uc, halide_buffer_t *buf) {
    const char *routine = "halide_device_detach_native";
    int r = check_buffer(uc, buf, routine);
    if (r != 0) return r;
    if (!buf->device_interface) return 0;
    int (*detach)(void *, halide_buffer_t *) = buf->device_interface->impl->detach_native;
    if (detach && detach(uc, buf) != 0) {
        return fail(uc, halide_error_code_device_detach_native_failed, routine,
                    "the device API could not detach the handle");
    }
    buf->device = 0;
    buf->device_interface = NULL;
    buf->set_device_dirty(false);
    return 0;
}

} // extern "C"
