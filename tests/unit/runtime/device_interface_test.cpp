// The runtime's device functions (src/runtime/device_interface.cpp) on raw halide_buffer_t,
// with the fake device of fake_device.h: dispatch to the device API, every dirty-flag
// transition, and the errors (codes and messages through the error handler) of buffers in
// states Halide's invariants forbid. Return codes match those of Halide 21's runtime in the same
// situations.

#include "fake_device.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using fake_device::counts;

const halide_device_interface_t *const full = &fake_device::full_interface;
const halide_device_interface_t *const minimal = &fake_device::minimal_interface;

using DeviceInterface = fake_device::FakeDeviceTest;

/// A w x h int32 host buffer holding 0, 1, 2, ... in storage order, with mins (x0, y0).
struct Raw {
    std::vector<int32_t> data;
    halide_dimension_t dim[2];
    halide_buffer_t buf = {};
    Raw(int w, int h, int x0 = 0, int y0 = 0) : data(w * h) {
        dim[0] = halide_dimension_t(x0, w, 1);
        dim[1] = halide_dimension_t(y0, h, w);
        buf.host = (uint8_t *)data.data();
        buf.type = halide_type_of<int32_t>();
        buf.dimensions = 2;
        buf.dim = dim;
        for (size_t i = 0; i < data.size(); i++) data[i] = (int32_t)i;
    }
    Raw(const Raw &) = delete;
    int32_t *device_data() const { return (int32_t *)(uintptr_t)buf.device; }
    int32_t at(int x, int y) const {
        return data[(x - dim[0].min) + (y - dim[1].min) * dim[1].stride];
    }
};

TEST_F(DeviceInterface, CopyRoundTripsKeepTheDataAndTheFlags) {
    Raw r(4, 3);
    // A first copy fills the new allocation although the host is not marked dirty.
    EXPECT_EQ(halide_copy_to_device(nullptr, &r.buf, full), 0);
    EXPECT_EQ(r.buf.device_interface, full);
    ASSERT_NE(r.buf.device, 0u);
    EXPECT_EQ(counts.mallocs, 1);
    EXPECT_EQ(counts.to_device, 1);
    for (int i = 0; i < 12; i++) EXPECT_EQ(r.device_data()[i], i);
    EXPECT_FALSE(r.buf.host_dirty());
    EXPECT_FALSE(r.buf.device_dirty());

    // Current on both sides: neither direction copies.
    EXPECT_EQ(halide_copy_to_device(nullptr, &r.buf, full), 0);
    EXPECT_EQ(halide_copy_to_host(nullptr, &r.buf), 0);
    EXPECT_EQ(counts.to_device, 1);
    EXPECT_EQ(counts.to_host, 0);

    // The device writes: the host is stale until copy_to_host refreshes it.
    for (int i = 0; i < 12; i++) r.device_data()[i] = 100 + i;
    r.buf.set_device_dirty();
    EXPECT_EQ(r.data[5], 5);
    EXPECT_EQ(halide_copy_to_host(nullptr, &r.buf), 0);
    EXPECT_EQ(counts.to_host, 1);
    EXPECT_FALSE(r.buf.device_dirty());
    for (int i = 0; i < 12; i++) EXPECT_EQ(r.data[i], 100 + i);

    // The host writes: a null interface means the buffer's own.
    r.data[7] = -7;
    r.buf.set_host_dirty();
    EXPECT_EQ(halide_copy_to_device(nullptr, &r.buf, nullptr), 0);
    EXPECT_EQ(counts.to_device, 2);
    EXPECT_EQ(counts.mallocs, 1);
    EXPECT_EQ(r.device_data()[7], -7);
    EXPECT_FALSE(r.buf.host_dirty());

    // Freeing drops the allocation, its interface and the device's dirty bit.
    r.buf.set_device_dirty();
    EXPECT_EQ(halide_device_free(nullptr, &r.buf), 0);
    EXPECT_EQ(counts.frees, 1);
    EXPECT_EQ(r.buf.device, 0u);
    EXPECT_EQ(r.buf.device_interface, nullptr);
    EXPECT_FALSE(r.buf.device_dirty());
    // A buffer without a device allocation frees nothing, and only loses the dirty bit.
    r.buf.set_device_dirty();
    EXPECT_EQ(halide_device_free(nullptr, &r.buf), 0);
    EXPECT_FALSE(r.buf.device_dirty());
    EXPECT_EQ(counts.frees, 1);
    EXPECT_TRUE(captured().empty());
}

