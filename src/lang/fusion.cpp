#include "lang/fusion.h"

#include "ir/ir_printer.h"
#include "lang/call_graph.h"
#include "support/error.h"

#include <algorithm>
#include <functional>
#include <set>
#include <tuple>

namespace loom {
namespace internal {

std::string stage_text(const Function &f, int stage) {
    return stage == 0 ? f.name() : f.name() + ".update(" + std::to_string(stage - 1) + ")";
}

int Fusion::find(const std::string &func, int stage) const {
    auto it = stage_index.find({func, stage});
    return it == stage_index.end() ? -1 : it->second;
}

int Fusion::root(int s) const {
    while (stages[s].parent >= 0) s = stages[s].parent;
    return s;
}

const FusedGroup *Fusion::group_of(const std::string &func) const {
    auto it = group_index.find(func);
    return it == group_index.end() ? nullptr : &groups[it->second];
}

namespace {

/// "serial", "parallel", "vectorized", ... for messages.
std::string kind_text(ForType t) { return t == ForType::Serial ? "serial" : for_type_name(t); }

int add_stage(Fusion &fu, const Function &f, int stage) {
    int i = fu.find(f.name(), stage);
    if (i >= 0) return i;
    FusedStage s;
    s.f = f;
    s.stage = stage;
    const std::vector<Dim> &dims = stage_definition(f, stage).schedule.dims;
    for (size_t d = dims.size() - 1; d-- > 0;) s.loops.push_back(dims[d].var);
    fu.stages.push_back(s);
    fu.stage_index[{f.name(), stage}] = (int)fu.stages.size() - 1;
    return (int)fu.stages.size() - 1;
}

/// The loops of `def` from index `from` of its dims outwards, for messages ("x.xo, y").
std::string loops_outwards(const Definition &def, int from) {
    std::string out;
    const std::vector<Dim> &dims = def.schedule.dims;
    for (int i = from; i + 1 < (int)dims.size(); i++)
        out += (out.empty() ? "" : ", ") + dims[i].var;
    return out.empty() ? std::string("(none)") : out;
}

/// The strategy for loop `loop` of a stage computed with another: its own entry in the map
/// (by full name, or by the short name of a split product), else the default.
LoopAlignStrategy align_of(const StageSchedule &s, const std::string &loop) {
    for (const auto &a : s.fuse_align) {
        const std::string &n = a.first;
        if (n == loop || (loop.size() > n.size() && loop.compare(loop.size() - n.size() - 1,
                                                                 std::string::npos, "." + n) == 0))
            return a.second;
    }
    return s.fuse_align_default;
}

/// Reads every compute_with of the Funcs in `env`: the parent and shared loops of each stage
/// computed with another. CompileErrors for a parent outside the pipeline, a loop that the
/// two stages do not share by name and kind, and cycles. `rank` orders children (Funcs not in
/// it come last, by name).
Fusion read_relation(const std::map<std::string, Function> &env,
                     const std::map<std::string, int> &rank) {
    Fusion fu;
    for (const auto &kv : env) {
        const Function &f = kv.second;
        for (int k = 0; k < num_stages(f); k++) {
            const Definition &def = stage_definition(f, k);
            const LoopLevelSpec &level = def.schedule.fuse_level;
            if (level.kind != LoopLevelSpec::At) continue;
            const std::string child = stage_text(f, k);
            auto pit = env.find(level.func);
            user_assert(pit != env.end())
                << "Invalid compute_with: " << child << " is computed with " << level.func
                << ", which this pipeline does not compute. A stage can only be computed with a "
                << "stage of a Func the same pipeline computes.\n";
            const Function &p = pit->second;
            const int pk = level.stage_index < 0 ? num_stages(p) - 1 : level.stage_index;
            user_assert(pk < num_stages(p))
                << "Invalid compute_with: " << child << " is computed with stage " << pk << " of "
                << p.name() << ", which has only " << num_stages(p) << " stage(s).\n";
            user_assert(!(p.same_as(f) && pk == k))
                << "Invalid compute_with: " << child << " is computed with itself.\n";
            const Definition &pdef = stage_definition(p, pk);
            const std::string parent = stage_text(p, pk);
            const std::vector<Dim> &dp = pdef.schedule.dims, &dc = def.schedule.dims;
            const int ip = find_loop(p, pdef, level.var);
            user_assert(ip >= 0) << "Invalid compute_with: " << child << " is computed with "
                                 << parent << " down to the loop " << level.var << ", but "
                                 << parent << " has no loop " << level.var
                                 << ". Its loops, outermost first, are: " << loop_list(pdef)
                                 << ".\n";
            // Fused by position (fuse_pipelines): the child's loop as deep as the parent's.
            const bool by_position = def.schedule.fuse_by_position;
            const int ic =
                by_position ? (int)dc.size() - ((int)dp.size() - ip) : find_loop(f, def, level.var);
            user_assert(!by_position || ic >= 0)
                << "Invalid pipeline fusion: " << child << " is fused with " << parent
                << " down to " << level.var << ", " << (int)dp.size() - 1 - ip
                << " loop(s) deep, but " << child << " has only " << (int)dc.size() - 1
                << " loop(s): " << loop_list(def) << ".\n";
            user_assert(ic >= 0) << "Invalid compute_with: " << child << " is computed with "
                                 << parent << " down to the loop " << level.var << ", but " << child
                                 << " has no loop " << level.var
                                 << " (its loops, outermost first: " << loop_list(def)
                                 << "). Fused stages share their loops by name: schedule " << child
                                 << " like " << parent << " from the outermost loop down to "
                                 << level.var << " (" << parent << "'s loops: " << loop_list(pdef)
                                 << ").\n";
            const int n = (int)dp.size() - 1 - ip;
            bool same = n == (int)dc.size() - 1 - ic;
            // The loop compute_with names is found in both by that name (a short name may
            // match "x.x" in one and "x" in the other, as in Halide); the outer ones must match.
            for (int i = 1; same && !by_position && i < n; i++)
                same = dp[ip + i].var == dc[ic + i].var;
            user_assert(same) << "Invalid compute_with: " << child << " is computed with " << parent
                              << " down to " << level.var << ", but their loops from " << level.var
                              << " outwards differ: " << loops_outwards(pdef, ip) << " in "
                              << parent << ", " << loops_outwards(def, ic) << " in " << child
                              << ". Fused loops must be the same in both stages (split, "
                              << "rename and reorder them the same way; split factors may "
                              << "differ).\n";
            for (int i = 0; i < n; i++) {
                const Dim &a = dp[ip + i], &b = dc[ic + i];
                user_assert(a.for_type == b.for_type && a.device_api == b.device_api)
                    << (by_position ? "Invalid pipeline fusion: " : "Invalid compute_with: ")
                    << child << " is computed with " << parent << " down to " << level.var
                    << ", but the loop " << a.var << " is " << kind_text(a.for_type) << " in "
                    << parent << " and " << (a.var == b.var ? "" : "its loop " + b.var + " is ")
                    << kind_text(b.for_type) << " in " << child
                    << ". A fused loop runs both stages, so it must have the same kind in both "
                    << "(e.g. parallel(" << a.var << ") on both, or on neither).\n";
            }
            const int c = add_stage(fu, f, k), pi = add_stage(fu, p, pk);
            FusedStage &cs = fu.stages[c];
            cs.parent = pi;
            cs.depth = n;
            cs.var = level.var;
            for (int j = 0; j < n; j++) cs.align.push_back(align_of(def.schedule, cs.loops[j]));
            fu.stages[pi].children.push_back(c);
        }
    }
    // A cycle (f with g, g with f) has no root.
    for (size_t i = 0; i < fu.stages.size(); i++) {
        int s = (int)i;
        size_t steps = 0;
        while (fu.stages[s].parent >= 0 && steps <= fu.stages.size()) {
            s = fu.stages[s].parent;
            steps++;
        }
        if (steps <= fu.stages.size()) continue;
        std::string cycle = fu.stages[s].text();
        for (int t = fu.stages[s].parent; t != s; t = fu.stages[t].parent)
            cycle += " with " + fu.stages[t].text();
        user_error << "Invalid compute_with: the stages are computed with each other in a cycle ("
                   << cycle << " with " << fu.stages[s].text()
                   << "). compute_with must form a tree: one stage of each fused nest is computed "
                   << "with nothing.\n";
    }
    auto key = [&](int s) {
        auto it = rank.find(fu.stages[s].f.name());
        int r = it == rank.end() ? (int)rank.size() : it->second;
        return std::make_tuple(r, fu.stages[s].f.name(), fu.stages[s].stage);
    };
    for (FusedStage &s : fu.stages) {
        std::stable_sort(s.children.begin(), s.children.end(),
                         [&](int a, int b) { return key(a) < key(b); });
        s.shared = s.depth;
        for (int c : s.children) s.shared = std::max(s.shared, fu.stages[c].depth);
    }
    return fu;
}

/// "root", "g.y" (a loop of g's last stage), "g.update(0).y" for a compute level.
std::string level_text(const LoopLevelSpec &l) {
    if (l.is_root()) return "root";
    if (l.is_inlined()) return "inlined";
    std::string stage =
        l.stage_index > 0 ? ".update(" + std::to_string(l.stage_index - 1) + ")" : std::string();
    return l.func + stage + "." + l.var;
}

/// A compute or store level reduced to the loop it names, to compare two of them.
std::string level_key(const LoopLevelSpec &l, const std::map<std::string, Function> &env) {
    if (l.kind != LoopLevelSpec::At) return l.is_root() ? "root" : "inlined";
    auto it = env.find(l.func);
    if (it == env.end()) return level_text(l);
    const Function &at = it->second;
    int stage = l.stage_index < 0 ? num_stages(at) - 1 : l.stage_index;
    if (stage >= num_stages(at)) return level_text(l);
    const Definition &def = stage_definition(at, stage);
    int d = find_loop(at, def, l.var);
    if (d < 0) return level_text(l);
    return stage_text(at, stage) + "." + def.schedule.dims[d].var;
}

/// The things a Func computed with another can't have (Loom or Halide can't fuse them).
/// `s` is `child` or `parent`, one end of child.compute_with(parent, ...).
void check_member(const FusedStage &s, const FusedStage &child, const FusedStage &parent,
                  const std::map<std::string, ComputePlacement> &placements) {
    const Function &f = s.f;
    const std::string what =
        "Invalid compute_with of " + child.text() + " with " + parent.text() + ": ";
    const ComputePlacement &p = placements.at(f.name());
    user_assert(p.kind != ComputePlacement::Inline)
        << what << f.name() << " is inlined (not scheduled, or compute_inline). Stages computed "
        << "with each other need a place of their own: compute both Funcs at the same level "
        << "(compute_root() both, or compute_at the same loop).\n";
    user_assert(p.kind != ComputePlacement::Innermost)
        << what << f.name() << " has no compute level (an unscheduled Func with updates is "
        << "computed inside each loop of its consumers that uses it). Give both Funcs the same "
        << "one: compute_root() both, or compute_at the same loop.\n";
    user_assert(!f.has_extern_definition())
        << what << f.name() << " is an extern Func; its loops are in its C function, so they "
        << "can't be fused.\n";
    user_assert(!f.schedule().memoized)
        << what << f.name() << " is memoized; a memoized Func is computed (or found in the "
        << "cache) on its own, so it can't share loops with another Func.\n";
    user_assert(!f.schedule().async)
        << what << f.name() << " is async; an async Func is computed in a task of its own, "
        << "so it can't share loops with another Func. Remove the async() or the compute_with.\n";
    user_assert(s.def().specializations.empty())
        << what << s.text() << " has specializations; each branch has loops of its own, so "
        << "there is no one loop nest to fuse. Fuse an unspecialized stage.\n";
}

/// The Funcs `f` reads, directly or through others (`callees`: CallGraph::callees), each with
/// the Func it was reached from (for messages).
std::map<std::string, std::string>
reachable_callees(const std::string &f,
                  const std::map<std::string, std::vector<std::string>> &callees) {
    std::map<std::string, std::string> from;
    std::vector<std::string> pending{f};
    while (!pending.empty()) {
        std::string n = pending.back();
        pending.pop_back();
        auto it = callees.find(n);
        if (it == callees.end()) continue;
        for (const std::string &c : it->second) {
            if (c == f || from.count(c)) continue;
            from[c] = n;
            pending.push_back(c);
        }
    }
    return from;
}

/// Groups the Funcs joined by compute_with, checks them and orders their units.
class Planner {
public:
    explicit Planner(const CallGraph &graph)
        : env(graph.env), callees(graph.callees), placements(graph.placements) {
        for (size_t i = 0; i < graph.order.size(); i++) rank[graph.order[i]] = (int)i;
    }

