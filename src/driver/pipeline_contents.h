#ifndef LOOM_DRIVER_PIPELINE_CONTENTS_H
#define LOOM_DRIVER_PIPELINE_CONTENTS_H

/// \file The state behind a Pipeline (and behind each Func's cached Pipeline): its outputs,
/// requirements, and the compiled code with what it was compiled from, so realize recompiles
/// only when a Func of the pipeline changed, the target changed, or the cache was invalidated.

#include <loom/extern.h>
#include <loom/jit_handlers.h>
#include <loom/target.h>

#include "driver/jit.h"
#include "lang/function.h"
#include "lower/add_image_checks.h"
#include "lower/lowered_func.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace loom {
namespace internal {

struct PipelineContents : RefCounted {
    std::vector<Function> outputs;
    std::vector<Requirement> requirements;
    /// Pipeline::set_jit_externs and jit_handlers().
    std::map<std::string, JITExtern> jit_externs;
    JITHandlers jit_handlers;
    /// Pipeline::trace_pipeline(): JIT compilation adds Target::TracePipeline.
    bool trace_pipeline = false;

    // The compile cache.
    struct Compiled {
        Target target;
        /// Every Func the code was compiled from, and its version at the time.
        std::vector<std::pair<Function, uint64_t>> funcs;
        /// The parameters' constraints and ranges at the time (they are compiled in too).
        std::string constraints;
        LoweredFunc lowered;
        std::shared_ptr<JITModule> module;
    };
    std::unique_ptr<Compiled> compiled;
};

/// The PipelineContents behind a Pipeline's handle; a CompileError for an undefined Pipeline.
PipelineContents &pipeline_contents(const IntrusivePtr<RefCounted> &p);
/// A CompileError naming the first output Func that has no definition.
void check_outputs_defined(const PipelineContents &c);
/// The pipeline's input arguments (Pipeline::infer_arguments, with their Parameters), the
/// requirements' expressions included.
std::vector<LoweredArgument> input_arguments(const PipelineContents &c);
/// The pipeline's definition as serialize_pipeline writes it (deterministic bytes covering
/// every Func with its schedule, the Params with their ranges and values, the embedded Buffers,
/// the requirements), without refusing JIT externs and handlers, which do not change the
/// lowered code; empty when the definition cannot be serialized. The JIT keys recorded
/// lowerings by it (JITModule::load_definition).
std::string definition_bytes(const PipelineContents &c);

} // namespace internal
} // namespace loom

#endif