TEST_F(DeviceInterface, ADeviceHandleWithoutAnInterfaceIsAnError) {
    Raw r(2, 2);
    r.buf.device = 1234; // a handle no interface manages
    const std::string msg = "Buffer has a non-zero device but no device interface.";
    EXPECT_EQ(halide_copy_to_host(nullptr, &r.buf), halide_error_code_no_device_interface);
    EXPECT_EQ(message(), msg);
    EXPECT_EQ(halide_copy_to_device(nullptr, &r.buf, full), -19);
    EXPECT_EQ(message(), msg);
    EXPECT_EQ(halide_device_malloc(nullptr, &r.buf, full), -19);
    EXPECT_EQ(message(), msg);
    EXPECT_EQ(halide_device_free(nullptr, &r.buf), -19);
    EXPECT_EQ(message(), msg);
    EXPECT_EQ(halide_device_sync(nullptr, &r.buf), -19);
    EXPECT_EQ(message(), msg);
    Raw dst(2, 2);
    EXPECT_EQ(halide_buffer_copy(nullptr, &r.buf, nullptr, &dst.buf), -19);
    EXPECT_EQ(message(), msg);
    EXPECT_EQ(r.buf.device, 1234u); // left alone
    EXPECT_EQ(counts.mallocs + counts.to_host + counts.to_device + counts.frees, 0);
}

TEST_F(DeviceInterface, NoInterfaceToUseIsAnError) {
    Raw r(2, 2);
    // Dirty on the device without a device allocation: the newest data is nowhere.
    r.buf.set_device_dirty();
    EXPECT_EQ(halide_copy_to_host(nullptr, &r.buf), halide_error_code_no_device_interface);
    EXPECT_EQ(
        message(),
        "halide_copy_to_host: the buffer is dirty on the device but has no device allocation");
    EXPECT_EQ(halide_copy_to_device(nullptr, &r.buf, full), -19);
    EXPECT_EQ(message(), "halide_copy_to_device: the buffer is dirty on the device but has no "
                         "device allocation");
    r.buf.set_device_dirty(false);
    EXPECT_EQ(halide_copy_to_device(nullptr, &r.buf, nullptr), -19);
    EXPECT_EQ(message(), "halide_copy_to_device: no device interface was given and the buffer has "
                         "no device allocation");
    EXPECT_EQ(halide_device_malloc(nullptr, &r.buf, nullptr), -19);
    EXPECT_EQ(message(), "halide_device_malloc: no device interface was given");
    EXPECT_EQ(halide_device_sync(nullptr, &r.buf), -19);
    EXPECT_EQ(message(), "halide_device_sync: the buffer has no device allocation");
    EXPECT_EQ(halide_device_sync_global(nullptr, nullptr), -19);
    EXPECT_EQ(message(), "halide_device_sync_global: no device interface was given");
    halide_device_release(nullptr, nullptr);
    EXPECT_EQ(message(), "halide_device_release: no device interface was given");
    EXPECT_EQ(halide_device_wrap_native(nullptr, &r.buf, 99, nullptr), -19);
    EXPECT_EQ(message(), "halide_device_wrap_native: no device interface was given");
    EXPECT_EQ(r.buf.device, 0u);
    // A clean host buffer has nothing to copy back.
    EXPECT_EQ(halide_copy_to_host(nullptr, &r.buf), 0);
    EXPECT_TRUE(captured().empty());
}

TEST_F(DeviceInterface, AnInterfaceWithoutADeviceHandleIsAnError) {
    Raw r(2, 2);
    r.buf.device_interface = full;
    EXPECT_EQ(halide_copy_to_host(nullptr, &r.buf), halide_error_code_device_interface_no_device);
    EXPECT_EQ(message(), "Buffer has a non-null device_interface but device is 0.");
    EXPECT_EQ(halide_device_free(nullptr, &r.buf), -36);
    EXPECT_EQ(message(), "Buffer has a non-null device_interface but device is 0.");
}

