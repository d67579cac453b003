// JITModule: LoweredFunc -> LLVM module (codegen_llvm, then the entry points) -> -O3 -> ORC
// LLJIT for a target the host can run, with a process-wide cache of compiled modules keyed by
// target and printed LoweredFunc, and under it a cache of object files on disk
// (jit_disk_cache.h) that spares other processes the LLVM work.
#include "driver/jit.h"

#include "codegen/llvm/codegen_llvm.h"
#include "codegen/llvm/llvm_target.h"
#include "driver/aot_llvm.h"
#include "driver/jit_disk_cache.h"
#include "driver/runtime_modules.h"
#include "ir/ir_printer.h"
#include "support/error.h"
#include "support/util.h"

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <optional>
#include <sstream>
#include <unordered_map>

#include <dlfcn.h>

namespace loom {
namespace internal {

struct JITModule::Impl {
    std::unique_ptr<llvm::orc::LLJIT> jit;
    std::string name;
    ArgvFunction argv = nullptr;
    void *main = nullptr;
    double seconds = 0;
};

namespace {

std::atomic<int> compilations{0};
std::atomic<int> disk_hits{0};
std::atomic<int> disk_stores{0};
std::atomic<int> definition_hit_count{0};

struct Cache {
    std::mutex mutex;
    // One entry per distinct LoweredFunc; the future lets concurrent compiles of the same
    // function wait for the first one instead of compiling twice.
    std::unordered_map<std::string, std::shared_future<std::shared_ptr<JITModule>>> entries;
};

Cache &cache() {
    static Cache *c = new Cache; // never destroyed: modules may outlive static destruction
    return *c;
}

/// The JIT's entry points: those of an AOT module whose public arguments are f's own, in
/// f's order, after the user context.
ModuleContents entry_abi(const LoweredFunc &f, const Target &target) {
    ModuleContents m;
    m.name = f.name;
    m.target = target.with_feature(Target::UserContext);
    m.lowered = f;
    for (size_t i = 1; i < f.args.size(); i++) m.public_args.push_back({f.args[i], (int)i});
    m.with_metadata = false;
    return m;
}

/// What the code compiled for f depends on in any process: the target, the externs' names
/// (their addresses are bound when the code is linked), the printed functions.
std::string portable_key(const LoweredFunc &f, const Target &target,
                         const std::map<std::string, void *> &externs) {
    std::ostringstream os;
    os << target.to_string() << "\n";
    for (const auto &e : externs) os << e.first << ";";
    // The printed functions, and what the printing leaves out of the arguments.
    for (const LoweredArgument &a : f.args) {
        os << (int)a.kind << ":" << a.type << ":" << a.dimensions << ",";
    }
    os << "\n" << f;
    return os.str();
}

/// The in-memory cache's key: the portable key and the externs' addresses, which the modules
/// it holds are linked to.
std::string memory_key(const std::string &portable, const std::map<std::string, void *> &externs) {
    std::ostringstream os;
    for (const auto &e : externs) os << e.first << "=" << e.second << ";";
    os << "\n" << portable;
    return os.str();
}

/// The disk cache's description of an entry: the portable key and what else changes the
/// object LLVM makes from the same IR (the libloom build is added by JITDiskCache::key).
std::string disk_key_text(const std::string &portable) {
    return "llvm " LLVM_VERSION_STRING "\nHL_LLVM_ARGS " + get_env("HL_LLVM_ARGS") + "\n" +
           portable;
}

template <typename T>
T check(llvm::Expected<T> e, const char *what) {
    if (!e) internal_error << what << ": " << llvm::toString(e.takeError()) << "\n";
    return std::move(*e);
}

void check(llvm::Error e, const char *what) {
    if (e) internal_error << what << ": " << llvm::toString(std::move(e)) << "\n";
}

/// LOOM_TIME_PASSES=1 also reports the JIT's phases (LLVM IR generation, optimization, machine
/// code), next to lowering's passes.
class PhaseTimer {
public:
    explicit PhaseTimer(const std::string &fn)
        : fn(fn), on(get_env("LOOM_TIME_PASSES") == "1"), last(std::chrono::steady_clock::now()) {}
    void operator()(const char *phase) {
        auto now = std::chrono::steady_clock::now();
        if (on) {
            llvm::errs() << "[jit " << fn << "] " << phase << ": "
                         << std::chrono::duration<double, std::milli>(now - last).count()
                         << " ms\n";
        }
        last = now;
    }

private:
    std::string fn;
    bool on;
    std::chrono::steady_clock::time_point last;
};

// A symbol of this library, to find the library's own path with dladdr.
void anchor() {}

/// The file libloom was loaded from ("" when dladdr cannot tell).
const std::string &libloom_path() {
    static const std::string path = [] {
        Dl_info info;
        return dladdr((void *)&anchor, &info) && info.dli_fname ? std::string(info.dli_fname)
                                                                : std::string();
    }();
    return path;
}

/// LLJIT's usual compiler (TMOwningSimpleCompiler's), keeping a copy of the object file it
/// makes for the disk cache.
class ObjectKeepingCompiler : public llvm::orc::IRCompileLayer::IRCompiler {
public:
    ObjectKeepingCompiler(std::unique_ptr<llvm::TargetMachine> tm,
                          std::shared_ptr<std::string> object)
        : IRCompiler(llvm::orc::irManglingOptionsFromTargetOptions(tm->Options)), tm(std::move(tm)),
          object(std::move(object)) {}

    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> operator()(llvm::Module &m) override {
        auto result = llvm::orc::SimpleCompiler(*tm)(m);
        if (result) *object = (*result)->getBuffer().str();
        return result;
    }

private:
    std::unique_ptr<llvm::TargetMachine> tm;
    std::shared_ptr<std::string> object;
};

/// The features that name CPU instructions: code using them runs only where the CPU has them.
/// (The others, e.g. no_asserts or trace_loads, change what is generated, not where it runs.)
const Target::Feature cpu_features[] = {
    Target::SSE41,
    Target::AVX,
    Target::AVX2,
    Target::AVXVNNI,
    Target::FMA,
    Target::FMA4,
    Target::F16C,
    Target::AVX512,
    Target::AVX512_KNL,
    Target::AVX512_Skylake,
    Target::AVX512_Cannonlake,
    Target::AVX512_SapphireRapids,
    Target::AVX512_Zen4,
    Target::AVX512_Zen5,
    Target::AVX10_1,
    Target::X86APX,
    Target::ARMv7s,
    Target::VSX,
    Target::POWER_ARCH_2_07,
    Target::SVE,
    Target::SVE2,
    Target::ARMDotProd,
    Target::ARMFp16,
    Target::RVV,
    Target::HVX_128,
    Target::HVX_v62,
    Target::HVX_v65,
    Target::HVX_v66,
    Target::HVX_v68,
    Target::ARMv8a,
    Target::ARMv81a,
    Target::ARMv82a,
    Target::ARMv83a,
    Target::ARMv84a,
    Target::ARMv85a,
    Target::ARMv86a,
    Target::ARMv87a,
    Target::ARMv88a,
    Target::ARMv89a,
};

/// The ORC builder for target: Halide's triple, CPU and features for it (llvm_target.h), -O3,
/// and the JIT's own code model (LLVM's default unless the target asks for the large one).
llvm::orc::JITTargetMachineBuilder jit_machine_builder(const Target &target) {
    llvm::orc::JITTargetMachineBuilder jtmb{llvm::Triple(llvm_triple(target))};
    jtmb.setCPU(llvm_cpu(target));
    std::vector<std::string> features;
    for (const std::string &f : split_string(llvm_features(target), ",")) {
        if (!f.empty()) features.push_back(f);
    }
    jtmb.addFeatures(features);
    jtmb.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
    if (target.has_feature(Target::LLVMLargeCodeModel)) jtmb.setCodeModel(llvm::CodeModel::Large);
    jtmb.getOptions().FloatABIType = llvm_target_options(target).FloatABIType;
    return jtmb;
}

/// Links a JIT for the function `name`: from `object` (an object file from the disk cache), or
/// else from `module` (LLVM IR), whose object file is copied into `compiled_object` when that
/// is not null (to store it in the disk cache).
std::unique_ptr<JITModule::Impl>
link_jit(const std::string &name, const Target &target,
         const std::map<std::string, void *> &externs,
         const llvm::orc::JITTargetMachineBuilder &jtmb, const std::string *object,
         std::unique_ptr<llvm::Module> module, std::unique_ptr<llvm::LLVMContext> ctx,
         const std::shared_ptr<std::string> &compiled_object, PhaseTimer &phase) {
    auto impl = std::make_unique<JITModule::Impl>();
    impl->name = name;
    llvm::orc::LLJITBuilder builder;
    builder.setJITTargetMachineBuilder(jtmb);
    if (compiled_object) {
        builder.setCompileFunctionCreator(
            [compiled_object](llvm::orc::JITTargetMachineBuilder b)
                -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
                auto tm = b.createTargetMachine();
                if (!tm) return tm.takeError();
                return std::make_unique<ObjectKeepingCompiler>(std::move(*tm), compiled_object);
            });
    }
    impl->jit = check(builder.create(), "Cannot create the JIT");
    llvm::orc::JITDylib &jd = impl->jit->getMainJITDylib();
    char prefix = impl->jit->getDataLayout().getGlobalPrefix();
    if (!externs.empty()) {
        llvm::orc::SymbolMap symbols;
        for (const auto &e : externs) {
            symbols[impl->jit->mangleAndIntern(e.first)] = llvm::orc::ExecutorSymbolDef(
                llvm::orc::ExecutorAddr::fromPtr(e.second),
                llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable);
        }
        check(jd.define(llvm::orc::absoluteSymbols(std::move(symbols))),
              "Cannot define the JIT externs");
    }
    // The process (libc, and libloom's runtime when it is globally visible), libloom
    // itself by path (for hosts that load it RTLD_LOCAL), and libm. libloom holds every
    // runtime module; the pipeline binds only to those its target selects.
    auto runtime_modules_allow = [target, prefix](const llvm::orc::SymbolStringPtr &symbol) {
        llvm::StringRef n = *symbol;
        if (prefix && n.starts_with(llvm::StringRef(&prefix, 1))) n = n.drop_front();
        return jit_may_bind(n.str(), target);
    };
    jd.addGenerator(check(llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
                              prefix, runtime_modules_allow),
                          "Cannot search the process for symbols"));
    if (!libloom_path().empty()) {
        auto g = llvm::orc::DynamicLibrarySearchGenerator::Load(libloom_path().c_str(), prefix,
                                                                runtime_modules_allow);
        if (g)
            jd.addGenerator(std::move(*g));
        else
            llvm::consumeError(g.takeError());
    }
    auto libm = llvm::orc::DynamicLibrarySearchGenerator::Load("libm.so.6", prefix);
    if (libm)
        jd.addGenerator(std::move(*libm));
    else
        llvm::consumeError(libm.takeError());

