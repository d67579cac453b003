#include <loom/target.h>

#include "support/error.h"
#include "support/util.h"

#include <algorithm>
#include <array>
#include <map>
#include <sstream>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

namespace loom {

namespace {

// The names used in target strings. Features are printed in the alphabetical order of these
// names, as Halide does, so the maps are keyed by name.
const std::map<std::string, Target::OS> &os_names() {
    static const std::map<std::string, Target::OS> m = {
        {"os_unknown", Target::OSUnknown},
        {"linux", Target::Linux},
        {"windows", Target::Windows},
        {"osx", Target::OSX},
        {"android", Target::Android},
        {"ios", Target::IOS},
        {"qurt", Target::QuRT},
        {"noos", Target::NoOS},
        {"fuchsia", Target::Fuchsia},
        {"wasmrt", Target::WebAssemblyRuntime},
    };
    return m;
}

const std::map<std::string, Target::Arch> &arch_names() {
    static const std::map<std::string, Target::Arch> m = {
        {"arch_unknown", Target::ArchUnknown},
        {"x86", Target::X86},
        {"arm", Target::ARM},
        {"hexagon", Target::Hexagon},
        {"powerpc", Target::POWERPC},
        {"wasm", Target::WebAssembly},
        {"riscv", Target::RISCV},
    };
    return m;
}

const std::map<std::string, Target::Feature> &feature_names() {
    static const std::map<std::string, Target::Feature> m = {
        {"jit", Target::JIT},
        {"debug", Target::Debug},
        {"enable_backtraces", Target::EnableBacktraces},
        {"no_asserts", Target::NoAsserts},
        {"no_bounds_query", Target::NoBoundsQuery},
        {"sse41", Target::SSE41},
        {"avx", Target::AVX},
        {"avx2", Target::AVX2},
        {"avxvnni", Target::AVXVNNI},
        {"fma", Target::FMA},
        {"fma4", Target::FMA4},
        {"f16c", Target::F16C},
        {"armv7s", Target::ARMv7s},
        {"no_neon", Target::NoNEON},
        {"vsx", Target::VSX},
        {"power_arch_2_07", Target::POWER_ARCH_2_07},
        {"cuda", Target::CUDA},
        {"cuda_capability_30", Target::CUDACapability30},
        {"cuda_capability_32", Target::CUDACapability32},
        {"cuda_capability_35", Target::CUDACapability35},
        {"cuda_capability_50", Target::CUDACapability50},
        {"cuda_capability_61", Target::CUDACapability61},
        {"cuda_capability_70", Target::CUDACapability70},
        {"cuda_capability_75", Target::CUDACapability75},
        {"cuda_capability_80", Target::CUDACapability80},
        {"cuda_capability_86", Target::CUDACapability86},
        {"opencl", Target::OpenCL},
        {"cl_doubles", Target::CLDoubles},
        {"cl_half", Target::CLHalf},
        {"cl_atomics64", Target::CLAtomics64},
        {"egl", Target::EGL},
        {"user_context", Target::UserContext},
        {"profile", Target::Profile},
        {"no_runtime", Target::NoRuntime},
        {"metal", Target::Metal},
        {"c_plus_plus_name_mangling", Target::CPlusPlusMangling},
        {"large_buffers", Target::LargeBuffers},
        {"hexagon_dma", Target::HexagonDma},
        // Halide names HVX_128 twice, and prints both names.
        {"hvx", Target::HVX_128},
        {"hvx_128", Target::HVX_128},
        {"hvx_v62", Target::HVX_v62},
        {"hvx_v65", Target::HVX_v65},
        {"hvx_v66", Target::HVX_v66},
        {"hvx_v68", Target::HVX_v68},
        {"fuzz_float_stores", Target::FuzzFloatStores},
        {"soft_float_abi", Target::SoftFloatABI},
        {"msan", Target::MSAN},
        {"avx512", Target::AVX512},
        {"avx512_knl", Target::AVX512_KNL},
        {"avx512_skylake", Target::AVX512_Skylake},
        {"avx512_cannonlake", Target::AVX512_Cannonlake},
        {"avx512_sapphirerapids", Target::AVX512_SapphireRapids},
        {"avx512_zen4", Target::AVX512_Zen4},
        {"avx512_zen5", Target::AVX512_Zen5},
        {"trace_loads", Target::TraceLoads},
        {"trace_stores", Target::TraceStores},
        {"trace_realizations", Target::TraceRealizations},
        {"trace_pipeline", Target::TracePipeline},
        {"d3d12compute", Target::D3D12Compute},
        {"strict_float", Target::StrictFloat},
        {"tsan", Target::TSAN},
        {"asan", Target::ASAN},
        {"check_unsafe_promises", Target::CheckUnsafePromises},
        {"embed_bitcode", Target::EmbedBitcode},
        {"enable_llvm_loop_opt", Target::EnableLLVMLoopOpt},
        {"wasm_mvponly", Target::WasmMvpOnly},
        {"wasm_simd128", Target::WasmSimd128},
        {"wasm_threads", Target::WasmThreads},
        {"wasm_bulk_memory", Target::WasmBulkMemory},
        {"webgpu", Target::WebGPU},
        {"sve", Target::SVE},
        {"sve2", Target::SVE2},
        {"arm_dot_prod", Target::ARMDotProd},
        {"arm_fp16", Target::ARMFp16},
        {"llvm_large_code_model", Target::LLVMLargeCodeModel},
        {"rvv", Target::RVV},
        {"armv8a", Target::ARMv8a},
        {"armv81a", Target::ARMv81a},
        {"armv82a", Target::ARMv82a},
        {"armv83a", Target::ARMv83a},
        {"armv84a", Target::ARMv84a},
        {"armv85a", Target::ARMv85a},
        {"armv86a", Target::ARMv86a},
        {"armv87a", Target::ARMv87a},
        {"armv88a", Target::ARMv88a},
        {"armv89a", Target::ARMv89a},
        {"sanitizer_coverage", Target::SanitizerCoverage},
        {"profile_by_timer", Target::ProfileByTimer},
        {"spirv", Target::SPIRV},
        {"vulkan", Target::Vulkan},
        {"vk_int8", Target::VulkanInt8},
        {"vk_int16", Target::VulkanInt16},
        {"vk_int64", Target::VulkanInt64},
        {"vk_float16", Target::VulkanFloat16},
        {"vk_float64", Target::VulkanFloat64},
        {"vk_v10", Target::VulkanV10},
        {"vk_v12", Target::VulkanV12},
        {"vk_v13", Target::VulkanV13},
        {"semihosting", Target::Semihosting},
        {"avx10_1", Target::AVX10_1},
        {"x86apx", Target::X86APX},
        {"simulator", Target::Simulator},
    };
    return m;
}

const std::map<std::string, Target::Processor> &processor_names() {
    static const std::map<std::string, Target::Processor> m = {
        {"tune_generic", Target::ProcessorGeneric},
        {"tune_k8", Target::K8},
        {"tune_k8_sse3", Target::K8_SSE3},
        {"tune_amdfam10", Target::AMDFam10},
        {"tune_btver1", Target::BtVer1},
        {"tune_bdver1", Target::BdVer1},
        {"tune_bdver2", Target::BdVer2},
        {"tune_bdver3", Target::BdVer3},
        {"tune_bdver4", Target::BdVer4},
        {"tune_btver2", Target::BtVer2},
        {"tune_znver1", Target::ZnVer1},
        {"tune_znver2", Target::ZnVer2},
        {"tune_znver3", Target::ZnVer3},
        {"tune_znver4", Target::ZnVer4},
        {"tune_znver5", Target::ZnVer5},
    };
    return m;
}

template <typename E>
std::string name_of(const std::map<std::string, E> &m, E value) {
    for (const auto &kv : m) {
        if (kv.second == value) return kv.first;
    }
    return "";
}

#if defined(__x86_64__) || defined(__i386__)
/// cpuid leaf `leaf`, sub-leaf `sub`: {eax, ebx, ecx, edx} (zeros for an unsupported leaf).
std::array<uint32_t, 4> cpuid(uint32_t leaf, uint32_t sub = 0) {
    std::array<uint32_t, 4> r = {0, 0, 0, 0};
    if (!__get_cpuid_count(leaf, sub, &r[0], &r[1], &r[2], &r[3])) r = {0, 0, 0, 0};
    return r;
}

bool has_bits(uint32_t reg, uint32_t mask) { return (reg & mask) == mask; }

/// Halide's tuning target for an AMD CPU of this family and model (ProcessorGeneric when none).
Target::Processor amd_processor(uint32_t family, uint32_t model, bool sse3) {
    auto in = [&](uint32_t lo, uint32_t hi) { return model >= lo && model <= hi; };
    switch (family) {
    case 0xf:
        return sse3 ? Target::K8_SSE3 : Target::K8;
    case 0x10:
        return Target::AMDFam10;
    case 0x14:
        return Target::BtVer1;
    case 0x15:
        if (in(0x60, 0x7f)) return Target::BdVer4;
        if (in(0x30, 0x3f)) return Target::BdVer3;
        if (model == 0x02 || in(0x10, 0x2f)) return Target::BdVer2;
        return model < 0x10 ? Target::BdVer1 : Target::ProcessorGeneric;
    case 0x16:
        return Target::BtVer2;
    case 0x17:
        if (in(0x30, 0x3f) || model == 0x47 || in(0x60, 0x7f) || in(0x84, 0x87) || in(0x90, 0xaf)) {
            return Target::ZnVer2;
        }
        return Target::ZnVer1;
    case 0x19:
        if (in(0x10, 0x1f) || in(0x60, 0x7f) || in(0xa0, 0xaf)) return Target::ZnVer4;
        return Target::ZnVer3;
    case 0x1a:
        return Target::ZnVer5;
    default:
        return Target::ProcessorGeneric;
    }
}

/// The x86 host's features from cpuid, with Halide's rules: AVX2 and the AVX-512 levels only on
/// 64-bit hosts with AVX, F16C and RDRAND; each AVX-512 level needs all its parts (KNL: F CD PF
/// ER; Skylake: F CD VL BW DQ; Cannonlake: Skylake + IFMA; Sapphire Rapids: Cannonlake +
/// VNNI BF16); AMD Zen 4 / Zen 5 are recognized by family and model.
Target x86_host_target(Target::OS os, int bits) {
    std::array<uint32_t, 4> vendor = cpuid(0);
    bool amd = vendor[1] == 0x68747541 && vendor[3] == 0x69746e65 && vendor[2] == 0x444d4163;
    std::array<uint32_t, 4> info = cpuid(1);
    uint32_t family = (info[0] >> 8) & 0xf, model = (info[0] >> 4) & 0xf;
    if (family == 0xf) family += (info[0] >> 20) & 0xff;
    if (family == 0x6 || family >= 0xf) model += ((info[0] >> 16) & 0xf) << 4;

    bool sse3 = info[2] & (1u << 0);
    bool sse41 = info[2] & (1u << 19);
    bool avx = info[2] & (1u << 28);
    bool f16c = info[2] & (1u << 29);
    bool rdrand = info[2] & (1u << 30);
    bool fma = info[2] & (1u << 12);

    Target::Processor tune = amd ? amd_processor(family, model, sse3) : Target::ProcessorGeneric;
    std::vector<Target::Feature> fs;
    if (tune == Target::ZnVer4 || tune == Target::ZnVer5) {
        fs = {Target::SSE41,      Target::AVX,    Target::F16C,           Target::FMA,
              Target::AVX2,       Target::AVX512, Target::AVX512_Skylake, Target::AVX512_Cannonlake,
              Target::AVX512_Zen4};
        if (tune == Target::ZnVer5) fs.push_back(Target::AVX512_Zen5);
        return Target(os, Target::X86, bits, tune, fs);
    }
    if (sse41) fs.push_back(Target::SSE41);
    if (avx) fs.push_back(Target::AVX);
    if (f16c) fs.push_back(Target::F16C);
    if (fma) fs.push_back(Target::FMA);
    int vector_bits = 0;
    if (bits == 64 && avx && f16c && rdrand) {
        std::array<uint32_t, 4> l7 = cpuid(7, 0), l7s1 = cpuid(7, 1);
        const uint32_t avx2 = 1u << 5, avx512f = 1u << 16, avx512dq = 1u << 17,
                       avx512ifma = 1u << 21, avx512pf = 1u << 26, avx512er = 1u << 27,
                       avx512cd = 1u << 28, avx512bw = 1u << 30, avx512vl = 1u << 31;
        const uint32_t avx512vnni = 1u << 11;                   // ecx of leaf 7.0
        const uint32_t avxvnni = 1u << 4, avx512bf16 = 1u << 5; // eax of leaf 7.1
        const uint32_t avx10 = 1u << 19, apx = 1u << 21;        // edx of leaf 7.1
        const uint32_t avx512 = avx512f | avx512cd;
        const uint32_t knl = avx512 | avx512pf | avx512er;
        const uint32_t skylake = avx512 | avx512vl | avx512bw | avx512dq;
        const uint32_t cannonlake = skylake | avx512ifma; // (IFMA implies VBMI, as Halide assumes)
        if (has_bits(l7[1], avx2)) fs.push_back(Target::AVX2);
        if (has_bits(l7[1], avx512)) {
            fs.push_back(Target::AVX512);
            if (has_bits(l7[1], knl)) fs.push_back(Target::AVX512_KNL);
            if (has_bits(l7[1], skylake)) fs.push_back(Target::AVX512_Skylake);
            if (has_bits(l7[1], cannonlake)) {
                fs.push_back(Target::AVX512_Cannonlake);
                if (has_bits(l7[2], avx512vnni) && has_bits(l7s1[0], avx512bf16)) {
                    fs.push_back(Target::AVX512_SapphireRapids);
                }
            }
        }
        if (has_bits(l7s1[0], avxvnni)) fs.push_back(Target::AVXVNNI);
        if (has_bits(l7s1[3], avx10)) {
            // Leaf 0x24: ebx[7:0] is the AVX10 version, bits 16-18 the vector widths.
            std::array<uint32_t, 4> l24 = cpuid(0x24, 0);
            if ((l24[1] & 0xff) >= 1) {
                fs.push_back(Target::AVX10_1);
                vector_bits = (l24[1] & (1u << 18)) ? 512 : (l24[1] & (1u << 17)) ? 256 : 128;
            }
        }
        if (has_bits(l7s1[3], apx)) fs.push_back(Target::X86APX);
    }
    return Target(os, Target::X86, bits, tune, fs, vector_bits);
}
#endif

/// The host's target: its OS, architecture, word size and (on x86) the CPU features Halide's
/// host detection finds.
Target calculate_host_target() {
    Target::OS os = Target::OSUnknown;
#if defined(__linux__)
    os = Target::Linux;
#elif defined(__APPLE__)
    os = Target::OSX;
#elif defined(_WIN32)
    os = Target::Windows;
#endif
    int bits = sizeof(void *) * 8;
#if defined(__x86_64__) || defined(__i386__)
    return x86_host_target(os, bits);
#elif defined(__aarch64__) && defined(__linux__)
    // Halide's Linux AArch64 detection: the kernel's hardware capability bits.
    unsigned long hwcap = getauxval(AT_HWCAP), hwcap2 = getauxval(AT_HWCAP2);
    std::vector<Target::Feature> fs;
    if (hwcap & (1ul << 20)) fs.push_back(Target::ARMDotProd); // HWCAP_ASIMDDP
    if (hwcap & (1ul << 10)) fs.push_back(Target::ARMFp16);    // HWCAP_ASIMDHP
    if (hwcap & (1ul << 22)) fs.push_back(Target::SVE);        // HWCAP_SVE
    if (hwcap2 & (1ul << 1)) fs.push_back(Target::SVE2);       // HWCAP2_SVE2
    return Target(os, Target::ARM, bits, fs);
#elif defined(__aarch64__) || defined(__arm__)
    return Target(os, Target::ARM, bits);
#else
    return Target(os, Target::ArchUnknown, bits);
#endif
}

[[noreturn]] void bad_target_string(const std::string &s, const std::string &token) {
    std::ostringstream os;
    os << "Did not understand the target string \"" << s << "\"";
    if (!token.empty()) os << " (at \"" << token << "\")";
    os << ".\nExpected format is arch-bits-os-feature1-feature2-... or host-feature1-...\n"
       << "Where arch is one of:";
    for (const auto &kv : arch_names()) os << " " << kv.first;
    os << "\nbits is 32 or 64\nos is one of:";
    for (const auto &kv : os_names()) os << " " << kv.first;
    os << "\nthe processor to tune for is one of:";
    for (const auto &kv : processor_names()) os << " " << kv.first;
    os << "\nand the features are:";
    for (const auto &kv : feature_names()) os << " " << kv.first;
    os << " trace_all\n";
    throw CompileError(os.str());
}

/// Parses `s` into `t` (which starts empty). On failure returns false and sets `bad` to the
/// token not understood ("" when the string as a whole is incomplete).
bool parse_target(Target &t, const std::string &s, std::string *bad) {
    bool os_set = false, arch_set = false, bits_set = false;
    std::vector<std::string> tokens = internal::split_string(s, "-");
    for (size_t i = 0; i < tokens.size(); i++) {
        const std::string &tok = tokens[i];
        *bad = tok;
        auto os_it = os_names().find(tok);
        auto arch_it = arch_names().find(tok);
        auto f_it = feature_names().find(tok);
        if (tok == "host") {
            // Only as the first token; it gives the host's OS, arch, bits and features.
            if (i > 0) return false;
            t = get_host_target();
        } else if (tok == "32" || tok == "64" || tok == "0") {
            if (bits_set) return false;
            t.bits = std::stoi(tok);
            bits_set = true;
        } else if (arch_it != arch_names().end()) {
            if (arch_set) return false;
            t.arch = arch_it->second;
            arch_set = true;
        } else if (os_it != os_names().end()) {
            if (os_set) return false;
            t.os = os_it->second;
            os_set = true;
        } else if (f_it != feature_names().end()) {
            t.set_feature(f_it->second);
        } else if (processor_names().count(tok)) {
            t.processor_tune = processor_names().at(tok);
        } else if (tok == "trace_all") {
            t.set_features({Target::TraceLoads, Target::TraceStores, Target::TraceRealizations});
        } else if (internal::starts_with(tok, "vector_bits_") && tok.size() > 12 &&
                   tok.find_first_not_of("0123456789", 12) == std::string::npos) {
            t.vector_bits = std::stoi(tok.substr(12));
        } else {
            return false;
        }
    }
    // An architecture needs its word size.
    *bad = "";
    return !(arch_set && !bits_set);
}

} // namespace

Target::Target() : Target(get_host_target()) {}

Target::Target(OS o, Arch a, int b, const std::vector<Feature> &fs) : os(o), arch(a), bits(b) {
    set_features(fs);
}

Target::Target(OS o, Arch a, int b, Processor tune, const std::vector<Feature> &fs, int vb)
    : os(o), arch(a), bits(b), vector_bits(vb), processor_tune(tune) {
    set_features(fs);
}

Target::Target(const std::string &s) {
    if (s.empty()) {
        *this = get_host_target();
        return;
    }
    Target t(OSUnknown, ArchUnknown, 0);
    std::string bad;
    if (!parse_target(t, s, &bad)) bad_target_string(s, bad);
    *this = t;
}

bool Target::validate_target_string(const std::string &s) {
    Target t(OSUnknown, ArchUnknown, 0);
    std::string bad;
    return parse_target(t, s, &bad);
}

bool Target::feature_from_name(const std::string &name, Feature *result) {
    auto it = feature_names().find(name);
    if (it == feature_names().end()) return false;
    if (result) *result = it->second;
    return true;
}

std::string Target::feature_to_name(Feature f) { return name_of(feature_names(), f); }

bool Target::has_feature(Feature f) const {
    internal_assert(f >= 0 && f < FeatureEnd) << "feature " << (int)f << " out of range\n";
    return features[f];
}

bool Target::features_any_of(const std::vector<Feature> &fs) const {
    for (Feature f : fs) {
        if (has_feature(f)) return true;
    }
    return false;
}

bool Target::features_all_of(const std::vector<Feature> &fs) const {
    for (Feature f : fs) {
        if (!has_feature(f)) return false;
    }
    return true;
}

void Target::set_feature(Feature f, bool value) {
    internal_assert(f >= 0 && f < FeatureEnd) << "feature " << (int)f << " out of range\n";
    features.set(f, value);
}

void Target::set_features(const std::vector<Feature> &fs, bool value) {
    for (Feature f : fs) set_feature(f, value);
}

Target Target::with_feature(Feature f) const {
    Target t = *this;
    t.set_feature(f);
    return t;
}

Target Target::without_feature(Feature f) const {
    Target t = *this;
    t.set_feature(f, false);
    return t;
}

bool Target::has_gpu_feature() const {
    return features_any_of({CUDA, OpenCL, Metal, D3D12Compute, Vulkan, WebGPU});
}

bool Target::supports_type(const Type &t) const {
    if (t.bits() == 64) {
        if (t.is_float()) {
            return !has_feature(Metal) && !has_feature(D3D12Compute) &&
                   (!has_feature(OpenCL) || has_feature(CLDoubles)) &&
                   (!has_feature(Vulkan) || has_feature(VulkanFloat64)) && !has_feature(WebGPU);
        }
        return (!has_feature(Metal) && !has_feature(D3D12Compute) &&
                (!has_feature(Vulkan) || has_feature(VulkanInt64)) && !has_feature(WebGPU));
    }
    return true;
}

namespace {

/// The feature that enables device API d (FeatureEnd for None, Host and Default_GPU).
Target::Feature feature_for_device_api(DeviceAPI d) {
    switch (d) {
    case DeviceAPI::CUDA:
        return Target::CUDA;
    case DeviceAPI::OpenCL:
        return Target::OpenCL;
    case DeviceAPI::Metal:
        return Target::Metal;
    case DeviceAPI::Hexagon:
        return Target::HVX;
    case DeviceAPI::HexagonDma:
        return Target::HexagonDma;
    case DeviceAPI::D3D12Compute:
        return Target::D3D12Compute;
    case DeviceAPI::Vulkan:
        return Target::Vulkan;
    case DeviceAPI::WebGPU:
        return Target::WebGPU;
    default:
        return Target::FeatureEnd;
    }
}

/// The lower-case name Halide's device-interface errors use ("cuda").
std::string device_api_feature_name(DeviceAPI d) {
    Target::Feature f = feature_for_device_api(d);
    return f == Target::FeatureEnd ? std::string("host") : Target::feature_to_name(f);
}

} // namespace

bool Target::supports_type(const Type &t, DeviceAPI device) const {
    if (device == DeviceAPI::Default_GPU) device = get_default_device_api_for_target(*this);
    if (t.bits() == 64) {
        switch (device) {
        case DeviceAPI::Metal:
        case DeviceAPI::D3D12Compute:
        case DeviceAPI::WebGPU:
            return false;
        case DeviceAPI::OpenCL:
            return !t.is_float() || has_feature(CLDoubles);
        case DeviceAPI::Vulkan:
            return has_feature(t.is_float() ? VulkanFloat64 : VulkanInt64);
        default:
            return true;
        }
    }
    if (t.is_float() && t.bits() == 16) {
        if (device == DeviceAPI::OpenCL) return has_feature(CLHalf);
        if (device == DeviceAPI::Vulkan) return has_feature(VulkanFloat16);
    }
    return true;
}

bool Target::supports_device_api(DeviceAPI api) const {
    switch (api) {
    case DeviceAPI::None:
    case DeviceAPI::Host:
        return true;
    case DeviceAPI::Default_GPU:
        return has_gpu_feature();
    default:
        return has_feature(feature_for_device_api(api));
    }
}

DeviceAPI Target::get_required_device_api() const {
    for (DeviceAPI d :
         {DeviceAPI::CUDA, DeviceAPI::OpenCL, DeviceAPI::Metal, DeviceAPI::Hexagon,
          DeviceAPI::HexagonDma, DeviceAPI::D3D12Compute, DeviceAPI::Vulkan, DeviceAPI::WebGPU}) {
        if (has_feature(feature_for_device_api(d))) return d;
    }
    return DeviceAPI::None;
}

bool Target::get_runtime_compatible_target(const Target &other, Target &result) const {
    if (os != other.os || arch != other.arch || bits != other.bits) return false;
    // As Halide: a runtime carries the device APIs either side uses, only the instruction sets
    // both have, and must agree on the features that change its ABI (sanitizers, debug, soft
    // float); the features that affect only generated code are dropped.
    static const std::vector<Feature> union_features = {CUDA,
                                                        D3D12Compute,
                                                        Metal,
                                                        NoNEON,
                                                        OpenCL,
                                                        Vulkan,
                                                        WebGPU,
                                                        CUDACapability30,
                                                        CUDACapability32,
                                                        CUDACapability35,
                                                        CUDACapability50,
                                                        CUDACapability61,
                                                        CUDACapability70,
                                                        CUDACapability75,
                                                        CUDACapability80,
                                                        CUDACapability86,
                                                        HVX_v62,
                                                        HVX_v65,
                                                        HVX_v66,
                                                        HVX_v68,
                                                        VulkanInt8,
                                                        VulkanInt16,
                                                        VulkanInt64,
                                                        VulkanFloat16,
                                                        VulkanFloat64,
                                                        VulkanV10,
                                                        VulkanV12,
                                                        VulkanV13};
    static const std::vector<Feature> intersection_features = {SSE41,
                                                               AVX,
                                                               AVX2,
                                                               AVXVNNI,
                                                               FMA,
                                                               FMA4,
                                                               F16C,
                                                               ARMv7s,
                                                               VSX,
                                                               POWER_ARCH_2_07,
                                                               AVX512,
                                                               AVX512_KNL,
                                                               AVX512_Skylake,
                                                               AVX512_Cannonlake,
                                                               AVX512_Zen4,
                                                               AVX512_Zen5,
                                                               AVX512_SapphireRapids,
                                                               AVX10_1,
                                                               X86APX,
                                                               SVE,
                                                               SVE2,
                                                               ARMDotProd,
                                                               ARMFp16,
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
                                                               WasmSimd128,
                                                               WasmBulkMemory};
    static const std::vector<Feature> matching_features = {
        ASAN, Debug, HexagonDma, HVX, MSAN, SoftFloatABI, TSAN, WasmThreads, SanitizerCoverage};
    for (Feature f : matching_features) {
        if (has_feature(f) != other.has_feature(f)) return false;
    }
    Target t(os, arch, bits);
    t.vector_bits = std::min(vector_bits, other.vector_bits);
    t.processor_tune = processor_tune != ProcessorGeneric ? processor_tune : other.processor_tune;
    for (Feature f : union_features) t.set_feature(f, has_feature(f) || other.has_feature(f));
    for (Feature f : intersection_features) {
        t.set_feature(f, has_feature(f) && other.has_feature(f));
    }
    for (Feature f : matching_features) t.set_feature(f, has_feature(f));
    result = t;
    return true;
}

DeviceAPI get_default_device_api_for_target(const Target &t) {
    for (DeviceAPI d : {DeviceAPI::CUDA, DeviceAPI::OpenCL, DeviceAPI::Metal,
                        DeviceAPI::D3D12Compute, DeviceAPI::Vulkan, DeviceAPI::WebGPU}) {
        if (t.supports_device_api(d)) return d;
    }
    return DeviceAPI::Host;
}

bool host_supports_target_device(const Target &t) {
    return t.get_required_device_api() == DeviceAPI::None;
}

const halide_device_interface_t *get_device_interface_for_device_api(DeviceAPI d, const Target &t,
                                                                     const char *error_site) {
    if (!error_site) return nullptr;
    const std::string where =
        std::string("get_device_interface_for_device_api called from ") + error_site;
    if (d == DeviceAPI::Default_GPU) {
        DeviceAPI chosen = get_default_device_api_for_target(t);
        user_assert(chosen != DeviceAPI::Host)
            << where << " requested a default GPU but no GPU feature is specified in target ("
            << t.to_string() << ").\n";
        d = chosen;
    }
    user_assert(d != DeviceAPI::None && d != DeviceAPI::Host)
        << where << " requested unknown DeviceAPI (" << (int)d << ").\n";
    user_assert(t.supports_device_api(d))
        << where << " DeviceAPI (" << device_api_feature_name(d) << ") is not supported by target ("
        << t.to_string() << ").\n";
    user_error << where << ": Loom has no " << device_api_feature_name(d)
               << " device runtime yet; compute on the host (a target without the "
               << device_api_feature_name(d) << " feature).\n";
    return nullptr;
}

int Target::natural_vector_size(const Type &t) const {
    int bytes = std::max(1, t.bytes());
    bool is_integer = t.is_int() || t.is_uint();
    if (arch == X86) {
        bool avx512_int = features_any_of(
            {AVX512_Skylake, AVX512_Cannonlake, AVX512_SapphireRapids, AVX512_Zen4, AVX512_Zen5});
        bool avx512_float = avx512_int || features_any_of({AVX512, AVX512_KNL});
        if ((is_integer && avx512_int) || (!is_integer && avx512_float)) return 64 / bytes;
        if (has_feature(AVX2) || (!is_integer && has_feature(AVX))) return 32 / bytes;
        return 16 / bytes;
    }
    if (arch == ARM && vector_bits > 0 && has_feature(SVE2)) return vector_bits / 8 / bytes;
    if (arch == Hexagon && has_feature(HVX_128)) return 128 / bytes;
    if (arch == RISCV && vector_bits > 0 && has_feature(RVV)) return vector_bits / 8 / bytes;
    return 16 / bytes;
}

std::string Target::to_string() const {
    std::string s =
        name_of(arch_names(), arch) + "-" + std::to_string(bits) + "-" + name_of(os_names(), os);
    if (processor_tune != ProcessorGeneric) s += "-" + name_of(processor_names(), processor_tune);
    for (const auto &kv : feature_names()) {
        if (has_feature(kv.second)) s += "-" + kv.first;
    }
    // Halide spells the three trace features together as trace_all.
    const std::string trace3 = "-trace_loads-trace_realizations-trace_stores";
    size_t p = s.find(trace3);
    if (p != std::string::npos) s.replace(p, trace3.size(), "-trace_all");
    if (vector_bits != 0) s += "-vector_bits_" + std::to_string(vector_bits);
    return s;
}

bool Target::operator==(const Target &o) const {
    return os == o.os && arch == o.arch && bits == o.bits && vector_bits == o.vector_bits &&
           processor_tune == o.processor_tune && features == o.features;
}

Target get_host_target() {
    static const Target host = calculate_host_target();
    return host;
}

Target get_target_from_environment() {
    std::string s = internal::get_env("HL_TARGET");
    return s.empty() ? get_host_target() : Target(s);
}

Target get_jit_target_from_environment() {
    Target host = get_host_target().with_feature(Target::JIT);
    std::string s = internal::get_env("HL_JIT_TARGET");
    if (s.empty()) return host;
    Target t(s);
    t.set_feature(Target::JIT);
    user_assert(t.os == host.os && t.arch == host.arch && t.bits == host.bits)
        << "HL_JIT_TARGET must match the host OS, architecture, and bit width.\n"
        << "HL_JIT_TARGET was " << s << ". Host is " << host.to_string() << ".\n";
    user_assert(!t.has_feature(Target::NoBoundsQuery))
        << "The JIT requires bounds queries, but HL_JIT_TARGET was specified with "
           "no_bounds_query: "
        << s << "\n";
    return t;
}

} // namespace loom
