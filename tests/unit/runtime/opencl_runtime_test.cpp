// The OpenCL device module (src/runtime/opencl.cpp) on a real OpenCL device: PoCL on the CPU in
// CI (scripts/setup.sh installs it). Copies in both directions (dense, strided, negative
// strides), crops and slices as sub-buffers, the dirty flags through halide_copy_to_*,
// device-to-device copies, native handles, the allocation pool, and the kernel entry points
// generated code calls: a program built once per context, launches with scalar, buffer and
// __local arguments, and the errors of an oversized work-group and of a failed build.
//
// Without an OpenCL device every test fails, saying to run scripts/setup.sh, unless
// LOOM_SKIP_OPENCL=1 (then they are skipped).

#include "runtime/device_interface.h"

#include <loom/runtime/loom_runtime_opencl.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

// Test hook of opencl.cpp: the number of programs built so far.
extern "C" int loom_opencl_program_builds(void);

namespace {

const halide_device_interface_t *opencl() { return halide_opencl_device_interface(); }

std::vector<std::string> &captured() {
    static std::vector<std::string> messages;
    return messages;
}
void capture(void *, const char *msg) { captured().push_back(msg); }

/// The device index is process-wide, and DeviceInterface.GpuDeviceSelection leaves it set:
/// back to the environment's choice (the first device by default) when it differs, only then so
/// that test still sees it unset when it runs later.
void use_the_environments_device() {
    const char *env = std::getenv("HL_GPU_DEVICE");
    int index = env ? std::atoi(env) : -1;
    if (halide_get_gpu_device(nullptr) != index) halide_set_gpu_device(index);
}

/// Whether an OpenCL device can be used; `why` says what the runtime reported when not.
bool opencl_available(std::string *why) {
    static int state = 0; // 0: not probed, 1: available, 2: not
    static std::string reason;
    if (state == 0) {
        halide_error_handler_t old = halide_set_error_handler(capture);
        captured().clear();
        int32_t value = 0;
        halide_dimension_t dim(0, 1, 1);
        halide_buffer_t buf = {};
        buf.host = (uint8_t *)&value;
        buf.type = halide_type_of<int32_t>();
        buf.dimensions = 1;
        buf.dim = &dim;
        int r = halide_device_malloc(nullptr, &buf, opencl());
        if (r == 0) halide_device_free(nullptr, &buf);
        for (const std::string &m : captured()) reason += m + "\n";
        captured().clear();
        halide_set_error_handler(old);
        state = r == 0 ? 1 : 2;
    }
    *why = reason;
    return state == 1;
}

class OpenCLRuntime : public ::testing::Test {
protected:
    void SetUp() override {
        use_the_environments_device();
        std::string why;
        if (!opencl_available(&why)) {
            const char *skip = std::getenv("LOOM_SKIP_OPENCL");
            if (skip && std::string(skip) == "1") {
                GTEST_SKIP() << "no OpenCL device (LOOM_SKIP_OPENCL=1): " << why;
            }
            FAIL() << "No OpenCL device is available:\n"
                   << why
                   << "Run scripts/setup.sh, which installs PoCL (Debian's pocl-opencl-icd) as CI "
                      "does, or set LOOM_SKIP_OPENCL=1 to skip the OpenCL tests.";
        }
        captured().clear();
        old = halide_set_error_handler(capture);
    }
    void TearDown() override {
        if (old) halide_set_error_handler(old);
    }
    /// Every message since the last call, joined.
    static std::string messages() {
        std::string all;
        for (const std::string &m : captured()) all += m + "\n";
        captured().clear();
        return all;
    }
    halide_error_handler_t old = nullptr;
};

/// An int32 buffer over `storage` elements of host memory, the element at its mins at
/// `host_offset`; every storage element starts as `fill`.
struct Raw {
    std::vector<int32_t> storage;
    std::vector<halide_dimension_t> dims;
    halide_buffer_t buf = {};
    Raw(std::vector<halide_dimension_t> d, size_t size, ptrdiff_t host_offset = 0, int32_t fill = 0)
        : storage(size, fill), dims(std::move(d)) {
        buf.host = (uint8_t *)(storage.data() + host_offset);
        buf.type = halide_type_of<int32_t>();
        buf.dimensions = (int)dims.size();
        buf.dim = dims.data();
    }
    /// A dense w x h buffer.
    Raw(int w, int h) : Raw({{0, w, 1}, {0, h, w}}, (size_t)w * h) {}
    Raw(const Raw &) = delete;
    int32_t *host() const { return (int32_t *)buf.host; }
    /// The element at (x, y) (relative to the mins).
    int32_t &at(int x, int y) const { return host()[x * dims[0].stride + y * dims[1].stride]; }
    uint64_t mem() const { return buf.device; }
};

/// Index of each element of a 2-D or 3-D buffer in storage order of its coordinates.
int32_t value_at(int x, int y, int z = 0) { return 1000 * z + 100 * y + x + 1; }

/// Uploads b's host contents, clears the host's copy of its elements (to `clear`), marks the
/// device dirty and copies back.
void round_trip(Raw &r, int32_t clear) {
    ASSERT_EQ(halide_copy_to_device(nullptr, &r.buf, opencl()), 0);
    int ex = r.dims[0].extent, ey = r.dims.size() > 1 ? r.dims[1].extent : 1;
    int ez = r.dims.size() > 2 ? r.dims[2].extent : 1;
    for (int z = 0; z < ez; z++) {
        for (int y = 0; y < ey; y++) {
            for (int x = 0; x < ex; x++) {
                int pos[3] = {r.dims[0].min + x, r.dims.size() > 1 ? r.dims[1].min + y : 0,
                              r.dims.size() > 2 ? r.dims[2].min + z : 0};
                *(int32_t *)r.buf.address_of(pos) = clear;
            }
        }
    }
    r.buf.set_device_dirty();
    ASSERT_EQ(halide_copy_to_host(nullptr, &r.buf), 0);
}

TEST_F(OpenCLRuntime, TheInterfaceHoldsTheRuntimeFunctionsThenTheApis) {
    const halide_device_interface_t *i = opencl();
    ASSERT_NE(i, nullptr);
    EXPECT_EQ(i->device_malloc, halide_device_malloc);
    EXPECT_EQ(i->copy_to_host, halide_copy_to_host);
    EXPECT_EQ(i->detach_native, halide_device_detach_native);
    EXPECT_EQ(i->compute_capability, nullptr);
    ASSERT_NE(i->impl, nullptr);
    EXPECT_NE(i->impl->buffer_copy, nullptr);
    EXPECT_NE(i->impl->device_crop, nullptr);
    EXPECT_EQ(i->impl->device_and_host_malloc, nullptr);
}

TEST_F(OpenCLRuntime, ADenseBufferGoesToTheDeviceAndBack) {
    Raw r(37, 23);
    for (int y = 0; y < 23; y++)
        for (int x = 0; x < 37; x++) r.at(x, y) = value_at(x, y);
    round_trip(r, -5);
    EXPECT_NE(r.mem(), 0u);
    EXPECT_EQ(r.buf.device_interface, opencl());
    EXPECT_EQ(halide_opencl_get_cl_mem(nullptr, &r.buf), (uintptr_t)r.mem());
    for (int y = 0; y < 23; y++)
        for (int x = 0; x < 37; x++) ASSERT_EQ(r.at(x, y), value_at(x, y)) << x << "," << y;
    EXPECT_EQ(halide_device_sync(nullptr, &r.buf), 0);
    EXPECT_EQ(halide_device_free(nullptr, &r.buf), 0);
    EXPECT_EQ(messages(), "");
}

TEST_F(OpenCLRuntime, StridedBuffersCopyOnlyTheirElements) {
    // Rows of 5 in a pitch of 7, planes at 23 (not a multiple of the row pitch): the gaps hold
    // -1 on the host and must keep it.
    Raw r({{0, 5, 1}, {0, 3, 7}, {0, 2, 23}}, 46, 0, -1);
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 5; x++) r.host()[x + 7 * y + 23 * z] = value_at(x, y, z);
    std::vector<int32_t> expected = r.storage;
    round_trip(r, 0);
    EXPECT_EQ(r.storage, expected);

