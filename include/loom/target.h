#ifndef LOOM_TARGET_H
#define LOOM_TARGET_H

/// \file Target: the machine and options code is compiled for (Halide's Target). A target is
/// written "arch-bits-os-feature1-feature2..." (e.g. "x86-64-linux-avx2-fma"), or "host".

#include <loom/device_api.h>
#include <loom/type.h>

#include <bitset>
#include <cstdint>
#include <string>
#include <vector>

struct halide_device_interface_t;

namespace loom {

/// An architecture, operating system, word size and a set of features.
struct Target {
    /// Operating systems, as in Halide.
    enum OS {
        OSUnknown = 0,
        Linux,
        Windows,
        OSX,
        Android,
        IOS,
        QuRT,
        NoOS,
        Fuchsia,
        WebAssemblyRuntime,
    };
    /// Architectures, as in Halide.
    enum Arch {
        ArchUnknown = 0,
        X86,
        ARM,
        Hexagon,
        POWERPC,
        WebAssembly,
        RISCV,
    };
    /// Features, numbered as Halide's (halide_target_feature_t), so a feature's bit means the
    /// same in Loom and Halide. Each has a lower-case name in target strings (target.cpp's
    /// table); adding a feature is adding an enumerator here and a row there.
    enum Feature {
        JIT = 0,
        Debug,
        EnableBacktraces,
        NoAsserts,
        NoBoundsQuery,
        SSE41,
        AVX,
        AVX2,
        AVXVNNI,
        FMA,
        FMA4,
        F16C,
        ARMv7s,
        NoNEON,
        VSX,
        POWER_ARCH_2_07,
        CUDA,
        CUDACapability30,
        CUDACapability32,
        CUDACapability35,
        CUDACapability50,
        CUDACapability61,
        CUDACapability70,
        CUDACapability75,
        CUDACapability80,
        CUDACapability86,
        OpenCL,
        CLDoubles,
        CLAtomics64,
        UserContext,
        Profile,
        NoRuntime,
        Metal,
        CPlusPlusMangling,
        LargeBuffers,
        HVX_128,
        HVX_v62,
        FuzzFloatStores,
        SoftFloatABI,
        MSAN,
        AVX512,
        AVX512_KNL,
        AVX512_Skylake,
        AVX512_Cannonlake,
        AVX512_Zen4,
        AVX512_Zen5,
        AVX512_SapphireRapids,
        TraceLoads,
        TraceStores,
        TraceRealizations,
        TracePipeline,
        HVX_v65,
        HVX_v66,
        HVX_v68,
        CLHalf,
        StrictFloat,
        TSAN,
        ASAN,
        D3D12Compute,
        CheckUnsafePromises,
        HexagonDma,
        EmbedBitcode,
        EnableLLVMLoopOpt,
        WasmMvpOnly,
        WasmSimd128,
        WasmThreads,
        WasmBulkMemory,
        WebGPU,
        SVE,
        SVE2,
        EGL,
        ARMDotProd,
        ARMFp16,
        LLVMLargeCodeModel,
        RVV,
        ARMv8a,
        ARMv81a,
        ARMv82a,
        ARMv83a,
        ARMv84a,
        ARMv85a,
        ARMv86a,
        ARMv87a,
        ARMv88a,
        ARMv89a,
        SanitizerCoverage,
        ProfileByTimer,
        SPIRV,
        Vulkan,
        VulkanInt8,
        VulkanInt16,
        VulkanInt64,
        VulkanFloat16,
        VulkanFloat64,
        VulkanV10,
        VulkanV12,
        VulkanV13,
        Semihosting,
        AVX10_1,
        X86APX,
        Simulator,
        FeatureEnd,
        /// Halide's alias for HVX_128.
        HVX = HVX_128,
    };

    /// The CPU to tune for (scheduling, not the instruction set), as in Halide; written
    /// "tune_<name>" in target strings ("tune_znver4"). ProcessorGeneric lets the features
    /// decide.
    enum Processor {
        ProcessorGeneric = 0,
        K8,
        K8_SSE3,
        AMDFam10,
        BtVer1,
        BdVer1,
        BdVer2,
        BdVer3,
        BdVer4,
        BtVer2,
        ZnVer1,
        ZnVer2,
        ZnVer3,
        ZnVer4,
        ZnVer5,
    };

    OS os = OSUnknown;
    Arch arch = ArchUnknown;
    /// Pointer width: 32 or 64 (0 when unknown).
    int bits = 0;
    /// Vector register width in bits for scalable-vector targets (0 when not specified).
    int vector_bits = 0;
    /// The CPU to tune for.
    Processor processor_tune = ProcessorGeneric;

