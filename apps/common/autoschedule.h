// Autoscheduled variants of the apps: each AppInstance's compile_autoscheduled() gives its
// pipeline estimates of the sizes it runs at (the inputs it is bound to and its output buffer)
// and schedules it with an autoscheduler instead of the hand-written schedule. The same source
// builds against Loom and Halide 21 (where the scheduler is a plugin loaded on first use).
// Include "Halide.h" first.
#ifndef LOOM_APPS_COMMON_AUTOSCHEDULE_H
#define LOOM_APPS_COMMON_AUTOSCHEDULE_H

#include <chrono>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace app_autoschedule {

/// The region a buffer covers, as estimates.
inline Halide::Region region_of(const Halide::Buffer<> &b) {
    Halide::Region r;
    for (int d = 0; d < b.dimensions(); d++) r.push_back({b.dim(d).min(), b.dim(d).extent()});
    return r;
}

/// Binds `b` to the input `p` and estimates p's region as b's (for apps that bind their
/// inputs when compiling).
inline void bind(Halide::ImageParam &p, const Halide::Buffer<> &b) {
    p.set(b);
    p.set_estimates(region_of(b));
}

/// Halide's autoscheduler plugins by scheduler name (Loom's are built in: loading is a no-op).
inline void load_scheduler(const std::string &name) {
    static const std::map<std::string, std::string> plugins = {
        {"Mullapudi2016", "autoschedule_mullapudi2016"},
        {"Adams2019", "autoschedule_adams2019"},
        {"Anderson2021", "autoschedule_anderson2021"},
        {"Li2018", "autoschedule_li2018"}};
    static std::set<std::string> loaded;
    auto it = plugins.find(name);
    if (it != plugins.end() && loaded.insert(name).second) Halide::load_plugin(it->second);
}

/// The milliseconds the last schedule() spent in the autoscheduler (its JIT compile apart).
inline double &last_schedule_ms() {
    static double ms = 0;
    return ms;
}

/// When set, schedule() calls this on the estimated pipeline instead of apply_autoscheduler and
/// returns what it returns: the schedule-source round trip (tests/autoschedule) pastes a
/// written schedule into the apps this way, and records what the autoscheduler did.
inline std::function<std::string(Halide::Pipeline)> &schedule_override() {
    static std::function<std::string(Halide::Pipeline)> f;
    return f;
}

/// Estimates `output` over `out`'s region, schedules its pipeline with `params` and
/// JIT-compiles it; returns the schedule source. The inputs' estimates are set by the caller.
inline std::string schedule(Halide::Func output, const Halide::Buffer<> &out,
                            const Halide::AutoschedulerParams &params) {
    output.set_estimates(region_of(out));
    Halide::Target target = Halide::get_jit_target_from_environment();
    if (schedule_override()) {
        std::string source = schedule_override()(Halide::Pipeline(output));
        last_schedule_ms() = 0;
        output.compile_jit(target);
        return source;
    }
    load_scheduler(params.name);
    auto t0 = std::chrono::steady_clock::now();
    std::string source =
        Halide::Pipeline(output).apply_autoscheduler(target, params).schedule_source;
    last_schedule_ms() =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    output.compile_jit(target);
    return source;
}

} // namespace app_autoschedule

#endif