    // A negative row stride: host points at the last row of the block.
    Raw n({{2, 4, 1}, {5, 3, -6}}, 18, 12, -1);
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4; x++) n.at(x, y) = value_at(x, y);
    expected = n.storage;
    round_trip(n, 0);
    EXPECT_EQ(n.storage, expected);
    EXPECT_EQ(halide_device_free(nullptr, &r.buf), 0);
    EXPECT_EQ(halide_device_free(nullptr, &n.buf), 0);
    EXPECT_EQ(messages(), "");
}

TEST_F(OpenCLRuntime, ACropIsASubBufferAndCopiesOnlyItsRegion) {
    // 1024-byte rows; the crop starts at (128, 2): 2 * 1024 + 512 bytes in, a multiple of the
    // base-address alignment of every OpenCL device (at most 512 bytes in practice).
    const int w = 256, h = 8;
    Raw parent(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) parent.at(x, y) = value_at(x, y);
    ASSERT_EQ(halide_copy_to_device(nullptr, &parent.buf, opencl()), 0);
    // The device copy differs from the host's from now on.
    std::fill(parent.storage.begin(), parent.storage.end(), -1);

    Raw crop({{128, 40, 1}, {2, 4, w}}, 0);
    crop.buf.host = (uint8_t *)&parent.at(128, 2);
    ASSERT_EQ(halide_device_crop(nullptr, &parent.buf, &crop.buf), 0) << messages();
    EXPECT_EQ(crop.buf.device_interface, opencl());
    EXPECT_NE(crop.mem(), parent.mem());
    EXPECT_EQ(halide_opencl_get_crop_offset(nullptr, &crop.buf), 2u * 1024 + 512);
    EXPECT_EQ(halide_opencl_get_crop_offset(nullptr, &parent.buf), 0u);
    crop.buf.set_device_dirty();
    ASSERT_EQ(halide_copy_to_host(nullptr, &crop.buf), 0);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            bool inside = x >= 128 && x < 168 && y >= 2 && y < 6;
            ASSERT_EQ(parent.at(x, y), inside ? value_at(x, y) : -1) << x << "," << y;
        }
    }

    // A crop of the crop aliases the root allocation (sub-buffers of sub-buffers are not
    // allowed): rows 3 and 4 from x = 128.
    Raw inner({{128, 8, 1}, {3, 2, w}}, 0);
    inner.buf.host = (uint8_t *)&parent.at(128, 3);
    ASSERT_EQ(halide_device_crop(nullptr, &crop.buf, &inner.buf), 0) << messages();
    EXPECT_EQ(halide_opencl_get_crop_offset(nullptr, &inner.buf), 3u * 1024 + 512);
    EXPECT_EQ(halide_device_release_crop(nullptr, &inner.buf), 0);

    // Writing through the crop changes the parent's device memory there only.
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 40; x++) crop.at(x, y) = -value_at(x, y);
    crop.buf.set_host_dirty();
    ASSERT_EQ(halide_copy_to_device(nullptr, &crop.buf, nullptr), 0);
    ASSERT_EQ(halide_device_release_crop(nullptr, &crop.buf), 0);
    EXPECT_EQ(crop.buf.device, 0u);
    std::fill(parent.storage.begin(), parent.storage.end(), 0);
    parent.buf.set_device_dirty();
    ASSERT_EQ(halide_copy_to_host(nullptr, &parent.buf), 0);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            bool inside = x >= 128 && x < 168 && y >= 2 && y < 6;
            ASSERT_EQ(parent.at(x, y), inside ? -value_at(x - 128, y - 2) : value_at(x, y));
        }
    }

    // A slice: row 4 (4096 bytes in).
    std::vector<int32_t> row(w, 0);
    halide_dimension_t row_dim(0, w, 1);
    halide_buffer_t slice = {};
    slice.host = (uint8_t *)row.data();
    slice.type = halide_type_of<int32_t>();
    slice.dimensions = 1;
    slice.dim = &row_dim;
    ASSERT_EQ(halide_device_slice(nullptr, &parent.buf, 1, 4, &slice), 0) << messages();
    EXPECT_EQ(halide_opencl_get_crop_offset(nullptr, &slice), 4096u);
    slice.set_device_dirty();
    ASSERT_EQ(halide_copy_to_host(nullptr, &slice), 0);
    for (int x = 0; x < w; x++) {
        ASSERT_EQ(row[x], x >= 128 && x < 168 ? -value_at(x - 128, 2) : value_at(x, 4)) << x;
    }
    EXPECT_EQ(halide_device_release_crop(nullptr, &slice), 0);

    // A crop starting 4 bytes in cannot be a sub-buffer.
    Raw odd({{1, 8, 1}, {0, 1, w}}, 0);
    odd.buf.host = (uint8_t *)&parent.at(1, 0);
    EXPECT_NE(halide_device_crop(nullptr, &parent.buf, &odd.buf), 0);
    std::string m = messages();
    EXPECT_NE(m.find("CL_DEVICE_MEM_BASE_ADDR_ALIGN"), std::string::npos) << m;
    EXPECT_NE(m.find("starts 4 bytes into"), std::string::npos) << m;
    EXPECT_EQ(odd.buf.device, 0u);
    EXPECT_EQ(halide_device_free(nullptr, &parent.buf), 0);
}

