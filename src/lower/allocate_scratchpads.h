#ifndef LOOM_LOWER_ALLOCATE_SCRATCHPADS_H
#define LOOM_LOWER_ALLOCATE_SCRATCHPADS_H

/// \file Static allocation of the buffers stored in user-declared scratchpads
/// (include/loom/scratchpad.h; Vocke §3.2: DSP local memories without dynamic allocation).
///
/// For each Allocate whose memory type is a scratchpad:
///  - its size is bounded from above (lower/allocation_bounds.h): the enclosing loops' ranges,
///    and for sizes no let or loop defines (an output's or input's extent, a Param) the ranges
///    `assumed` gives them (size_assumptions: constraints were already substituted by
///    add_image_checks; estimates and Param ranges come from here). No bound: CompileError
///    naming the Func, the memory and the extent, saying what to bound.
///  - it gets a fixed offset in its memory, like a stack: nested buffers (live at once) follow
///    each other, siblings (never live at once) start at the same offset, and the two sides of a
///    Fork (running at once) never share bytes. The offset is aligned to the memory's alignment.
///  - the Allocate becomes `let f = scratchpad_address(symbol, memory, size, alignment, offset)`,
///    symbol
///    "loom_scratchpad_<fn>_<memory>" and size the most the pipeline uses of that memory at once;
///    each back end defines that block once (ir/scratchpads.h).
///  - unless its size is a constant, an assert checks the real size against the bytes reserved
///    (a bound from an estimate is not a promise): halide_error_buffer_allocation_too_large.
/// CompileErrors too for: buffers live at once that need more than the memory's size (listing
/// them); a scratchpad buffer allocated inside a parallel loop or a GPU loop, or accessed in a
/// GPU loop (the static block is one per pipeline, in host memory).
/// After storage flattening and the clean-up passes that drop dead buffers, before
/// bound_small_allocations; no Allocate in a scratchpad remains.
/// Tests: tests/unit/lower/allocate_scratchpads_test.cpp, tests/correctness/scratchpads.cpp,
/// tests/error/scratchpad_errors.cpp.

#include "lang/function.h"
#include "lower/allocation_bounds.h"
#include "lower/lowered_func.h"

#include <string>
#include <vector>

namespace loom {
namespace internal {

/// Ranges of the sizes the user gave as estimates or ranges: "<b>.extent.<d>" of the inputs and
/// outputs from their estimates (ImageParam / output_buffer set_estimates, Func::set_estimate),
/// integer Params from their range (min_value / max_value, checked at entry) or else their
/// estimate.
ConstantScope size_assumptions(const std::vector<LoweredArgument> &args,
                               const std::vector<Function> &outputs);

/// Places the scratchpad buffers of pipeline `fn_name` (see the file comment).
Stmt allocate_scratchpads(const Stmt &s, const std::string &fn_name, const ConstantScope &assumed);

} // namespace internal
} // namespace loom

#endif
