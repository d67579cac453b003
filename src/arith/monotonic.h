#ifndef LOOM_ARITH_MONOTONIC_H
#define LOOM_ARITH_MONOTONIC_H

/// \file Whether an integer expression grows, shrinks or stays put as one variable increases:
/// what sliding_window and storage_folding ask of a region's bounds along a loop.
/// Example: is_monotonic(min(x * 2, 10) - y, "x") is Increasing; in "y", Decreasing.
/// Tests: tests/unit/arith/monotonic_test.cpp.

#include "ir/ir.h"

#include <string>

namespace loom {
namespace internal {

/// How an integer expression changes when `var` increases.
enum class Monotonic { Constant, Increasing, Decreasing, Unknown };

/// The direction of a + b (also of min/max(a, b)) from the directions of a and b.
Monotonic combine(Monotonic a, Monotonic b);

/// A conservative monotonicity analysis of e in var (+, -, * and / by constants, min, max,
/// select with a var-independent condition, casts to wider integers, lets, likely and
/// promise_clamped); Unknown for anything else.
Monotonic is_monotonic(const Expr &e, const std::string &var);

} // namespace internal
} // namespace loom

#endif