    Fusion plan() {
        fu = read_relation(env, rank);
        if (fu.stages.empty()) return fu;
        for (const FusedStage &c : fu.stages) {
            if (c.parent < 0) continue;
            const FusedStage &p = fu.stages[c.parent];
            check_member(c, c, p, placements);
            check_member(p, c, p, placements);
            check_levels(c, p);
        }
        for (const std::vector<std::string> &members : groups()) {
            check_dependencies(members);
            FusedGroup group;
            group.funcs = nesting_order(members);
            group.units = order_units(group.funcs);
            fu.groups.push_back(group);
        }
        for (size_t g = 0; g < fu.groups.size(); g++) {
            for (const Function &f : fu.groups[g].funcs) fu.group_index[f.name()] = (int)g;
        }
        return fu;
    }

private:
    const std::map<std::string, Function> &env;
    const std::map<std::string, std::vector<std::string>> &callees;
    const std::map<std::string, ComputePlacement> &placements;
    std::map<std::string, int> rank;
    Fusion fu;

    int rank_of(const std::string &f) const {
        auto it = rank.find(f);
        return it == rank.end() ? (int)rank.size() : it->second;
    }

    void check_levels(const FusedStage &c, const FusedStage &p) {
        if (c.f.same_as(p.f)) return;
        const ComputePlacement &pc = placements.at(c.f.name()), &pp = placements.at(p.f.name());
        auto key = [&](const ComputePlacement &x) {
            return x.kind == ComputePlacement::Root ? std::string("root") : level_key(x.level, env);
        };
        auto text = [&](const ComputePlacement &x) {
            return x.kind == ComputePlacement::Root ? std::string("root") : level_text(x.level);
        };
        user_assert(pc.kind == pp.kind && key(pc) == key(pp))
            << "Invalid compute_with of " << c.text() << " with " << p.text() << " (down to "
            << c.var << "): " << c.f.name() << " is computed at " << text(pc) << " but "
            << p.f.name() << " at " << text(pp) << ". Stages computed with each other must be "
            << "computed at the same level: compute_root() both, or compute_at the same loop.\n";
    }

