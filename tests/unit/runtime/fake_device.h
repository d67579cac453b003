#ifndef LOOM_TESTS_UNIT_RUNTIME_FAKE_DEVICE_H
#define LOOM_TESTS_UNIT_RUNTIME_FAKE_DEVICE_H

// A device API for the tests of the runtime's device functions: device memory is a separate
// malloc'd block laid out like the host memory, and the device handle is the address of the
// element at the buffer's mins in it, so a crop's or slice's handle points into its parent's
// block just as its host pointer does. Every call is counted.
//
// `full_interface` implements every optional entry (buffer_copy, crops and slices, native
// handles, device_and_host_malloc); `minimal_interface` only the required ones, so the
// runtime's fallbacks run.

#include "runtime/device_interface.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <loom/runtime/loom_buffer.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace fake_device {

/// Calls into the fake since the last reset().
struct Counts {
    int mallocs, frees, syncs, releases, to_host, to_device, buffer_copies, crops, slices,
        release_crops, wraps, detaches, device_and_host_mallocs, device_and_host_frees;
    /// Device blocks allocated and not yet freed.
    int live_blocks;
};
inline Counts counts;
inline void reset() { counts = Counts{}; }

/// Value every byte of a new device block starts with, so a copy that did not happen shows.
constexpr uint8_t kGarbage = 0xcd;

/// b's host memory (or, with `device`, its device memory described as host memory) as a plain
/// host buffer of the same shape.
inline halide_buffer_t host_view(const halide_buffer_t *b, bool device = false) {
    halide_buffer_t v = *b;
    if (device) v.host = (uint8_t *)(uintptr_t)b->device;
    v.device = 0;
    v.device_interface = nullptr;
    v.flags = 0;
    return v;
}
inline halide_buffer_t device_view(const halide_buffer_t *b) { return host_view(b, true); }

/// Copies the elements of dst's region from src, both plain host buffers.
inline void copy_elements(const halide_buffer_t &src, const halide_buffer_t &dst) {
    loom::Runtime::Buffer<void> d(dst);
    d.copy_from(loom::Runtime::Buffer<const void>(src));
}

inline int device_malloc(void *, halide_buffer_t *b) {
    counts.mallocs++;
    counts.live_blocks++;
    size_t bytes = b->size_in_bytes();
    uint8_t *block = (uint8_t *)std::malloc(bytes + 1);
    std::memset(block, kGarbage, bytes + 1);
    b->device = (uint64_t)(uintptr_t)(block - b->begin_offset() * b->type.bytes());
    return 0;
}
inline int device_free(void *, halide_buffer_t *b) {
    counts.frees++;
    counts.live_blocks--;
    std::free(device_view(b).begin());
    return 0;
}
inline int device_sync(void *, halide_buffer_t *) {
    counts.syncs++;
    return 0;
}
inline void device_release(void *) { counts.releases++; }
inline int copy_to_host(void *, halide_buffer_t *b) {
    counts.to_host++;
    copy_elements(device_view(b), host_view(b));
    return 0;
}
inline int copy_to_device(void *, halide_buffer_t *b) {
    counts.to_device++;
    copy_elements(host_view(b), device_view(b));
    return 0;
}
inline int device_and_host_malloc(void *uc, halide_buffer_t *b) {
    counts.device_and_host_mallocs++;
    b->host = (uint8_t *)std::malloc(b->size_in_bytes() + 1);
    return device_malloc(uc, b);
}
inline int device_and_host_free(void *uc, halide_buffer_t *b) {
    counts.device_and_host_frees++;
    std::free(b->host);
    b->host = nullptr;
    return device_free(uc, b);
}
inline int buffer_copy(void *, const halide_buffer_t *src, bool from_device, halide_buffer_t *dst,
                       bool to_device) {
    counts.buffer_copies++;
    copy_elements(host_view(src, from_device), host_view(dst, to_device));
    return 0;
}
/// The handle of dst's element at its mins within src's block; src_dim(i) is the dimension of
/// src that dst's dimension i is.
template <typename SrcDim>
uint64_t alias(const halide_buffer_t *src, const halide_buffer_t *dst, ptrdiff_t offset,
               SrcDim src_dim) {
    for (int i = 0; i < dst->dimensions; i++) {
        const halide_dimension_t &s = src->dim[src_dim(i)];
        offset += (ptrdiff_t)(dst->dim[i].min - s.min) * s.stride;
    }
    return src->device + offset * src->type.bytes();
}
inline int device_crop(void *, const halide_buffer_t *src, halide_buffer_t *dst) {
    counts.crops++;
    dst->device = alias(src, dst, 0, [](int i) { return i; });
    return 0;
}
inline int device_slice(void *, const halide_buffer_t *src, int d, int pos, halide_buffer_t *dst) {
    counts.slices++;
    ptrdiff_t offset = (ptrdiff_t)(pos - src->dim[d].min) * src->dim[d].stride;
    dst->device = alias(src, dst, offset, [d](int i) { return i < d ? i : i + 1; });
    return 0;
}
inline int device_release_crop(void *, halide_buffer_t *) {
    counts.release_crops++;
    return 0;
}
inline int wrap_native(void *, halide_buffer_t *b, uint64_t handle) {
    counts.wraps++;
    b->device = handle;
    return 0;
}
inline int detach_native(void *, halide_buffer_t *) {
    counts.detaches++;
    return 0;
}

