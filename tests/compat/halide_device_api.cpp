// The device API on CPU targets, as Halide 21 behaves (built against Loom and, as
// compat_halide_device_api_halide, against Halide): GPU and Hexagon schedules, device copies and
// Buffer device calls compile, and using them on a target without the device is Halide's error
// naming the Func or call site, the device and the target. Programs that schedule for a GPU only
// when the target has one run on the CPU. GPU memory types are plain memory on the host.
#include "Halide.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

using namespace Halide;

namespace {

const Target cpu("x86-64-linux-sse41");

/// Runs f, expecting a Halide::CompileError whose message contains every string in `parts`.
template <typename F>
void expect_error(F f, std::initializer_list<std::string> parts) {
    try {
        f();
    } catch (const CompileError &e) {
        std::string msg = e.what();
        for (const std::string &p : parts) {
            EXPECT_NE(msg.find(p), std::string::npos) << "message lacks \"" << p << "\":\n" << msg;
        }
        return;
    } catch (const std::exception &e) {
        ADD_FAILURE() << "expected a CompileError, got: " << e.what();
        return;
    }
    ADD_FAILURE() << "expected an exception, nothing was thrown";
}

} // namespace

TEST(HalideDeviceApi, GpuLoopsNeedAGpuFeature) {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func f("f");
    f(x, y) = x + y;
    f.gpu_tile(x, y, xo, yo, xi, yi, 8, 8);
    // (Halide names the Func f$1 when an earlier test made an f; its JIT target adds features.)
    expect_error([&] { f.compile_jit(cpu); },
                 {"Schedule for Func f", "requires <Default_GPU> but no compatible target "
                                         "feature is enabled in target x86-64-linux"});

    Func g("g");
    g(x) = x;
    g.gpu_single_thread();
    expect_error([&] { g.compile_jit(cpu); }, {"Schedule for Func g", "requires <Default_GPU>"});

    Func h("h");
    h(x) = x;
    h.gpu_blocks(x, DeviceAPI::CUDA);
    expect_error([&] { h.compile_jit(cpu); }, {"Schedule for Func h", "requires <CUDA>"});

    Func k("k");
    k(x) = x;
    k.hexagon();
    expect_error([&] { k.compile_jit(cpu); }, {"Schedule for Func k", "requires <Hexagon>"});
}

TEST(HalideDeviceApi, GpuLoopsInAnUpdateOrASpecialization) {
    Var x("x"), xo("xo"), xi("xi");
    Param<bool> big("big");
    Func f("f");
    f(x) = x;
    f(x) += 1;
    f.update().gpu_tile(x, xo, xi, 16);
    expect_error([&] { f.compile_jit(cpu); }, {"Schedule for Func f", "requires <Default_GPU>"});

    Func g("g");
    g(x) = x;
    g.specialize(big).gpu_tile(x, xo, xi, 16);
    expect_error([&] { g.compile_jit(cpu); }, {"Schedule for Func g", "requires <Default_GPU>"});
}

TEST(HalideDeviceApi, GpuScheduleOnlyWhenTheTargetHasAGpu) {
    // The common pattern of Halide programs: the GPU branch is not taken on a CPU target.
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func f("f");
    f(x, y) = x * 3 + y;
    Target t = get_jit_target_from_environment();
    ASSERT_FALSE(t.has_gpu_feature());
    if (t.has_gpu_feature()) {
        f.gpu_tile(x, y, xo, yo, xi, yi, 8, 8);
    } else {
        f.vectorize(x, 4).parallel(y);
    }
    Buffer<int> out = f.realize({13, 5});
    for (int j = 0; j < 5; j++) {
        for (int i = 0; i < 13; i++) ASSERT_EQ(out(i, j), i * 3 + j);
    }
    EXPECT_EQ(evaluate_may_gpu<int>(Expr(6) * 7), 42);
}

