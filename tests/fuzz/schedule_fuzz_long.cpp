// The long run of the differential schedule fuzzer (label `fuzz`, `make fuzz`): LOOM_FUZZ_SEEDS
// seeds (default 20000) from LOOM_FUZZ_START (default 500, after the CI run's seeds);
// LOOM_FUZZ_VERBOSE=1 prints each seed as it starts.
#include "fuzz/schedule_fuzzer.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

TEST(ScheduleFuzzLong, ManySeeds) {
    const char *n = getenv("LOOM_FUZZ_SEEDS"), *s = getenv("LOOM_FUZZ_START");
    long seeds = n ? atol(n) : 20000, start = s ? atol(s) : 500;
    // LOOM_FUZZ_VERBOSE=1 names each seed before it runs (a crash then names its seed).
    const bool verbose = getenv("LOOM_FUZZ_VERBOSE") != nullptr;
    int failures = 0;
    for (long seed = start; seed < start + seeds; seed++) {
        if (verbose) fprintf(stderr, "seed %ld\n", seed);
        loom_fuzz::CaseResult r = loom_fuzz::run_case((uint32_t)seed);
        if (!r.ok) {
            ADD_FAILURE() << r.report;
            if (++failures >= 20) break;
        }
        if ((seed - start + 1) % 1000 == 0) {
            printf("%ld seeds done, %d failures\n", seed - start + 1, failures);
            fflush(stdout);
        }
    }
}