TEST_F(OpenCLRuntime, TheDirtyFlagsDecideWhatIsCopied) {
    Raw r(16, 4);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 16; x++) r.at(x, y) = value_at(x, y);
    ASSERT_EQ(halide_copy_to_device(nullptr, &r.buf, opencl()), 0);

    // A host write without host_dirty is not uploaded: reading the device back undoes it.
    r.at(3, 1) = 77;
    ASSERT_EQ(halide_copy_to_device(nullptr, &r.buf, opencl()), 0);
    r.buf.set_device_dirty();
    ASSERT_EQ(halide_copy_to_host(nullptr, &r.buf), 0);
    EXPECT_EQ(r.at(3, 1), value_at(3, 1));

    // With host_dirty it is, and the flag clears.
    r.at(3, 1) = 77;
    r.buf.set_host_dirty();
    ASSERT_EQ(halide_copy_to_device(nullptr, &r.buf, opencl()), 0);
    EXPECT_FALSE(r.buf.host_dirty());
    r.at(3, 1) = 0;
    // Not device_dirty: copy_to_host leaves the host alone.
    ASSERT_EQ(halide_copy_to_host(nullptr, &r.buf), 0);
    EXPECT_EQ(r.at(3, 1), 0);
    r.buf.set_device_dirty();
    ASSERT_EQ(halide_copy_to_host(nullptr, &r.buf), 0);
    EXPECT_FALSE(r.buf.device_dirty());
    EXPECT_EQ(r.at(3, 1), 77);
    EXPECT_EQ(halide_device_free(nullptr, &r.buf), 0);
    EXPECT_EQ(messages(), "");
}

