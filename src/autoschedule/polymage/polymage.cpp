#include "autoschedule/polymage/polymage.h"

#include "autoschedule/common/tuner.h"
#include "support/util.h"

#include <algorithm>
#include <cmath>
#include <iostream>

namespace loom {
namespace internal {

namespace {

/// The group tiling of f: tile_sizes along its first dimensions, where smaller than the region.
Tiling tiling_for(const GroupCostModel &cost, const std::string &f,
                  const std::vector<int64_t> &tile_sizes) {
    Tiling t;
    const Function &fn = cost.func(f);
    for (int d = 0; d < fn.dimensions() && d < (int)tile_sizes.size(); d++) {
        if (tile_sizes[d] < cost.model().region.at(f)[d].extent()) t[fn.args()[d]] = tile_sizes[d];
    }
    return t;
}

/// Whether inlining f repeats little of its work: every stage that reads f (after inlining)
/// reads it at most once per point, and all of them together read it at most at twice as many
/// points as f has (a boundary condition reads the input's edge a few more times), or f does
/// no arithmetic (a copy of an input). The second condition keeps a small table read at
/// data-dependent positions (a lookup table indexed by pixel values) a table: inlined, it
/// would be recomputed for every pixel.
bool inlining_repeats_little(const GroupCostModel &cost, const std::string &f) {
    const PipelineModel &model = cost.model();
    double reads = 0;
    for (const std::string &c : cost.consumers(f)) {
        for (size_t s = 0; s < model.stages.at(c).size(); s++) {
            const double per_point = cost.loads_per_point(c, (int)s, f);
            if (per_point > 1) return false;
            reads += per_point * (double)model.stages.at(c)[s].points(model.region.at(c));
        }
    }
    return cost.arith_per_point(f, 0) == 0 ||
           reads <= 2 * (double)model.stages.at(f)[0].points(model.region.at(f));
}

bool is_reduction(const GroupCostModel &cost, const std::string &f) {
    return !cost.is_extern(f) && !cost.is_pure(f);
}

std::string sizes_text(const std::vector<int64_t> &sizes) {
    std::string s;
    for (int64_t v : sizes) s += (s.empty() ? "" : "x") + std::to_string(v);
    return s;
}

} // namespace

std::vector<PolyMageConfig> polymage_tuning_space() {
    const PolyMageParams defaults;
    std::vector<std::pair<double, PolyMageConfig>> space;
    for (int64_t x : {64, 128, 256, 512}) {
        for (int64_t y : {8, 16, 32, 64, 128}) {
            for (double t : {0.2, 0.4, 0.5}) {
                const double distance = std::fabs(std::log2((double)x / defaults.tile_sizes[0])) +
                                        std::fabs(std::log2((double)y / defaults.tile_sizes[1])) +
                                        (t == defaults.overlap_threshold ? 0 : 1);
                space.push_back({distance, {{x, y}, t}});
            }
        }
    }
    std::stable_sort(space.begin(), space.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    std::vector<PolyMageConfig> configs;
    for (const auto &p : space) configs.push_back(p.second);
    return configs;
}

GroupingPlan polymage_plan(GroupCostModel &cost, const std::vector<int64_t> &tile_sizes,
                           double overlap_threshold) {
    const bool debug = get_env("LOOM_DEBUG_AUTOSCHEDULE") == "1";
    const PipelineModel &model = cost.model();
    for (const std::string &f : model.graph.order) {
        if (cost.can_inline(f) && inlining_repeats_little(cost, f)) {
            if (debug) std::cerr << "PolyMage: inline " << f << "\n";
            cost.inline_func(f);
        }
    }
    GroupingPlan plan;
    plan.inlined = cost.inlined();
    for (const std::string &f : model.graph.order) {
        if (cost.inlined().count(f)) continue;
        Group g;
        g.output = f;
        g.members = {f};
        if (!cost.is_extern(f)) g.tiling = tiling_for(cost, f, tile_sizes);
        g.cost = cost.analyze(g.members, f, g.tiling).cost;
        plan.groups[f] = g;
    }
    bool merged = true;
    while (merged) {
        merged = false;
        for (auto p = model.graph.order.rbegin(); p != model.graph.order.rend() && !merged; ++p) {
            if (!plan.groups.count(*p) || is_reduction(cost, *p)) continue;
            const std::string c = cost.single_consumer_group(plan, *p);
            if (c.empty() || is_reduction(cost, c) ||
                !cost.can_merge(plan.groups.at(*p), plan.groups.at(c)))
                continue;
            Group &consumer = plan.groups.at(c);
            std::set<std::string> members = consumer.members;
            const std::set<std::string> &producer = plan.groups.at(*p).members;
            members.insert(producer.begin(), producer.end());
            const GroupCostModel::Analysis a = cost.analyze(members, c, consumer.tiling);
            if (debug) {
                std::cerr << "PolyMage: " << *p << " into " << c << ": overlap "
                          << a.redundant_fraction
                          << (a.redundant_fraction <= overlap_threshold ? ", merged" : "") << "\n";
            }
            if (a.redundant_fraction > overlap_threshold) continue;
            consumer.members = members;
            consumer.cost = a.cost;
            plan.groups.erase(*p);
            merged = true;
        }
    }
    if (debug) {
        for (const auto &kv : plan.groups) {
            std::cerr << "PolyMage: group " << kv.first << " (" << kv.second.members.size()
                      << " Funcs): " << tiling_text(kv.second.tiling) << ", cost " << kv.second.cost
                      << "\n";
        }
    }
    return plan;
}

std::string autoschedule_polymage(const std::vector<Function> &outputs, const Target &target,
                                  const PolyMageParams &params, const std::string &header,
                                  const ScheduleTimer &timer) {
    const PipelineModel model(outputs, target);
    auto candidate = [&](const std::vector<int64_t> &sizes, double threshold) {
        return TuningCandidate{sizes_text(sizes) + " overlap " + std::to_string(threshold),
                               [=, &model] {
                                   GroupCostModel cost(model, params.cost);
                                   const GroupingPlan plan = polymage_plan(cost, sizes, threshold);
                                   EmitOptions options;
                                   options.parallelism = params.cost.parallelism;
                                   return write_grouped_schedule(cost, plan, options, header);
                               }};
    };
    std::vector<TuningCandidate> candidates = {
        candidate(params.tile_sizes, params.overlap_threshold)};
    if (params.autotune_s > 0) {
        for (const PolyMageConfig &c : polymage_tuning_space())
            candidates.push_back(candidate(c.tile_sizes, c.overlap_threshold));
    }
    return tune(candidates, model, timer, params.autotune_s, "PolyMage");
}

} // namespace internal
} // namespace loom
