#include "autoschedule/mullapudi2016/mullapudi2016.h"

#include "autoschedule/common/pipeline_model.h"
#include "autoschedule/common/schedule_writer.h"
#include "support/error.h"
#include "support/util.h"

#include <algorithm>
#include <iostream>
#include <set>

namespace loom {
namespace internal {

namespace {

/// Per-point cost of one stage after inlining: arithmetic and loads by callee.
struct StageCost {
    double arith = 0;
    std::map<std::string, double> loads;
};

/// A tiling of a group output's pure dimensions: tile size by Var (absent: not tiled).
using Tiling = std::map<std::string, int64_t>;

struct Group {
    int id = 0;
    std::string output;
    std::set<std::string> members; ///< the output included
    /// Empty: the paper's single-element tile (every load a miss).
    Tiling tiling;
    double cost = 0;
};

/// Why the model chose what it did, for LOOM_DEBUG_AUTOSCHEDULE.
std::string tiling_text(const Tiling &t) {
    std::string s;
    for (const auto &kv : t)
        s += (s.empty() ? "" : " ") + kv.first + "=" + std::to_string(kv.second);
    return s.empty() ? "untiled" : s;
}

class Mullapudi2016 {
public:
    Mullapudi2016(const std::vector<Function> &outputs, const Target &target,
                  const MullapudiParams &params)
        : model_(outputs, target), params_(params),
          debug_(get_env("LOOM_DEBUG_AUTOSCHEDULE") == "1") {
        for (const auto &kv : model_.stages) {
            for (const StageModel &m : kv.second) {
                costs_[kv.first].push_back({m.arith, m.loads});
            }
        }
    }

    std::string run(const std::string &header) {
        inline_functions();
        initialize_groups();
        merge_groups();
        return write_schedule(header);
    }

private:
    const Function &func(const std::string &f) const { return model_.graph.func(f); }
    bool is_extern(const std::string &f) const { return func(f).has_extern_definition(); }
    bool is_pure(const std::string &f) const {
        return !is_extern(f) && num_stages(func(f)) == 1 && !func(f).definition().rdom.defined();
    }

    /// Funcs (not inlined) whose stages load f after inlining.
    std::vector<std::string> consumers(const std::string &f) const {
        std::vector<std::string> result;
        for (const std::string &c : model_.graph.order) {
            if (inlined_.count(c) || c == f) continue;
            bool reads = false;
            if (is_extern(c)) {
                for (const ExternFuncArgument &a : func(c).extern_arguments()) {
                    reads |=
                        a.arg_type == ExternFuncArgument::FuncArg && Function(a.func).name() == f;
                }
            } else {
                for (const StageCost &s : costs_.at(c)) reads |= s.loads.count(f) > 0;
            }
            if (reads) result.push_back(c);
        }
        return result;
    }

    /// The cost of computing f's stages over their whole regions with every load a miss.
    double untiled_cost(const std::string &f) const {
        if (is_extern(f)) return 0;
        double cost = 0;
        const std::vector<StageModel> &stages = model_.stages.at(f);
        for (size_t s = 0; s < stages.size(); s++) {
            double loads = 0;
            for (const auto &kv : costs_.at(f)[s].loads) loads += kv.second;
            cost += (double)stages[s].points(model_.region.at(f)) *
                    (costs_.at(f)[s].arith + params_.balance * loads);
        }
        return cost;
    }

    // ---- 1. Inlining (§4.3) ----

    bool can_inline(const std::string &f) const {
        if (inlined_.count(f) || model_.is_output(f) || !is_pure(f)) return false;
        for (const std::string &c : consumers(f)) {
            if (is_extern(c)) return false;
        }
        return !consumers(f).empty();
    }

    /// The cost saved by inlining f into every consumer (negative: a loss).
    double inline_benefit(const std::string &f) const {
        const StageCost &own = costs_.at(f)[0];
        double own_loads = 0;
        for (const auto &kv : own.loads) own_loads += kv.second;
        const double per_point = own.arith + params_.balance * own_loads;
        double benefit = (double)model_.stages.at(f)[0].points(model_.region.at(f)) * per_point;
        for (const std::string &c : consumers(f)) {
            const std::vector<StageModel> &stages = model_.stages.at(c);
            for (size_t s = 0; s < stages.size(); s++) {
                auto n = costs_.at(c)[s].loads.find(f);
                if (n == costs_.at(c)[s].loads.end()) continue;
                const double points = (double)stages[s].points(model_.region.at(c));
                benefit += points * n->second * (params_.balance - per_point);
            }
        }
        return benefit;
    }