TEST_F(OpenCLRuntime, BufferCopiesBetweenDeviceBuffersAndToTheHost) {
    const int w = 20, h = 10;
    Raw src(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) src.at(x, y) = value_at(x, y);
    ASSERT_EQ(halide_copy_to_device(nullptr, &src.buf, opencl()), 0);
    std::fill(src.storage.begin(), src.storage.end(), 0);
    src.buf.set_device_dirty(); // the device holds the data; the host is stale

    // Device to device: the region [3, 3 + 6) x [2, 2 + 5) into a dense buffer.
    Raw dst({{3, 6, 1}, {2, 5, 6}}, 30);
    ASSERT_EQ(halide_buffer_copy(nullptr, &src.buf, opencl(), &dst.buf), 0) << messages();
    EXPECT_TRUE(dst.buf.device_dirty());
    ASSERT_EQ(halide_copy_to_host(nullptr, &dst.buf), 0);
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 6; x++) ASSERT_EQ(dst.at(x, y), value_at(x + 3, y + 2));

    // Device to host memory, with the destination's own pitch.
    Raw host({{3, 6, 1}, {2, 5, 8}}, 40, 0, -1);
    ASSERT_EQ(halide_buffer_copy(nullptr, &src.buf, nullptr, &host.buf), 0) << messages();
    for (int y = 0; y < 5; y++) {
        for (int x = 0; x < 8; x++) {
            ASSERT_EQ(host.host()[x + 8 * y], x < 6 ? value_at(x + 3, y + 2) : -1);
        }
    }
    EXPECT_EQ(src.storage[0], 0); // the source's host memory was not used
    EXPECT_EQ(halide_device_free(nullptr, &src.buf), 0);
    EXPECT_EQ(halide_device_free(nullptr, &dst.buf), 0);
}

