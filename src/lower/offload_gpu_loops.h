#ifndef LOOM_LOWER_OFFLOAD_GPU_LOOPS_H
#define LOOM_LOWER_OFFLOAD_GPU_LOOPS_H

/// \file GPU offload: every nest of GPU loops (gpu_blocks, gpu_threads, gpu_tile, ...) becomes
/// a kernel (LoweredKernel, lower/lowered_func.h) launched from the host, and every buffer a
/// kernel touches is kept coherent between host and device memory by the runtime's dirty flags.
///
///   gpu_block for (f.s0.y.by, ...) { gpu_block for (f.s0.x.bx, ...) {
///     gpu_thread for (f.s0.y.ty, 0, 8) { gpu_thread for (f.s0.x.tx, 0, 32) { body } } } }
/// becomes, on the host,
///   assert(loom_prepare_device_buffer(__user_context, in.buffer, <iface>, 1) == 0)
///   assert(loom_prepare_device_buffer(__user_context, f.buffer, <iface>, 0) == 0)
///   let k.launch = loom_gpu_launch("<kernel>", bx extent, by extent, 1, 32, 8, 1, 0,
///                                  in.buffer, f.buffer, <scalars>...)
///   assert(k.launch == 0, k.launch)
///   _halide_buffer_set_device_dirty(f.buffer, true)
/// and the kernel's body binds each GPU loop's variable to its min plus the block or thread
/// index ("__block_id_x" for the innermost block loop, ...). A buffer argument of a kernel is
/// named by the Load/Store name; on the host it is the pipeline argument's "<b>.buffer" or, for
/// an intermediate, a halide_buffer_t made for its Allocate ("<b>.device_buffer", whose device
/// memory is freed when the allocation ends).
///
/// Host code that reads or writes such a buffer (a CPU stage between GPU stages) is preceded by
/// halide_copy_to_host of it and followed by _halide_buffer_set_host_dirty for those it writes, so
/// the runtime copies only what is stale. Outputs written on the device are left device-dirty,
/// as in Halide; realize() copies them to the host.
///
/// A kernel has up to three block loops nested in each other, then any number of nests of up
/// to three thread (or lane) loops each, with serial loops, lets and conditions anywhere
/// between. Stages computed at the block level (inside the block loops, outside the thread
/// loops) are in shared memory: every nest is guarded to its own extent within the launch's
/// (the largest per dimension) and followed by a barrier, and block-level stores outside any
/// nest run on thread 0. Buffers inside a kernel need a constant size; a thread loop's extent
/// must be computable on the host (with the kernel's lets substituted).

#include "lower/lowered_func.h"

#include <loom/target.h>

#include <string>
#include <vector>

namespace loom {
namespace internal {

struct GpuOffload {
    Stmt body;                          ///< with every GPU loop nest replaced by its launch
    std::vector<LoweredKernel> kernels; ///< in order of appearance
};

/// Offloads the GPU loops of `s`, the body of the lowered function `fn_name` whose arguments are
/// `args`, for `target` (whose device features say which API Default_GPU means).
GpuOffload offload_gpu_loops(const Stmt &s, const std::string &fn_name,
                             const std::vector<LoweredArgument> &args, const Target &target);

} // namespace internal
} // namespace loom

#endif
