#ifndef LOOM_AUTOSCHEDULER_H
#define LOOM_AUTOSCHEDULER_H

/// \file Automatic scheduling (Halide's AutoschedulerParams / AutoSchedulerResults). A program
/// gives estimates of the sizes it will run at (Func::set_estimate(s) on the outputs,
/// ImageParam::set_estimates, Param::set_estimate) and calls
/// Pipeline::apply_autoscheduler(target, {"Mullapudi2016"}): the pipeline's Funcs receive an
/// ordinary schedule, and the result carries it as C++ source.
///
/// Built-in schedulers (no plugin to load; load_plugin accepts Halide's plugin names):
///   "Loom"           Loom's own: the plans of both models below costed by one model, short
///                    reductions unrolled; with autotune_s, variants are compiled and timed at
///                    the estimated sizes and the fastest kept. Keys: parallelism (16),
///                    last_level_cache_size (16777216 bytes), balance (40), autotune_s (0).
///   "Mullapudi2016"  the grouping and tiling algorithm of Mullapudi et al. 2016.
///                    Keys: parallelism (16), last_level_cache_size (16777216), balance (40).
///   "PolyMage"       PolyMage's grouping by an overlap threshold (ASPLOS 2015), autotuned
///                    over tile sizes and thresholds with autotune_s. Keys: tile_sizes
///                    ("256x32", innermost first), overlap_threshold (0.4), parallelism (16),
///                    autotune_s (0).
/// "Adams2019" and "Anderson2021" (Halide's learned-model schedulers) run "Loom" with a notice
/// on stderr, so programs naming them build and run unchanged. The tuning modes time each
/// candidate on the inputs bound to the ImageParams, or on synthetic data of the estimated
/// shapes, with scalar Params at their estimates; the source they return is the fastest
/// candidate's (measurement makes it vary between runs; model-only schedules do not).
/// LOOM_DEBUG_AUTOSCHEDULE=1 prints each scheduler's groups, tiles, costs and timings.

#include <loom/target.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace loom {

/// Which autoscheduler to run and its parameters, as strings (unknown keys are CompileErrors).
struct AutoschedulerParams {
    std::string name;
    std::map<std::string, std::string> extra;

    AutoschedulerParams() = default;
    /*not-explicit*/ AutoschedulerParams(const std::string &name) : name(name) {}
    AutoschedulerParams(const std::string &name, const std::map<std::string, std::string> &extra)
        : name(name), extra(extra) {}

    /// "autoscheduler=<name> autoscheduler.<key>=<value> ..." (Halide's generator syntax).
    std::string to_string() const;
};

/// What apply_autoscheduler did.
struct AutoSchedulerResults {
    Target target;                            ///< the target scheduled for
    AutoschedulerParams autoscheduler_params; ///< the scheduler and its parameters
    /// C++ that, pasted after the algorithm (with the Pipeline in scope as `pipeline`),
    /// applies the same schedule, in Loom and in Halide.
    std::string schedule_source;
    /// Halide's cost-model features; Loom's schedulers write none.
    std::vector<uint8_t> featurization;
};

class Pipeline;

/// A user-provided scheduler (Pipeline::add_autoscheduler): schedules the pipeline's Funcs and
/// fills in the results.
using AutoSchedulerFn = std::function<void(const Pipeline &, const Target &,
                                           const AutoschedulerParams &, AutoSchedulerResults *)>;

/// Halide loads its autoschedulers from shared libraries; Loom's are built in. Halide's plugin
/// names (autoschedule_mullapudi2016, libautoschedule_adams2019.so, ...) are accepted and do
/// nothing; any other library is opened with dlopen, so its static initializers can register
/// schedulers with Pipeline::add_autoscheduler. A library that cannot be opened is a
/// CompileError.
void load_plugin(const std::string &lib_name);

} // namespace loom

#endif