    /// The host: its OS, architecture and the CPU features it supports.
    Target();
    /// A target from its parts.
    Target(OS os, Arch arch, int bits, const std::vector<Feature> &features = {});
    /// A target from its parts, tuned for processor `tune`.
    Target(OS os, Arch arch, int bits, Processor tune, const std::vector<Feature> &features = {},
           int vector_bits = 0);
    /// Parse "arch-bits-os-features..." or "host[-features...]"; "" means the host. An
    /// unknown token is a CompileError listing the valid names.
    explicit Target(const std::string &s);
    explicit Target(const char *s) : Target(std::string(s)) {}

    /// Whether `s` parses as a target string.
    static bool validate_target_string(const std::string &s);
    /// The feature named `name` (as in target strings); false when there is none.
    static bool feature_from_name(const std::string &name, Feature *result);
    /// The name of feature `f` in target strings ("avx2").
    static std::string feature_to_name(Feature f);

    bool has_feature(Feature f) const;
    /// Whether any (all) of the given features are set.
    bool features_any_of(const std::vector<Feature> &fs) const;
    bool features_all_of(const std::vector<Feature> &fs) const;
    /// Set or clear a feature in place.
    void set_feature(Feature f, bool value = true);
    void set_features(const std::vector<Feature> &fs, bool value = true);
    /// Copies with a feature set or cleared.
    Target with_feature(Feature f) const;
    Target without_feature(Feature f) const;
    /// Whether a GPU API (CUDA, OpenCL, Metal, D3D12Compute, Vulkan, WebGPU) is enabled.
    bool has_gpu_feature() const;
    /// Whether code for this target can use values of type t.
    bool supports_type(const Type &t) const;
    /// Whether code for `device` (Default_GPU: the target's default GPU API) can use type t.
    bool supports_type(const Type &t, DeviceAPI device) const;
    /// Whether loops and buffers may be placed on `api` with this target: None and Host
    /// always; a GPU or DSP API when its feature is set (Default_GPU: any GPU feature).
    bool supports_device_api(DeviceAPI api) const;
    /// The device API this target's features require (CUDA for the cuda feature, ...), or
    /// DeviceAPI::None.
    DeviceAPI get_required_device_api() const;
    /// The target of a runtime shared by code for this target and `other` (Halide's rules): the
    /// same OS, architecture and bits, the device APIs either has, the instruction sets both
    /// have, and the same sanitizer, debug and ABI features (false, leaving `result` alone, when
    /// any of those differ); features that only affect generated code are dropped.
    bool get_runtime_compatible_target(const Target &other, Target &result) const;

    /// The number of lanes of type t that fit the widest natural vector register: 64 bytes
    /// with AVX-512, 32 with AVX2 (or AVX for floats), else 16.
    int natural_vector_size(const Type &t) const;
    template <typename T>
    int natural_vector_size() const {
        return natural_vector_size(type_of<T>());
    }

    /// "arch-bits-os[-tune_<cpu>]-features[-vector_bits_<n>]" with the features in alphabetical
    /// order of their names, as Halide writes it.
    std::string to_string() const;

    bool operator==(const Target &o) const;
    bool operator!=(const Target &o) const { return !(*this == o); }

private:
    std::bitset<FeatureEnd> features;
};

/// The machine Loom is running on, with the CPU features it detects.
Target get_host_target();
/// The target named by the environment variable HL_TARGET, or the host when it is unset.
Target get_target_from_environment();
/// The target for JIT compilation: HL_JIT_TARGET (which must match the host's OS,
/// architecture and bits), or the host; the JIT feature is always set.
Target get_jit_target_from_environment();

/// The DeviceAPI Default_GPU stands for on target t (CUDA before OpenCL, Metal, ...), or Host
/// when t has no GPU feature.
DeviceAPI get_default_device_api_for_target(const Target &t);
/// Whether the host can run code using t's device API. Loom has no device runtime yet, so this
/// is true only for targets that need no device.
bool host_supports_target_device(const Target &t);
/// The runtime's interface to device `d` on target t. Loom has no device back end yet: with
/// `error_site` (the caller's name) an unusable device is a CompileError naming the site, the
/// API and the target, as in Halide; without, the result is nullptr.
const halide_device_interface_t *
get_device_interface_for_device_api(DeviceAPI d,
                                    const Target &t = get_jit_target_from_environment(),
                                    const char *error_site = nullptr);

} // namespace loom

#endif
