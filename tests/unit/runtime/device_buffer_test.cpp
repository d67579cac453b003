// Runtime::Buffer's and loom::Buffer's device methods on the fake device of fake_device.h: they
// reach the runtime's device functions (so the same dirty-flag rules and errors hold), a device
// allocation is shared by copies and released once, crops and slices alias it through the
// interface, and writes through the accessors mark the host dirty.

#include "fake_device.h"

#include <loom/buffer.h>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace {

using fake_device::counts;
using loom::Runtime::Buffer;
using loom::Runtime::BufferDeviceOwnership;

const halide_device_interface_t *const full = &fake_device::full_interface;
const halide_device_interface_t *const minimal = &fake_device::minimal_interface;

using BufferDevice = fake_device::FakeDeviceTest;

template <typename B>
int32_t *device_data(const B &b) {
    return (int32_t *)(uintptr_t)b.raw_buffer()->device;
}

TEST_F(BufferDevice, CopyRoundTripsThroughTheMethods) {
    Buffer<int32_t> b(4, 3);
    b.fill([](int x, int y) { return x + 10 * y; });
    EXPECT_TRUE(b.host_dirty());
    EXPECT_EQ(b.copy_to_device(full), 0);
    EXPECT_TRUE(b.has_device_allocation());
    EXPECT_FALSE(b.host_dirty());
    EXPECT_EQ(counts.to_device, 1);
    EXPECT_EQ(device_data(b)[1 + 4 * 2], 21);

    // The device writes; reading through a const Buffer does not mark the host dirty.
    device_data(b)[5] = -5;
    b.set_device_dirty();
    const Buffer<int32_t> &cb = b;
    EXPECT_EQ(cb(1, 1), 11);
    EXPECT_EQ(b.copy_to_host(), 0);
    EXPECT_EQ(cb(1, 1), -5);
    EXPECT_FALSE(b.device_dirty());
    EXPECT_EQ(b.copy_to_host(), 0);
    EXPECT_EQ(counts.to_host, 1);

    // A write through operator() marks the host dirty, so the next copy sends it.
    b(2, 2) = 99;
    EXPECT_TRUE(b.host_dirty());
    EXPECT_EQ(b.copy_to_device(nullptr), 0);
    EXPECT_EQ(device_data(b)[2 + 4 * 2], 99);
    EXPECT_EQ(counts.to_device, 2);
    EXPECT_EQ(b.device_sync(), 0);
    EXPECT_EQ(counts.syncs, 1);
    EXPECT_EQ(b.device_free(), 0);
    EXPECT_EQ(counts.frees, 1);
    EXPECT_FALSE(b.has_device_allocation());
    EXPECT_TRUE(captured().empty());
}

TEST_F(BufferDevice, WritesMarkTheHostDirty) {
    Buffer<int32_t> b(3);
    EXPECT_FALSE(b.host_dirty());
    b(1) = 4;
    EXPECT_TRUE(b.host_dirty());
    b.set_host_dirty(false);
    b.fill(2);
    EXPECT_TRUE(b.host_dirty());
    b.set_host_dirty(false);
    b.copy_from(Buffer<int32_t>(3));
    EXPECT_TRUE(b.host_dirty());
    b.set_host_dirty(false);
    int pos[1] = {0};
    b(pos) = 1;
    EXPECT_TRUE(b.host_dirty());
    // copy_from refuses buffers whose newest data is on the device.
    b.set_host_dirty(false);
    b.set_device_dirty();
    EXPECT_THROW(b.copy_from(Buffer<int32_t>(3)), std::runtime_error);
    EXPECT_THROW(Buffer<int32_t>(3).copy_from(b), std::runtime_error);
    b.set_device_dirty(false);
}