TEST_F(DeviceInterface, BothDirtyBitsAreAnError) {
    Raw r(3, 1);
    ASSERT_EQ(halide_device_malloc(nullptr, &r.buf, full), 0);
    r.buf.set_host_dirty();
    r.buf.set_device_dirty();
    const std::string msg = "Buffer has both host and device dirty bits set.";
    EXPECT_EQ(halide_copy_to_host(nullptr, &r.buf), halide_error_code_host_and_device_dirty);
    EXPECT_EQ(message(), msg);
    EXPECT_EQ(halide_copy_to_device(nullptr, &r.buf, full), -37);
    EXPECT_EQ(message(), msg);
    EXPECT_EQ(halide_device_free(nullptr, &r.buf), -37);
    EXPECT_EQ(message(), msg);
    EXPECT_EQ(counts.to_host + counts.to_device + counts.frees, 0);
    r.buf.set_host_dirty(false);
    EXPECT_EQ(halide_device_free(nullptr, &r.buf), 0);
}

TEST_F(DeviceInterface, ANullBufferIsAnError) {
    EXPECT_EQ(halide_copy_to_host(nullptr, nullptr), halide_error_code_buffer_is_null);
    EXPECT_EQ(message(), "Buffer pointer passed to halide_copy_to_host is null.");
    EXPECT_EQ(halide_device_free(nullptr, nullptr), -38);
    EXPECT_EQ(message(), "Buffer pointer passed to halide_device_free is null.");
}

TEST_F(DeviceInterface, SwitchingInterfacesIsAnError) {
    Raw r(2, 2);
    ASSERT_EQ(halide_device_malloc(nullptr, &r.buf, full), 0);
    EXPECT_EQ(halide_device_malloc(nullptr, &r.buf, minimal),
              halide_error_code_incompatible_device_interface);
    EXPECT_EQ(message(), "halide_device_malloc: the buffer has a device allocation on another "
                         "device interface (free it first)");
    r.buf.set_host_dirty();
    EXPECT_EQ(halide_copy_to_device(nullptr, &r.buf, minimal), -42);
    EXPECT_EQ(message(), "halide_copy_to_device: the buffer has a device allocation on another "
                         "device interface (free it first)");
    EXPECT_TRUE(r.buf.host_dirty());
    // Allocating again on the same interface keeps the allocation.
    uint64_t device = r.buf.device;
    EXPECT_EQ(halide_device_malloc(nullptr, &r.buf, full), 0);
    EXPECT_EQ(r.buf.device, device);
    EXPECT_EQ(counts.mallocs, 1);
    r.buf.set_host_dirty(false);
    EXPECT_EQ(halide_device_free(nullptr, &r.buf), 0);
}

TEST_F(DeviceInterface, SyncAndReleaseReachTheDevice) {
    Raw r(2, 2);
    ASSERT_EQ(halide_device_malloc(nullptr, &r.buf, full), 0);
    EXPECT_EQ(halide_device_sync(nullptr, &r.buf), 0);
    EXPECT_EQ(r.buf.device_sync(), 0); // the descriptor's member goes through the interface
    EXPECT_EQ(halide_device_sync_global(nullptr, full), 0);
    EXPECT_EQ(counts.syncs, 3);
    halide_device_release(nullptr, full);
    EXPECT_EQ(counts.releases, 1);
    EXPECT_EQ(halide_device_free(nullptr, &r.buf), 0);
    // Without an interface the descriptor's device_sync is a no-op, as in Halide.
    EXPECT_EQ(r.buf.device_sync(), 0);
    EXPECT_EQ(counts.syncs, 3);
}

