// Target against Halide 21: the feature numbering and names (a table taken from Halide 21's
// Target), processor tuning names, and the host's detected features against /proc/cpuinfo.
#include <loom/target.h>

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

using namespace loom;

namespace {

struct HalideFeature {
    Target::Feature feature;
    int halide_value; ///< halide_target_feature_t
    const char *name; ///< Halide's Target::feature_to_name
};

// Generated from Halide 21 (python bindings): int(hl.TargetFeature.X) and the name
// hl.Target(...).with_feature(X).to_string() prints.
const HalideFeature halide_features[] = {
    {Target::JIT, 0, "jit"},
    {Target::Debug, 1, "debug"},
    {Target::EnableBacktraces, 2, "enable_backtraces"},
    {Target::NoAsserts, 3, "no_asserts"},
    {Target::NoBoundsQuery, 4, "no_bounds_query"},
    {Target::SSE41, 5, "sse41"},
    {Target::AVX, 6, "avx"},
    {Target::AVX2, 7, "avx2"},
    {Target::AVXVNNI, 8, "avxvnni"},
    {Target::FMA, 9, "fma"},
    {Target::FMA4, 10, "fma4"},
    {Target::F16C, 11, "f16c"},
    {Target::ARMv7s, 12, "armv7s"},
    {Target::NoNEON, 13, "no_neon"},
    {Target::VSX, 14, "vsx"},
    {Target::POWER_ARCH_2_07, 15, "power_arch_2_07"},
    {Target::CUDA, 16, "cuda"},
    {Target::CUDACapability30, 17, "cuda_capability_30"},
    {Target::CUDACapability32, 18, "cuda_capability_32"},
    {Target::CUDACapability35, 19, "cuda_capability_35"},
    {Target::CUDACapability50, 20, "cuda_capability_50"},
    {Target::CUDACapability61, 21, "cuda_capability_61"},
    {Target::CUDACapability70, 22, "cuda_capability_70"},
    {Target::CUDACapability75, 23, "cuda_capability_75"},
    {Target::CUDACapability80, 24, "cuda_capability_80"},
    {Target::CUDACapability86, 25, "cuda_capability_86"},
    {Target::OpenCL, 26, "opencl"},
    {Target::CLDoubles, 27, "cl_doubles"},
    {Target::CLAtomics64, 28, "cl_atomics64"},
    {Target::UserContext, 29, "user_context"},
    {Target::Profile, 30, "profile"},
    {Target::NoRuntime, 31, "no_runtime"},
    {Target::Metal, 32, "metal"},
    {Target::CPlusPlusMangling, 33, "c_plus_plus_name_mangling"},
    {Target::LargeBuffers, 34, "large_buffers"},
    {Target::HVX_128, 35, "hvx"},
    {Target::HVX_v62, 36, "hvx_v62"},
    {Target::FuzzFloatStores, 37, "fuzz_float_stores"},
    {Target::SoftFloatABI, 38, "soft_float_abi"},
    {Target::MSAN, 39, "msan"},
    {Target::AVX512, 40, "avx512"},
    {Target::AVX512_KNL, 41, "avx512_knl"},
    {Target::AVX512_Skylake, 42, "avx512_skylake"},
    {Target::AVX512_Cannonlake, 43, "avx512_cannonlake"},
    {Target::AVX512_Zen4, 44, "avx512_zen4"},
    {Target::AVX512_Zen5, 45, "avx512_zen5"},
    {Target::AVX512_SapphireRapids, 46, "avx512_sapphirerapids"},
    {Target::TraceLoads, 47, "trace_loads"},
    {Target::TraceStores, 48, "trace_stores"},
    {Target::TraceRealizations, 49, "trace_realizations"},
    {Target::TracePipeline, 50, "trace_pipeline"},
    {Target::HVX_v65, 51, "hvx_v65"},
    {Target::HVX_v66, 52, "hvx_v66"},
    {Target::HVX_v68, 53, "hvx_v68"},
    {Target::CLHalf, 54, "cl_half"},
    {Target::StrictFloat, 55, "strict_float"},
    {Target::TSAN, 56, "tsan"},
    {Target::ASAN, 57, "asan"},
    {Target::D3D12Compute, 58, "d3d12compute"},
    {Target::CheckUnsafePromises, 59, "check_unsafe_promises"},
    {Target::HexagonDma, 60, "hexagon_dma"},
    {Target::EmbedBitcode, 61, "embed_bitcode"},
    {Target::EnableLLVMLoopOpt, 62, "enable_llvm_loop_opt"},
    {Target::WasmMvpOnly, 63, "wasm_mvponly"},
    {Target::WasmSimd128, 64, "wasm_simd128"},
    {Target::WasmThreads, 65, "wasm_threads"},
    {Target::WasmBulkMemory, 66, "wasm_bulk_memory"},
    {Target::WebGPU, 67, "webgpu"},
    {Target::SVE, 68, "sve"},
    {Target::SVE2, 69, "sve2"},
    {Target::EGL, 70, "egl"},
    {Target::ARMDotProd, 71, "arm_dot_prod"},
    {Target::ARMFp16, 72, "arm_fp16"},
    {Target::LLVMLargeCodeModel, 73, "llvm_large_code_model"},
    {Target::RVV, 74, "rvv"},
    {Target::ARMv8a, 75, "armv8a"},
    {Target::ARMv81a, 76, "armv81a"},
    {Target::ARMv82a, 77, "armv82a"},
    {Target::ARMv83a, 78, "armv83a"},
    {Target::ARMv84a, 79, "armv84a"},
    {Target::ARMv85a, 80, "armv85a"},
    {Target::ARMv86a, 81, "armv86a"},
    {Target::ARMv87a, 82, "armv87a"},
    {Target::ARMv88a, 83, "armv88a"},
    {Target::ARMv89a, 84, "armv89a"},
    {Target::SanitizerCoverage, 85, "sanitizer_coverage"},
    {Target::ProfileByTimer, 86, "profile_by_timer"},
    {Target::SPIRV, 87, "spirv"},
    {Target::Vulkan, 88, "vulkan"},
    {Target::VulkanInt8, 89, "vk_int8"},
    {Target::VulkanInt16, 90, "vk_int16"},
    {Target::VulkanInt64, 91, "vk_int64"},
    {Target::VulkanFloat16, 92, "vk_float16"},
    {Target::VulkanFloat64, 93, "vk_float64"},
    {Target::VulkanV10, 94, "vk_v10"},
    {Target::VulkanV12, 95, "vk_v12"},
    {Target::VulkanV13, 96, "vk_v13"},
    {Target::Semihosting, 97, "semihosting"},
    {Target::AVX10_1, 98, "avx10_1"},
    {Target::X86APX, 99, "x86apx"},
    {Target::Simulator, 100, "simulator"},
};

TEST(TargetHalide, FeaturesHaveHalidesNumbersAndNames) {
    EXPECT_EQ((int)Target::FeatureEnd, 101);
    EXPECT_EQ(sizeof(halide_features) / sizeof(halide_features[0]), (size_t)Target::FeatureEnd);
    for (const HalideFeature &h : halide_features) {
        EXPECT_EQ((int)h.feature, h.halide_value) << h.name;
        EXPECT_EQ(Target::feature_to_name(h.feature), h.name);
        Target::Feature back;
        ASSERT_TRUE(Target::feature_from_name(h.name, &back)) << h.name;
        EXPECT_EQ(back, h.feature) << h.name;
    }
    EXPECT_EQ(Target::HVX, Target::HVX_128);
}

TEST(TargetHalide, ProcessorTuning) {
    // Halide 21 prints this string as the expectation below.
    Target t("x86-64-linux-avx-tune_znver4-vector_bits_128-trace_all");
    EXPECT_EQ(t.processor_tune, Target::ZnVer4);
    EXPECT_EQ(t.to_string(), "x86-64-linux-tune_znver4-avx-trace_all-vector_bits_128");
    EXPECT_EQ(Target(t.to_string()), t);
    EXPECT_NE(t, Target("x86-64-linux-avx-vector_bits_128-trace_all"));
    EXPECT_EQ(Target("x86-64-linux-tune_generic").to_string(), "x86-64-linux");
    EXPECT_EQ(Target("x86-64-linux-tune_k8_sse3").processor_tune, Target::K8_SSE3);
    EXPECT_EQ(Target(Target::Linux, Target::X86, 64, Target::BdVer2, {Target::FMA4}).to_string(),
              "x86-64-linux-tune_bdver2-fma4");
    EXPECT_FALSE(Target::validate_target_string("x86-64-linux-tune_pentium"));
}

/// The "flags" line of the first processor in /proc/cpuinfo, and its vendor (empty if none).
std::set<std::string> cpuinfo_flags(std::string *vendor) {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    std::set<std::string> flags;
    while (std::getline(in, line)) {
        if (line.rfind("vendor_id", 0) == 0 && vendor->empty()) {
            *vendor = line.substr(line.find(':') + 2);
        } else if (line.rfind("flags", 0) == 0) {
            std::istringstream words(line.substr(line.find(':') + 1));
            std::string w;
            while (words >> w) flags.insert(w);
            break;
        }
    }
    return flags;
}

TEST(TargetHalide, HostFeaturesMatchProcCpuinfo) {
#if defined(__x86_64__) && defined(__linux__)
    std::string vendor;
    std::set<std::string> flags = cpuinfo_flags(&vendor);
    if (flags.empty()) GTEST_SKIP() << "no /proc/cpuinfo flags";
    Target host = get_host_target();
    if (vendor == "AuthenticAMD" && host.has_feature(Target::AVX512_Zen4)) {
        GTEST_SKIP() << "Zen 4/5 hosts are recognized by family and model, not by flags";
    }
    auto has = [&](std::initializer_list<const char *> names) {
        for (const char *n : names) {
            if (!flags.count(n)) return false;
        }
        return true;
    };
    // Halide's rules, in terms of the kernel's flag names.
    bool base = has({"avx", "f16c", "rdrand"});
    bool avx512 = base && has({"avx512f", "avx512cd"});
    bool skylake = avx512 && has({"avx512vl", "avx512bw", "avx512dq"});
    bool cannonlake = skylake && has({"avx512ifma"});
    EXPECT_EQ(host.has_feature(Target::SSE41), has({"sse4_1"}));
    EXPECT_EQ(host.has_feature(Target::AVX), has({"avx"}));
    EXPECT_EQ(host.has_feature(Target::F16C), has({"f16c"}));
    EXPECT_EQ(host.has_feature(Target::FMA), has({"fma"}));
    EXPECT_EQ(host.has_feature(Target::AVX2), base && has({"avx2"}));
    EXPECT_EQ(host.has_feature(Target::AVX512), avx512);
    EXPECT_EQ(host.has_feature(Target::AVX512_KNL), avx512 && has({"avx512pf", "avx512er"}));
    EXPECT_EQ(host.has_feature(Target::AVX512_Skylake), skylake);
    EXPECT_EQ(host.has_feature(Target::AVX512_Cannonlake), cannonlake);
    EXPECT_EQ(host.has_feature(Target::AVX512_SapphireRapids),
              cannonlake && has({"avx512_vnni", "avx512_bf16"}));
    EXPECT_EQ(host.has_feature(Target::AVXVNNI), base && has({"avx_vnni"}));
    for (Target::Feature f : {Target::AVX512_Zen4, Target::AVX512_Zen5, Target::FMA4, Target::SVE,
                              Target::ARMDotProd}) {
        EXPECT_FALSE(host.has_feature(f)) << Target::feature_to_name(f);
    }
    // Only CPU features: nothing like jit or debug.
    EXPECT_FALSE(host.has_feature(Target::JIT));
    EXPECT_FALSE(host.has_feature(Target::Debug));
#else
    GTEST_SKIP() << "x86-64 Linux only";
#endif
}

} // namespace