TEST_F(BufferDevice, TheLastBufferSharingAnAllocationFreesIt) {
    {
        Buffer<float> a(8);
        ASSERT_EQ(a.device_malloc(full), 0);
        {
            Buffer<float> c = a;
            Buffer<float> d(std::move(c));
            Buffer<void> v = d;
            EXPECT_EQ(v.raw_buffer()->device, a.raw_buffer()->device);
            EXPECT_FALSE(c.has_device_allocation()); // moved from
        }
        EXPECT_EQ(counts.frees, 0);
    }
    EXPECT_EQ(counts.frees, 1);

    Buffer<float> a(8);
    ASSERT_EQ(a.device_malloc(full), 0);
    Buffer<float> c = a;
    EXPECT_THROW(a.device_free(), std::runtime_error); // c would be left dangling
    c.device_deallocate();
    EXPECT_FALSE(c.has_device_allocation());
    EXPECT_EQ(counts.frees, 1);
    EXPECT_EQ(a.device_free(), 0);
    EXPECT_EQ(counts.frees, 2);

    // deallocate() and allocate() drop the device allocation with the host memory.
    ASSERT_EQ(a.device_malloc(full), 0);
    a.allocate();
    EXPECT_FALSE(a.has_device_allocation());
    ASSERT_EQ(a.device_malloc(full), 0);
    a.deallocate();
    EXPECT_EQ(counts.frees, 4);
}

TEST_F(BufferDevice, NoInterfaceThroughTheMethodsIsAnError) {
    Buffer<int32_t> b(3);
    b.raw_buffer()->device = 42; // a handle no interface manages
    const std::string msg = "Buffer has a non-zero device but no device interface.";
    EXPECT_EQ(b.copy_to_host(), halide_error_code_no_device_interface);
    EXPECT_EQ(message(), msg);
    EXPECT_EQ(b.device_sync(), halide_error_code_no_device_interface);
    EXPECT_EQ(message(), msg);
    EXPECT_EQ(b.copy_to_device(nullptr), halide_error_code_no_device_interface);
    EXPECT_EQ(message(), msg);
    b.raw_buffer()->device = 0;

    b.set_device_dirty();
    EXPECT_EQ(b.copy_to_host(), halide_error_code_no_device_interface);
    EXPECT_EQ(
        message(),
        "halide_copy_to_host: the buffer is dirty on the device but has no device allocation");
    b.set_device_dirty(false);
    EXPECT_EQ(b.copy_to_device(nullptr), halide_error_code_no_device_interface);
    EXPECT_EQ(message(), "halide_copy_to_device: no device interface was given and the buffer has "
                         "no device allocation");
    EXPECT_EQ(b.device_malloc(nullptr), halide_error_code_no_device_interface);
    EXPECT_EQ(message(), "halide_device_malloc: no device interface was given");
    EXPECT_EQ(b.device_wrap_native(nullptr, 5), halide_error_code_no_device_interface);
    EXPECT_EQ(message(), "halide_device_wrap_native: no device interface was given");
    b(0) = 5;
    EXPECT_EQ(b.device_and_host_malloc(nullptr), halide_error_code_no_device_interface);
    EXPECT_EQ(message(), "halide_device_and_host_malloc: no device interface was given");
    EXPECT_TRUE(b.owns_host_memory()); // kept when nothing replaces it
    EXPECT_EQ(b(0), 5);
    EXPECT_FALSE(b.has_device_allocation());
    // Without a device allocation there is nothing to copy back, wait for or free.
    EXPECT_EQ(b.copy_to_host(), 0);
    EXPECT_EQ(b.device_sync(), 0);
    EXPECT_EQ(b.device_free(), 0);
    EXPECT_TRUE(captured().empty());
}

TEST_F(BufferDevice, BothDirtyThroughTheMethodsIsAnError) {
    Buffer<int32_t> b(3);
    ASSERT_EQ(b.copy_to_device(full), 0);
    b.set_device_dirty();
    b(0) = 1; // a host write while the device has newer data
    EXPECT_EQ(b.copy_to_host(), halide_error_code_host_and_device_dirty);
    EXPECT_EQ(message(), "Buffer has both host and device dirty bits set.");
    EXPECT_EQ(b.copy_to_device(full), halide_error_code_host_and_device_dirty);
    EXPECT_EQ(message(), "Buffer has both host and device dirty bits set.");
    EXPECT_EQ(counts.to_host, 0);
    EXPECT_EQ(counts.to_device, 1);
    b.set_host_dirty(false);
}

