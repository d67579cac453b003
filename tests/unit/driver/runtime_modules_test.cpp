// The runtime's modules (driver/runtime_modules.h): which modules a Target gets, the bitcode an
// AOT output links for them, and which runtime symbols a JIT pipeline may bind. Tables other
// than Loom's show the selection at work on modules gated by a feature, as the CUDA and OpenCL
// back ends will add them.
#include "driver/runtime_modules.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

using namespace loom;
using namespace loom::internal;

namespace {

using Names = std::vector<std::string>;

TEST(RuntimeModules, EveryTargetGetsTheBaseAndTheDeviceInterface) {
    for (const char *t :
         {"x86-64-linux", "x86-64-linux-avx2", "arm-64-linux", "x86-64-osx-no_asserts"}) {
        EXPECT_EQ(runtime_modules_for(Target(t)), (Names{"base", "device_interface"})) << t;
    }
}

TEST(RuntimeModules, TheGpuFeaturesSelectTheirDeviceModules) {
    EXPECT_EQ(runtime_modules_for(Target("x86-64-linux-avx2-cuda")),
              (Names{"base", "device_interface", "cuda"}));
    EXPECT_EQ(runtime_modules_for(Target("arm-64-linux-opencl")),
              (Names{"base", "device_interface", "opencl"}));
}

TEST(RuntimeModules, TheProfileFeaturesSelectTheProfiler) {
    EXPECT_EQ(runtime_modules_for(Target("x86-64-linux-profile")),
              (Names{"base", "device_interface", "profiler"}));
    EXPECT_EQ(runtime_modules_for(Target("arm-64-linux-profile_by_timer")),
              (Names{"base", "device_interface", "profiler"}));
    std::vector<const RuntimeBitcodeFile *> files =
        runtime_bitcode_for(Target("x86-64-linux-profile"));
    ASSERT_FALSE(files.empty());
    EXPECT_EQ(std::string(files.back()->source), "profiler");
}

TEST(RuntimeModules, AFeatureSelectsItsModules) {
    std::vector<RuntimeModule> table = {{"base", {}},
                                        {"device_interface", {}},
                                        {"cuda", {Target::CUDA}},
                                        {"opencl", {Target::OpenCL}},
                                        {"gpu", {Target::CUDA, Target::OpenCL}}};
    EXPECT_EQ(runtime_modules_for(Target("x86-64-linux-avx2"), table),
              (Names{"base", "device_interface"}));
    EXPECT_EQ(runtime_modules_for(Target("x86-64-linux-cuda"), table),
              (Names{"base", "device_interface", "cuda", "gpu"}));
    EXPECT_EQ(runtime_modules_for(Target("arm-64-linux-opencl"), table),
              (Names{"base", "device_interface", "opencl", "gpu"}));
    EXPECT_EQ(runtime_modules_for(Target("x86-64-linux-cuda-opencl"), table),
              (Names{"base", "device_interface", "cuda", "opencl", "gpu"}));
}

TEST(RuntimeModules, EachSourceIsLinkedOnceInItsModule) {
    for (const char *t : {"x86-64-linux", "arm-64-linux"}) {
        Target target(t);
        std::string arch = runtime_arch(target);
        std::vector<const RuntimeBitcodeFile *> files = runtime_bitcode_for(target);
        std::set<std::string> sources;
        for (const RuntimeBitcodeFile *f : files) {
            EXPECT_EQ(f->arch, arch);
            EXPECT_GT(f->size, 0u);
            EXPECT_TRUE(sources.insert(f->source).second) << f->source << " twice";
        }
        for (const char *s : {"allocation", "error_handler", "error_reporters", "thread_pool",
                              "device_interface"}) {
            EXPECT_EQ(sources.count(s), 1u) << s << " for " << t;
        }
        // Table order: the base's sources first.
        ASSERT_FALSE(files.empty());
        EXPECT_EQ(std::string(files.back()->source), "device_interface");
    }
    EXPECT_EQ(runtime_arch(Target("x86-64-linux")), "x86_64");
    EXPECT_EQ(runtime_arch(Target("arm-64-android")), "aarch64");
    EXPECT_EQ(runtime_arch(Target("x86-32-linux")), "");
    EXPECT_TRUE(runtime_bitcode_for(Target("arm-32-linux")).empty());
    EXPECT_EQ(runtime_module_of_source("device_interface"), "device_interface");
    EXPECT_EQ(runtime_module_of_source("thread_pool"), "base");
}

TEST(RuntimeModules, AnUnselectedModuleIsNeitherLinkedNorBound) {
    // The device interface as if only CUDA pipelines got it.
    std::vector<RuntimeModule> table = {{"base", {}}, {"device_interface", {Target::CUDA}}};
    std::vector<const RuntimeBitcodeFile *> without =
        runtime_bitcode_for(Target("x86-64-linux"), table);
    for (const RuntimeBitcodeFile *f : without) {
        EXPECT_NE(std::string(f->source), "device_interface");
    }
    std::vector<const RuntimeBitcodeFile *> with =
        runtime_bitcode_for(Target("x86-64-linux-cuda"), table);
    EXPECT_EQ(with.size(), without.size() + 1);

    Target host = get_host_target().without_feature(Target::CUDA);
    EXPECT_FALSE(jit_may_bind("halide_copy_to_host", host, table));
    EXPECT_FALSE(jit_may_bind("halide_device_malloc", host, table));
    EXPECT_TRUE(jit_may_bind("halide_copy_to_host", host.with_feature(Target::CUDA), table));
    EXPECT_TRUE(jit_may_bind("halide_malloc", host, table));   // the base's
    EXPECT_TRUE(jit_may_bind("my_extern_stage", host, table)); // not the runtime's
    // With Loom's table every pipeline binds the device interface.
    EXPECT_TRUE(jit_may_bind("halide_copy_to_host", host));
}

} // namespace
