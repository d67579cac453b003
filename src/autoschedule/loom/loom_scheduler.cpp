#include "autoschedule/loom/loom_scheduler.h"

#include "autoschedule/common/tuner.h"
#include "autoschedule/mullapudi2016/mullapudi2016.h"
#include "autoschedule/polymage/polymage.h"
#include "support/util.h"

#include <iostream>

namespace loom {
namespace internal {

namespace {

/// A grouping strategy: runs on a fresh cost model (which it inlines into).
struct Strategy {
    std::string label;
    CostParams cost;
    std::function<GroupingPlan(GroupCostModel &)> plan;
};

constexpr int64_t kUnrollExtent = 4;

} // namespace

std::string autoschedule_loom(const std::vector<Function> &outputs, const Target &target,
                              const LoomSchedulerParams &params, const std::string &header,
                              const ScheduleTimer &timer) {
    const bool debug = get_env("LOOM_DEBUG_AUTOSCHEDULE") == "1";
    const PipelineModel model(outputs, target);
    CostParams base = params.cost;
    base.vector_granularity = true;
    auto mullapudi = [&](double balance, int64_t cache) {
        CostParams c = base;
        c.balance = balance;
        c.last_level_cache_size = cache;
        return Strategy{"Mullapudi2016 balance " + std::to_string((int)balance) + " cache " +
                            std::to_string(cache >> 10) + "K",
                        c, [](GroupCostModel &m) { return mullapudi2016_plan(m); }};
    };
    auto polymage = [&](const std::vector<int64_t> &sizes, double threshold) {
        return Strategy{"PolyMage " + std::to_string(sizes[0]) + "x" + std::to_string(sizes[1]) +
                            " overlap " + std::to_string(threshold),
                        base,
                        [=](GroupCostModel &m) { return polymage_plan(m, sizes, threshold); }};
    };

    // Model-only: the cheapest plan under the model at the user's parameters.
    const std::vector<Strategy> modeled = {mullapudi(base.balance, base.last_level_cache_size),
                                           polymage({256, 32}, 0.4), polymage({128, 16}, 0.2),
                                           polymage({64, 64}, 0.5)};
    size_t chosen = 0;
    double chosen_cost = 0;
    for (size_t i = 0; i < modeled.size(); i++) {
        GroupCostModel cost(model, modeled[i].cost);
        const GroupingPlan plan = modeled[i].plan(cost);
        // The 2016 model prices work as if every stage ran on all cores; work a plan leaves
        // in a serial stage (what it inlined into a histogram's scatter, say) takes
        // `parallelism` times as long.
        double c = plan.cost();
        for (const auto &g : plan.groups) {
            for (const std::string &f : g.second.members)
                c += (base.parallelism - 1) * cost.serial_cost(f);
        }
        if (debug) std::cerr << "Loom: " << modeled[i].label << ": model cost " << c << "\n";
        if (i == 0 || c < chosen_cost) {
            chosen = i;
            chosen_cost = c;
        }
    }
    if (debug) std::cerr << "Loom: model chooses " << modeled[chosen].label << "\n";

    // Register blocking of reductions is on unless tuning finds it slower.
    auto candidate = [&](const Strategy &s, int vector_factor, int64_t unroll, bool block = true) {
        return TuningCandidate{s.label + " vectors x" + std::to_string(vector_factor) +
                                   (unroll ? " unrolled" : "") + (block ? " register-blocked" : ""),
                               [=, &model] {
                                   GroupCostModel cost(model, s.cost);
                                   GroupingPlan plan = s.plan(cost);
                                   if (block) block_reductions(cost, &plan);
                                   EmitOptions options;
                                   options.parallelism = s.cost.parallelism;
                                   options.vector_factor = vector_factor;
                                   options.unroll_rvar_extent = unroll;
                                   options.parallel_updates = true;
                                   return write_grouped_schedule(cost, plan, options, header);
                               }};
    };
    std::vector<TuningCandidate> candidates = {candidate(modeled[chosen], 1, kUnrollExtent)};
    if (params.autotune_s > 0) {
        // Nearest the model's choice first: its layout variants, then the other strategies.
        for (int vf : {1, 2}) {
            for (int64_t unroll : {int64_t(0), kUnrollExtent}) {
                for (bool block : {true, false})
                    candidates.push_back(candidate(modeled[chosen], vf, unroll, block));
            }
        }
        for (const Strategy &s : modeled) candidates.push_back(candidate(s, 1, kUnrollExtent));
        for (double balance : {10.0, 20.0, 80.0, 160.0}) {
            for (int64_t cache : {int64_t(1) << 20, int64_t(16) << 20}) {
                candidates.push_back(candidate(mullapudi(balance, cache), 1, kUnrollExtent));
            }
        }
        for (const PolyMageConfig &c : polymage_tuning_space())
            candidates.push_back(
                candidate(polymage(c.tile_sizes, c.overlap_threshold), 1, kUnrollExtent));
    }
    return tune(candidates, model, timer, params.autotune_s, "Loom");
}

} // namespace internal
} // namespace loom
