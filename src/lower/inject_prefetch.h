#ifndef LOOM_LOWER_INJECT_PREFETCH_H
#define LOOM_LOWER_INJECT_PREFETCH_H

/// \file Stage::prefetch lowering: at the top of each iteration of the `at` loop, prefetch the
/// box of the Func or input buffer that the loop's body reads with the `from` loop's variable
/// `offset` iterations ahead. Runs after add_image_checks (so the shifted reads do not widen
/// the regions required of inputs) and before storage_flattening (which turns the prefetched
/// element into a Load; codegen emits llvm.prefetch per cache line of each row).
///
/// Bound strategies: for input buffers, Clamp clamps the box to the buffer and GuardWithIf
/// skips the prefetch when the box leaves the buffer; NonFaulting prefetches the box as is.
/// Internal Funcs are always prefetched as is (CPU prefetches never fault). Only the first
/// value of a Tuple-valued Func is prefetched.

#include "ir/ir.h"
#include "lang/function.h"

#include <map>
#include <string>

namespace loom {
namespace internal {

/// Inserts the prefetches of every stage's prefetch directives (see the file comment).
Stmt inject_prefetch(const Stmt &s, const std::map<std::string, Function> &env);

} // namespace internal
} // namespace loom

#endif