TEST_F(DeviceInterface, DeviceAndHostMallocWithAndWithoutTheApis) {
    for (const halide_device_interface_t *iface : {full, minimal}) {
        fake_device::reset();
        Raw r(5, 2);
        r.buf.host = nullptr;
        ASSERT_EQ(halide_device_and_host_malloc(nullptr, &r.buf, iface), 0);
        ASSERT_NE(r.buf.host, nullptr);
        EXPECT_NE(r.buf.device, 0u);
        EXPECT_EQ(r.buf.device_interface, iface);
        EXPECT_EQ(counts.device_and_host_mallocs, iface == full ? 1 : 0);
        EXPECT_EQ(counts.mallocs, 1);
        for (int i = 0; i < 10; i++) ((int32_t *)r.buf.host)[i] = 3 * i;
        r.buf.set_host_dirty();
        EXPECT_EQ(halide_copy_to_device(nullptr, &r.buf, nullptr), 0);
        EXPECT_EQ(r.device_data()[9], 27);
        EXPECT_EQ(halide_device_and_host_free(nullptr, &r.buf), 0);
        EXPECT_EQ(counts.device_and_host_frees, iface == full ? 1 : 0);
        EXPECT_EQ(counts.frees, 1);
        EXPECT_EQ(r.buf.host, nullptr);
        EXPECT_EQ(r.buf.device, 0u);
        EXPECT_EQ(r.buf.device_interface, nullptr);
        EXPECT_EQ(counts.live_blocks, 0);
    }
    Raw has_host(2, 2);
    EXPECT_EQ(halide_device_and_host_malloc(nullptr, &has_host.buf, full),
              halide_error_code_device_malloc_failed);
    EXPECT_EQ(message(), "halide_device_and_host_malloc: the buffer already has host memory or a "
                         "device allocation");
}

TEST_F(DeviceInterface, CropsAndSlicesAliasTheParentThroughTheInterface) {
    Raw p(6, 4);
    ASSERT_EQ(halide_copy_to_device(nullptr, &p.buf, full), 0);
    for (int i = 0; i < 24; i++) p.device_data()[i] = 1000 + i;
    p.buf.set_device_dirty();

    // The region x in [1, 3], y in [2, 3].
    halide_dimension_t cd[2] = {{1, 3, 1}, {2, 2, 6}};
    halide_buffer_t c = p.buf;
    c.dim = cd;
    c.host = p.buf.host + (1 + 2 * 6) * 4;
    c.device = 0;
    c.device_interface = nullptr;
    c.flags = 0;
    EXPECT_EQ(halide_device_crop(nullptr, &p.buf, &c), 0);
    EXPECT_EQ(counts.crops, 1);
    EXPECT_EQ(c.device, p.buf.device + (1 + 2 * 6) * 4);
    EXPECT_EQ(c.device_interface, full);
    EXPECT_TRUE(c.device_dirty());
    // Copying the crop back refreshes its elements only.
    EXPECT_EQ(halide_copy_to_host(nullptr, &c), 0);
    for (int y = 0; y < 4; y++) {
        for (int x = 0; x < 6; x++) {
            bool inside = x >= 1 && x <= 3 && y >= 2;
            EXPECT_EQ(p.at(x, y), (inside ? 1000 : 0) + x + 6 * y) << x << ", " << y;
        }
    }
    EXPECT_EQ(halide_device_crop(nullptr, &p.buf, &c), halide_error_code_device_crop_failed);
    EXPECT_EQ(message(), "halide_device_crop: the destination buffer already has a device "
                         "allocation");
    EXPECT_EQ(halide_device_release_crop(nullptr, &c), 0);
    EXPECT_EQ(counts.release_crops, 1);
    EXPECT_EQ(c.device, 0u);
    EXPECT_EQ(c.device_interface, nullptr);

    // Row y = 3.
    halide_buffer_t s = p.buf;
    s.dimensions = 1;
    s.host = p.buf.host + 18 * 4;
    s.device = 0;
    s.device_interface = nullptr;
    EXPECT_EQ(halide_device_slice(nullptr, &p.buf, 1, 3, &s), 0);
    EXPECT_EQ(counts.slices, 1);
    EXPECT_EQ(s.device, p.buf.device + 18 * 4);
    EXPECT_EQ(halide_device_release_crop(nullptr, &s), 0);
    EXPECT_EQ(halide_device_slice(nullptr, &p.buf, 1, 4, &s), halide_error_code_device_crop_failed);
    EXPECT_EQ(message(), "halide_device_slice: the destination's shape is not a region of the "
                         "source's");

    // A crop outside the parent, and a device API that cannot crop.
    cd[0] = halide_dimension_t(4, 3, 1);
    EXPECT_EQ(halide_device_crop(nullptr, &p.buf, &c), halide_error_code_device_crop_failed);
    EXPECT_EQ(message(), "halide_device_crop: the destination's shape is not a region of the "
                         "source's");
    cd[0] = halide_dimension_t(1, 3, 1);
    Raw m(6, 4);
    ASSERT_EQ(halide_device_malloc(nullptr, &m.buf, minimal), 0);
    EXPECT_EQ(halide_device_crop(nullptr, &m.buf, &c), halide_error_code_device_crop_unsupported);
    EXPECT_EQ(message(), "halide_device_crop: the buffer's device API cannot crop device "
                         "allocations");
    EXPECT_EQ(c.device, 0u);
    EXPECT_EQ(halide_device_free(nullptr, &m.buf), 0);

    // A source without a device allocation gives nothing to alias.
    Raw h(6, 4);
    EXPECT_EQ(halide_device_crop(nullptr, &h.buf, &c), 0);
    EXPECT_EQ(c.device, 0u);
    p.buf.set_device_dirty(false);
    EXPECT_EQ(halide_device_free(nullptr, &p.buf), 0);
}

