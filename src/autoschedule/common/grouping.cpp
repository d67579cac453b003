#include "autoschedule/common/grouping.h"

#include "ir/ir_utils.h"
#include "support/error.h"

#include <algorithm>

namespace loom {
namespace internal {

std::string tiling_text(const Tiling &t) {
    std::string s;
    for (const auto &kv : t)
        s += (s.empty() ? "" : " ") + kv.first + "=" + std::to_string(kv.second);
    return s.empty() ? "untiled" : s;
}

std::string GroupingPlan::group_of(const std::string &f) const {
    for (const auto &kv : groups) {
        if (kv.second.members.count(f)) return kv.first;
    }
    return "";
}

double GroupingPlan::cost() const {
    double c = 0;
    for (const auto &kv : groups) c += kv.second.cost;
    return c;
}

GroupCostModel::GroupCostModel(const PipelineModel &model, const CostParams &params)
    : model_(model), params_(params) {
    for (const auto &kv : model_.stages) {
        for (const StageModel &m : kv.second) costs_[kv.first].push_back({m.arith, m.loads});
    }
}

bool GroupCostModel::is_pure(const std::string &f) const {
    return !is_extern(f) && num_stages(func(f)) == 1 && !func(f).definition().rdom.defined();
}

double GroupCostModel::loads_per_point(const std::string &f, int stage,
                                       const std::string &callee) const {
    const std::map<std::string, double> &loads = costs_.at(f)[stage].loads;
    auto it = loads.find(callee);
    return it == loads.end() ? 0 : it->second;
}

std::vector<std::string> GroupCostModel::consumers(const std::string &f) const {
    std::vector<std::string> result;
    for (const std::string &c : model_.graph.order) {
        if (inlined_.count(c) || c == f) continue;
        bool reads = false;
        if (is_extern(c)) {
            for (const ExternFuncArgument &a : func(c).extern_arguments()) {
                reads |= a.arg_type == ExternFuncArgument::FuncArg && Function(a.func).name() == f;
            }
        } else {
            for (const StageCost &s : costs_.at(c)) reads |= s.loads.count(f) > 0;
        }
        if (reads) result.push_back(c);
    }
    return result;
}

double GroupCostModel::untiled_cost(const std::string &f) const {
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

bool GroupCostModel::can_inline(const std::string &f) const {
    if (inlined_.count(f) || model_.is_output(f) || !is_pure(f)) return false;
    const std::vector<std::string> cs = consumers(f);
    for (const std::string &c : cs) {
        if (is_extern(c)) return false;
    }
    return !cs.empty();
}

double GroupCostModel::inline_benefit(const std::string &f) const {
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

void GroupCostModel::inline_func(const std::string &f) {
    internal_assert(can_inline(f)) << "inlining " << f;
    const StageCost own = costs_.at(f)[0];
    for (const std::string &c : consumers(f)) {
        for (StageCost &s : costs_.at(c)) {
            auto n = s.loads.find(f);
            if (n == s.loads.end()) continue;
            const double times = n->second;
            s.loads.erase(n);
            s.arith += times * own.arith;
            for (const auto &kv : own.loads) s.loads[kv.first] += times * kv.second;
        }
    }
    inlined_.insert(f);
}

std::vector<Tiling> GroupCostModel::tile_configs(const std::string &f) const {
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

GroupCostModel::Analysis GroupCostModel::analyze(const std::set<std::string> &members,
                                                 const std::string &out,
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
    std::map<std::string, ConcreteBox> regions = model_.regions_required(
        out, tile, [&](const std::string &f) { return members.count(f) || inlined_.count(f); });
    double arith = 0, arith_untiled = 0, input_points = 0;
    bool has_extern = false;
    for (const auto &kv : regions) {
        const std::string &f = kv.first;
        if (members.count(f)) {
            if (is_extern(f)) {
                has_extern = true; // an extern stage is never computed per tile
                continue;
            }
            const std::vector<StageModel> &stages = model_.stages.at(f);
            for (size_t s = 0; s < stages.size(); s++) {
                arith += (double)stages[s].points(kv.second) * costs_.at(f)[s].arith;
                arith_untiled +=
                    (double)stages[s].points(model_.region.at(f)) * costs_.at(f)[s].arith;
            }
            if (f != out)
                a.intermediate_bytes += box_points(kv.second) * model_.bytes_per_point.at(f);
        } else if (!inlined_.count(f)) {
            input_points += (double)box_points(kv.second);
        }
    }
    a.cost = (double)a.tiles * (arith + params_.balance * input_points);
    if (arith_untiled > 0)
        a.redundant_fraction = std::max(0.0, (double)a.tiles * arith / arith_untiled - 1);
    a.valid = !has_extern && a.tiles >= params_.parallelism &&
              a.intermediate_bytes <= params_.last_level_cache_size;
    return a;
}

bool GroupCostModel::can_merge(const Group &p, const Group &c) const {
    const std::vector<StageCost> &out_stages = costs_.at(c.output);
    for (size_t s = 0; s + 1 < out_stages.size(); s++) {
        if (out_stages[s].loads.count(p.output)) return false;
    }
    return !is_extern(c.output) && !is_extern(p.output);
}

std::string GroupCostModel::single_consumer_group(const GroupingPlan &plan,
                                                  const std::string &f) const {
    if (model_.is_output(f) || is_extern(f)) return "";
    std::set<std::string> consumer_groups;
    for (const std::string &c : consumers(f)) consumer_groups.insert(plan.group_of(c));
    if (consumer_groups.size() != 1 || is_extern(*consumer_groups.begin())) return "";
    return *consumer_groups.begin();
}

namespace {

/// Every split guards its tail, so a schedule made for the estimated sizes computes exactly
/// the region at any size: rounding up or shifting inwards computes, and reads, beyond it when
/// the region is smaller than a tile (Halide's Mullapudi2016 keeps the defaults, and its
/// schedules then fail on small inputs without boundary conditions).
constexpr TailStrategy kTail = TailStrategy::GuardWithIf;

class GroupedScheduleWriter {
public:
    GroupedScheduleWriter(const GroupCostModel &cost, const GroupingPlan &plan,
                          const EmitOptions &options)
        : cost_(cost), model_(cost.model()), plan_(plan), options_(options),
          w_(model_.graph.env, model_.graph.order) {}

    std::string write(const std::string &header) {
        // Reset, every pure Func is inlined: the source need not say so (and names only the
        // Funcs it schedules, which is what keeps it valid in Halide, where inputs and boundary
        // conditions are wrapped in more Funcs with other names).
        for (const std::string &f : model_.graph.order) w_.reset(f);
        for (const std::string &f : model_.graph.order) {
            auto g = plan_.groups.find(f);
            if (g != plan_.groups.end()) write_group(g->second);
        }
        return w_.source(header);
    }

private:
    const Function &func(const std::string &f) const { return model_.graph.func(f); }

    /// Vectorizes stage s of f along f's innermost dimension (`var` is its loop, `extent` the
    /// loop's extent). In an update whose RVars are innermost, both loops of that dimension
    /// move inside them (as Halide's Mullapudi2016 does): a reduction then sweeps a whole row
    /// of accumulators per step of its RVars, reading its inputs along their rows.
    void vectorize_innermost(const std::string &f, int s, const std::string &var, int64_t extent) {
        const int64_t lanes =
            model_.target.natural_vector_size(func(f).output_types()[0]) * options_.vector_factor;
        if (lanes <= 1 || extent < lanes) return;
        const std::string vo = var + "_vo", vi = var + "_vi";
        w_.split(f, s, var, vo, vi, lanes, kTail);
        w_.vectorize(f, s, vi);
        const std::vector<std::string> &loops = w_.loops(f, s);
        if (loops.front() != vi || loops[1] != vo) {
            std::vector<std::string> order = {vi, vo};
            for (const std::string &l : loops) {
                if (l != vi && l != vo) order.push_back(l);
            }
            w_.reorder(f, s, order);
        }
    }

    /// Unrolls the RVars of stage s that are innermost (but for the vector loops), of a
    /// constant extent and short: a small stencil's taps become straight-line code.
    void unroll_short_rvars(const std::string &f, int s) {
        if (options_.unroll_rvar_extent <= 0 || s == 0) return;
        const Definition &def = stage_definition(func(f), s);
        if (!def.rdom.defined()) return;
        for (const std::string &l : w_.loops(f, s)) {
            if (ends_with_vector_loop(l)) continue;
            const ReductionVariable *rv = nullptr;
            for (const ReductionVariable &r : def.rdom.domain()) {
                if (r.var == l) rv = &r;
            }
            const int64_t *extent = rv ? as_const_int(rv->extent) : nullptr;
            if (!extent || *extent > options_.unroll_rvar_extent) return;
            w_.unroll(f, s, l);
        }
    }
    static bool ends_with_vector_loop(const std::string &l) {
        return l.size() > 3 &&
               (l.compare(l.size() - 3, 3, "_vi") == 0 || l.compare(l.size() - 3, 3, "_vo") == 0);
    }

    void write_group(const Group &g) {
        const std::string &f = g.output;
        const Function &out = func(f);
        if (!model_.is_output(f)) w_.compute_root(f);
        if (cost_.is_extern(f)) return;
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
                w_.split(f, s, v, v + "_o", v + "_i", t->second, kTail);
                outer.push_back(v + "_o");
                loop_extent[v + "_o"] = (extent + t->second - 1) / t->second;
                loop_extent[v + "_i"] = t->second;
            }
            if (!outer.empty()) {
                // Tile loops outermost, in dimension order; the rest keep their order.
                std::vector<std::string> order;
                for (const std::string &l : w_.loops(f, s)) {
                    if (std::find(outer.begin(), outer.end(), l) == outer.end()) order.push_back(l);
                }
                order.insert(order.end(), outer.begin(), outer.end());
                w_.reorder(f, s, order);
            }
            if (!m.pure_dims.empty() && m.pure_dims[0] == 0) {
                const std::string &v = m.pure_vars[0];
                const std::string inner = g.tiling.count(v) ? v + "_i" : v;
                vectorize_innermost(f, s, inner, loop_extent[inner]);
            }
            unroll_short_rvars(f, s);
            // Parallel: outermost pure loops until there are enough tasks.
            const std::vector<std::string> loops = w_.loops(f, s);
            int64_t tasks = 1;
            for (auto l = loops.rbegin(); l != loops.rend() && tasks < options_.parallelism; ++l) {
                if (w_.is_rvar(f, s, *l) || !loop_extent.count(*l)) break;
                if (loop_extent[*l] <= 1) continue;
                w_.parallel(f, s, *l);
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
                return g.members.count(m) || plan_.inlined.count(m);
            });
        }
        for (auto m = model_.graph.order.rbegin(); m != model_.graph.order.rend(); ++m) {
            if (*m == f || !g.members.count(*m)) continue;
            if (tile_var.empty()) {
                w_.compute_root(*m);
            } else {
                w_.compute_at(*m, f, tile_var);
            }
            // (A member no tile reads, its calls simplified away, has an empty region.)
            const ConcreteBox r = tile_var.empty()         ? model_.region.at(*m)
                                  : tile_regions.count(*m) ? tile_regions.at(*m)
                                                           : ConcreteBox(func(*m).dimensions());
            for (int s = 0; s < num_stages(func(*m)); s++) {
                const StageModel &sm = model_.stages.at(*m)[s];
                if (!sm.pure_dims.empty() && sm.pure_dims[0] == 0) {
                    vectorize_innermost(*m, s, sm.pure_vars[0], r[0].extent());
                }
                unroll_short_rvars(*m, s);
            }
        }
    }

    const GroupCostModel &cost_;
    const PipelineModel &model_;
    const GroupingPlan &plan_;
    EmitOptions options_;
    ScheduleWriter w_;
};

} // namespace

std::string write_grouped_schedule(const GroupCostModel &cost, const GroupingPlan &plan,
                                   const EmitOptions &options, const std::string &header) {
    return GroupedScheduleWriter(cost, plan, options).write(header);
}

} // namespace internal
} // namespace loom
