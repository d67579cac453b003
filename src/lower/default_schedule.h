#ifndef LOOM_LOWER_DEFAULT_SCHEDULE_H
#define LOOM_LOWER_DEFAULT_SCHEDULE_H

/// \file Where each Func of a pipeline is computed, after applying Loom's (Halide's) defaults to
/// what the user scheduled. The user's Functions are not modified: lowering reads the returned
/// placements instead.
///
/// Rules: outputs are computed at the root; compute_root() and compute_at() are honoured; an
/// unscheduled (or compute_inline'd) pure Func is inlined; a Func with update definitions that
/// is not placed explicitly is computed and stored inside the innermost loop of each consumer
/// stage that calls it (what makes an inline sum(...) a register accumulator).
/// Example: out(x) = sum(g(x, r)) with g pure -> {out: Root, g: Inline, sum: Innermost}.
/// Tests: tests/unit/lower/schedule_functions_test.cpp.

#include "lang/function.h"

#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// The placement lowering uses for one Func.
struct ComputePlacement {
    enum Kind {
        Inline,    ///< substituted into its callers
        Root,      ///< computed once, outside every loop, before its consumers
        Innermost, ///< computed inside the innermost loop of each consumer stage calling it
        At,        ///< computed inside the loop `level` (Tier 2: compute_at)
    } kind = Inline;
    LoopLevelSpec level; ///< for At
};

/// The placement of every Func in `env`.
std::map<std::string, ComputePlacement>
default_schedule(const std::vector<Function> &outputs, const std::map<std::string, Function> &env);

} // namespace internal
} // namespace loom

#endif