TEST_F(DeviceInterface, BufferCopyBetweenHostAndDevices) {
    Raw src(6, 4);
    // dst covers x in [2, 4], y in [1, 2] of src.
    auto expect_region = [&](const int32_t *d, int base) {
        for (int y = 1; y <= 2; y++) {
            for (int x = 2; x <= 4; x++) {
                EXPECT_EQ(d[(x - 2) + 3 * (y - 1)], base + x + 6 * y) << x << ", " << y;
            }
        }
    };

    Raw dst(3, 2, 2, 1);
    EXPECT_EQ(halide_buffer_copy(nullptr, &src.buf, nullptr, &dst.buf), 0);
    expect_region(dst.data.data(), 0);
    EXPECT_TRUE(dst.buf.host_dirty());

    // Host to device: the API's own copy, or (minimal) through dst's host memory.
    for (const halide_device_interface_t *iface : {full, minimal}) {
        fake_device::reset();
        Raw d(3, 2, 2, 1);
        EXPECT_EQ(halide_buffer_copy(nullptr, &src.buf, iface, &d.buf), 0);
        EXPECT_EQ(d.buf.device_interface, iface);
        expect_region(d.device_data(), 0);
        EXPECT_TRUE(d.buf.device_dirty());
        EXPECT_FALSE(d.buf.host_dirty());
        EXPECT_EQ(counts.buffer_copies, iface == full ? 1 : 0);
        EXPECT_EQ(counts.to_device, iface == full ? 0 : 1);
        d.buf.set_device_dirty(false);
        EXPECT_EQ(halide_device_free(nullptr, &d.buf), 0);
    }

    // Device to host: the API reads its device memory, or (minimal) src is copied back first.
    for (const halide_device_interface_t *iface : {full, minimal}) {
        fake_device::reset();
        Raw s(6, 4);
        ASSERT_EQ(halide_device_malloc(nullptr, &s.buf, iface), 0);
        for (int i = 0; i < 24; i++) s.device_data()[i] = 500 + i;
        s.buf.set_device_dirty();
        Raw d(3, 2, 2, 1);
        EXPECT_EQ(halide_buffer_copy(nullptr, &s.buf, nullptr, &d.buf), 0);
        expect_region(d.data.data(), 500);
        EXPECT_EQ(s.buf.device_dirty(), iface == full);
        EXPECT_EQ(s.data[0], iface == full ? 0 : 500);
        EXPECT_EQ(counts.to_host, iface == full ? 0 : 1);
        s.buf.set_device_dirty(false);
        EXPECT_EQ(halide_device_free(nullptr, &s.buf), 0);
    }

    // Device to device on another API: through the source's host memory.
    fake_device::reset();
    Raw s(6, 4);
    ASSERT_EQ(halide_device_malloc(nullptr, &s.buf, full), 0);
    for (int i = 0; i < 24; i++) s.device_data()[i] = 700 + i;
    s.buf.set_device_dirty();
    Raw d(3, 2, 2, 1);
    EXPECT_EQ(halide_buffer_copy(nullptr, &s.buf, minimal, &d.buf), 0);
    expect_region(d.device_data(), 700);
    EXPECT_EQ(counts.to_host, 1);
    EXPECT_FALSE(s.buf.device_dirty());
    d.buf.set_device_dirty(false);
    EXPECT_EQ(halide_device_free(nullptr, &d.buf), 0);
    EXPECT_EQ(halide_device_free(nullptr, &s.buf), 0);

    // A destination outside the source, and one without host memory.
    Raw outside(3, 2, 5, 1);
    EXPECT_EQ(halide_buffer_copy(nullptr, &src.buf, nullptr, &outside.buf),
              halide_error_code_device_buffer_copy_failed);
    EXPECT_EQ(message(), "halide_buffer_copy: the destination must have the source's element size "
                         "and dimensions, and its region must lie inside the source's");
    Raw no_host(3, 2, 2, 1);
    no_host.buf.host = nullptr;
    EXPECT_EQ(halide_buffer_copy(nullptr, &src.buf, nullptr, &no_host.buf),
              halide_error_code_host_is_null);
    EXPECT_EQ(message(), "halide_buffer_copy: the destination has no host memory");
}

