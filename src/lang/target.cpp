#include <loom/target.h>

#include "support/error.h"
#include "support/util.h"

#include <algorithm>
#include <map>
#include <sstream>

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

template <typename E>
std::string name_of(const std::map<std::string, E> &m, E value) {
    for (const auto &kv : m) {
        if (kv.second == value) return kv.first;
    }
    return "";
}

/// The host's target: Linux/x86-64 features from the CPU, the same rules as Halide's host
/// detection (AVX-512 variants only when all their parts are present).
Target calculate_host_target() {
    Target::OS os = Target::OSUnknown;
#if defined(__linux__)
    os = Target::Linux;
#elif defined(__APPLE__)
    os = Target::OSX;
#elif defined(_WIN32)
    os = Target::Windows;
#endif
    Target::Arch arch = Target::ArchUnknown;
    std::vector<Target::Feature> features;
#if defined(__x86_64__) || defined(__i386__)
    arch = Target::X86;
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse4.1")) features.push_back(Target::SSE41);
    if (__builtin_cpu_supports("avx")) features.push_back(Target::AVX);
    if (__builtin_cpu_supports("f16c")) features.push_back(Target::F16C);
    if (__builtin_cpu_supports("fma")) features.push_back(Target::FMA);
    if (__builtin_cpu_supports("avx2")) features.push_back(Target::AVX2);
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd")) {
        features.push_back(Target::AVX512);
        if (__builtin_cpu_supports("avx512er") && __builtin_cpu_supports("avx512pf")) {
            features.push_back(Target::AVX512_KNL);
        }
        if (__builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
            __builtin_cpu_supports("avx512dq")) {
            features.push_back(Target::AVX512_Skylake);
            if (__builtin_cpu_supports("avx512ifma") && __builtin_cpu_supports("avx512vbmi")) {
                features.push_back(Target::AVX512_Cannonlake);
                if (__builtin_cpu_supports("avx512bf16") && __builtin_cpu_supports("avx512vnni")) {
                    features.push_back(Target::AVX512_SapphireRapids);
                }
            }
        }
    }
#elif defined(__aarch64__) || defined(__arm__)
    arch = Target::ARM;
#endif
    int bits = sizeof(void *) * 8;
    return Target(os, arch, bits, features);
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
        } else if (tok == "hvx") {
            t.set_feature(Target::HVX);
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
           features == o.features;
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
