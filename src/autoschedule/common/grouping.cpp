#include "autoschedule/common/grouping.h"

#include "autoschedule/common/parallel_reduction.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "support/error.h"
#include "support/util.h"

#include <algorithm>
#include <iostream>
#include <limits>

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
    return stages_cost(f, /*serial_only=*/false);
}

double GroupCostModel::serial_cost(const std::string &f) const {
    return stages_cost(f, /*serial_only=*/true);
}

double GroupCostModel::stages_cost(const std::string &f, bool serial_only) const {
    if (is_extern(f)) return 0;
    double cost = 0;
    const std::vector<StageModel> &stages = model_.stages.at(f);
    for (size_t s = 0; s < stages.size(); s++) {
        if (serial_only && !stages[s].pure_vars.empty()) continue;
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
                arith += (double)stages[s].points(kv.second) * costs_.at(f)[s].arith *
                         vector_waste(stages[s], kv.second);
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

double GroupCostModel::vector_waste(const StageModel &stage, const ConcreteBox &region) const {
    if (!params_.vector_granularity || stage.pure_dims.empty() || stage.pure_dims[0] != 0) return 1;
    const int64_t lanes = model_.target.natural_vector_size(func(stage.func).output_types()[0]);
    const int64_t extent = region[0].extent();
    // (The writer leaves a loop shorter than a vector scalar.)
    if (lanes <= 1 || extent < lanes) return 1;
    return (double)((extent + lanes - 1) / lanes * lanes) / (double)extent;
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

/// Whether `values` call Func `callee`, each time at exactly the Variables `args`.
bool reads_only_at(const std::vector<Expr> &values, const std::string &callee,
                   const std::vector<std::string> &args) {
    bool found = false, pointwise = true;
    for (const Expr &v : values) {
        visit_exprs(v, [&](const Expr &e) {
            const Call *c = e.as<Call>();
            if (!c || c->call_type != Call::Halide || c->name != callee) return pointwise;
            found = true;
            pointwise &= c->args.size() == args.size();
            for (size_t i = 0; pointwise && i < args.size(); i++) {
                const Variable *var = c->args[i].as<Variable>();
                pointwise = var && var->name == args[i];
            }
            return pointwise;
        });
    }
    return found && pointwise;
}

/// Whether f has an update over an RDom and every update writes f at its own pure
/// coordinates (no scatter), unspecialized, with one value.
bool writes_in_place_over_rdom(const Function &f) {
    if (f.has_extern_definition() || f.outputs() != 1) return false;
    bool has_rdom = false;
    for (const Definition &u : f.updates()) {
        has_rdom |= u.rdom.defined();
        if (!u.specializations.empty() || u.args.size() != f.args().size()) return false;
        for (size_t i = 0; i < u.args.size(); i++) {
            const Variable *v = u.args[i].as<Variable>();
            if (!v || v->name != f.args()[i]) return false;
        }
    }
    return has_rdom;
}

} // namespace

void block_reductions(const GroupCostModel &cost, GroupingPlan *plan) {
    const PipelineModel &model = cost.model();
    for (const std::string &r : model.graph.order) {
        const std::string r_group = plan->group_of(r);
        if (r_group.empty() || model.is_output(r) || !writes_in_place_over_rdom(cost.func(r)))
            continue;
        const Function &rf = cost.func(r);
        // A zero-dimensional reduction (a sum over an image) has no register block to fill.
        if (rf.dimensions() == 0) continue;
        std::vector<std::string> callers;
        for (const auto &kv : model.graph.callees) {
            if (kv.first != r && std::count(kv.second.begin(), kv.second.end(), r))
                callers.push_back(kv.first);
        }
        if (callers.size() != 1) continue;
        const std::string &c = callers[0];
        auto cg = plan->groups.find(c);
        if (cg == plan->groups.end() || !cg->second.blocked.empty() || !cost.is_pure(c) ||
            !reads_only_at(cost.func(c).definition().values, r, cost.func(c).args()))
            continue;
        const int lanes = model.target.natural_vector_size(rf.output_types()[0]);
        if (lanes <= 1 || model.region.at(r)[0].extent() < lanes) continue;
        if (r_group != r && r_group != c) continue;
        if (get_env("LOOM_DEBUG_AUTOSCHEDULE") == "1")
            std::cerr << "Loom: " << r << " computed per register block of " << c << "\n";
        cg->second.blocked = r;
        if (r_group == c) continue; // already computed per tile of C
        const Group &rg = plan->groups.at(r);
        cg->second.members.insert(rg.members.begin(), rg.members.end());
        cg->second.cost += rg.cost;
        plan->groups.erase(r);
    }
}

namespace {

/// Every split guards its tail, so a schedule made for the estimated sizes computes exactly
/// the region at any size: rounding up or shifting inwards computes, and reads, beyond it when
/// the region is smaller than a tile (Halide's Mullapudi2016 keeps the defaults, and its
/// schedules then fail on small inputs without boundary conditions).
constexpr TailStrategy kTail = TailStrategy::GuardWithIf;
/// The lanes and strips of rfactor'd reductions (parallel_updates): Li2018's tile.
constexpr int64_t kTile = 16;

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
            if (g == plan_.groups.end()) continue;
            if (g->second.blocked.empty()) {
                write_group(g->second);
            } else {
                write_blocked_group(g->second);
            }
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

    /// Vectorizes stage s of f along its innermost pure loop whose extent (`extent`, by loop)
    /// is at least a vector, split where it stands (locality_order).
    void vectorize_in_place(const std::string &f, int s,
                            const std::map<std::string, int64_t> &extent) {
        const int64_t lanes =
            model_.target.natural_vector_size(func(f).output_types()[0]) * options_.vector_factor;
        if (lanes <= 1) return;
        // (A copy: the split changes the loops.)
        for (const std::string l : w_.loops(f, s)) {
            auto e = extent.find(l);
            if (w_.is_rvar(f, s, l) || e == extent.end() || e->second < lanes) continue;
            w_.split(f, s, l, l + "_vo", l + "_vi", lanes, kTail);
            w_.vectorize(f, s, l + "_vi");
            return;
        }
    }

    /// The accesses of stage s of f: every call to a Func or an input (Funcs inlined by the
    /// plan are expanded into their own calls) with its arguments, then the store.
    std::vector<std::pair<std::string, std::vector<Expr>>> stage_accesses(const std::string &f,
                                                                          int s) const {
        std::vector<std::pair<std::string, std::vector<Expr>>> accesses;
        std::function<void(const Expr &)> collect = [&](const Expr &root) {
            visit_exprs(root, [&](const Expr &e) {
                const Call *c = e.as<Call>();
                if (!c || (c->call_type != Call::Halide && c->call_type != Call::Image))
                    return true;
                if (c->call_type == Call::Halide && plan_.inlined.count(c->name)) {
                    const Function &g = func(c->name);
                    std::map<std::string, Expr> at;
                    for (size_t i = 0; i < g.args().size() && i < c->args.size(); i++)
                        at[g.args()[i]] = c->args[i];
                    collect(substitute(at, g.definition().values[c->value_index]));
                    return false;
                }
                accesses.emplace_back(c->name, c->args);
                return true;
            });
        };
        const Definition &def = stage_definition(func(f), s);
        for (const Expr &v : def.values) collect(v);
        for (const Expr &a : def.args) collect(a);
        accesses.emplace_back(f, def.args);
        return accesses;
    }

    /// Reorders the loops of stage s of f by the bytes one step of each moves through memory
    /// (Halide's Mullapudi2016 reorder_dims): for each access, the largest stride of a storage
    /// dimension whose index uses the loop, a dimension's stride being the product of the
    /// extents below it in the buffer (`storage` for a group member, else the whole region).
    /// The pure loop of least total stride goes innermost unless the first remaining RVar's
    /// is smaller (RVars keep their relative order); ties keep the current order.
    void reorder_by_locality(const std::string &f, int s,
                             const std::map<std::string, ConcreteBox> &storage) {
        const std::vector<std::string> dims = w_.loops(f, s);
        if (dims.size() < 2) return;
        const auto accesses = stage_accesses(f, s);
        std::map<std::string, int64_t> stride;
        for (const std::string &v : dims) {
            int64_t total = 0;
            for (const auto &[callee, args] : accesses) {
                auto own = storage.find(callee);
                auto whole = model_.region.find(callee);
                if (own == storage.end() && whole == model_.region.end()) return;
                const ConcreteBox &box = own != storage.end() ? own->second : whole->second;
                int64_t step = model_.bytes_per_point.at(callee), largest = 0;
                for (size_t d = 0; d < args.size() && d < box.size(); d++) {
                    if (expr_uses_var(args[d], v)) largest = std::max(largest, step);
                    step *= std::max<int64_t>(box[d].extent(), 1);
                }
                total += largest;
            }
            stride[v] = total;
        }
        std::vector<std::string> remaining = dims, order;
        while (!remaining.empty()) {
            auto pure = remaining.end(), rvar = remaining.end();
            for (auto it = remaining.begin(); it != remaining.end(); ++it) {
                if (w_.is_rvar(f, s, *it)) {
                    if (rvar == remaining.end()) rvar = it;
                } else if (pure == remaining.end() || stride[*it] < stride[*pure]) {
                    pure = it;
                }
            }
            auto pick = rvar != remaining.end() &&
                                (pure == remaining.end() || stride[*rvar] < stride[*pure])
                            ? rvar
                            : pure;
            order.push_back(*pick);
            remaining.erase(pick);
        }
        if (order != dims) w_.reorder(f, s, order);
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
        const std::map<std::string, ConcreteBox> tile_regions = member_tile_regions(g);
        std::string tile_var; // the innermost tile loop of the last stage
        for (int s = 0; s < num_stages(out); s++) {
            const StageModel &m = model_.stages.at(f)[s];
            if (s > 0 && options_.parallel_updates) {
                int64_t tasks = 1;
                for (int d : m.pure_dims) tasks *= model_.region.at(f)[d].extent();
                if (tasks < options_.parallelism &&
                    rfactor_large_reduction(model_, w_, f, s, options_.parallelism, kTile)) {
                    continue;
                }
                if (m.pure_dims.empty() && over_distinct_rvar(f, s)) continue;
            }
            if (options_.locality_order) reorder_by_locality(f, s, tile_regions);
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
                // Tile loops outermost, in the order of their dimensions' loops; the rest keep
                // their order.
                std::vector<std::string> order, tiles;
                for (const std::string &l : w_.loops(f, s)) {
                    bool is_tile = std::count(outer.begin(), outer.end(), l) > 0;
                    (is_tile ? tiles : order).push_back(l);
                }
                order.insert(order.end(), tiles.begin(), tiles.end());
                w_.reorder(f, s, order);
            }
            if (options_.locality_order) {
                vectorize_in_place(f, s, loop_extent);
            } else if (!m.pure_dims.empty() && m.pure_dims[0] == 0) {
                const std::string &v = m.pure_vars[0];
                const std::string inner = g.tiling.count(v) ? v + "_i" : v;
                vectorize_innermost(f, s, inner, loop_extent[inner]);
            }
            unroll_short_rvars(f, s);
            parallelize(f, s, loop_extent);
            if (s + 1 == num_stages(out)) tile_var = innermost_of(f, s, outer);
        }
        place_members(g, tile_var);
    }

    /// An update with no pure loop (a scatter, a boundary condition's adjoint at an edge) over
    /// its largest RVar whose iterations write distinct elements (Dim::Kind::PureRVar): when
    /// that RVar alone is the store's innermost index (plus a constant), split into vectors
    /// innermost; its outer part (or the whole RVar) outermost, parallel. Returns false
    /// (scheduling nothing) when there is no such RVar.
    bool over_distinct_rvar(const std::string &f, int s) {
        const std::string best = largest_distinct_rvar(model_, f, s);
        if (best.empty()) return false;
        const StageModel &m = model_.stages.at(f)[s];
        const Definition &def = stage_definition(func(f), s);
        int64_t extent = 0;
        for (size_t i = 0; i < m.rvars.size(); i++) {
            if (m.rvars[i] == best) extent = m.rvar_spans[i].extent();
        }
        const int64_t lanes =
            model_.target.natural_vector_size(func(f).output_types()[0]) * options_.vector_factor;
        std::string outer = best, inner;
        if (lanes > 1 && extent >= lanes && !def.args.empty() &&
            is_rvar_plus_constant(def.args[0], best)) {
            outer = plain_loop_name(best) + "_vo";
            inner = plain_loop_name(best) + "_vi";
            w_.split(f, s, best, outer, inner, lanes, kTail);
            w_.vectorize(f, s, inner);
        }
        // The vector loop innermost (dense loads and stores), the parallel one outermost.
        std::vector<std::string> order;
        if (!inner.empty()) order.push_back(inner);
        for (const std::string &l : w_.loops(f, s)) {
            if (l != outer && l != inner) order.push_back(l);
        }
        order.push_back(outer);
        if (order != w_.loops(f, s)) w_.reorder(f, s, order);
        w_.parallel(f, s, outer);
        return true;
    }

    /// Whether e is the variable v plus a constant.
    static bool is_rvar_plus_constant(const Expr &e, const std::string &v) {
        const Variable *x = e.as<Variable>();
        if (const Add *a = e.as<Add>()) {
            if (!is_const(a->b)) return false;
            x = a->a.as<Variable>();
        }
        return x && x->name == v;
    }

    /// Parallel: the outermost pure loops of stage s of f until there are enough tasks.
    void parallelize(const std::string &f, int s, const std::map<std::string, int64_t> &extent) {
        const std::vector<std::string> &loops = w_.loops(f, s);
        int64_t tasks = 1;
        for (auto l = loops.rbegin(); l != loops.rend() && tasks < options_.parallelism; ++l) {
            if (w_.is_rvar(f, s, *l) || !extent.count(*l)) break;
            if (extent.at(*l) <= 1) continue;
            w_.parallel(f, s, *l);
            tasks *= extent.at(*l);
        }
    }

    /// The innermost loop of stage s of f among `candidates` ("" when none is a loop).
    std::string innermost_of(const std::string &f, int s,
                             const std::vector<std::string> &candidates) const {
        for (const std::string &l : w_.loops(f, s)) {
            if (std::count(candidates.begin(), candidates.end(), l)) return l;
        }
        return "";
    }

    /// A group with a blocked reduction R (block_reductions): its output C split into cache
    /// tiles (the group's tiling, whole blocks) outermost, then blocks of `vectors` vectors by
    /// `rows` rows, the block's loops innermost, vectorized and unrolled; R computed per block,
    /// its pure loops inside its RVars (ordered by the dimension of the inputs they index, the
    /// one indexing the innermost dimension innermost) and vectorized and unrolled the same way.
    void write_blocked_group(const Group &g) {
        const std::string &c = g.output, &r = g.blocked;
        const Function &cf = func(c);
        if (!model_.is_output(c)) w_.compute_root(c);
        const ConcreteBox &region = model_.region.at(c);
        const int dims = cf.dimensions();
        const int64_t lanes = model_.target.natural_vector_size(func(r).output_types()[0]);
        const int64_t vectors = region[0].extent() >= 2 * lanes ? 2 : 1;
        const int64_t accumulators = vector_registers() / 2;
        const int64_t rows =
            dims > 1 ? std::max<int64_t>(1, std::min(region[1].extent(), accumulators / vectors))
                     : 1;
        const std::vector<int64_t> block = {lanes * vectors, rows};

        std::map<std::string, int64_t> loop_extent;
        std::vector<std::string> register_loops, block_loops, within_tile, tile_loops;
        for (int d = 0; d < dims; d++) {
            const std::string &v = cf.args()[d];
            const int64_t b = d < 2 ? block[d] : 1;
            int64_t extent = region[d].extent();
            std::string inner = v;
            auto t = g.tiling.find(v);
            const int64_t tile = t == g.tiling.end() ? 0 : (t->second + b - 1) / b * b;
            if (tile > 0 && tile < extent) {
                w_.split(c, 0, v, v + "_o", v + "_i", tile, kTail);
                tile_loops.push_back(v + "_o");
                loop_extent[v + "_o"] = (extent + tile - 1) / tile;
                inner = v + "_i";
                extent = tile;
            }
            // Split even where one block covers the estimated extent: the block's loops then
            // have a constant extent at any size, so they can be unrolled.
            if (b > 1) {
                w_.split(c, 0, inner, v + "_b", v + "_r", b, kTail);
                block_loops.push_back(v + "_b");
                register_loops.push_back(v + "_r");
                loop_extent[v + "_b"] = (extent + b - 1) / b;
                loop_extent[v + "_r"] = b;
            } else if (d < 2) {
                register_loops.push_back(inner);
                loop_extent[inner] = extent;
            } else {
                within_tile.push_back(inner);
                loop_extent[inner] = extent;
            }
        }
        std::vector<std::string> order = register_loops;
        for (const auto *part : {&block_loops, &within_tile, &tile_loops})
            order.insert(order.end(), part->begin(), part->end());
        w_.reorder(c, 0, order);
        unroll_register_block(c, 0, register_loops[0], loop_extent[register_loops[0]], lanes);
        for (size_t i = 1; i < register_loops.size(); i++) w_.unroll(c, 0, register_loops[i]);
        parallelize(c, 0, loop_extent);

        // R per block (dimension 0 always has a block loop: a block is at least a vector).
        w_.compute_at(r, c, innermost_of(c, 0, block_loops));
        for (int s = 0; s < num_stages(func(r)); s++) {
            const StageModel &m = model_.stages.at(r)[s];
            std::vector<std::string> pure_inner, pure_outer;
            for (size_t i = 0; i < m.pure_vars.size(); i++)
                (m.pure_dims[i] < 2 ? pure_inner : pure_outer).push_back(m.pure_vars[i]);
            std::vector<std::string> order = pure_inner;
            for (const std::string &rv : rvars_by_locality(r, s)) order.push_back(rv);
            order.insert(order.end(), pure_outer.begin(), pure_outer.end());
            w_.reorder(r, s, order);
            unroll_register_block(r, s, func(r).args()[0], block[0], lanes);
            if (rows > 1) w_.unroll(r, s, func(r).args()[1]);
        }
        place_members(g, innermost_of(c, 0, tile_loops));
    }

    /// Vectorizes `var` of stage s of f (a register block's `extent` along dimension 0) by
    /// `lanes` and unrolls the vectors.
    void unroll_register_block(const std::string &f, int s, const std::string &var, int64_t extent,
                               int64_t lanes) {
        if (extent < lanes) return;
        if (extent == lanes) {
            w_.vectorize(f, s, var);
            return;
        }
        w_.split(f, s, var, var + "_vo", var + "_vi", lanes, kTail);
        w_.vectorize(f, s, var + "_vi");
        w_.unroll(f, s, var + "_vo");
    }

    /// The RVars of stage s of f, innermost first: by the lowest dimension of a callee they
    /// index (reads along an input's rows innermost), then in the RDom's order.
    std::vector<std::string> rvars_by_locality(const std::string &f, int s) const {
        const Definition &def = stage_definition(func(f), s);
        if (!def.rdom.defined()) return {};
        std::map<std::string, int> lowest_dim;
        for (const ReductionVariable &rv : def.rdom.domain())
            lowest_dim[rv.var] = std::numeric_limits<int>::max();
        for (const Expr &v : def.values) {
            visit_exprs(v, [&](const Expr &e) {
                const Call *c = e.as<Call>();
                if (!c || (c->call_type != Call::Halide && c->call_type != Call::Image))
                    return true;
                for (size_t d = 0; d < c->args.size(); d++) {
                    visit_exprs(c->args[d], [&](const Expr &a) {
                        const Variable *var = a.as<Variable>();
                        auto it = var ? lowest_dim.find(var->name) : lowest_dim.end();
                        if (it != lowest_dim.end()) it->second = std::min(it->second, (int)d);
                        return true;
                    });
                }
                return true;
            });
        }
        std::vector<std::string> order;
        for (const ReductionVariable &rv : def.rdom.domain()) order.push_back(rv.var);
        std::stable_sort(order.begin(), order.end(),
                         [&](const std::string &a, const std::string &b) {
                             return lowest_dim.at(a) < lowest_dim.at(b);
                         });
        return order;
    }

    /// 32 vector registers with AVX-512 and on ARM, 16 otherwise.
    int vector_registers() const {
        const Target &t = model_.target;
        return t.arch == Target::ARM || t.has_feature(Target::AVX512) ? 32 : 16;
    }

    /// The region of each member of g (and Func it inlines) one tile of its output needs;
    /// empty for a group of one Func.
    std::map<std::string, ConcreteBox> member_tile_regions(const Group &g) const {
        if (g.members.size() < 2) return {};
        const Function &out = func(g.output);
        ConcreteBox tile = model_.region.at(g.output);
        for (int d = 0; d < out.dimensions(); d++) {
            auto t = g.tiling.find(out.args()[d]);
            if (t != g.tiling.end()) tile[d].max = tile[d].min + t->second - 1;
        }
        std::map<std::string, ConcreteBox> regions =
            model_.regions_required(g.output, tile, [&](const std::string &m) {
                return g.members.count(m) || plan_.inlined.count(m);
            });
        // The output's own buffer is the whole of its region, not a tile.
        regions.erase(g.output);
        for (auto it = regions.begin(); it != regions.end();) {
            it = g.members.count(it->first) ? std::next(it) : regions.erase(it);
        }
        return regions;
    }

    /// The members of g but its output (and its blocked reduction), computed at `tile_var` of
    /// the output (at the root when it is ""), vectorized over the region one tile needs.
    void place_members(const Group &g, const std::string &tile_var) {
        const std::string &f = g.output;
        const std::map<std::string, ConcreteBox> tile_regions = member_tile_regions(g);
        for (auto m = model_.graph.order.rbegin(); m != model_.graph.order.rend(); ++m) {
            if (*m == f || *m == g.blocked || !g.members.count(*m)) continue;
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
                if (options_.locality_order) {
                    reorder_by_locality(*m, s,
                                        tile_var.empty() ? decltype(tile_regions)() : tile_regions);
                    std::map<std::string, int64_t> extent;
                    for (size_t i = 0; i < sm.pure_vars.size(); i++)
                        extent[sm.pure_vars[i]] = r[sm.pure_dims[i]].extent();
                    vectorize_in_place(*m, s, extent);
                } else if (!sm.pure_dims.empty() && sm.pure_dims[0] == 0) {
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
