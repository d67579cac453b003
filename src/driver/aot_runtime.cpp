// The runtime for ahead-of-time outputs: the bitcode cmake/LoomRuntimeBitcode.cmake compiles
// from src/runtime for each architecture and embeds in libloom, of the runtime modules the
// target selects (driver/runtime_modules.h), linked weakly into a module.
#include "driver/aot_llvm.h"
#include "driver/runtime_modules.h"

#include "support/error.h"

namespace loom {
namespace internal {

namespace {

// Weak, so the linker keeps one definition when several pipelines carry the runtime and a
// program's own (strong) definition replaces it; not weak_odr, which would let LLVM inline
// or reason about the body that a user may replace.
// Comdats (clang puts the thread_local wrappers in them) are dropped: weak linkage already lets
// copies merge, and Mach-O has no comdats.
void make_weak(llvm::GlobalObject &g) {
    g.setComdat(nullptr);
    if (g.isDeclaration() || g.hasLocalLinkage()) return;
    g.setLinkage(llvm::GlobalValue::WeakAnyLinkage);
}

} // namespace

void link_runtime(llvm::Module &module, const Target &t) {
    std::vector<const RuntimeBitcodeFile *> files = runtime_bitcode_for(t);
    user_assert(!files.empty())
        << "Loom has no runtime for target " << t.to_string()
        << " (only x86-64 and arm-64 have one). Compile with the feature "
           "no_runtime and link a runtime built for this target separately.\n";

    // The sources are linked together first, so that file-local names repeated in several of
    // them are told apart before the mutable ones become shared below.
    std::unique_ptr<llvm::Module> runtime;
    for (const RuntimeBitcodeFile *f : files) {
        llvm::MemoryBufferRef bytes(llvm::StringRef((const char *)f->data, f->size), f->source);
        llvm::Expected<std::unique_ptr<llvm::Module>> parsed =
            llvm::parseBitcodeFile(bytes, module.getContext());
        if (!parsed) {
            internal_error << "Cannot read the embedded runtime bitcode of " << f->source << ": "
                           << llvm::toString(parsed.takeError()) << "\n";
        }
        if (!runtime) {
            runtime = std::move(*parsed);
        } else if (llvm::Linker::linkModules(*runtime, std::move(*parsed))) {
            internal_error << "Linking the runtime source " << f->source << " failed\n";
        }
    }
    runtime->setTargetTriple(module.getTargetTriple());
    runtime->setDataLayout(module.getDataLayout());
    for (llvm::Function &f : *runtime) make_weak(f);
    for (llvm::GlobalVariable &g : runtime->globals()) {
        // Mutable file-local state (handlers, the thread pool) becomes weak too, under its
        // mangled name, so every pipeline's copy of the runtime uses one instance of it.
        if (g.hasLocalLinkage() && !g.isConstant() && g.hasName() &&
            !g.getName().starts_with("llvm.")) {
            g.setLinkage(llvm::GlobalValue::ExternalLinkage);
        }
        make_weak(g);
    }
    runtime->getComdatSymbolTable().clear();

    // Code generated for the pipeline declares runtime functions it calls; the linker resolves
    // those declarations to the runtime's definitions.
    if (llvm::Linker::linkModules(module, std::move(runtime))) {
        internal_error << "Linking the runtime into " << module.getName().str() << " failed\n";
    }
}

} // namespace internal
} // namespace loom