    /// The groups: Funcs connected by compute_with, each in realization order.
    std::vector<std::vector<std::string>> groups() {
        std::map<std::string, std::string> parent;
        std::function<std::string(const std::string &)> find = [&](const std::string &x) {
            auto it = parent.find(x);
            if (it == parent.end() || it->second == x) return x;
            std::string r = find(it->second);
            parent[x] = r;
            return r;
        };
        for (const FusedStage &s : fu.stages) {
            if (s.parent < 0) continue;
            std::string a = find(s.f.name()), b = find(fu.stages[s.parent].f.name());
            if (a != b) parent[a] = b;
        }
        std::map<std::string, std::vector<std::string>> by_root;
        for (const FusedStage &s : fu.stages) {
            std::vector<std::string> &g = by_root[find(s.f.name())];
            if (std::find(g.begin(), g.end(), s.f.name()) == g.end()) g.push_back(s.f.name());
        }
        std::vector<std::vector<std::string>> out;
        for (auto &kv : by_root) out.push_back(kv.second);
        for (auto &g : out) {
            std::sort(g.begin(), g.end(), [&](const std::string &a, const std::string &b) {
                return std::make_pair(rank_of(a), a) < std::make_pair(rank_of(b), b);
            });
        }
        std::sort(out.begin(), out.end(), [&](const auto &a, const auto &b) {
            return std::make_pair(rank_of(a[0]), a[0]) < std::make_pair(rank_of(b[0]), b[0]);
        });
        return out;
    }

