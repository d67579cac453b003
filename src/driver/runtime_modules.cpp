// The runtime's modules: the table, which modules a Target gets, their embedded bitcode, and
// which module defines a symbol (for the JIT).
#include "driver/runtime_modules.h"

#include "codegen/llvm/llvm_headers.h"
#include "support/error.h"

#include <map>
#include <mutex>

namespace loom {
namespace internal {

// Defined in the generated runtime_bitcode_data.cpp (cmake/LoomEmbedBitcode.cmake).
extern const RuntimeBitcodeFile runtime_bitcode_files[];
extern const size_t runtime_bitcode_file_count;

namespace {

bool selects(const RuntimeModule &m, const Target &t) {
    if (m.features.empty()) return true;
    for (Target::Feature f : m.features) {
        if (t.has_feature(f)) return true;
    }
    return false;
}

/// For each external symbol the host architecture's runtime defines, the source defining it.
/// Read once, from the declarations of the lazily loaded bitcode (no function bodies).
const std::map<std::string, std::string> &host_runtime_symbols() {
    static std::map<std::string, std::string> *symbols = nullptr;
    static std::once_flag once;
    std::call_once(once, [] {
        symbols = new std::map<std::string, std::string>;
        std::string arch = runtime_arch(get_host_target());
        llvm::LLVMContext ctx;
        for (size_t i = 0; i < runtime_bitcode_file_count; i++) {
            const RuntimeBitcodeFile &f = runtime_bitcode_files[i];
            if (arch != f.arch) continue;
            llvm::MemoryBufferRef bytes(llvm::StringRef((const char *)f.data, f.size), f.source);
            llvm::Expected<std::unique_ptr<llvm::Module>> m =
                llvm::getLazyBitcodeModule(bytes, ctx);
            if (!m) {
                internal_error << "Cannot read the embedded runtime bitcode of " << f.source << ": "
                               << llvm::toString(m.takeError()) << "\n";
            }
            for (const llvm::GlobalValue &g : (*m)->global_values()) {
                if (!g.isDeclaration() && !g.hasLocalLinkage()) {
                    (*symbols)[g.getName().str()] = f.source;
                }
            }
        }
    });
    return *symbols;
}

} // namespace

const std::vector<RuntimeModule> &runtime_modules() {
    // The base holds what every pipeline calls (allocation, errors, threads, tracing, ...);
    // device_interface the bookkeeping every device API shares, which Runtime::Buffer's device
    // methods reach. Device APIs join as modules selected by their feature (see the header), as
    // the profiler does.
    static const std::vector<RuntimeModule> modules = {
        {"base", {}},
        {"device_interface", {}},
        {"profiler", {Target::Profile, Target::ProfileByTimer}},
        {"opencl", {Target::OpenCL}},
        {"cuda", {Target::CUDA}},
    };
    return modules;
}

std::vector<std::string> runtime_modules_for(const Target &t,
                                             const std::vector<RuntimeModule> &modules) {
    std::vector<std::string> names;
    for (const RuntimeModule &m : modules) {
        if (selects(m, t)) names.push_back(m.name);
    }
    return names;
}

std::string runtime_arch(const Target &t) {
    if (t.bits != 64) return "";
    if (t.arch == Target::X86) return "x86_64";
    if (t.arch == Target::ARM) return "aarch64";
    return "";
}

std::string runtime_module_of_source(const std::string &source,
                                     const std::vector<RuntimeModule> &modules) {
    for (const RuntimeModule &m : modules) {
        if (m.name == source) return m.name;
    }
    return "base";
}

std::vector<const RuntimeBitcodeFile *>
runtime_bitcode_for(const Target &t, const std::vector<RuntimeModule> &modules) {
    std::vector<const RuntimeBitcodeFile *> files;
    std::string arch = runtime_arch(t);
    for (const std::string &name : runtime_modules_for(t, modules)) {
        for (size_t i = 0; i < runtime_bitcode_file_count; i++) {
            const RuntimeBitcodeFile &f = runtime_bitcode_files[i];
            if (arch == f.arch && runtime_module_of_source(f.source, modules) == name) {
                files.push_back(&f);
            }
        }
    }
    return files;
}

bool jit_may_bind(const std::string &symbol, const Target &t,
                  const std::vector<RuntimeModule> &modules) {
    std::vector<std::string> selected = runtime_modules_for(t, modules);
    // The usual case: t gets every module, so any symbol may be bound.
    if (selected.size() == modules.size()) return true;
    const std::map<std::string, std::string> &symbols = host_runtime_symbols();
    auto it = symbols.find(symbol);
    if (it == symbols.end()) return true; // not the runtime's
    std::string module = runtime_module_of_source(it->second, modules);
    for (const std::string &s : selected) {
        if (s == module) return true;
    }
    return false;
}

} // namespace internal
} // namespace loom
