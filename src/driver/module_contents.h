#ifndef LOOM_DRIVER_MODULE_CONTENTS_H
#define LOOM_DRIVER_MODULE_CONTENTS_H

/// \file The state behind a Module (include/loom/module.h): the lowered function and the
/// public signature ahead-of-time outputs give it.

#include <loom/target.h>

#include "lower/lowered_func.h"

#include <string>
#include <vector>

namespace loom {
namespace internal {

/// How one argument of the public function reaches the lowered function.
struct AotArgument {
    /// The argument as the user listed it (name, kind, type, dimensions), or an output buffer.
    LoweredArgument arg;
    /// Index of the matching argument in LoweredFunc::args, or -1 when the pipeline does not
    /// use it (the public function accepts and ignores it).
    int lowered_index = -1;
};

struct ModuleContents : RefCounted {
    std::string name;
    Target target;
    /// The lowered pipeline: args[0] is __user_context, then lowering's own order.
    LoweredFunc lowered;
    /// The public function's arguments in calling order (the user's inputs, then the outputs),
    /// without the user context, which comes first when the target has user_context.
    std::vector<AotArgument> public_args;
    /// Indices into lowered.args of Buffers the algorithm uses that the user did not list:
    /// their contents are compiled into the object as constant data, as Halide does.
    std::vector<int> embedded;
    /// Whether the public function gets an argv wrapper and metadata (LinkageType).
    bool external = true, with_argv = true, with_metadata = true;
};

} // namespace internal
} // namespace loom

#endif
