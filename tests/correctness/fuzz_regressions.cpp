// Bugs the differential schedule fuzzer (tests/fuzz/schedule_fuzzer.h) found, as regression
// tests. Each names its seed; the ones whose fix belongs to another area are skipped with the
// reason and the owner until fixed (the seeds still fail in correctness_schedule_fuzz).
#include "fuzz/schedule_fuzzer.h"

#include <gtest/gtest.h>

using namespace loom;

TEST(FuzzRegressions, GuardedSplitInsideShiftInwardsTileOfAnOutput) {
    // Seed 25: an output tiled with ShiftInwards, its inner x loop then vectorized by 4 with
    // Predicate (a guard in Loom): Loom's output bounds check reports "accessed at 15, beyond the
    // max (14)" although the guard keeps every store inside; Halide 21 runs the same schedule.
    // Owner: store (bounds_inference: region of a guarded split) / spec (build_provide_loop_nest).
    GTEST_SKIP() << "open: false out-of-bounds error for a guarded split inside ShiftInwards "
                    "(bounds_inference/build_provide_loop_nest, helpers store/spec)";
    loom_fuzz::CaseResult r = loom_fuzz::run_case(25);
    EXPECT_TRUE(r.ok) << r.report;
}

TEST(FuzzRegressions, FusedTileOfAnUpsampledOutput) {
    // Seed 26: "f1 is accessed at 44, which is beyond the max (41)" for a legal schedule
    // (Halide 21 runs it). Same family as seed 25.
    GTEST_SKIP() << "open: false out-of-bounds error (helpers store/spec)";
    loom_fuzz::CaseResult r = loom_fuzz::run_case(26);
    EXPECT_TRUE(r.ok) << r.report;
}

TEST(FuzzRegressions, HeapCorruptionWithRoundUpHistogramComputedAt) {
    // Seed 11 (3-D pipeline with a histogram computed at a consumer's loop, its pure stage split
    // RoundUp and vectorized on the outer loop, plus Predicate and blend tails elsewhere) aborts
    // the process with "malloc(): invalid size": a store outside an allocation. Not minimized
    // yet; LOOM_FUZZ_VERBOSE=1 prints the case.
    GTEST_SKIP() << "open: heap corruption (crashes the process), not yet minimized";
    loom_fuzz::CaseResult r = loom_fuzz::run_case(11);
    EXPECT_TRUE(r.ok) << r.report;
}
