#include "autoschedule/mullapudi2016/mullapudi2016.h"

#include "support/util.h"

#include <iostream>

namespace loom {
namespace internal {

namespace {

class Mullapudi2016 {
public:
    explicit Mullapudi2016(GroupCostModel &cost)
        : cost_(cost), debug_(get_env("LOOM_DEBUG_AUTOSCHEDULE") == "1") {}

    GroupingPlan run() {
        inline_functions();
        initialize_groups();
        merge_groups();
        plan_.inlined = cost_.inlined();
        return plan_;
    }

private:
    const PipelineModel &model() const { return cost_.model(); }

    // ---- 1. Inlining (§4.3) ----

    void inline_functions() {
        while (true) {
            std::string best;
            double best_benefit = 0;
            for (const std::string &f : model().graph.order) {
                if (!cost_.can_inline(f)) continue;
                const double b = cost_.inline_benefit(f);
                if (b > best_benefit) {
                    best = f;
                    best_benefit = b;
                }
            }
            if (best.empty()) return;
            if (debug_)
                std::cerr << "Mullapudi2016: inline " << best << " (saves " << best_benefit
                          << ")\n";
            cost_.inline_func(best);
        }
    }

    // ---- 2. Initial tiling (§4.2.1) ----

    void initialize_groups() {
        for (const std::string &f : model().graph.order) {
            if (cost_.inlined().count(f)) continue;
            Group g;
            g.output = f;
            g.members = {f};
            g.cost = cost_.untiled_cost(f);
            // Pure Funcs too, as Halide's initialize_groups does (see the header).
            if (!cost_.is_extern(f)) {
                for (const Tiling &t : cost_.tile_configs(f)) {
                    GroupCostModel::Analysis a = cost_.analyze(g.members, f, t);
                    if (a.valid && a.cost < g.cost) {
                        g.cost = a.cost;
                        g.tiling = t;
                    }
                }
            }
            if (debug_) {
                std::cerr << "Mullapudi2016: group " << f << ": " << tiling_text(g.tiling)
                          << ", cost " << g.cost << "\n";
            }
            plan_.groups[f] = g;
        }
    }

    // ---- 3. Grouping (§4.2.2, §4.2.3) ----

    struct Merge {
        bool valid = false;
        double benefit = 0;
        Tiling tiling;
        double cost = 0;
    };

    /// Listing 2: the benefit of merging producer group p into consumer group c.
    Merge evaluate_merge(const Group &p, const Group &c) const {
        Merge m;
        if (!cost_.can_merge(p, c)) return m;
        std::set<std::string> members = c.members;
        members.insert(p.members.begin(), p.members.end());
        const double no_merge = p.cost + c.cost;
        for (const Tiling &t : cost_.tile_configs(c.output)) {
            GroupCostModel::Analysis a = cost_.analyze(members, c.output, t);
            if (!a.valid) continue;
            const double benefit = no_merge - a.cost;
            if (!m.valid || benefit > m.benefit) {
                m.valid = true;
                m.benefit = benefit;
                m.tiling = t;
                m.cost = a.cost;
            }
        }
        return m;
    }

    void merge_groups() {
        // Merges evaluated, by the (producer, consumer) groups' member sets.
        std::map<std::pair<std::set<std::string>, std::set<std::string>>, Merge> cache;
        while (true) {
            std::string best_p, best_c;
            Merge best;
            for (const auto &kv : plan_.groups) {
                const Group &p = kv.second;
                const std::string c_name = cost_.single_consumer_group(plan_, p.output);
                if (c_name.empty()) continue;
                const Group &c = plan_.groups.at(c_name);
                auto key = std::make_pair(p.members, c.members);
                auto it = cache.find(key);
                if (it == cache.end()) it = cache.emplace(key, evaluate_merge(p, c)).first;
                const Merge &m = it->second;
                if (m.valid && m.benefit > 0 && (!best.valid || m.benefit > best.benefit)) {
                    best = m;
                    best_p = p.output;
                    best_c = c.output;
                }
            }
            if (best_p.empty()) return;
            if (debug_) {
                std::cerr << "Mullapudi2016: merge " << best_p << " into " << best_c << ": "
                          << tiling_text(best.tiling) << ", cost " << best.cost << " (saves "
                          << best.benefit << ")\n";
            }
            Group &c = plan_.groups.at(best_c);
            const Group &p = plan_.groups.at(best_p);
            c.members.insert(p.members.begin(), p.members.end());
            c.tiling = best.tiling;
            c.cost = best.cost;
            plan_.groups.erase(best_p);
        }
    }

    GroupCostModel &cost_;
    bool debug_;
    GroupingPlan plan_;
};

} // namespace

GroupingPlan mullapudi2016_plan(GroupCostModel &cost) { return Mullapudi2016(cost).run(); }

std::string autoschedule_mullapudi2016(const std::vector<Function> &outputs, const Target &target,
                                       const CostParams &params, const std::string &header) {
    PipelineModel model(outputs, target);
    GroupCostModel cost(model, params);
    const GroupingPlan plan = mullapudi2016_plan(cost);
    EmitOptions options;
    options.parallelism = params.parallelism;
    options.locality_order = true;
    return write_grouped_schedule(cost, plan, options, header);
}

} // namespace internal
} // namespace loom