    // Materialization errors (an extern symbol missing from the process) go to the
    // session's reporter, not to the lookup's result: keep them for the exception.
    auto session_errors = std::make_shared<std::string>();
    impl->jit->getExecutionSession().setErrorReporter([session_errors](llvm::Error e) {
        *session_errors += llvm::toString(std::move(e)) + "\n";
    });
    phase("create_jit");
    if (object) {
        check(impl->jit->addObjectFile(llvm::MemoryBuffer::getMemBufferCopy(*object, name)),
              "Cannot add the cached object file to the JIT");
    } else {
        check(
            impl->jit->addIRModule(llvm::orc::ThreadSafeModule(std::move(module), std::move(ctx))),
            "Cannot add the module to the JIT");
    }
    auto argv_addr = impl->jit->lookup(name + "_argv");
    if (!argv_addr) {
        // Linking failed: the code calls a function the process does not define.
        std::string err = llvm::toString(argv_addr.takeError());
        user_error << "JIT compilation of " << name << " failed to link: " << err << "\n"
                   << *session_errors
                   << "(An extern function it calls is not defined in this process, or "
                      "not exported from the executable: link it with -rdynamic.)\n";
    }
    llvm::orc::ExecutorAddr main_addr =
        check(impl->jit->lookup(name), "Cannot find the compiled function");
    phase("machine_code");
    impl->argv = argv_addr->toPtr<JITModule::ArgvFunction>();
    impl->main = main_addr.toPtr<void *>();
    return impl;
}

} // namespace