    void inline_functions() {
        while (true) {
            std::string best;
            double best_benefit = 0;
            for (const std::string &f : model_.graph.order) {
                if (!can_inline(f)) continue;
                const double b = inline_benefit(f);
                if (b > best_benefit) {
                    best = f;
                    best_benefit = b;
                }
            }
            if (best.empty()) return;
            if (debug_)
                std::cerr << "Mullapudi2016: inline " << best << " (saves " << best_benefit
                          << ")\n";
            const StageCost own = costs_.at(best)[0];
            for (const std::string &c : consumers(best)) {
                for (StageCost &s : costs_.at(c)) {
                    auto n = s.loads.find(best);
                    if (n == s.loads.end()) continue;
                    const double times = n->second;
                    s.loads.erase(n);
                    s.arith += times * own.arith;
                    for (const auto &kv : own.loads) s.loads[kv.first] += times * kv.second;
                }
            }
            inlined_.insert(best);
        }
    }

    // ---- Group analysis ----

    /// Candidate tilings of f's pure dimensions (§4.2.3): hypercubes, and volumes elongated
    /// along each dimension in turn, with at least `min_inner` points in the innermost one.
    std::vector<Tiling> tile_configs(const std::string &f) const {
        const Function &fn = func(f);
        const ConcreteBox &region = model_.region.at(f);
        const std::vector<int64_t> sizes = {1, 4, 8, 16, 32, 64, 128, 256};
        const int64_t min_inner = model_.target.natural_vector_size(fn.output_types()[0]);
        const int dims = fn.dimensions();
        auto make = [&](const std::vector<int64_t> &per_dim) {
            Tiling t;
            for (int d = 0; d < dims; d++) {
                int64_t s = d == 0 ? std::max(per_dim[d], min_inner) : per_dim[d];
                if (s < region[d].extent()) t[fn.args()[d]] = s;
            }
            return t;
        };
        std::vector<Tiling> configs;
        auto add = [&](const Tiling &t) {
            if (!t.empty() && std::find(configs.begin(), configs.end(), t) == configs.end()) {
                configs.push_back(t);
            }
        };
        for (int i = 0; i < dims; i++) {
            for (int64_t s : sizes) {
                std::vector<int64_t> per_dim(dims);
                for (int j = 0; j < dims; j++) per_dim[j] = j < i ? sizes.back() : j == i ? s : 1;
                add(make(per_dim));
            }
        }
        for (int64_t s : sizes) add(make(std::vector<int64_t>(dims, s)));
        return configs;
    }

    struct Analysis {
        bool valid = false;
        double cost = 0;
        int64_t tiles = 0;
        int64_t intermediate_bytes = 0;
    };

    /// The cost of group `members` (output `out`) computed tile by tile (Listing 2).
    Analysis analyze(const std::set<std::string> &members, const std::string &out,
                     const Tiling &tiling) const {
        Analysis a;
        const Function &fn = func(out);
        const ConcreteBox &whole = model_.region.at(out);
        // An interior tile: the first one would be clipped by the edges of the inputs.
        ConcreteBox tile = whole;
        a.tiles = 1;
        for (int d = 0; d < fn.dimensions(); d++) {
            auto t = tiling.find(fn.args()[d]);
            if (t == tiling.end()) continue;
            const int64_t n = (whole[d].extent() + t->second - 1) / t->second;
            a.tiles *= n;
            const int64_t mn = whole[d].min + (n / 2) * t->second;
            tile[d] = {mn, std::min(mn + t->second - 1, whole[d].max)};
        }
        if (a.tiles < params_.parallelism) return a;
        std::map<std::string, ConcreteBox> regions = model_.regions_required(
            out, tile, [&](const std::string &f) { return members.count(f) || inlined_.count(f); });
        double arith = 0, input_points = 0;
        for (const auto &kv : regions) {
            const std::string &f = kv.first;
            if (members.count(f)) {
                if (is_extern(f)) return a; // an extern stage is never computed per tile
                const std::vector<StageModel> &stages = model_.stages.at(f);
                for (size_t s = 0; s < stages.size(); s++) {
                    arith += (double)stages[s].points(kv.second) * costs_.at(f)[s].arith;
                }
                if (f != out)
                    a.intermediate_bytes += box_points(kv.second) * model_.bytes_per_point.at(f);
            } else if (!inlined_.count(f)) {
                input_points += (double)box_points(kv.second);
            }
        }
        if (a.intermediate_bytes > params_.last_level_cache_size) return a;
        a.valid = true;
        a.cost = (double)a.tiles * (arith + params_.balance * input_points);
        return a;
    }

    // ---- 2. Initial tiling (§4.2.1) ----

