#ifndef LOOM_LOWER_MEMOIZATION_H
#define LOOM_LOWER_MEMOIZATION_H

/// \file Func::memoize lowering: the production of a memoized Func is wrapped in a lookup in
/// the runtime's cache (src/runtime/memoization_cache.cpp) and, on a miss, a store of the
/// computed values. Runs after storage_folding and before storage_flattening (Halide injects
/// memoization there too, on Realize-level IR), so the Func's buffers are referred to by the
/// names storage flattening gives its allocations.
///
/// The cache key is 8-byte fields: a hash of the Func's name, the min and extent of each
/// realized dimension, and the values of the scalar Params its computation reads (through any
/// Func it calls); the optional eviction key is stored beside it. Input buffers are not part
/// of the key: a memoized Func reading an input whose contents change must be evicted
/// (EvictionKey, halide_memoization_cache_evict) or the cache cleaned up.
/// Tests: tests/correctness/memoize.cpp, tests/unit/lower/memoization_test.cpp.

#include "ir/ir.h"
#include "lang/function.h"

#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// Wraps the produce of every memoized Func in `env` (see the file comment). CompileError for
/// a memoized Func that is an output or not computed at the root.
Stmt inject_memoization(const Stmt &s, const std::vector<Function> &outputs,
                        const std::map<std::string, Function> &env);

} // namespace internal
} // namespace loom

#endif