Target jit_target_for(const Target &requested) {
    return requested == get_host_target() ? get_jit_target_from_environment() : requested;
}

void JITModule::check_host_can_run(const Target &target) {
    Target host = get_host_target();
    std::vector<std::string> missing;
    // to_string starts "arch-bits-os".
    std::vector<std::string> parts = split_string(target.to_string(), "-");
    if (target.arch != host.arch) missing.push_back("the " + parts[0] + " architecture");
    if (target.bits != host.bits) missing.push_back(parts[1] + "-bit code");
    if (target.os != host.os) missing.push_back("the " + parts[2] + " OS");
    for (Target::Feature f : cpu_features) {
        if (target.has_feature(f) && !host.has_feature(f)) {
            missing.push_back(Target::feature_to_name(f));
        }
    }
    if (missing.empty()) return;
    std::string list;
    for (size_t i = 0; i < missing.size(); i++) list += (i ? ", " : "") + missing[i];
    throw CompileError("Can't JIT-compile for target " + target.to_string() + ": the host (" +
                       host.to_string() + ") does not support " + list +
                       ".\nJIT-compile for get_host_target() or a target with a subset of its "
                       "features (HL_JIT_TARGET sets the default one), or compile ahead of time "
                       "for other targets.\n");
}

JITModule::JITModule(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

JITModule::~JITModule() = default;

std::shared_ptr<JITModule> JITModule::compile(const LoweredFunc &f,
                                              const std::map<std::string, void *> &externs) {
    return compile(f, get_host_target(), externs);
}

std::shared_ptr<JITModule> JITModule::compile(const LoweredFunc &f, const Target &target,
                                              const std::map<std::string, void *> &externs) {
    check_host_can_run(target);
    PhaseTimer phase(f.name);
    const std::string portable = portable_key(f, target, externs);
    const std::string key = memory_key(portable, externs);
    phase("cache_key");
    Cache &c = cache();
    std::promise<std::shared_ptr<JITModule>> promise;
    std::shared_future<std::shared_ptr<JITModule>> future;
    {
        std::lock_guard<std::mutex> lock(c.mutex);
        auto it = c.entries.find(key);
        if (it != c.entries.end()) {
            future = it->second;
        } else {
            future = promise.get_future().share();
            c.entries.emplace(key, future);
            future = std::shared_future<std::shared_ptr<JITModule>>(); // marks us the compiler
        }
    }
    if (future.valid()) return future.get();

    try {
        initialize_llvm_targets();
        auto start = std::chrono::steady_clock::now();

        llvm::orc::JITTargetMachineBuilder jtmb = jit_machine_builder(target);

        // An object file compiled for the same key by an earlier process, if the disk cache
        // has one. LOOM_DUMP_LLVM asks for the IR, which only a compilation makes.
        const bool dump_llvm = get_env("LOOM_DUMP_LLVM") == "1";
        std::optional<JITDiskCache> disk = JITDiskCache::from_environment(libloom_path());
        Fingerprint disk_key;
        std::optional<std::string> object;
        if (disk) {
            disk_key = disk->key(disk_key_text(portable));
            if (!dump_llvm) object = disk->load(disk_key);
        }
        phase("disk_cache_load");

        // The object LLJIT compiles the module to, stored once it has linked.
        auto compiled_object = std::make_shared<std::string>();
        // Links the JIT from `object` (an object file from the disk cache) or, when null, from
        // the IR codegen makes now.
        auto link = [&](const std::string *object) {
            std::unique_ptr<llvm::LLVMContext> ctx;
            std::unique_ptr<llvm::Module> module;
            if (!object) {
                std::unique_ptr<llvm::TargetMachine> tm =
                    check(jtmb.createTargetMachine(), "Cannot create the JIT's TargetMachine");
                ctx = std::make_unique<llvm::LLVMContext>();
                phase("target_machine");
                module = codegen_llvm(f, *ctx, *tm, target);
                add_entry_points(*module, entry_abi(f, target), *tm);
                phase("codegen_llvm");
                optimize_module(*module, *tm, target.has_feature(Target::EnableLLVMLoopOpt));
                phase("optimize_module");
                if (dump_llvm) llvm::errs() << *module;
            }

            return link_jit(f.name, target, externs, jtmb, object, std::move(module),
                            std::move(ctx), disk && !object ? compiled_object : nullptr, phase);
        };
        std::unique_ptr<Impl> impl;
        if (object) {
            try {
                impl = link(&*object);
            } catch (const std::exception &) {
                // An entry that passed its checksum but does not link here (made by a process
                // whose symbols differ): compile afresh, and the new object replaces it.
                object.reset();
            }
        }
        if (!impl) impl = link(nullptr);
        impl->seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (object) {
            disk_hits++;
        } else {
            compilations++;
            if (disk && !compiled_object->empty() && disk->store(disk_key, *compiled_object)) {
                disk_stores++;
            }
            phase("disk_cache_store");
        }

        std::shared_ptr<JITModule> m(new JITModule(std::move(impl)));
        promise.set_value(m);
        return m;
    } catch (...) {
        // Waiters see the same exception; later calls retry.
        promise.set_exception(std::current_exception());
        std::lock_guard<std::mutex> lock(c.mutex);
        c.entries.erase(key);
        throw;
    }
}

namespace {

/// The disk cache's description of a recorded definition: what its lowering depends on besides
/// the definition itself (the function's name, the target, the externs' names, the lowering
/// options read from the environment), and what the object files depend on (disk_key_text).
std::string definition_key_text(const std::string &definition, const std::string &name,
                                const Target &target,
                                const std::map<std::string, void *> &externs) {
    std::string text = "definition " + name + "\n" + target.to_string() + "\n";
    for (const auto &e : externs) text += e.first + ";";
    text += "\nHL_PERMIT_FAILED_UNROLL " + get_env("HL_PERMIT_FAILED_UNROLL") + "\n";
    return disk_key_text(text + definition);
}

} // namespace

std::optional<JITModule::RecordedDefinition>
JITModule::load_definition(const std::string &definition, const std::string &name,
                           const Target &target, const std::map<std::string, void *> &externs) {
    check_host_can_run(target);
    std::optional<JITDiskCache> disk = JITDiskCache::from_environment(libloom_path());
    if (!disk) return std::nullopt;
    PhaseTimer phase(name);
    std::optional<std::string> record =
        disk->load(disk->key(definition_key_text(definition, name, target, externs)));
    if (!record) return std::nullopt;
    // The record: "object <key>" then one line per argument, "<kind> <type> <dims> <name>".
    std::istringstream in(*record);
    std::string word, object_hex;
    RecordedDefinition result;
    if (!(in >> word >> object_hex) || word != "object" || object_hex.size() != 32 ||
        object_hex.find_first_not_of("0123456789abcdef") != std::string::npos) {
        return std::nullopt;
    }
    int kind, code, bits, lanes, dims;
    while (in >> kind >> code >> bits >> lanes >> dims) {
        LoweredArgument a;
        in.get();
        if (!std::getline(in, a.name) || kind < LoweredArgument::Scalar ||
            kind > LoweredArgument::OutputBuffer) {
            return std::nullopt;
        }
        a.kind = (LoweredArgument::Kind)kind;
        a.type = Type((halide_type_code_t)code, bits, lanes);
        a.dimensions = dims;
        result.args.push_back(a);
    }
    if (!in.eof() || result.args.empty()) return std::nullopt;
    const Fingerprint object_key{std::stoull(object_hex.substr(0, 16), nullptr, 16),
                                 std::stoull(object_hex.substr(16), nullptr, 16)};
    phase("definition_load");

    // Linked once per process, as compile() does for the same object.
    const std::string key = memory_key("object " + object_hex, externs);
    Cache &c = cache();
    {
        std::lock_guard<std::mutex> lock(c.mutex);
        auto it = c.entries.find(key);
        if (it != c.entries.end()) {
            result.module = it->second.get();
            definition_hit_count++;
            return result;
        }
    }
    std::optional<std::string> object = disk->load(object_key);
    if (!object) return std::nullopt;
    initialize_llvm_targets();
    auto start = std::chrono::steady_clock::now();
    std::unique_ptr<Impl> impl;
    try {
        impl = link_jit(name, target, externs, jit_machine_builder(target), &*object, nullptr,
                        nullptr, nullptr, phase);
    } catch (const std::exception &) {
        return std::nullopt; // the object does not link here: the caller compiles afresh
    }
    impl->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::shared_ptr<JITModule> m(new JITModule(std::move(impl)));
    {
        std::lock_guard<std::mutex> lock(c.mutex);
        std::promise<std::shared_ptr<JITModule>> ready;
        ready.set_value(m);
        c.entries.emplace(key, ready.get_future().share());
    }
    disk_hits++;
    definition_hit_count++;
    result.module = m;
    return result;
}

void JITModule::record_definition(const std::string &definition, const LoweredFunc &f,
                                  const Target &target,
                                  const std::map<std::string, void *> &externs) {
    std::optional<JITDiskCache> disk = JITDiskCache::from_environment(libloom_path());
    if (!disk) return;
    std::ostringstream record;
    record << "object " << disk->key(disk_key_text(portable_key(f, target, externs))).hex() << "\n";
    for (const LoweredArgument &a : f.args) {
        record << (int)a.kind << " " << (int)a.type.code() << " " << a.type.bits() << " "
               << a.type.lanes() << " " << a.dimensions << " " << a.name << "\n";
    }
    disk->store(disk->key(definition_key_text(definition, f.name, target, externs)), record.str());
}

bool JITModule::disk_cache_on() {
    return JITDiskCache::from_environment(libloom_path()).has_value();
}

int JITModule::definition_hits() { return definition_hit_count.load(); }

JITModule::ArgvFunction JITModule::argv_function() const { return impl_->argv; }

void *JITModule::main_function() const { return impl_->main; }

void *JITModule::get_symbol(const std::string &name) const {
    auto addr = impl_->jit->lookup(name);
    if (!addr) {
        llvm::consumeError(addr.takeError());
        return nullptr;
    }
    return addr->toPtr<void *>();
}

const std::string &JITModule::name() const { return impl_->name; }

double JITModule::compile_seconds() const { return impl_->seconds; }

int JITModule::compilation_count() { return compilations.load(); }

int JITModule::disk_cache_hits() { return disk_hits.load(); }

int JITModule::disk_cache_stores() { return disk_stores.load(); }

void JITModule::clear_cache() {
    Cache &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    c.entries.clear();
}

} // namespace internal
} // namespace loom
