#ifndef LOOM_LOWER_LOWER_UTILS_H
#define LOOM_LOWER_LOWER_UTILS_H

/// \file Small IR builders and queries several lowering passes share (a pass never includes
/// another pass's header: what two passes need lives here or in a utility of its own).
/// Tests: tests/unit/lower/vectorize_loops_test.cpp (all_lanes_true).

#include "ir/ir.h"

#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// A call to the runtime error reporter `fn` (Int(32), Extern), with __user_context first.
Expr runtime_error_call(const std::string &fn, const std::vector<Expr> &args);

/// The Variable "<name>.buffer" (Handle) of buffer argument `name`.
Expr buffer_handle(const std::string &name);

/// Whether c is likely(x) or likely_if_innermost(x).
bool is_likely_call(const Call *c);

/// The smallest and largest lane (*lo, *hi) of the signed integer vector e, from ramps with
/// constant strides, broadcasts, sums, products by constants, min/max, likely() and the
/// vector values of the variables in `lets`; false when they can't be told.
bool lane_bounds(const Expr &e, const std::map<std::string, Expr> &lets, Expr *lo, Expr *hi,
                 int depth = 0);

/// A scalar condition true exactly when every lane of the vector condition `cond` is true,
/// built from the lanes' extremes (ramps with constant strides, broadcasts, sums, products by
/// constants, min/max, likely(), and the variables in `lets`, widened lets whose vector values
/// it looks through); && splits. Undefined when it cannot tell (e.g. data-dependent lanes).
Expr all_lanes_true(const Expr &cond, const std::map<std::string, Expr> &lets = {});

} // namespace internal
} // namespace loom

#endif