inline const halide_device_interface_impl_t full_impl = {device_malloc,
                                                         device_free,
                                                         device_sync,
                                                         device_release,
                                                         copy_to_host,
                                                         copy_to_device,
                                                         device_and_host_malloc,
                                                         device_and_host_free,
                                                         buffer_copy,
                                                         device_crop,
                                                         device_slice,
                                                         device_release_crop,
                                                         wrap_native,
                                                         detach_native};
inline const halide_device_interface_impl_t minimal_impl = {
    device_malloc, device_free, device_sync, device_release, copy_to_host, copy_to_device, nullptr,
    nullptr,       nullptr,     nullptr,     nullptr,        nullptr,      nullptr,        nullptr};

/// An interface as a device module defines it: the runtime's functions, then the API's.
inline halide_device_interface_t make_interface(const halide_device_interface_impl_t *impl) {
    return {halide_device_malloc,
            halide_device_free,
            halide_device_sync,
            halide_device_release,
            halide_copy_to_host,
            halide_copy_to_device,
            halide_device_and_host_malloc,
            halide_device_and_host_free,
            halide_buffer_copy,
            halide_device_crop,
            halide_device_slice,
            halide_device_release_crop,
            halide_device_wrap_native,
            halide_device_detach_native,
            nullptr,
            impl};
}
inline const halide_device_interface_t full_interface = make_interface(&full_impl);
inline const halide_device_interface_t minimal_interface = make_interface(&minimal_impl);

/// A test fixture that installs a capturing error handler and resets the fake's counts for
/// each test, and checks at the end that every device block was freed.
class FakeDeviceTest : public ::testing::Test {
protected:
    void SetUp() override {
        captured().clear();
        reset();
        old = halide_set_error_handler(capture);
    }
    void TearDown() override {
        halide_set_error_handler(old);
        EXPECT_EQ(counts.live_blocks, 0);
    }
    /// The single message reported since the last call (or SetUp).
    std::string message() {
        EXPECT_EQ(captured().size(), 1u);
        std::string m = captured().empty() ? "" : captured().back();
        captured().clear();
        return m;
    }
    /// Every message the error handler received.
    static std::vector<std::string> &captured() {
        static std::vector<std::string> messages;
        return messages;
    }
    static void capture(void *, const char *msg) { captured().push_back(msg); }
    halide_error_handler_t old = nullptr;
};

} // namespace fake_device

#endif