    /// A compute_with joining Funcs a and b (or any of the group), for messages.
    std::string edge_text(const std::string &a, const std::string &b) const {
        std::string any;
        for (const FusedStage &s : fu.stages) {
            if (s.parent < 0) continue;
            const FusedStage &p = fu.stages[s.parent];
            std::string e = s.text() + ".compute_with(" + p.text() + ", " + s.var + ")";
            std::set<std::string> ends{s.f.name(), p.f.name()};
            if (ends.count(a) && ends.count(b)) return e;
            if (any.empty()) any = e;
        }
        return any;
    }

    /// No member reads another (Halide's rule): the fused loops would run the reader's stage
    /// before all of what it reads is computed, and bounds inference would not see the read.
    void check_dependencies(const std::vector<std::string> &members) {
        for (const std::string &a : members) {
            std::map<std::string, std::string> from = reachable_callees(a, callees);
            for (const std::string &b : members) {
                if (a == b || !from.count(b)) continue;
                std::string path = b;
                for (std::string n = from[b]; n != a; n = from[n])
                    path = n + ", which reads " + path;
                user_error << "Invalid compute_with: " << a << " reads " << path
                           << ", so the two can't be computed with each other (" << edge_text(a, b)
                           << " joins them): sharing loops would run " << a << " before all of "
                           << b << " is computed. Stages computed with "
                           << "each other must not depend on each other; compute " << b
                           << " before " << a << " instead (e.g. compute_root() both, without "
                           << "compute_with).\n";
            }
        }
    }

