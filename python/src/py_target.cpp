// Bindings of <loom/target.h>: Target, its enums under Halide's Python names (TargetOS,
// TargetArch, TargetFeature, TargetProcessorTune; also reachable as Target.OS, Target.Arch,
// Target.Feature and Target.Processor as in C++), and the environment's targets.
#include "py_util.h"

#include <nanobind/stl/vector.h>

namespace loom {
namespace python {

namespace {

// Every Target::Feature but FeatureEnd, in declaration order (clang-format does not settle
// on one layout for this list).
// clang-format off
#define LOOM_PY_TARGET_FEATURES(X) \
    X(JIT) X(Debug) X(EnableBacktraces) X(NoAsserts) X(NoBoundsQuery) X(SSE41) X(AVX) X(AVX2) \
    X(AVXVNNI) X(FMA) X(FMA4) X(F16C) X(ARMv7s) X(NoNEON) X(VSX) X(POWER_ARCH_2_07) X(CUDA) \
    X(CUDACapability30) X(CUDACapability32) X(CUDACapability35) X(CUDACapability50) \
    X(CUDACapability61) X(CUDACapability70) X(CUDACapability75) X(CUDACapability80) \
    X(CUDACapability86) X(OpenCL) X(CLDoubles) X(CLAtomics64) X(UserContext) X(Profile) \
    X(NoRuntime) X(Metal) X(CPlusPlusMangling) X(LargeBuffers) X(HVX_128) X(HVX_v62) \
    X(FuzzFloatStores) X(SoftFloatABI) X(MSAN) X(AVX512) X(AVX512_KNL) X(AVX512_Skylake) \
    X(AVX512_Cannonlake) X(AVX512_Zen4) X(AVX512_Zen5) X(AVX512_SapphireRapids) X(TraceLoads) \
    X(TraceStores) X(TraceRealizations) X(TracePipeline) X(HVX_v65) X(HVX_v66) X(HVX_v68) \
    X(CLHalf) X(StrictFloat) X(TSAN) X(ASAN) X(D3D12Compute) X(CheckUnsafePromises) \
    X(HexagonDma) X(EmbedBitcode) X(EnableLLVMLoopOpt) X(WasmMvpOnly) X(WasmSimd128) \
    X(WasmThreads) X(WasmBulkMemory) X(WebGPU) X(SVE) X(SVE2) X(EGL) X(ARMDotProd) X(ARMFp16) \
    X(LLVMLargeCodeModel) X(RVV) X(ARMv8a) X(ARMv81a) X(ARMv82a) X(ARMv83a) X(ARMv84a) \
    X(ARMv85a) X(ARMv86a) X(ARMv87a) X(ARMv88a) X(ARMv89a) X(SanitizerCoverage) \
    X(ProfileByTimer) X(SPIRV) X(Vulkan) X(VulkanInt8) X(VulkanInt16) X(VulkanInt64) \
    X(VulkanFloat16) X(VulkanFloat64) X(VulkanV10) X(VulkanV12) X(VulkanV13) X(Semihosting) \
    X(AVX10_1) X(X86APX) X(Simulator)
// clang-format on

void define_target_enums(nb::module_ &m) {
    nb::enum_<Target::OS>(m, "TargetOS", "The operating system code is compiled for.")
        .value("OSUnknown", Target::OSUnknown)
        .value("Linux", Target::Linux)
        .value("Windows", Target::Windows)
        .value("OSX", Target::OSX)
        .value("Android", Target::Android)
        .value("IOS", Target::IOS)
        .value("QuRT", Target::QuRT)
        .value("NoOS", Target::NoOS)
        .value("Fuchsia", Target::Fuchsia)
        .value("wasmrt", Target::WebAssemblyRuntime);

    nb::enum_<Target::Arch>(m, "TargetArch", "The architecture code is compiled for.")
        .value("ArchUnknown", Target::ArchUnknown)
        .value("X86", Target::X86)
        .value("ARM", Target::ARM)
        .value("Hexagon", Target::Hexagon)
        .value("POWERPC", Target::POWERPC)
        .value("WebAssembly", Target::WebAssembly)
        .value("RISCV", Target::RISCV);

    nb::enum_<Target::Processor>(m, "TargetProcessorTune", "The CPU to tune for.")
        .value("TuneGeneric", Target::ProcessorGeneric)
        .value("TuneK8", Target::K8)
        .value("TuneK8_SSE3", Target::K8_SSE3)
        .value("TuneAMDFam10", Target::AMDFam10)
        .value("TuneBtVer1", Target::BtVer1)
        .value("TuneBdVer1", Target::BdVer1)
        .value("TuneBdVer2", Target::BdVer2)
        .value("TuneBdVer3", Target::BdVer3)
        .value("TuneBdVer4", Target::BdVer4)
        .value("TuneBtVer2", Target::BtVer2)
        .value("TuneZnVer1", Target::ZnVer1)
        .value("TuneZnVer2", Target::ZnVer2)
        .value("TuneZnVer3", Target::ZnVer3)
        .value("TuneZnVer4", Target::ZnVer4)
        .value("TuneZnVer5", Target::ZnVer5);

    nb::enum_<Target::Feature> feature(m, "TargetFeature",
                                       "An optional feature of a Target (an instruction set, a "
                                       "GPU API, a code-generation option).");
#define LOOM_PY_FEATURE_VALUE(f) feature.value(#f, Target::f);
    LOOM_PY_TARGET_FEATURES(LOOM_PY_FEATURE_VALUE)
#undef LOOM_PY_FEATURE_VALUE
    feature.value("FeatureEnd", Target::FeatureEnd);
    // Halide's alias of HVX_128: the same member, so `HVX is HVX_128`.
    feature.attr("HVX") = feature.attr("HVX_128");
}

} // namespace

void define_target(nb::module_ &m) {
    define_target_enums(m);
    using Features = std::vector<Target::Feature>;
    nb::class_<Target> target(m, "Target",
                              "What code is compiled for: OS, architecture, bits and features. "
                              "Target() is the host; Target(\"x86-64-linux-avx2\") parses a "
                              "target string.");
    target.def(nb::init<>())
        .def(nb::init<const std::string &>(), nb::arg("target"))
        .def(nb::init<Target::OS, Target::Arch, int, const Features &>(), nb::arg("os"),
             nb::arg("arch"), nb::arg("bits"), nb::arg("features") = Features())
        .def(nb::init<Target::OS, Target::Arch, int, Target::Processor, const Features &, int>(),
             nb::arg("os"), nb::arg("arch"), nb::arg("bits"), nb::arg("processor_tune"),
             nb::arg("features") = Features(), nb::arg("vector_bits") = 0)
        .def_rw("os", &Target::os)
        .def_rw("arch", &Target::arch)
        .def_rw("bits", &Target::bits)
        .def_rw("vector_bits", &Target::vector_bits)
        .def_rw("processor_tune", &Target::processor_tune)
        .def("has_feature", &Target::has_feature, nb::arg("feature"))
        .def("features_any_of", &Target::features_any_of, nb::arg("features"))
        .def("features_all_of", &Target::features_all_of, nb::arg("features"))
        .def("set_feature", &Target::set_feature, nb::arg("f"), nb::arg("value") = true)
        .def("set_features", &Target::set_features, nb::arg("features"), nb::arg("value") = true)
        .def("with_feature", &Target::with_feature, nb::arg("feature"))
        .def("without_feature", &Target::without_feature, nb::arg("feature"))
        .def("has_gpu_feature", &Target::has_gpu_feature)
        .def("supports_type", nb::overload_cast<const Type &>(&Target::supports_type, nb::const_),
             nb::arg("type"))
        .def("supports_type",
             nb::overload_cast<const Type &, DeviceAPI>(&Target::supports_type, nb::const_),
             nb::arg("type"), nb::arg("device"))
        .def("supports_device_api", &Target::supports_device_api, nb::arg("device"))
        .def("get_required_device_api", &Target::get_required_device_api)
        .def("natural_vector_size",
             nb::overload_cast<const Type &>(&Target::natural_vector_size, nb::const_),
             nb::arg("type"))
        .def("to_string", &Target::to_string)
        .def_static("validate_target_string", &Target::validate_target_string, nb::arg("name"))
        .def_static("feature_to_name", &Target::feature_to_name, nb::arg("feature"))
        .def("__eq__", [](const Target &a, const Target &b) { return a == b; })
        .def("__ne__", [](const Target &a, const Target &b) { return a != b; })
        .def("__hash__", [](const Target &t) { return nb::hash(nb::str(t.to_string().c_str())); })
        .def("__str__", &Target::to_string)
        .def("__repr__", [](const Target &t) { return "<loom.Target " + t.to_string() + ">"; });
    target.attr("OS") = m.attr("TargetOS");
    target.attr("Arch") = m.attr("TargetArch");
    target.attr("Feature") = m.attr("TargetFeature");
    target.attr("Processor") = m.attr("TargetProcessorTune");

    m.def("get_host_target", &get_host_target);
    m.def("get_target_from_environment", &get_target_from_environment);
    m.def("get_jit_target_from_environment", &get_jit_target_from_environment);
    m.def("get_default_device_api_for_target", &get_default_device_api_for_target,
          nb::arg("target"));
    m.def("host_supports_target_device", &host_supports_target_device, nb::arg("target"));
}

} // namespace python
} // namespace loom