    void initialize_groups() {
        for (const std::string &f : model_.graph.order) {
            if (inlined_.count(f)) continue;
            Group g;
            g.id = next_id_++;
            g.output = f;
            g.members = {f};
            g.cost = untiled_cost(f);
            if (!is_pure(f) && !is_extern(f)) {
                for (const Tiling &t : tile_configs(f)) {
                    Analysis a = analyze(g.members, f, t);
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
            groups_[f] = g;
        }
    }

    // ---- 3. Grouping (§4.2.2, §4.2.3) ----

    std::string group_of(const std::string &f) const {
        for (const auto &kv : groups_) {
            if (kv.second.members.count(f)) return kv.first;
        }
        return "";
    }

    struct Merge {
        bool valid = false;
        double benefit = 0;
        Tiling tiling;
        double cost = 0;
    };

    /// Listing 2: the benefit of merging producer group p into consumer group c.
    Merge evaluate_merge(const Group &p, const Group &c) const {
        Merge m;
        // Every stage of the consumer's output but the last runs before the tile loop its
        // members are computed in, so none of them may read the producer.
        const std::vector<StageCost> &out_stages = costs_.at(c.output);
        for (size_t s = 0; s + 1 < out_stages.size(); s++) {
            if (out_stages[s].loads.count(p.output)) return m;
        }
        std::set<std::string> members = c.members;
        members.insert(p.members.begin(), p.members.end());
        const double no_merge = p.cost + c.cost;
        for (const Tiling &t : tile_configs(c.output)) {
            Analysis a = analyze(members, c.output, t);
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
        std::map<std::pair<int, int>, Merge> cache;
        while (true) {
            std::string best_p, best_c;
            Merge best;
            for (const auto &kv : groups_) {
                const Group &p = kv.second;
                if (model_.is_output(p.output) || is_extern(p.output)) continue;
                std::set<std::string> consumer_groups;
                for (const std::string &c : consumers(p.output))
                    consumer_groups.insert(group_of(c));
                if (consumer_groups.size() != 1) continue;
                const Group &c = groups_.at(*consumer_groups.begin());
                if (is_extern(c.output)) continue;
                auto key = std::make_pair(p.id, c.id);
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
            Group &c = groups_.at(best_c);
            const Group &p = groups_.at(best_p);
            c.members.insert(p.members.begin(), p.members.end());
            c.tiling = best.tiling;
            c.cost = best.cost;
            c.id = next_id_++;
            groups_.erase(best_p);
        }
    }

    // ---- 4. Schedule (§4.4) ----

    /// Every split guards its tail, so a schedule made for the estimated sizes computes
    /// exactly the region at any size: rounding up or shifting inwards computes, and reads,
    /// beyond it when the region is smaller than a tile (Halide's Mullapudi2016 keeps the
    /// defaults, and its schedules then fail on small inputs without boundary conditions).
    static TailStrategy tile_tail() { return TailStrategy::GuardWithIf; }
    static TailStrategy vector_tail() { return TailStrategy::GuardWithIf; }

    /// Vectorizes stage s of f along f's innermost dimension (`var` is its loop, `extent`
    /// the loop's extent). In an update whose RVars are innermost, both loops of that
    /// dimension move inside them (as Halide's Mullapudi2016 does): a reduction then sweeps a
    /// whole row of accumulators per step of its RVars, reading its inputs along their rows.
    void vectorize_innermost(ScheduleWriter &w, const std::string &f, int s, const std::string &var,
                             int64_t extent) {
        const int64_t lanes = model_.target.natural_vector_size(func(f).output_types()[0]);
        if (lanes <= 1 || extent < lanes) return;
        const std::string vo = var + "_vo", vi = var + "_vi";
        w.split(f, s, var, vo, vi, lanes, vector_tail());
        w.vectorize(f, s, vi);
        const std::vector<std::string> &loops = w.loops(f, s);
        if (loops.front() != vi || loops[1] != vo) {
            std::vector<std::string> order = {vi, vo};
            for (const std::string &l : loops) {
                if (l != vi && l != vo) order.push_back(l);
            }
            w.reorder(f, s, order);
        }
    }

    std::string write_schedule(const std::string &header) {
        ScheduleWriter w(model_.graph.env, model_.graph.order);
        // Reset, every pure Func is inlined: the source need not say so (and names only the Funcs
        // it schedules, which is what keeps it valid in Halide, where inputs and boundary
        // conditions are wrapped in more Funcs with other names).
        for (const std::string &f : model_.graph.order) w.reset(f);
        for (const std::string &f : model_.graph.order) {
            auto gi = groups_.find(f);
            if (gi == groups_.end()) continue;
            const Group &g = gi->second;
            const Function &out = func(f);
            if (!model_.is_output(f)) w.compute_root(f);
            if (is_extern(f)) continue;
            std::string tile_var; // the innermost tile loop of the last stage
            for (int s = 0; s < num_stages(out); s++) {
                const StageModel &m = model_.stages.at(f)[s];
                std::vector<std::string> outer;
                std::map<std::string, int64_t> loop_extent;
                for (size_t i = 0; i < m.pure_vars.size(); i++) {
                    const std::string &v = m.pure_vars[i];
                    const int64_t extent = model_.region.at(f)[m.pure_dims[i]].extent();
                    auto t = g.tiling.find(v);
                    if (t == g.tiling.end()) {
                        loop_extent[v] = extent;
                        continue;
                    }
                    w.split(f, s, v, v + "_o", v + "_i", t->second, tile_tail());
                    outer.push_back(v + "_o");
                    loop_extent[v + "_o"] = (extent + t->second - 1) / t->second;
                    loop_extent[v + "_i"] = t->second;
                }
                if (!outer.empty()) {
                    // Tile loops outermost, in dimension order; the rest keep their order.
                    std::vector<std::string> order;
                    for (const std::string &l : w.loops(f, s)) {
                        if (std::find(outer.begin(), outer.end(), l) == outer.end())
                            order.push_back(l);
                    }
                    order.insert(order.end(), outer.begin(), outer.end());
                    w.reorder(f, s, order);
                }
                if (!m.pure_dims.empty() && m.pure_dims[0] == 0) {
                    const std::string &v = m.pure_vars[0];
                    const std::string inner = g.tiling.count(v) ? v + "_i" : v;
                    vectorize_innermost(w, f, s, inner, loop_extent[inner]);
                }
                // Parallel: outermost pure loops until there are enough tasks.
                const std::vector<std::string> loops = w.loops(f, s);
                int64_t tasks = 1;
                for (auto l = loops.rbegin(); l != loops.rend() && tasks < params_.parallelism;
                     ++l) {
                    if (w.is_rvar(f, s, *l) || !loop_extent.count(*l)) break;
                    if (loop_extent[*l] <= 1) continue;
                    w.parallel(f, s, *l);
                    tasks *= loop_extent[*l];
                }
                if (s + 1 == num_stages(out)) {
                    for (const std::string &l : loops) {
                        if (std::find(outer.begin(), outer.end(), l) != outer.end()) {
                            tile_var = l;
                            break;
                        }
                    }
                }
            }
            // The other members, per tile (at the root when the output has no tile loop).
            std::map<std::string, ConcreteBox> tile_regions;
            if (g.members.size() > 1) {
                ConcreteBox tile = model_.region.at(f);
                for (int d = 0; d < out.dimensions(); d++) {
                    auto t = g.tiling.find(out.args()[d]);
                    if (t != g.tiling.end()) tile[d].max = tile[d].min + t->second - 1;
                }
                tile_regions = model_.regions_required(f, tile, [&](const std::string &m) {
                    return g.members.count(m) || inlined_.count(m);
                });
            }
            for (auto m = model_.graph.order.rbegin(); m != model_.graph.order.rend(); ++m) {
                if (*m == f || !g.members.count(*m)) continue;
                if (tile_var.empty()) {
                    w.compute_root(*m);
                } else {
                    w.compute_at(*m, f, tile_var);
                }
                // (A member no tile reads, its calls simplified away, has an empty region.)
                const ConcreteBox r = tile_var.empty()         ? model_.region.at(*m)
                                      : tile_regions.count(*m) ? tile_regions.at(*m)
                                                               : ConcreteBox(func(*m).dimensions());
                for (int s = 0; s < num_stages(func(*m)); s++) {
                    const StageModel &sm = model_.stages.at(*m)[s];
                    if (!sm.pure_dims.empty() && sm.pure_dims[0] == 0) {
                        vectorize_innermost(w, *m, s, sm.pure_vars[0], r[0].extent());
                    }
                }
            }
        }
        return w.source(header);
    }

    PipelineModel model_;
    MullapudiParams params_;
    bool debug_;
    std::map<std::string, std::vector<StageCost>> costs_;
    std::set<std::string> inlined_;
    std::map<std::string, Group> groups_; ///< by output Func
    int next_id_ = 0;
};

} // namespace

std::string autoschedule_mullapudi2016(const std::vector<Function> &outputs, const Target &target,
                                       const MullapudiParams &params, const std::string &header) {
    return Mullapudi2016(outputs, target, params).run(header);
}

} // namespace internal
} // namespace loom