TEST_F(BufferDevice, SwitchingInterfacesThroughTheMethodsIsAnError) {
    Buffer<int32_t> b(3);
    ASSERT_EQ(b.device_malloc(full), 0);
    EXPECT_EQ(b.copy_to_device(minimal), halide_error_code_incompatible_device_interface);
    EXPECT_EQ(message(), "halide_copy_to_device: the buffer has a device allocation on another "
                         "device interface (free it first)");
    EXPECT_EQ(b.device_malloc(minimal), halide_error_code_incompatible_device_interface);
    EXPECT_EQ(message(), "halide_device_malloc: the buffer has a device allocation on another "
                         "device interface (free it first)");
    EXPECT_EQ(counts.mallocs, 1);
}

TEST_F(BufferDevice, CropsAndSlicesAliasTheDeviceAllocation) {
    Buffer<int32_t> p(6, 4);
    p.fill([](int x, int y) { return x + 10 * y; });
    ASSERT_EQ(p.copy_to_device(full), 0);
    for (int i = 0; i < 24; i++) device_data(p)[i] += 1000;
    p.set_device_dirty();

    Buffer<int32_t> c = p.cropped(0, 1, 3);
    EXPECT_EQ(counts.crops, 1);
    EXPECT_EQ(c.raw_buffer()->device, p.raw_buffer()->device + 1 * 4);
    EXPECT_EQ(c.raw_buffer()->device_interface, full);
    EXPECT_TRUE(c.device_dirty());
    EXPECT_EQ(c.device_ownership(), BufferDeviceOwnership::Cropped);
    // Copying the crop back refreshes only its elements of the shared host memory.
    EXPECT_EQ(c.copy_to_host(), 0);
    const Buffer<int32_t> &cp = p;
    EXPECT_EQ(cp(0, 2), 20);
    EXPECT_EQ(cp(1, 2), 1021);
    EXPECT_EQ(cp(3, 3), 1033);
    EXPECT_EQ(cp(4, 3), 34);

    Buffer<int32_t> s = p.sliced(1, 2);
    EXPECT_EQ(counts.slices, 1);
    EXPECT_EQ(s.dimensions(), 1);
    EXPECT_EQ(s.raw_buffer()->device, p.raw_buffer()->device + 12 * 4);

    // In place, and a crop of a crop (aliasing p's allocation directly).
    Buffer<int32_t> ip = p;
    ip.crop(0, 2, 2);
    EXPECT_EQ(ip.raw_buffer()->device, p.raw_buffer()->device + 2 * 4);
    Buffer<int32_t> cc = c.cropped(1, 1, 2);
    EXPECT_EQ(cc.raw_buffer()->device, p.raw_buffer()->device + (1 + 6) * 4);
    EXPECT_EQ(counts.crops, 3);

    // An alias keeps the allocation it points into alive after its other holders are gone.
    {
        Buffer<int32_t> q(4);
        ASSERT_EQ(q.device_malloc(full), 0);
        Buffer<int32_t> qc = q.cropped(0, 1, 2);
        q = Buffer<int32_t>();
        EXPECT_EQ(counts.frees, 0);
        qc = Buffer<int32_t>();
        EXPECT_EQ(counts.release_crops, 1);
        EXPECT_EQ(counts.frees, 1);
    }

    // A device API that cannot crop: the error is reported and the crop has no device side.
    Buffer<int32_t> m(4);
    ASSERT_EQ(m.device_malloc(minimal), 0);
    Buffer<int32_t> mc = m.cropped(0, 1, 2);
    EXPECT_EQ(message(), "halide_device_crop: the buffer's device API cannot crop device "
                         "allocations");
    EXPECT_FALSE(mc.has_device_allocation());
    EXPECT_EQ(mc.dim(0).min(), 1);
    p.set_device_dirty(false);
}

