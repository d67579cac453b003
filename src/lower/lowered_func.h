#ifndef LOOM_LOWER_LOWERED_FUNC_H
#define LOOM_LOWER_LOWERED_FUNC_H

/// \file The contract between lowering and code generation: a flat loop nest plus its
/// argument list.
///
/// Conventions in `body` (all back ends rely on them):
/// - A buffer argument `b` is the Variable "b.buffer" (Handle) bound to its halide_buffer_t*.
///   Lowering itself binds "b" (the host pointer), "b.min.<d>", "b.extent.<d>", "b.stride.<d>"
///   with LetStmts of the _halide_buffer_get_* intrinsics; Load/Store name "b" for its data.
/// - A scalar argument `p` is the Variable "p" of the argument's type.
/// - "__user_context" (Handle) is always in scope; it is the first argument.
/// - Allocate/Free manage temporary storage; Load/Store index in elements from the base.
/// - An AssertStmt whose condition fails evaluates its message (an Int(32) Extern call to a
///   runtime halide_error_* function) and the function returns that value. Reaching the end of
///   the body returns 0.
/// - No Provide, Realize or Call::Halide/Image nodes remain, and no parallel loop: each is a
///   call to halide_do_par_for with a task among `functions` and an explicit closure.

#include "ir/ir.h"

#include <loom/device_api.h>

#include <ostream>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// A condition a Pipeline checks at entry (Pipeline::add_requirement).
struct Requirement {
    Expr condition;
    std::vector<Expr> error_args; ///< printed into the message
};

struct LoweredArgument {
    enum Kind { Scalar, InputBuffer, OutputBuffer };
    std::string name;
    Kind kind = Scalar;
    Type type;          ///< scalar type, or element type of a buffer
    int dimensions = 0; ///< buffers only
    Parameter param;    ///< the Param/ImageParam/Buffer it came from (undefined for outputs
                        ///< and __user_context)
    bool is_buffer() const { return kind != Scalar; }

    /// A scalar argument.
    static LoweredArgument scalar(const std::string &name, Type t) {
        LoweredArgument a;
        a.name = name;
        a.type = t;
        return a;
    }
};

/// The "__user_context" argument (Handle), first in every lowered function.
inline LoweredArgument user_context_argument() {
    return LoweredArgument::scalar("__user_context", Handle());
}

/// A GPU kernel cut out of the loop nest (lower/offload_gpu_loops.h). A device back end turns
/// the kernels of one pipeline and API into one device module (PTX, OpenCL C source); the host
/// code launches each by name through the API's halide_<api>_run (runtime/device_interface.h).
///
/// Conventions in `body` (beyond those of LoweredFunc):
/// - The Int(32) Variables "__block_id_x", "__block_id_y", "__block_id_z", "__thread_id_x",
///   "__thread_id_y", "__thread_id_z" are the work-group (block) and work-item-in-group
///   (thread) indices of the launch, zero-based; the GPU loops have become LetStmts of them.
/// - Load/Store name a buffer argument (a pointer to device global memory, in elements of the
///   argument's type, indexed from the element the host pointer of the same name addresses);
///   every other Variable is a scalar argument, a let, or one of the ids above.
/// - Allocate is per-thread private memory of constant size; no Free, AssertStmt, Call::Extern
///   to the runtime, parallel loop or further GPU loop remains. Other loops are serial,
///   unrolled or already vectorized away.
struct LoweredKernel {
    struct Arg {
        std::string name;
        Type type;              ///< scalar type, or a buffer's element type
        bool is_buffer = false; ///< a pointer to global memory
        bool read = false;      ///< buffers: whether the kernel loads from it
        bool written = false;   ///< buffers: whether the kernel stores to it
    };
    std::string name; ///< a C identifier, unique in the pipeline
    DeviceAPI api = DeviceAPI::CUDA;
    std::vector<Arg> args; ///< in launch order
    Stmt body;
};

struct LoweredFunc {
    std::string name;
    /// In calling order; args[0] is "__user_context".
    std::vector<LoweredArgument> args;
    Stmt body;
    /// The functions the body refers to by name (a Variable of Handle type), generated into the
    /// same module with internal linkage: the tasks of parallel loops
    /// (lower/lower_parallel_tasks.h), innermost first. Each follows the conventions above.
    std::vector<LoweredFunc> functions;
    /// The GPU kernels the body and the functions launch (only on the entry function), in
    /// launch order; the back end compiles them into a device module per API.
    std::vector<LoweredKernel> kernels;
};

/// Prints f as "// name(args)" then its body, then each of its functions the same way.
std::ostream &operator<<(std::ostream &os, const LoweredFunc &f);

} // namespace internal
} // namespace loom

#endif
