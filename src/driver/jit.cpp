// JITModule: LoweredFunc -> LLVM module (codegen_llvm) -> -O3 -> ORC LLJIT for the host CPU,
// with a process-wide cache of compiled modules keyed by the printed LoweredFunc.
#include "driver/jit.h"

#include "codegen/llvm/codegen_llvm.h"
#include "ir/ir_printer.h"
#include "support/error.h"
#include "support/util.h"

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
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

std::string cache_key(const LoweredFunc &f, const std::map<std::string, void *> &externs) {
    std::ostringstream os;
    for (const auto &e : externs) os << e.first << "=" << e.second << ";";
    os << f.name << "(";
    for (const LoweredArgument &a : f.args) {
        os << a.name << ":" << (int)a.kind << ":" << a.type << ":" << a.dimensions << ",";
    }
    os << ")\n" << f.body;
    return os.str();
}

void init_llvm() {
    static std::once_flag once;
    std::call_once(once, [] {
        llvm::InitializeNativeTarget();
        llvm::InitializeNativeTargetAsmPrinter();
        llvm::InitializeNativeTargetAsmParser();
    });
}

template <typename T>
T check(llvm::Expected<T> e, const char *what) {
    if (!e) internal_error << what << ": " << llvm::toString(e.takeError()) << "\n";
    return std::move(*e);
}

void check(llvm::Error e, const char *what) {
    if (e) internal_error << what << ": " << llvm::toString(std::move(e)) << "\n";
}

// A symbol of this library, to find the library's own path with dladdr.
void anchor() {}

} // namespace

JITModule::JITModule(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

JITModule::~JITModule() = default;

std::shared_ptr<JITModule> JITModule::compile(const LoweredFunc &f,
                                              const std::map<std::string, void *> &externs) {
    std::string key = cache_key(f, externs);
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
        init_llvm();
        auto start = std::chrono::steady_clock::now();
        auto impl = std::make_unique<Impl>();
        impl->name = f.name;

        llvm::orc::JITTargetMachineBuilder jtmb =
            check(llvm::orc::JITTargetMachineBuilder::detectHost(), "Cannot target the host CPU");
        jtmb.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
        std::unique_ptr<llvm::TargetMachine> tm =
            check(jtmb.createTargetMachine(), "Cannot create the host TargetMachine");

        auto ctx = std::make_unique<llvm::LLVMContext>();
        std::unique_ptr<llvm::Module> module = codegen_llvm(f, *ctx, *tm);
        optimize_module(*module, *tm);
        if (get_env("LOOM_DUMP_LLVM") == "1") {
            llvm::errs() << *module;
        }

        impl->jit = check(llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(jtmb).create(),
                          "Cannot create the JIT");
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
        // itself by path (for hosts that load it RTLD_LOCAL), and libm.
        jd.addGenerator(
            check(llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix),
                  "Cannot search the process for symbols"));
        Dl_info info;
        if (dladdr((void *)&anchor, &info) && info.dli_fname) {
            auto g = llvm::orc::DynamicLibrarySearchGenerator::Load(info.dli_fname, prefix);
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
        check(
            impl->jit->addIRModule(llvm::orc::ThreadSafeModule(std::move(module), std::move(ctx))),
            "Cannot add the module to the JIT");
        auto argv_addr = impl->jit->lookup(f.name + "_argv");
        if (!argv_addr) {
            // Linking failed: the code calls a function the process does not define.
            std::string err = llvm::toString(argv_addr.takeError());
            user_error << "JIT compilation of " << f.name << " failed to link: " << err << "\n"
                       << *session_errors
                       << "(An extern function it calls is not defined in this process, or "
                          "not exported from the executable: link it with -rdynamic.)\n";
        }
        llvm::orc::ExecutorAddr main_addr =
            check(impl->jit->lookup(f.name), "Cannot find the compiled function");
        impl->argv = argv_addr->toPtr<ArgvFunction>();
        impl->main = main_addr.toPtr<void *>();
        impl->seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        compilations++;

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

void JITModule::clear_cache() {
    Cache &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    c.entries.clear();
}

} // namespace internal
} // namespace loom