TEST_F(BufferDevice, WrappedNativeHandlesAreDetachedNotFreed) {
    std::vector<int32_t> native = {5, 6, 7};
    uint64_t handle = (uint64_t)(uintptr_t)native.data();
    Buffer<int32_t> b(3);
    EXPECT_EQ(b.device_wrap_native(full, handle), 0);
    EXPECT_EQ(b.device_ownership(), BufferDeviceOwnership::WrappedNative);
    EXPECT_EQ(counts.wraps, 1);
    b.set_device_dirty();
    EXPECT_EQ(b.copy_to_host(), 0);
    const Buffer<int32_t> &cb = b;
    EXPECT_EQ(cb(2), 7);
    {
        Buffer<int32_t> copy = b;
        EXPECT_THROW(b.device_detach_native(), std::runtime_error); // copy shares it
        EXPECT_THROW(b.device_free(), std::runtime_error);          // not ours to free
    }
    EXPECT_EQ(b.device_detach_native(), 0);
    EXPECT_EQ(counts.detaches, 1);
    EXPECT_FALSE(b.has_device_allocation());
    {
        Buffer<int32_t> w(3);
        ASSERT_EQ(w.device_wrap_native(minimal, handle), 0);
    }
    EXPECT_EQ(counts.frees, 0);
    EXPECT_EQ(native, (std::vector<int32_t>{5, 6, 7}));
}

TEST_F(BufferDevice, DeviceAndHostMallocIsFreedTogether) {
    for (const halide_device_interface_t *iface : {full, minimal}) {
        fake_device::reset();
        Buffer<int32_t> b(4, 2);
        ASSERT_EQ(b.device_and_host_malloc(iface), 0);
        EXPECT_EQ(b.device_ownership(), BufferDeviceOwnership::AllocatedDeviceAndHost);
        EXPECT_FALSE(b.owns_host_memory()); // the runtime's memory replaced the Buffer's
        ASSERT_NE(b.data(), nullptr);
        b(3, 1) = 7;
        EXPECT_EQ(b.copy_to_device(nullptr), 0);
        EXPECT_EQ(device_data(b)[7], 7);
        { Buffer<int32_t> c = b; }
        EXPECT_EQ(counts.frees, 0);
        b = Buffer<int32_t>();
        EXPECT_EQ(counts.frees, 1);
        EXPECT_EQ(counts.device_and_host_frees, iface == full ? 1 : 0);
        EXPECT_EQ(counts.live_blocks, 0);
    }
}

TEST_F(BufferDevice, ARawDescriptorsAllocationIsItsOwnersUnlessSaidOtherwise) {
    int32_t data[4] = {1, 2, 3, 4};
    halide_dimension_t dim(0, 4, 1);
    halide_buffer_t raw = {};
    raw.host = (uint8_t *)data;
    raw.type = halide_type_of<int32_t>();
    raw.dimensions = 1;
    raw.dim = &dim;
    ASSERT_EQ(halide_device_malloc(nullptr, &raw, full), 0);
    {
        Buffer<int32_t> view(raw);
        EXPECT_EQ(view.device_ownership(), BufferDeviceOwnership::Unmanaged);
    }
    EXPECT_EQ(counts.frees, 0);
    { Buffer<int32_t> owner(raw, BufferDeviceOwnership::Allocated); }
    EXPECT_EQ(counts.frees, 1);
}

TEST_F(BufferDevice, LoomBufferForwardsToTheRuntimeBuffer) {
    loom::Buffer<int32_t> b(4);
    b(1) = 3;
    EXPECT_TRUE(b.host_dirty());
    EXPECT_EQ(b.copy_to_device(full), 0);
    EXPECT_TRUE(b.has_device_allocation());
    EXPECT_EQ(device_data(b)[1], 3);
    b.fill(9);
    EXPECT_TRUE(b.host_dirty());
    EXPECT_EQ(b.copy_to_device(full), 0);
    EXPECT_EQ(device_data(b)[3], 9);
    device_data(b)[0] = -1;
    b.set_device_dirty();
    EXPECT_EQ(b.copy_to_host(), 0);
    const loom::Buffer<int32_t> &cb = b;
    EXPECT_EQ(cb(0), -1);
    EXPECT_EQ(b.device_sync(), 0);
    EXPECT_EQ(b.device_free(), 0);
    EXPECT_EQ(counts.frees, 1);

    std::vector<int32_t> native = {1, 2, 3, 4};
    EXPECT_EQ(b.device_wrap_native(full, (uint64_t)(uintptr_t)native.data()), 0);
    EXPECT_EQ(b.device_detach_native(), 0);
    EXPECT_EQ(counts.detaches, 1);
    EXPECT_EQ(b.device_malloc(full), 0);
    b.device_deallocate();
    EXPECT_EQ(counts.frees, 2);
    EXPECT_TRUE(captured().empty());
}

} // namespace
