// The schedule fuzzer's random pipelines (tests/fuzz/fuzz_pipeline.h: stencils, resampling,
// lookups, histograms, scans, Tuples, convolution updates, two outputs, three dimensions)
// autoscheduled by every built-in scheduler, with estimates of the size they run at, compared bit
// for bit with the same pipeline unscheduled. LOOM_AUTOSCHEDULE_FUZZ_SEEDS sets the number of
// pipelines (default 90, part of the fast suites: tests/CMakeLists.txt labels it correctness).
#include "fuzz/schedule_fuzzer.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

using namespace loom_fuzz;

namespace {

std::vector<Buffer<void>> realize(FuzzPipeline &fp, const Target &target) {
    std::vector<Func> outs;
    std::vector<Buffer<void>> bufs;
    for (int o : fp.outputs) {
        outs.push_back(fp.funcs[o].f);
        bufs.emplace_back(fp.funcs[o].types[0], fp.sizes);
        bufs.back().set_min(fp.mins);
    }
    Pipeline(outs).realize(bufs, target);
    return bufs;
}

/// "" when the autoscheduled pipeline `alg` computes what the unscheduled one does; else a
/// report with the pipeline, the schedule and the first difference.
std::string run_case(uint32_t alg, const AutoschedulerParams &params) {
    const Target target = target_of(alg);
    FuzzPipeline ref = PipelineGenerator(alg, {}, "ref_").generate();
    FuzzPipeline sched = PipelineGenerator(alg, {}, "").generate();
    std::vector<Func> outs;
    for (int o : sched.outputs) {
        Func f = sched.funcs[o].f;
        for (size_t d = 0; d < sched.sizes.size(); d++) {
            f.set_estimate(f.args()[d], sched.mins[d], sched.sizes[d]);
        }
        outs.push_back(f);
    }
    std::string source, stage = "autoscheduling";
    try {
        source = Pipeline(outs).apply_autoscheduler(target, params).schedule_source;
        stage = "realizing the unscheduled pipeline";
        std::vector<Buffer<void>> expected = realize(ref, target);
        stage = "realizing the autoscheduled pipeline";
        std::vector<Buffer<void>> got = realize(sched, target);
        for (size_t k = 0; k < expected.size(); k++) {
            const size_t bytes = expected[k].type().bytes();
            const uint8_t *e = (const uint8_t *)expected[k].raw_buffer()->host;
            const uint8_t *g = (const uint8_t *)got[k].raw_buffer()->host;
            for (size_t i = 0; i < expected[k].number_of_elements(); i++) {
                if (std::memcmp(e + i * bytes, g + i * bytes, bytes) != 0) {
                    return "algorithm " + std::to_string(alg) + " (" + params.to_string() +
                           "): output " + std::to_string(k) + " differs at element " +
                           std::to_string(i) + "\n" + sched.text + source;
                }
            }
        }
    } catch (const std::exception &ex) {
        return "algorithm " + std::to_string(alg) + " (" + params.to_string() +
               "): exception while " + stage + ": " + ex.what() + "\n" + sched.text + source;
    }
    return "";
}

} // namespace

TEST(AutoscheduleFuzz, RandomPipelinesMatchTheUnscheduledPipeline) {
    const char *env = std::getenv("LOOM_AUTOSCHEDULE_FUZZ_SEEDS");
    const int seeds = env ? std::atoi(env) : 90;
    // Each scheduler's defaults, and parameters that make it tile and group differently.
    const std::vector<AutoschedulerParams> params = {
        {"Mullapudi2016"},
        {"Loom"},
        {"PolyMage"},
        {"Mullapudi2016", {{"parallelism", "2"}, {"last_level_cache_size", "65536"}}},
        {"Loom", {{"balance", "4"}, {"parallelism", "2"}}},
        {"PolyMage", {{"tile_sizes", "8x4x2"}, {"overlap_threshold", "3"}}},
        {"Mullapudi2016", {{"balance", "1"}, {"parallelism", "1"}}},
        {"Loom", {{"last_level_cache_size", "16384"}}},
        {"PolyMage", {{"tile_sizes", "32"}, {"overlap_threshold", "0.1"}}},
    };
    int failures = 0;
    for (int alg = 0; alg < seeds && failures < 5; alg++) {
        const std::string report = run_case((uint32_t)alg, params[alg % params.size()]);
        if (report.empty()) continue;
        ADD_FAILURE() << report;
        failures++;
    }
}
