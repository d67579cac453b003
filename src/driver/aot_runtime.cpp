// The runtime for ahead-of-time outputs: the bitcode cmake/LoomRuntimeBitcode.cmake compiles
// from src/runtime for each architecture and embeds in libloom, linked weakly into a module.
#include "driver/aot_llvm.h"

#include "support/error.h"

namespace loom {
namespace internal {

// Defined in the generated runtime_bitcode_data.cpp.
extern const unsigned char runtime_bitcode_x86_64[];
extern const size_t runtime_bitcode_x86_64_size;
extern const unsigned char runtime_bitcode_aarch64[];
extern const size_t runtime_bitcode_aarch64_size;

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
    const unsigned char *data = nullptr;
    size_t size = 0;
    if (t.arch == Target::X86 && t.bits == 64) {
        data = runtime_bitcode_x86_64;
        size = runtime_bitcode_x86_64_size;
    } else if (t.arch == Target::ARM && t.bits == 64) {
        data = runtime_bitcode_aarch64;
        size = runtime_bitcode_aarch64_size;
    }
    user_assert(data) << "Loom has no runtime for target " << t.to_string()
                      << " (only x86-64 and arm-64 have one). Compile with the feature "
                         "no_runtime and link a runtime built for this target separately.\n";

    llvm::StringRef bytes((const char *)data, size);
    auto buffer = llvm::MemoryBuffer::getMemBuffer(bytes, "loom_runtime", false);
    llvm::Expected<std::unique_ptr<llvm::Module>> parsed =
        llvm::parseBitcodeFile(buffer->getMemBufferRef(), module.getContext());
    if (!parsed) {
        internal_error << "Cannot read the embedded runtime bitcode: "
                       << llvm::toString(parsed.takeError()) << "\n";
    }
    std::unique_ptr<llvm::Module> runtime = std::move(*parsed);
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
