#ifndef LOOM_DRIVER_JIT_H
#define LOOM_DRIVER_JIT_H

/// \file JITModule: a LoweredFunc compiled to machine code for the host (or a target it can run)
/// with LLVM's ORC JIT.
/// This header deliberately includes no LLVM header; the LLVM state lives behind a pimpl.
///
/// Calling convention of the compiled code: the entry points of an ahead-of-time module
/// (src/driver/aot_llvm.h, built by the same code) whose arguments are the LoweredFunc's:
///   int32_t <name>(void *__user_context, <args...>)   buffers as halide_buffer_t*, scalars by
///                                                      value (bool as i8: 0 or 1)
///   int32_t <name>_argv(void **args)                   args[0] points at the user context (a
///                                                      void*); for i > 0, args[i] IS the
///                                                      halide_buffer_t* of a buffer, or points
///                                                      at a scalar's value
/// Both return 0 on success or the (negative) error code of the first failed assertion.

#include <loom/target.h>

#include "lower/lowered_func.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The target a JIT compilation with `requested` uses: Halide's realize/compile_jit take the
/// default Target() to mean get_jit_target_from_environment() (HL_JIT_TARGET, else the host).
/// Loom's Target() is the host target, so a target equal to get_host_target() becomes the
/// environment's JIT target; any other target is used as given.
Target jit_target_for(const Target &requested);

/// Compiled code plus the LLVM JIT instance that owns it. Shared: the compile cache and every
/// caller hold it by shared_ptr, and the code stays valid while any holder lives.
class JITModule {
public:
    using ArgvFunction = int (*)(void **);

    /// Compiles f for `target`, optimizing at -O3: LLVM generates code for target's CPU and
    /// features (Halide's mapping, see codegen/llvm/llvm_target.h), so "x86-64-linux-sse41"
    /// really gives SSE4.1 code on an AVX-512 host. A target the host cannot run (another
    /// architecture, word size or OS, or a CPU feature the host lacks) is refused before
    /// compiling with a CompileError naming what the host lacks.
    /// Identical LoweredFuncs (same printed body, args and name) for the same target share one
    /// compiled module through an in-memory cache, so compiling again costs only the key
    /// computation.
    /// Under it, a persistent cache of object files (jit_disk_cache.h, docs/jit_cache.md) lets
    /// another process skip LLVM: on an in-memory miss, the object file stored under a hash of
    /// the same key (extern names without their addresses), the LLVM version, HL_LLVM_ARGS and
    /// the contents of the libloom file itself is linked instead of compiling; after a
    /// compilation the object is stored there. It lives in LOOM_CACHE_DIR (off with "off" or an
    /// empty value), else $XDG_CACHE_HOME/loom, else $HOME/.cache/loom, bounded by
    /// LOOM_CACHE_SIZE_MB (default 512). LOOM_DUMP_LLVM=1 skips the lookup (the IR is printed
    /// only by a compilation).
    /// Throws InternalError (with the LLVM IR dumped) if the generated module fails to verify,
    /// and CompileError if the code calls a C function that cannot be found.
    ///
    /// `externs` maps C function names to addresses that calls to those names resolve to,
    /// ahead of the process's own symbols (for JIT externs defined in an executable that does
    /// not export its symbols). They are part of the cache key.
    static std::shared_ptr<JITModule> compile(const LoweredFunc &f, const Target &target,
                                              const std::map<std::string, void *> &externs = {});
    /// Compiles f for the host (get_host_target(), all its CPU features).
    static std::shared_ptr<JITModule> compile(const LoweredFunc &f,
                                              const std::map<std::string, void *> &externs = {});

    /// A pipeline lowered and compiled by an earlier process, as the disk cache recorded it
    /// (see record_definition): the lowered arguments (without their Parameters, which only
    /// the caller can find) and the module linked from the recorded object file.
    struct RecordedDefinition {
        std::vector<LoweredArgument> args;
        std::shared_ptr<JITModule> module;
    };
    /// The recording of `definition` (bytes that determine a pipeline's lowered function
    /// `name` for `target`: its serialized front end) with these externs, or nullopt when the
    /// disk cache is off or has no recording of it, or of the object file it names. Spares
    /// the caller lowering as well as LLVM.
    static std::optional<RecordedDefinition>
    load_definition(const std::string &definition, const std::string &name, const Target &target,
                    const std::map<std::string, void *> &externs = {});
    /// Whether the environment turns the disk cache on (see compile), so that recording and
    /// loading definitions can be skipped, with the serialization they need, when it is off.
    static bool disk_cache_on();
    /// Records in the disk cache that `definition` lowers to f, whose object file compile()
    /// stored (a no-op when the disk cache is off).
    static void record_definition(const std::string &definition, const LoweredFunc &f,
                                  const Target &target,
                                  const std::map<std::string, void *> &externs = {});

    /// Throws the CompileError compile gives when the host cannot run code for `target`;
    /// returns normally when it can.
    static void check_host_can_run(const Target &target);

    /// The `<name>_argv` entry point (Halide's argv convention, see the file comment).
    ArgvFunction argv_function() const;
    /// The `<name>` entry point with typed arguments; cast it to the matching C signature.
    void *main_function() const;
    /// The address of a symbol as the compiled code sees it: the module's own definitions, then
    /// the externs and the process's symbols (null when none resolves).
    void *get_symbol(const std::string &name) const;
    /// The LoweredFunc's name.
    const std::string &name() const;

    /// Seconds spent in the original compilation (codegen + optimization + machine code), or
    /// in loading and linking the object file of a disk-cache hit.
    double compile_seconds() const;

    /// Test hook: how many actual LLVM compilations happened in this process.
    static int compilation_count();
    /// Test hook: how many modules this process loaded from the disk cache instead of compiling.
    static int disk_cache_hits();
    /// Test hook: how many pipelines this process took from a recorded definition
    /// (load_definition), skipping lowering.
    static int definition_hits();
    /// Test hook: how many compiled object files this process wrote to the disk cache.
    static int disk_cache_stores();
    /// Drops every module of the in-memory cache (modules still held by callers stay valid).
    /// The disk cache is left alone: delete its directory to empty it.
    static void clear_cache();

    ~JITModule();
    JITModule(const JITModule &) = delete;
    JITModule &operator=(const JITModule &) = delete;

    /// The LLVM state (defined in jit.cpp). Public only so jit.cpp's helpers can name it.
    struct Impl;

private:
    explicit JITModule(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

} // namespace internal
} // namespace loom

#endif
