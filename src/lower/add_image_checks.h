#ifndef LOOM_LOWER_ADD_IMAGE_CHECKS_H
#define LOOM_LOWER_ADD_IMAGE_CHECKS_H

/// \file add_image_checks: validation of the arguments at entry, and bounds queries.
///
/// Establishes, in this order (each failure returns the code of a halide_error_* reporter):
///  1. every buffer argument is non-null, has the right element type and dimension count;
///  2. "<b>.min.<d>.required" / "<b>.extent.<d>.required": the region of each buffer the
///     pipeline touches (buffer_regions_required);
///  3. bounds query: when any buffer has a null host pointer, each such buffer gets its
///     required region and dense strides (_halide_buffer_set_bounds/_init_strides) and the
///     pipeline returns 0 without computing (Halide's infer_input_bounds protocol);
///  4. otherwise: the Pipeline's requirements, then argument by argument: a Param's range; for
///     a buffer, dimension by dimension, that it covers the region it is touched over
///     (halide_error_access_out_of_bounds), a non-negative extent, its constraints
///     (set_min/set_extent/set_stride; an input's innermost stride is 1 unless the user lifted
///     it, as in Halide) and a size that fits in 2^31-1 elements; a host pointer aligned as
///     set_host_alignment promised (when that is more than the element size:
///     halide_error_unaligned_host_ptr); then the body. (Where several checks fail, the first
///     in this order is the one reported.)
/// Tests: tests/unit/lower/add_image_checks_test.cpp, tests/unit/driver and
/// tests/error/runtime_errors.cpp (run-time errors).

#include "analysis/bounds.h"
#include "lang/function.h"
#include "lower/lowered_func.h"

#include <string>
#include <vector>

namespace loom {
namespace internal {

struct ImageCheckOptions {
    bool asserts = true;      ///< false: Target::NoAsserts
    bool bounds_query = true; ///< false: Target::NoBoundsQuery
    /// false for targets without a GPU API: a buffer whose newest data is in device memory
    /// the pipeline cannot reach is an error (halide_error_device_dirty_with_no_device_support)
    /// instead of stale host data.
    bool device_support = true;
};

/// `args` are the buffer and scalar arguments (inputs then outputs, no __user_context).
Stmt add_image_checks(const Stmt &s, const std::vector<LoweredArgument> &args,
                      const std::vector<Function> &outputs,
                      const std::vector<Requirement> &requirements,
                      const ImageCheckOptions &options = ImageCheckOptions(),
                      const FuncValueBounds &func_bounds = {});

} // namespace internal
} // namespace loom

#endif
