#include "autoschedule/common/tuner.h"

#include "support/error.h"
#include "support/util.h"

#include <chrono>
#include <iostream>
#include <set>

namespace loom {
namespace internal {

BufferShapes estimated_shapes(const PipelineModel &model) {
    BufferShapes shapes;
    for (const auto &kv : model.region) {
        if (!model.is_input(kv.first) && !model.is_output(kv.first)) continue;
        for (const Span &s : kv.second) shapes[kv.first].push_back({s.min, s.extent()});
    }
    return shapes;
}

std::string tune(const std::vector<TuningCandidate> &candidates, const PipelineModel &model,
                 const ScheduleTimer &timer, double budget_s, const std::string &who) {
    internal_assert(!candidates.empty()) << "tune: no candidates";
    const bool debug = get_env("LOOM_DEBUG_AUTOSCHEDULE") == "1";
    if (!timer || budget_s <= 0) return candidates[0].apply();
    const BufferShapes shapes = estimated_shapes(model);
    const auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    std::set<std::string> seen;
    size_t best = candidates.size();
    double best_seconds = 0;
    int timed = 0;
    for (size_t i = 0; i < candidates.size() && (i == 0 || elapsed() < budget_s); i++) {
        const std::string source = candidates[i].apply();
        if (!seen.insert(source).second) continue;
        const double seconds = timer(shapes);
        timed++;
        if (debug) {
            std::cerr << who << ": candidate " << candidates[i].label << ": "
                      << (seconds < 0 ? std::string("failed")
                                      : std::to_string(seconds * 1e3) + " ms")
                      << "\n";
        }
        if (seconds >= 0 && (best == candidates.size() || seconds < best_seconds)) {
            best = i;
            best_seconds = seconds;
        }
    }
    if (debug) {
        std::cerr << who << ": timed " << timed << " of " << candidates.size() << " candidates in "
                  << elapsed() << " s; best "
                  << (best < candidates.size() ? candidates[best].label : "none") << "\n";
    }
    return candidates[best < candidates.size() ? best : 0].apply();
}

} // namespace internal
} // namespace loom