    /// The members in nesting order: roots of compute_with trees first, then by realization.
    std::vector<Function> nesting_order(const std::vector<std::string> &members) {
        std::map<std::string, int> depth;
        for (size_t i = 0; i < fu.stages.size(); i++) {
            int d = 0;
            for (int s = (int)i; fu.stages[s].parent >= 0; s = fu.stages[s].parent) d++;
            const std::string &n = fu.stages[i].f.name();
            depth[n] = depth.count(n) ? std::min(depth[n], d) : d;
        }
        std::vector<std::string> sorted = members;
        std::stable_sort(
            sorted.begin(), sorted.end(), [&](const std::string &a, const std::string &b) {
                return std::make_pair(depth[a], rank_of(a)) < std::make_pair(depth[b], rank_of(b));
            });
        std::vector<Function> out;
        for (const std::string &n : sorted) out.push_back(env.at(n));
        return out;
    }

    /// The units of a group in an order that runs each Func's stages in order, the earliest
    /// member's first.
    std::vector<FusedUnit> order_units(const std::vector<Function> &funcs) {
        std::map<std::string, int> func_rank;
        for (size_t i = 0; i < funcs.size(); i++) func_rank[funcs[i].name()] = (int)i;
        std::vector<FusedUnit> units;
        std::map<int, int> unit_of_root;
        std::map<std::pair<std::string, int>, int> unit_of;
        for (const Function &f : funcs) {
            for (int k = 0; k < num_stages(f); k++) {
                int s = fu.find(f.name(), k);
                if (s < 0) {
                    units.push_back({f, k, -1});
                    unit_of[{f.name(), k}] = (int)units.size() - 1;
                    continue;
                }
                int r = fu.root(s);
                if (!unit_of_root.count(r)) {
                    units.push_back({fu.stages[r].f, fu.stages[r].stage, r});
                    unit_of_root[r] = (int)units.size() - 1;
                }
                unit_of[{f.name(), k}] = unit_of_root[r];
            }
        }
        // Each Func's stages run in order: its stage k's unit before stage k + 1's.
        std::vector<std::set<int>> succ(units.size());
        std::vector<int> preds(units.size(), 0);
        for (const Function &f : funcs) {
            for (int k = 0; k + 1 < num_stages(f); k++) {
                int a = unit_of[{f.name(), k}], b = unit_of[{f.name(), k + 1}];
                if (a != b && succ[a].insert(b).second) preds[b]++;
            }
        }
        std::vector<bool> done(units.size(), false);
        std::vector<FusedUnit> ordered;
        for (size_t n = 0; n < units.size(); n++) {
            int best = -1;
            for (size_t u = 0; u < units.size(); u++) {
                if (done[u] || preds[u] > 0) continue;
                auto key = [&](int i) {
                    return std::make_pair(func_rank[units[i].f.name()], units[i].stage);
                };
                if (best < 0 || key((int)u) < key(best)) best = (int)u;
            }
            if (best < 0) {
                std::string list;
                for (size_t u = 0; u < units.size(); u++) {
                    if (done[u] || units[u].root < 0) continue;
                    list += std::string(list.empty() ? "" : "; ") + unit_text(units[u].root);
                }
                user_error << "Invalid compute_with: no order of the stages runs each Func's "
                           << "stages in order (" << list << "). Fuse the stages of each Func "
                           << "with stages that run in the same order.\n";
            }
            done[best] = true;
            for (int s : succ[best]) preds[s]--;
            ordered.push_back(units[best]);
        }
        return ordered;
    }