TEST_F(OpenCLRuntime, AWrappedClMemIsUsedAndNotReleased) {
    Raw owner(8, 8);
    for (int i = 0; i < 64; i++) owner.storage[i] = i * 3;
    ASSERT_EQ(halide_copy_to_device(nullptr, &owner.buf, opencl()), 0);

    Raw view(8, 8);
    ASSERT_EQ(halide_opencl_wrap_cl_mem(nullptr, &view.buf, owner.mem()), 0) << messages();
    EXPECT_EQ(view.buf.device_interface, opencl());
    view.buf.set_device_dirty();
    ASSERT_EQ(halide_copy_to_host(nullptr, &view.buf), 0);
    EXPECT_EQ(view.storage, owner.storage);
    ASSERT_EQ(halide_opencl_detach_cl_mem(nullptr, &view.buf), 0);
    EXPECT_EQ(view.buf.device, 0u);
    EXPECT_EQ(halide_opencl_get_cl_mem(nullptr, &view.buf), 0u);

    // The owner's allocation is still alive.
    std::fill(owner.storage.begin(), owner.storage.end(), 0);
    owner.buf.set_device_dirty();
    ASSERT_EQ(halide_copy_to_host(nullptr, &owner.buf), 0);
    EXPECT_EQ(owner.storage[63], 63 * 3);

    // A cl_mem smaller than the buffer is refused.
    Raw big(16, 16);
    EXPECT_NE(halide_opencl_wrap_cl_mem(nullptr, &big.buf, owner.mem()), 0);
    std::string m = messages();
    EXPECT_NE(m.find("holds 256 bytes, but the buffer spans 1024"), std::string::npos) << m;
    EXPECT_EQ(big.buf.device, 0u);
    EXPECT_EQ(halide_device_free(nullptr, &owner.buf), 0);
}

TEST_F(OpenCLRuntime, FreedAllocationsAreReusedForTheSameSize) {
    ASSERT_TRUE(halide_can_reuse_device_allocations(nullptr));
    Raw a(64, 3), b(64, 3), c(64, 5);
    ASSERT_EQ(halide_device_malloc(nullptr, &a.buf, opencl()), 0);
    uint64_t mem = a.mem();
    ASSERT_EQ(halide_device_free(nullptr, &a.buf), 0);
    // Another size does not take it; the same size does.
    ASSERT_EQ(halide_device_malloc(nullptr, &c.buf, opencl()), 0);
    EXPECT_NE(c.mem(), mem);
    ASSERT_EQ(halide_device_malloc(nullptr, &b.buf, opencl()), 0);
    EXPECT_EQ(b.mem(), mem);
    // A reused allocation works like a new one.
    for (int i = 0; i < 192; i++) b.storage[i] = i;
    b.buf.set_host_dirty();
    round_trip(b, 0);
    for (int i = 0; i < 192; i++) ASSERT_EQ(b.storage[i], i);
    EXPECT_EQ(halide_device_free(nullptr, &b.buf), 0);
    EXPECT_EQ(halide_device_free(nullptr, &c.buf), 0);
    // Turning reuse off empties the pool.
    EXPECT_EQ(halide_reuse_device_allocations(nullptr, false), 0);
    EXPECT_EQ(halide_reuse_device_allocations(nullptr, true), 0);
    EXPECT_EQ(messages(), "");
}

