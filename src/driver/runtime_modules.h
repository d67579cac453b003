#ifndef LOOM_DRIVER_RUNTIME_MODULES_H
#define LOOM_DRIVER_RUNTIME_MODULES_H

/// \file The runtime (src/runtime) as named modules, each joining the pipelines whose Target
/// selects it: in an AOT output its bitcode is linked into the object (link_runtime,
/// aot_runtime.cpp), and a JIT pipeline binds only to the symbols of its modules (jit.cpp; all of
/// them are compiled into libloom).
///
/// Module `name` is the source src/runtime/<name>.cpp; the module "base" is every other source
/// there. cmake/LoomRuntimeBitcode.cmake compiles each source to bitcode for every AOT
/// architecture and embeds it (runtime_bitcode_files), so a new source needs no build change.
///
/// Where the device APIs plug in: the CUDA back end adds src/runtime/cuda.cpp (its
/// halide_device_interface_impl_t and the halide_device_interface_t that
/// halide_cuda_device_interface() returns, on src/runtime/device_interface.h) and the entry
/// {"cuda", {Target::CUDA}} to the table in runtime_modules.cpp; the OpenCL back end likewise
/// src/runtime/opencl.cpp and {"opencl", {Target::OpenCL}}. Nothing else changes: targets with
/// the feature get the module, others neither link it nor bind to it.

#include <loom/target.h>

#include <cstddef>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// A part of the runtime and the target features that select it.
struct RuntimeModule {
    /// Its source is src/runtime/<name>.cpp ("base": every source no other module names).
    std::string name;
    /// A Target with any of these gets the module; none: every Target does.
    std::vector<Target::Feature> features;
};

/// Loom's runtime modules, the base first (link order): base and device_interface, which every
/// pipeline gets.
const std::vector<RuntimeModule> &runtime_modules();

/// The names of the modules of `modules` that a pipeline for t gets, in table order.
std::vector<std::string>
runtime_modules_for(const Target &t, const std::vector<RuntimeModule> &modules = runtime_modules());

/// The bitcode of one runtime source compiled for one architecture (embedded at build time).
struct RuntimeBitcodeFile {
    const char *arch;   ///< "x86_64" or "aarch64"
    const char *source; ///< the source's name without .cpp ("allocation", "device_interface")
    const unsigned char *data;
    size_t size;
};

/// The runtime architecture of t ("x86_64", "aarch64"), or "" when Loom has no runtime for it.
std::string runtime_arch(const Target &t);

/// The module of `modules` that runtime source `source` belongs to.
std::string runtime_module_of_source(const std::string &source,
                                     const std::vector<RuntimeModule> &modules = runtime_modules());

/// The bitcode an AOT output for t links: the sources of t's modules for t's architecture
/// (empty when there is no runtime for it), modules in table order.
std::vector<const RuntimeBitcodeFile *>
runtime_bitcode_for(const Target &t, const std::vector<RuntimeModule> &modules = runtime_modules());

/// Whether a JIT pipeline for t may bind `symbol`: false exactly when `symbol` is defined by
/// a runtime module of `modules` that t does not get. (Which module defines a symbol is read
/// from the host architecture's bitcode, once, when some module is not selected.)
bool jit_may_bind(const std::string &symbol, const Target &t,
                  const std::vector<RuntimeModule> &modules = runtime_modules());

} // namespace internal
} // namespace loom

#endif