TEST_F(DeviceInterface, WrappedNativeHandlesAreNotFreed) {
    std::vector<int32_t> native = {7, 8, 9, 10};
    uint64_t handle = (uint64_t)(uintptr_t)native.data();
    for (const halide_device_interface_t *iface : {full, minimal}) {
        fake_device::reset();
        Raw r(4, 1);
        EXPECT_EQ(halide_device_wrap_native(nullptr, &r.buf, handle, iface), 0);
        EXPECT_EQ(r.buf.device, handle);
        EXPECT_EQ(r.buf.device_interface, iface);
        EXPECT_EQ(counts.wraps, iface == full ? 1 : 0);
        r.buf.set_device_dirty();
        EXPECT_EQ(halide_copy_to_host(nullptr, &r.buf), 0);
        EXPECT_EQ(r.data, native);
        EXPECT_EQ(halide_device_wrap_native(nullptr, &r.buf, handle, iface),
                  halide_error_code_device_wrap_native_failed);
        EXPECT_EQ(message(), "halide_device_wrap_native: the buffer already has a device "
                             "allocation");
        EXPECT_EQ(halide_device_detach_native(nullptr, &r.buf), 0);
        EXPECT_EQ(counts.detaches, iface == full ? 1 : 0);
        EXPECT_EQ(r.buf.device, 0u);
        EXPECT_EQ(r.buf.device_interface, nullptr);
        EXPECT_EQ(counts.frees, 0);
        // Nothing left to detach.
        EXPECT_EQ(halide_device_detach_native(nullptr, &r.buf), 0);
    }
}

TEST_F(DeviceInterface, GpuDeviceSelection) {
    // The only test that sets the device: until then the environment decides.
    setenv("HL_GPU_DEVICE", "3", 1);
    EXPECT_EQ(halide_get_gpu_device(nullptr), 3);
    setenv("HL_GPU_DEVICE", "-2", 1);
    EXPECT_EQ(halide_get_gpu_device(nullptr), -2);
    for (const char *bad : {"x", "-", "", "1x"}) {
        setenv("HL_GPU_DEVICE", bad, 1);
        EXPECT_EQ(halide_get_gpu_device(nullptr), -1) << bad;
    }
    unsetenv("HL_GPU_DEVICE");
    EXPECT_EQ(halide_get_gpu_device(nullptr), -1);
    halide_set_gpu_device(2);
    setenv("HL_GPU_DEVICE", "3", 1);
    EXPECT_EQ(halide_get_gpu_device(nullptr), 2);
    unsetenv("HL_GPU_DEVICE");
}

int pool_releases = 0;
int release_pool(void *uc) {
    pool_releases++;
    return uc ? halide_error_code_device_free_failed : 0;
}

TEST_F(DeviceInterface, TurningReuseOffReleasesThePools) {
    EXPECT_TRUE(halide_can_reuse_device_allocations(nullptr)); // the default
    static halide_device_allocation_pool pool = {release_pool, nullptr};
    halide_register_device_allocation_pool(&pool);
    EXPECT_EQ(halide_reuse_device_allocations(nullptr, true), 0);
    EXPECT_EQ(pool_releases, 0);
    EXPECT_EQ(halide_reuse_device_allocations(nullptr, false), 0);
    EXPECT_EQ(pool_releases, 1);
    EXPECT_FALSE(halide_can_reuse_device_allocations(nullptr));
    int context = 0;
    EXPECT_EQ(halide_reuse_device_allocations(&context, false),
              halide_error_code_device_free_failed); // the pool's result
    EXPECT_EQ(pool_releases, 2);
    EXPECT_EQ(halide_reuse_device_allocations(nullptr, true), 0);
    EXPECT_TRUE(halide_can_reuse_device_allocations(nullptr));
}

} // namespace
