#ifndef LOOM_AUTOSCHEDULE_LI2018_LI2018_H
#define LOOM_AUTOSCHEDULE_LI2018_LI2018_H

/// \file The "Li2018" autoscheduler: the gradient scheduler of Li et al., "Differentiable
/// Programming for Image Processing and Deep Learning in Halide" (SIGGRAPH 2018, §4.4), for CPUs,
/// on the PipelineModel. It needs no cost model: the patterns of reverse-mode pipelines (large
/// reductions into a loss or a parameter's gradient, scatters, adjoints read by several Funcs)
/// decide.
///  1. Checkpointing: every Func that reduces or scatters (has an update definition), is read by
///     more than one Func, is an output or is extern is computed at the root; every other Func
///     is inlined. The `compute_root` and `inline` parameters override this per Func.
///  2. A root Func whose stage has pure loops large enough to tile (at least 16 points) is
///     tiled 16 x 16 along the first two of them (a 1-D domain is split into 16 x 16 first), the
///     innermost dimension of a tile vectorized (inside an update's RVars) and the tile loops,
///     fused with the stage's other pure loops, run in parallel in about 8 x `parallelism`
///     tasks (the paper launches one thread per tile; tasks of one 16 x 16 tile cost more to
///     hand out than to run). Every split guards its tail, so the schedule holds at any size.
///  3. An update whose pure domain is too small for that (fewer than `parallelism` tiles: a
///     scalar loss, a convolution weight's gradient, a histogram) and that is a large associative
///     reduction is made a parallel reduction with rfactor: the first two RVars of at least 16
///     points are split 16 wide; the intermediate keeps one partial result per lane (the inner
///     part of the first) and per strip of 16 (the outer part of the second), vectorized across
///     the lanes (column-wise reductions) and parallel across the strips; the Func's update then
///     combines the intermediate serially. A single large RVar is split twice instead. Skipped
///     when the intermediate would hold more points than the reduction visits.
///  4. Any other update (a scatter, a scan, a non-associative or small reduction) runs in
///     parallel over its largest RVar whose iterations touch distinct elements (a channel of a
///     scatter), when it has one, and serially otherwise. The paper uses atomics only on GPUs;
///     on a CPU a compare-and-swap per element costs more than the parallelism gains.
/// Parameters: parallelism (16, as Halide's); Loom's additions: compute_root and inline, comma-
/// separated Func names (the paper's user overrides). Tests:
/// tests/correctness/autoschedule_li2018.cpp.

#include "autoschedule/autoschedule.h"

#include <loom/target.h>

#include <set>
#include <string>
#include <vector>

namespace loom {
namespace internal {

struct Li2018Params {
    int parallelism = 16;
    std::set<std::string> compute_root, inline_funcs;
};

std::string autoschedule_li2018(const std::vector<Function> &outputs, const Target &target,
                                const Li2018Params &params, const std::string &header);

} // namespace internal
} // namespace loom

#endif
