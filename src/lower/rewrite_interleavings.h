#ifndef LOOM_LOWER_REWRITE_INTERLEAVINGS_H
#define LOOM_LOWER_REWRITE_INTERLEAVINGS_H

/// \file Interleaved loads and stores (Halide's rewrite_interleavings), for channels stored
/// chunky (RGBRGB...) and for stride-2 access such as 2x downsampling.
///  - Stores: s consecutive vector Stores of n lanes to one buffer, with indices
///    ramp(b + k, s, n) for each k in 0..s-1 (the channels of chunky output written from
///    planar values, after unrolling the channel loop), together write the dense range
///    [b, b + s*n). They become one Store of ramp(b, 1, s*n) whose value interleaves the s
///    values (in k order), which codegen emits as shuffles and one wide store instead of s
///    scatters. Conditions: the stores are adjacent in one Block, unpredicated, of the same
///    type, stride s (2 to 8) and buffer, and neither their values nor their indices load
///    from the buffer they write (so writing all lanes at the end is invisible).
///  - Loads: within one statement, the unpredicated loads a[ramp(b + k, s, n)] for every k in
///    0..s-1 (s in 2..4) together read exactly [b, b + s*n): each becomes a slice (lanes k,
///    k+s, ...) of the one dense load a[ramp(b, 1, s*n)]. Codegen would otherwise load s
///    overlapping spans of (n-1)*s+1 elements, an awkward length. Strided loads without all
///    their partners stay (codegen loads their span and shuffles).
///  - Phases: a vector value whose lanes depend on ramp(b, s, n) / k or ramp(b, s, n) % k
///    (k in 2..4, s no multiple of k: select(x % 2 == 0, a(x / 2), b(x / 2)) vectorized over
///    x, a Bayer mosaic put back together) is split into its k phases (lanes i, i + k, ...):
///    in each, x / k is a dense ramp and x % k one value, folded by the simplifier with the
///    alignment of the enclosing lets (an even loop base drops the select). The value becomes
///    the interleave of the phases, as Halide does, instead of a gather and a per-lane select;
///    kept only when no phase is left with such a division. A pass of its own
///    (deinterleave_vector_phases), before loop partitioning as in Halide: a clamp of x / 2
///    is then a clamp of a dense ramp in each phase, which partitioning drops in the steady
///    state (an upsampling's taps gathered in every vector otherwise).
/// Offsets are compared after simplifying the difference of the bases, so they must differ by
/// a constant. The grouping of loads and stores runs after loop partitioning, where the
/// steady state's strided loads have lost their clamps (lower.cpp).
/// Tests: tests/unit/lower/rewrite_interleavings_test.cpp, tests/correctness/simd_patterns.cpp
/// (InterleavedStores, DeinterleavedLoads), tests/correctness/interleave_regressions.cpp
/// (phases), tests/unit/codegen/x86_isel_test.cpp.

#include "ir/ir.h"

namespace loom {
namespace internal {

/// s with its vector values that depend on x / k or x % k split into phases (see Phases above).
Stmt deinterleave_vector_phases(const Stmt &s);

/// s with its interleaving stores and deinterleaving loads made dense.
Stmt rewrite_interleavings(const Stmt &s);

} // namespace internal
} // namespace loom

#endif