    /// "f with g.update(0), h with f" for the stages of one compute_with tree.
    std::string unit_text(int root) const {
        std::string out;
        std::function<void(int)> walk = [&](int s) {
            for (int c : fu.stages[s].children) {
                out += (out.empty() ? "" : ", ") + fu.stages[c].text() + " with " +
                       fu.stages[s].text();
                walk(c);
            }
        };
        walk(root);
        return out;
    }
};

} // namespace

Fusion analyze_compute_with(const CallGraph &graph) { return Planner(graph).plan(); }

std::vector<std::string>
order_with_fused_groups(const std::vector<std::string> &order, const Fusion &fusion,
                        const std::map<std::string, std::vector<std::string>> &callees) {
    if (fusion.groups.empty()) return order;
    // Items: a group, or a Func in no group; ordered topologically by the calls between them,
    // each as early in `order` as its Funcs allow.
    std::map<std::string, int> item_of;
    std::vector<std::vector<std::string>> items;
    std::vector<int> first;
    for (size_t i = 0; i < order.size(); i++) {
        const FusedGroup *g = fusion.group_of(order[i]);
        std::string key = g ? g->funcs[0].name() : order[i];
        auto it = item_of.find(key);
        if (it == item_of.end()) {
            items.emplace_back();
            first.push_back((int)i);
            it = item_of.emplace(key, (int)items.size() - 1).first;
            if (g) {
                for (const Function &f : g->funcs) items.back().push_back(f.name());
            } else {
                items.back().push_back(order[i]);
            }
        }
        item_of[order[i]] = it->second;
    }
    std::vector<std::set<int>> succ(items.size());
    std::vector<int> preds(items.size(), 0);
    for (const std::string &n : order) {
        int b = item_of[n];
        for (const std::string &c : callees.at(n)) {
            auto it = item_of.find(c);
            if (it == item_of.end() || it->second == b) continue;
            if (succ[it->second].insert(b).second) preds[b]++;
        }
    }
    std::vector<std::string> out;
    std::vector<bool> done(items.size(), false);
    for (size_t n = 0; n < items.size(); n++) {
        int best = -1;
        for (size_t i = 0; i < items.size(); i++) {
            if (!done[i] && preds[i] == 0 && (best < 0 || first[i] < first[best])) best = (int)i;
        }
        if (best < 0) {
            // Two groups (or a group and Funcs around it) read each other's results.
            std::string list;
            for (size_t i = 0; i < items.size(); i++) {
                if (done[i] || items[i].size() < 2) continue;
                std::string g;
                for (const std::string &f : items[i]) g += (g.empty() ? "" : ", ") + f;
                list += (list.empty() ? "(" : "; (") + g + ")";
            }
            user_error << "Invalid compute_with: the groups of Funcs computed with each other "
                       << list << " read each other's results, so no order computes each group "
                       << "at once. Drop a compute_with so that no group reads another that "
                       << "reads it.\n";
        }
        done[best] = true;
        for (int s : succ[best]) preds[s]--;
        out.insert(out.end(), items[best].begin(), items[best].end());
    }
    return out;
}

} // namespace internal
} // namespace loom