const char *kKernels = R"CL(
__kernel void saxpy_plus_one(__global float *out, __global const float *in, float a, int n) {
    int i = get_global_id(0);
    if (i < n) out[i] = a * in[i] + 1.0f;
}
__kernel void reverse_groups(__global int *data, __local int *tmp) {
    int l = get_local_id(0), n = get_local_size(0), base = get_group_id(0) * n;
    tmp[l] = data[base + l];
    barrier(CLK_LOCAL_MEM_FENCE);
    data[base + l] = tmp[n - 1 - l];
}
)CL";

/// A dense 1-D float buffer of n elements.
struct Floats {
    std::vector<float> data;
    halide_dimension_t dim;
    halide_buffer_t buf = {};
    explicit Floats(int n) : data(n), dim(0, n, 1) {
        buf.host = (uint8_t *)data.data();
        buf.type = halide_type_of<float>();
        buf.dimensions = 1;
        buf.dim = &dim;
    }
};

TEST_F(OpenCLRuntime, AProgramIsBuiltOnceAndItsKernelsRun) {
    void *state = nullptr; // generated code keeps one per pipeline, as a global
    int size = (int)std::strlen(kKernels) + 1;
    int builds = loom_opencl_program_builds();
    ASSERT_EQ(halide_opencl_initialize_kernels(nullptr, &state, kKernels, size), 0) << messages();
    ASSERT_NE(state, nullptr);
    void *first = state;
    EXPECT_EQ(loom_opencl_program_builds(), builds + 1);
    // The second run of the pipeline finds the program built.
    ASSERT_EQ(halide_opencl_initialize_kernels(nullptr, &state, kKernels, size), 0);
    EXPECT_EQ(state, first);
    EXPECT_EQ(loom_opencl_program_builds(), builds + 1);

    const int n = 1000;
    Floats in(n), out(n);
    for (int i = 0; i < n; i++) in.data[i] = (float)(i - 300);
    ASSERT_EQ(halide_copy_to_device(nullptr, &in.buf, opencl()), 0);
    ASSERT_EQ(halide_device_malloc(nullptr, &out.buf, opencl()), 0);
    float a = 2.5f;
    int32_t count = n;
    void *args[] = {&out.buf.device, &in.buf.device, &a, &count, nullptr};
    size_t arg_sizes[] = {sizeof(uint64_t), sizeof(uint64_t), sizeof(a), sizeof(count), 0};
    int8_t is_buffer[] = {1, 1, 0, 0, 0};
    const int threads = 64, blocks = (n + threads - 1) / threads;
    ASSERT_EQ(halide_opencl_run(nullptr, state, "saxpy_plus_one", blocks, 1, 1, threads, 1, 1, 0,
                                arg_sizes, args, is_buffer),
              0)
        << messages();
    out.buf.set_device_dirty();
    ASSERT_EQ(halide_copy_to_host(nullptr, &out.buf), 0);
    // Small integers times 2.5 plus 1 are exact, with or without fused multiply-adds.
    for (int i = 0; i < n; i++) ASSERT_EQ(out.data[i], 2.5f * (float)(i - 300) + 1.0f) << i;

    // The same kernel again (cached), with another scalar.
    a = -1.0f;
    ASSERT_EQ(halide_opencl_run(nullptr, state, "saxpy_plus_one", blocks, 1, 1, threads, 1, 1, 0,
                                arg_sizes, args, is_buffer),
              0);
    out.buf.set_device_dirty();
    ASSERT_EQ(halide_copy_to_host(nullptr, &out.buf), 0);
    EXPECT_EQ(out.data[10], 291.0f);

    // Shared memory: a trailing __local argument of shared_mem_bytes.
    const int group = 16, m = 4 * group;
    Raw data({{0, m, 1}}, m);
    for (int i = 0; i < m; i++) data.storage[i] = i;
    ASSERT_EQ(halide_copy_to_device(nullptr, &data.buf, opencl()), 0);
    void *args2[] = {&data.buf.device, nullptr};
    size_t sizes2[] = {sizeof(uint64_t), 0};
    int8_t is_buffer2[] = {1, 0};
    ASSERT_EQ(halide_opencl_run(nullptr, state, "reverse_groups", m / group, 1, 1, group, 1, 1,
                                group * (int)sizeof(int32_t), sizes2, args2, is_buffer2),
              0)
        << messages();
    data.buf.set_device_dirty();
    ASSERT_EQ(halide_copy_to_host(nullptr, &data.buf), 0);
    for (int i = 0; i < m; i++)
        ASSERT_EQ(data.storage[i], (i / group) * group + group - 1 - i % group);

    // A work-group of 2^20 work-items is refused before the launch, naming the kernel.
    EXPECT_NE(halide_opencl_run(nullptr, state, "saxpy_plus_one", 1, 1, 1, 1 << 20, 1, 1, 0,
                                arg_sizes, args, is_buffer),
              0);
    std::string msg = messages();
    EXPECT_NE(msg.find("kernel 'saxpy_plus_one'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1048576x1x1"), std::string::npos) << msg;
    EXPECT_NE(msg.find("at most"), std::string::npos) << msg;

    // A kernel the program lacks.
    EXPECT_NE(halide_opencl_run(nullptr, state, "no_such_kernel", 1, 1, 1, 1, 1, 1, 0, arg_sizes,
                                args, is_buffer),
              0);
    msg = messages();
    EXPECT_NE(msg.find("'no_such_kernel'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("CL_INVALID_KERNEL_NAME"), std::string::npos) << msg;

    halide_opencl_finalize_kernels(nullptr, state);
    EXPECT_EQ(halide_device_free(nullptr, &in.buf), 0);
    EXPECT_EQ(halide_device_free(nullptr, &out.buf), 0);
    EXPECT_EQ(halide_device_free(nullptr, &data.buf), 0);
}

TEST_F(OpenCLRuntime, ConcurrentLaunchesOfOneKernelKeepTheirArguments) {
    // The threads share the program's cl_kernel, whose arguments are state of its own (without
    // the lock around setting them and launching, this fails most runs).
    void *state = nullptr;
    int size = (int)std::strlen(kKernels) + 1;
    ASSERT_EQ(halide_opencl_initialize_kernels(nullptr, &state, kKernels, size), 0) << messages();
    const int n = 256, num_threads = 4, rounds = 200;
    std::vector<int> failures(num_threads, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < num_threads; t++) {
        threads.emplace_back([&, t] {
            Floats in(n), out(n);
            for (int i = 0; i < n; i++) in.data[i] = (float)i;
            if (halide_copy_to_device(nullptr, &in.buf, opencl()) != 0 ||
                halide_device_malloc(nullptr, &out.buf, opencl()) != 0) {
                failures[t]++;
                return;
            }
            for (int round = 0; round < rounds; round++) {
                float a = (float)(t * 100 + round);
                int32_t count = n;
                void *args[] = {&out.buf.device, &in.buf.device, &a, &count, nullptr};
                size_t sizes[] = {sizeof(uint64_t), sizeof(uint64_t), sizeof(a), sizeof(count)};
                int8_t is_buffer[] = {1, 1, 0, 0};
                if (halide_opencl_run(nullptr, state, "saxpy_plus_one", n / 64, 1, 1, 64, 1, 1, 0,
                                      sizes, args, is_buffer) != 0) {
                    failures[t]++;
                    continue;
                }
                out.buf.set_device_dirty();
                if (halide_copy_to_host(nullptr, &out.buf) != 0) failures[t]++;
                for (int i = 0; i < n; i++) {
                    if (out.data[i] != a * (float)i + 1.0f) failures[t]++;
                }
            }
            halide_device_free(nullptr, &in.buf);
            halide_device_free(nullptr, &out.buf);
        });
    }
    for (std::thread &t : threads) t.join();
    for (int t = 0; t < num_threads; t++) EXPECT_EQ(failures[t], 0) << "thread " << t;
    EXPECT_EQ(messages(), "");
}

TEST_F(OpenCLRuntime, AFailedBuildReportsTheLogAndTheSource) {
    void *state = nullptr;
    const char *src = "// first line of the broken program\n"
                      "__kernel void broken(__global int *p) { p[0] = undeclared_name; }\n";
    int builds = loom_opencl_program_builds();
    EXPECT_NE(halide_opencl_initialize_kernels(nullptr, &state, src, (int)std::strlen(src) + 1), 0);
    std::string msg = messages();
    EXPECT_NE(msg.find("OpenCL: building the program failed: CL_BUILD_PROGRAM_FAILURE"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("undeclared_name"), std::string::npos) << msg; // from the log
    EXPECT_NE(msg.find("-cl-std=CL1.2 -cl-fast-relaxed-math"), std::string::npos) << msg;
    EXPECT_NE(msg.find("The source begins:\n// first line of the broken program"),
              std::string::npos)
        << msg;
    EXPECT_EQ(loom_opencl_program_builds(), builds);
    // Nothing was built, so nothing launches.
    void *args[] = {nullptr};
    EXPECT_NE(
        halide_opencl_run(nullptr, state, "broken", 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr),
        0);
    msg = messages();
    EXPECT_NE(msg.find("before its program was built"), std::string::npos) << msg;
}

TEST_F(OpenCLRuntime, StrictFloatSourcesAndExtraOptionsChangeTheBuildOptions) {
    void *state = nullptr;
    const char *src = "#define LOOM_STRICT_FLOAT 1\n"
                      "__kernel void broken(__global int *p) { p[0] = undeclared_name; }\n";
    halide_opencl_set_build_options("-DLOOM_TEST_OPTION=1");
    EXPECT_STREQ(halide_opencl_get_build_options(nullptr), "-DLOOM_TEST_OPTION=1");
    EXPECT_NE(halide_opencl_initialize_kernels(nullptr, &state, src, (int)std::strlen(src) + 1), 0);
    halide_opencl_set_build_options(nullptr);
    std::string msg = messages();
    EXPECT_NE(msg.find("options '-cl-std=CL1.2 -DLOOM_TEST_OPTION=1'"), std::string::npos) << msg;
}

TEST_F(OpenCLRuntime, ReleasingTheContextRebuildsProgramsAndReselectsTheDevice) {
    void *state = nullptr;
    int size = (int)std::strlen(kKernels) + 1;
    ASSERT_EQ(halide_opencl_initialize_kernels(nullptr, &state, kKernels, size), 0);
    int builds = loom_opencl_program_builds();
    halide_device_release(nullptr, opencl());

    // A platform name that matches nothing: every entry point reports it.
    halide_opencl_set_platform_name("no such OpenCL platform");
    EXPECT_STREQ(halide_opencl_get_platform_name(nullptr), "no such OpenCL platform");
    Raw r(4, 4);
    EXPECT_NE(halide_device_malloc(nullptr, &r.buf, opencl()), 0);
    std::string msg = messages();
    EXPECT_NE(msg.find("OpenCL: no device found on a platform whose name contains 'no such "
                       "OpenCL platform' (platforms: '"),
              std::string::npos)
        << msg;
    EXPECT_NE(halide_opencl_initialize_kernels(nullptr, &state, kKernels, size), 0);
    EXPECT_NE(messages().find("no device found"), std::string::npos);
    halide_opencl_set_platform_name(nullptr);

    // A device type OpenCL does not know.
    halide_opencl_set_device_type("tpu");
    EXPECT_NE(halide_device_malloc(nullptr, &r.buf, opencl()), 0);
    msg = messages();
    EXPECT_NE(msg.find("is 'tpu'; it must be cpu, gpu or acc"), std::string::npos) << msg;
    halide_opencl_set_device_type(nullptr);

    // Back to the default device: the program is built again in the new context.
    ASSERT_EQ(halide_opencl_initialize_kernels(nullptr, &state, kKernels, size), 0) << messages();
    EXPECT_EQ(loom_opencl_program_builds(), builds + 1);
    ASSERT_EQ(halide_opencl_initialize_kernels(nullptr, &state, kKernels, size), 0);
    EXPECT_EQ(loom_opencl_program_builds(), builds + 1);
    EXPECT_EQ(messages(), "");
}

} // namespace