TEST(HalideDeviceApi, TargetDeviceQueries) {
    Target host("x86-64-linux-avx2");
    EXPECT_FALSE(host.has_gpu_feature());
    EXPECT_TRUE(host.supports_device_api(DeviceAPI::Host));
    EXPECT_TRUE(host.supports_device_api(DeviceAPI::None));
    EXPECT_FALSE(host.supports_device_api(DeviceAPI::Default_GPU));
    EXPECT_FALSE(host.supports_device_api(DeviceAPI::CUDA));
    EXPECT_EQ(get_default_device_api_for_target(host), DeviceAPI::Host);
    EXPECT_EQ(host.get_required_device_api(), DeviceAPI::None);

    Target cl("x86-64-linux-opencl");
    EXPECT_TRUE(cl.has_gpu_feature());
    EXPECT_TRUE(cl.supports_device_api(DeviceAPI::Default_GPU));
    EXPECT_TRUE(cl.supports_device_api(DeviceAPI::OpenCL));
    EXPECT_FALSE(cl.supports_device_api(DeviceAPI::CUDA));
    EXPECT_EQ(get_default_device_api_for_target(cl), DeviceAPI::OpenCL);
    EXPECT_EQ(cl.get_required_device_api(), DeviceAPI::OpenCL);
    EXPECT_FALSE(cl.supports_type(Float(64), DeviceAPI::OpenCL));
    EXPECT_TRUE(cl.with_feature(Target::CLDoubles).supports_type(Float(64), DeviceAPI::OpenCL));
    EXPECT_TRUE(cl.supports_type(Float(64), DeviceAPI::Host));
    EXPECT_TRUE(Target("x86-64-linux-cuda").supports_type(Float(64), DeviceAPI::Default_GPU));
    EXPECT_FALSE(Target("x86-64-linux-metal").supports_type(Int(64), DeviceAPI::Default_GPU));
    EXPECT_TRUE(host_supports_target_device(host));

    // A runtime for two targets: the device APIs either uses, the instruction sets both have,
    // the same sanitizers; features of generated code only (user_context) are dropped.
    Target a("x86-64-linux-avx2-fma-sse41-cuda"), b("x86-64-linux-sse41-user_context"), r;
    ASSERT_TRUE(a.get_runtime_compatible_target(b, r));
    EXPECT_EQ(r, Target("x86-64-linux-sse41-cuda"));
    Target asan("x86-64-linux-asan");
    EXPECT_FALSE(asan.get_runtime_compatible_target(Target("x86-64-linux"), r));
    Target arm("arm-64-linux");
    Target untouched = r;
    EXPECT_FALSE(a.get_runtime_compatible_target(arm, r));
    EXPECT_EQ(r, untouched);
}

TEST(HalideDeviceApi, BufferDeviceCalls) {
    Buffer<int> b(4);
    Target host("x86-64-linux-avx2");
    expect_error([&] { (void)b.copy_to_device(DeviceAPI::CUDA, host); },
                 {"get_device_interface_for_device_api called from Buffer::copy_to_device "
                  "DeviceAPI (cuda) is not supported by target (x86-64-linux-avx2)"});
    expect_error([&] { (void)b.device_malloc(DeviceAPI::Default_GPU, host); },
                 {"Buffer::device_malloc requested a default GPU but no GPU feature is "
                  "specified in target (x86-64-linux-avx2)"});
    expect_error([&] { (void)b.copy_to_device(DeviceAPI::Host, host); },
                 {"requested unknown DeviceAPI (1)"});
    EXPECT_EQ(get_device_interface_for_device_api(DeviceAPI::CUDA, host), nullptr);
    // Without a device there is nothing to copy back or wait for.
    EXPECT_EQ(b.copy_to_host(), 0);
    EXPECT_EQ(b.device_sync(), 0);
    EXPECT_FALSE(b.has_device_allocation());
}

TEST(HalideDeviceApi, CopyToHostAndDevice) {
    Var x("x");
    Func g("g"), h("h"), d("d"), bad("bad");
    g(x) = x * 2;
    g.compute_root();
    h(x) = g(x);
    h.copy_to_host();
    Buffer<int> out = h.realize({6});
    for (int i = 0; i < 6; i++) EXPECT_EQ(out(i), i * 2);

    d(x) = g(x);
    d.copy_to_device();
    expect_error([&] { d.compile_jit(cpu); },
                 {"Func d", "<Default_GPU>", "no compatible target feature is enabled"});

    bad(x) = g(x) + 1;
    expect_error([&] { bad.copy_to_host(); },
                 {"Func bad is scheduled as copy_to_host/device, but has value: ",
                  "Expected a single call to another Func with matching dimensionality and "
                  "argument order."});
}

TEST(HalideDeviceApi, GpuMemoryTypesAreHostMemoryOnCpus) {
    Var x("x");
    Func f("f"), g("g");
    f(x) = x + 1;
    g(x) = f(x) * 2;
    f.compute_root().store_in(MemoryType::GPUShared);
    Buffer<int> out = g.realize({5});
    for (int i = 0; i < 5; i++) EXPECT_EQ(out(i), (i + 1) * 2);
}

// Loom only: GPU APIs other than CUDA and OpenCL are refused with an error naming the two
// Loom generates code for (Halide 21 compiles Metal, Vulkan, ... too).
#ifdef LOOM_COMPAT_HALIDE_H
TEST(HalideDeviceApi, OnlyCudaAndOpenCLAreCompiled) {
    Var x("x"), xo("xo"), xi("xi");
    Func f("f");
    f(x) = x;
    f.gpu_tile(x, xo, xi, 16);
    f.compile_to_module({}, "f", Target("x86-64-linux-cuda"));
    f.compile_to_module({}, "f", Target("x86-64-linux-opencl"));
    expect_error([&] { f.compile_to_module({}, "f", Target("x86-64-linux-metal")); },
                 {"Func f", "<Metal>", "CUDA and OpenCL only"});
}
#endif
