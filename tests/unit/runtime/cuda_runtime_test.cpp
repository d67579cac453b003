// The CUDA device module (src/runtime/cuda.cpp) where no GPU is needed: the layout of its
// device interface, the errors of every entry point on a machine without the NVIDIA driver
// (skipped where libcuda.so.1 loads), and crops and slices, which only compute addresses. The
// GPU itself is exercised by tests/gpu/cuda_runtime_smoke.cpp.

#include "fake_device.h"

#include <loom/runtime/loom_runtime_cuda.h>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using CudaRuntime = fake_device::FakeDeviceTest;

/// A w x h int32 host buffer with mins (x0, y0).
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
    }
    Raw(const Raw &) = delete;
};

bool driver_present() {
    void *lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (lib) dlclose(lib);
    return lib != nullptr;
}

/// Whether one of the captured messages contains `what`.
bool some_message_has(const std::vector<std::string> &messages, const std::string &what) {
    for (const std::string &m : messages) {
        if (m.find(what) != std::string::npos) return true;
    }
    return false;
}

TEST_F(CudaRuntime, TheInterfaceHoldsTheRuntimeFunctionsThenTheApis) {
    const halide_device_interface_t *i = halide_cuda_device_interface();
    ASSERT_NE(i, nullptr);
    EXPECT_EQ(i, halide_cuda_device_interface());
    EXPECT_EQ(i->device_malloc, halide_device_malloc);
    EXPECT_EQ(i->device_free, halide_device_free);
    EXPECT_EQ(i->device_sync, halide_device_sync);
    EXPECT_EQ(i->device_release, halide_device_release);
    EXPECT_EQ(i->copy_to_host, halide_copy_to_host);
    EXPECT_EQ(i->copy_to_device, halide_copy_to_device);
    EXPECT_EQ(i->device_and_host_malloc, halide_device_and_host_malloc);
    EXPECT_EQ(i->device_and_host_free, halide_device_and_host_free);
    EXPECT_EQ(i->buffer_copy, halide_buffer_copy);
    EXPECT_EQ(i->device_crop, halide_device_crop);
    EXPECT_EQ(i->device_slice, halide_device_slice);
    EXPECT_EQ(i->device_release_crop, halide_device_release_crop);
    EXPECT_EQ(i->wrap_native, halide_device_wrap_native);
    EXPECT_EQ(i->detach_native, halide_device_detach_native);
    EXPECT_NE(i->compute_capability, nullptr);
    ASSERT_NE(i->impl, nullptr);
    // Required entries, and the optional ones CUDA implements; host memory is the runtime's.
    const halide_device_interface_impl_t *impl = i->impl;
    EXPECT_NE(impl->device_malloc, nullptr);
    EXPECT_NE(impl->device_free, nullptr);
    EXPECT_NE(impl->device_sync, nullptr);
    EXPECT_NE(impl->device_release, nullptr);
    EXPECT_NE(impl->copy_to_host, nullptr);
    EXPECT_NE(impl->copy_to_device, nullptr);
    EXPECT_EQ(impl->device_and_host_malloc, nullptr);
    EXPECT_EQ(impl->device_and_host_free, nullptr);
    EXPECT_NE(impl->buffer_copy, nullptr);
    EXPECT_NE(impl->device_crop, nullptr);
    EXPECT_NE(impl->device_slice, nullptr);
    EXPECT_NE(impl->device_release_crop, nullptr);
}

TEST_F(CudaRuntime, WithoutTheDriverEveryEntryPointFailsNamingLibcuda) {
    if (driver_present()) GTEST_SKIP() << "libcuda.so.1 loads on this machine";
    const halide_device_interface_t *cuda = halide_cuda_device_interface();
    const std::string expected = "CUDA: cannot load libcuda.so.1";

    Raw r(8, 4);
    EXPECT_EQ(halide_device_malloc(nullptr, &r.buf, cuda), halide_error_code_device_malloc_failed);
    EXPECT_EQ(r.buf.device, 0u);
    EXPECT_EQ(r.buf.device_interface, nullptr);
    ASSERT_FALSE(captured().empty());
    // The driver's reason comes first, then the runtime's note of which operation failed.
    EXPECT_NE(captured().front().find(expected), std::string::npos) << captured().front();
    EXPECT_NE(captured().front().find("is the NVIDIA driver installed?"), std::string::npos);
    captured().clear();

    EXPECT_NE(halide_copy_to_device(nullptr, &r.buf, cuda), 0);
    EXPECT_TRUE(some_message_has(captured(), expected));
    EXPECT_EQ(r.buf.device, 0u);
    captured().clear();

    // The failure is kept: a later call says the same, without trying again.
    const char ptx[] = ".version 7.0\n.target sm_50\n.address_size 64\n";
    void *state = nullptr;
    EXPECT_NE(halide_cuda_initialize_kernels(nullptr, &state, ptx, sizeof(ptx)), 0);
    EXPECT_EQ(state, nullptr);
    EXPECT_TRUE(some_message_has(captured(), expected));
    captured().clear();

    int32_t value = 1;
    size_t sizes[] = {sizeof(value), 0};
    void *args[] = {&value, nullptr};
    int8_t is_buffer[] = {0, 0};
    EXPECT_NE(
        halide_cuda_run(nullptr, state, "kernel", 1, 1, 1, 32, 1, 1, 0, sizes, args, is_buffer), 0);
    EXPECT_TRUE(some_message_has(captured(), expected));
    captured().clear();

    int major = -1, minor = -1;
    EXPECT_NE(cuda->compute_capability(nullptr, &major, &minor), 0);
    EXPECT_TRUE(some_message_has(captured(), expected));
    captured().clear();

    // Nothing was made, so there is nothing to release or sync away.
    halide_device_release(nullptr, cuda);
    EXPECT_EQ(halide_cuda_release_unused_device_allocations(nullptr), 0);
    EXPECT_EQ(halide_reuse_device_allocations(nullptr, false), 0);
    EXPECT_EQ(halide_reuse_device_allocations(nullptr, true), 0);
    EXPECT_TRUE(captured().empty());
}

