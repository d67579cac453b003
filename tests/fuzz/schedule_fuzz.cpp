// The differential schedule fuzzer's 500-seed run: seeds 0..N-1, each a random pipeline under a
// random legal schedule, compared bit for bit with the same pipeline unscheduled (see
// tests/fuzz/schedule_fuzzer.h; seeds 2k and 2k + 1 schedule one pipeline two ways). It runs in
// the fast CI suites (tests/CMakeLists.txt labels it `correctness`); `make fuzz` runs many more
// seeds (tests/fuzz/schedule_fuzz_long).
#include "fuzz/schedule_fuzzer.h"

#include <gtest/gtest.h>

#if defined(__SANITIZE_ADDRESS__)
#define LOOM_FUZZ_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LOOM_FUZZ_ASAN 1
#endif
#endif

namespace {

#ifdef LOOM_FUZZ_ASAN
// Under ASan (a Debug build) lowering runs several times slower: fewer seeds keep this binary
// under about two minutes. The Release run does the full 500.
constexpr int kSeeds = 60;
#else
constexpr int kSeeds = 500;
#endif

} // namespace

TEST(ScheduleFuzz, SeededCasesMatchTheUnscheduledPipeline) {
    int failures = 0;
    for (int seed = 0; seed < kSeeds; seed++) {
        loom_fuzz::CaseResult r = loom_fuzz::run_case((uint32_t)seed);
        if (r.ok) continue;
        ADD_FAILURE() << r.report;
        // A broken directive fails many seeds; the first few reports are enough.
        if (++failures >= 5) break;
    }
}