TEST_F(CudaRuntime, CropsAndSlicesAddressTheParentsAllocation) {
    // A wrapped pointer that is never dereferenced: crops and slices only compute addresses.
    const uint64_t base = 0x7f0000010000ull;
    Raw r(8, 6, 10, 20);
    ASSERT_EQ(halide_cuda_wrap_device_ptr(nullptr, &r.buf, base), 0);
    EXPECT_EQ(r.buf.device_interface, halide_cuda_device_interface());
    EXPECT_EQ(halide_cuda_get_device_ptr(nullptr, &r.buf), base);

    // The crop x in [12, 15], y in [21, 23].
    halide_dimension_t cdim[2] = {{12, 4, 1}, {21, 3, 8}};
    halide_buffer_t crop = r.buf;
    crop.device = 0;
    crop.device_interface = nullptr;
    crop.dim = cdim;
    crop.host = r.buf.host + ((12 - 10) + (21 - 20) * 8) * 4;
    ASSERT_EQ(halide_device_crop(nullptr, &r.buf, &crop), 0);
    EXPECT_EQ(crop.device, base + ((12 - 10) + (21 - 20) * 8) * 4);
    EXPECT_EQ(crop.device_interface, halide_cuda_device_interface());

    // Row y = 23 of the buffer, from x = 11.
    halide_dimension_t sdim[1] = {{11, 5, 1}};
    halide_buffer_t row = r.buf;
    row.device = 0;
    row.device_interface = nullptr;
    row.dimensions = 1;
    row.dim = sdim;
    ASSERT_EQ(halide_device_slice(nullptr, &r.buf, 1, 23, &row), 0);
    EXPECT_EQ(row.device, base + ((11 - 10) + (23 - 20) * 8) * 4);

    EXPECT_EQ(halide_device_release_crop(nullptr, &crop), 0);
    EXPECT_EQ(crop.device, 0u);
    EXPECT_EQ(halide_device_release_crop(nullptr, &row), 0);
    EXPECT_EQ(halide_cuda_detach_device_ptr(nullptr, &r.buf), 0);
    EXPECT_EQ(r.buf.device, 0u);
    EXPECT_EQ(r.buf.device_interface, nullptr);
    EXPECT_EQ(halide_cuda_get_device_ptr(nullptr, &r.buf), 0u);
    EXPECT_TRUE(captured().empty());
}

TEST_F(CudaRuntime, OtherApisBuffersAreNotCudas) {
    Raw a(4, 4), b(4, 4);
    const halide_device_interface_impl_t *impl = halide_cuda_device_interface()->impl;
    // Host to host is left to the runtime, silently.
    EXPECT_EQ(impl->buffer_copy(nullptr, &a.buf, false, &b.buf, false),
              halide_error_code_incompatible_device_interface);
    // So is another API's device memory.
    ASSERT_EQ(halide_device_malloc(nullptr, &a.buf, &fake_device::full_interface), 0);
    EXPECT_EQ(impl->buffer_copy(nullptr, &a.buf, true, &b.buf, false),
              halide_error_code_incompatible_device_interface);
    EXPECT_TRUE(captured().empty());
    EXPECT_EQ(halide_cuda_get_device_ptr(nullptr, &a.buf), 0u);
    EXPECT_NE(halide_cuda_detach_device_ptr(nullptr, &a.buf), 0);
    EXPECT_EQ(captured().size(), 2u);
    EXPECT_TRUE(some_message_has(captured(), "not CUDA's"));
    EXPECT_EQ(halide_device_free(nullptr, &a.buf), 0);
}

} // namespace
