#include "lower/compute_with.h"

#include <loom/ir_operator.h>

#include "ir/ir_printer.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "lower/build_provide_loop_nest.h"
#include "lower/realization_order.h"
#include "lower/schedule_functions.h"
#include "simplify/simplify.h"
#include "support/error.h"

#include <algorithm>
#include <functional>
#include <set>
#include <sstream>
#include <utility>

namespace loom {
namespace internal {

namespace {

Expr var(const std::string &name) { return Variable::make(Int(32), name); }

/// "f" for the pure definition, "f.update(i)" for update i (Stage::name()).
std::string stage_text(const Function &f, int stage) {
    return stage == 0 ? f.name() : f.name() + ".update(" + std::to_string(stage - 1) + ")";
}

/// "serial", "parallel", "vectorized", ... for messages.
std::string kind_text(ForType t) { return t == ForType::Serial ? "serial" : for_type_name(t); }

/// The For name of a loop shared by several stages: "fused." before the last component of the
/// owner's loop ("f.s0." + "y" -> "f.s0.fused.y", "x.xo" -> "f.s0.x.fused.xo"), as Halide.
std::string fused_name(const std::string &prefix, const std::string &loop) {
    size_t dot = loop.rfind('.');
    if (dot == std::string::npos) return prefix + "fused." + loop;
    return prefix + loop.substr(0, dot + 1) + "fused." + loop.substr(dot + 1);
}

/// One stage taking part in compute_with, as the stage computed with another (a child) or as
/// the one another is computed with (a parent), or both.
struct FusedStage {
    Function f;
    int stage = 0;
    /// The stage this one is computed with (an index into Fusion::stages), -1 for a root.
    int parent = -1;
    /// How many of its outer loops it shares with the parent.
    int depth = 0;
    /// The loop compute_with named (for messages).
    std::string var;
    /// The alignment of each shared loop, outermost first.
    std::vector<LoopAlignStrategy> align;
    /// The stages computed with this one, in the order their bodies run.
    std::vector<int> children;
    /// How many of its outer loops it shares with its parent or its children.
    int shared = 0;
    /// Its loops, outermost first, without __outermost.
    std::vector<std::string> loops;

    const Definition &def() const { return stage_definition(f, stage); }
    std::string prefix() const { return stage_prefix(f.name(), stage); }
    std::string text() const { return stage_text(f, stage); }
};

/// The compute_with relation of a pipeline: a forest of stages.
struct Fusion {
    std::vector<FusedStage> stages;
    std::map<std::pair<std::string, int>, int> index;

    int find(const std::string &f, int stage) const {
        auto it = index.find({f, stage});
        return it == index.end() ? -1 : it->second;
    }
    int add(const Function &f, int stage) {
        int i = find(f.name(), stage);
        if (i >= 0) return i;
        FusedStage s;
        s.f = f;
        s.stage = stage;
        const std::vector<Dim> &dims = stage_definition(f, stage).schedule.dims;
        for (size_t d = dims.size() - 1; d-- > 0;) s.loops.push_back(dims[d].var);
        stages.push_back(s);
        index[{f.name(), stage}] = (int)stages.size() - 1;
        return (int)stages.size() - 1;
    }
    int root(int s) const {
        while (stages[s].parent >= 0) s = stages[s].parent;
        return s;
    }
};

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
Fusion analyze_fusion(const std::map<std::string, Function> &env,
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
            const int ip = find_loop(p, pdef, level.var), ic = find_loop(f, def, level.var);
            user_assert(ip >= 0) << "Invalid compute_with: " << child << " is computed with "
                                 << parent << " down to the loop " << level.var << ", but "
                                 << parent << " has no loop " << level.var
                                 << ". Its loops, outermost first, are: " << loop_list(pdef)
                                 << ".\n";
            user_assert(ic >= 0) << "Invalid compute_with: " << child << " is computed with "
                                 << parent << " down to the loop " << level.var << ", but " << child
                                 << " has no loop " << level.var
                                 << " (its loops, outermost first: " << loop_list(def)
                                 << "). Fused stages share their loops by name: schedule " << child
                                 << " like " << parent << " from the outermost loop down to "
                                 << level.var << " (" << parent << "'s loops: " << loop_list(pdef)
                                 << ").\n";
            const std::vector<Dim> &dp = pdef.schedule.dims, &dc = def.schedule.dims;
            const int n = (int)dp.size() - 1 - ip;
            bool same = n == (int)dc.size() - 1 - ic;
            // The loop compute_with names is found in both by that name (a short name may
            // match "x.x" in one and "x" in the other, as in Halide); the outer ones must match.
            for (int i = 1; same && i < n; i++) same = dp[ip + i].var == dc[ic + i].var;
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
                    << "Invalid compute_with: " << child << " is computed with " << parent
                    << " down to " << level.var << ", but the loop " << a.var << " is "
                    << kind_text(a.for_type) << " in " << parent << " and " << kind_text(b.for_type)
                    << " in " << child
                    << ". A fused loop runs both stages, so it must have the same kind in both "
                    << "(e.g. parallel(" << a.var << ") on both, or on neither).\n";
            }
            const int c = fu.add(f, k), pi = fu.add(p, pk);
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
    return stage_prefix(at.name(), stage) + def.schedule.dims[d].var;
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
    user_assert(s.def().specializations.empty())
        << what << s.text() << " has specializations; each branch has loops of its own, so "
        << "there is no one loop nest to fuse. Fuse an unspecialized stage.\n";
}

/// The nest of a stage computed alone (build_provide_loop_nest) taken apart: the loop bound
/// lets just inside "__outermost", its `count` outermost loops and what the last one holds.
struct PeeledNest {
    Stmt nest; ///< keeps the nodes below alive
    std::vector<std::pair<std::string, Expr>> lets;
    std::vector<const For *> loops;
    Stmt inner;
};

PeeledNest peel(const Function &f, int stage, int count) {
    PeeledNest p;
    p.nest = build_provide_loop_nest(f, stage);
    const For *outermost = p.nest.as<For>();
    internal_assert(outermost) << "compute_with: the nest of " << f.name() << " is not a loop\n";
    Stmt s = outermost->body;
    while (const LetStmt *l = s.as<LetStmt>()) {
        p.lets.emplace_back(l->name, l->value);
        s = l->body;
    }
    // Lets between the shared loops (split bases placed in their outer loop) move down into
    // the stage's own part: the shared loops are rebuilt, and everything the lets use is still
    // defined there.
    std::vector<const LetStmt *> between;
    for (int i = 0; i < count; i++) {
        while (i > 0 && s.as<LetStmt>()) {
            between.push_back(s.as<LetStmt>());
            s = between.back()->body;
        }
        const For *loop = s.as<For>();
        internal_assert(loop) << "compute_with: " << f.name() << ".s" << stage << " has fewer than "
                              << count << " loops\n";
        p.loops.push_back(loop);
        s = loop->body;
    }
    for (auto l = between.rbegin(); l != between.rend(); ++l) {
        s = LetStmt::make((*l)->name, (*l)->value, s);
    }
    p.inner = s;
    return p;
}

/// Builds the loop nest of one tree of stages computed with each other (see the file comment
/// of compute_with.h) and checks the order of the stages of one Func within it.
class UnitBuilder {
public:
    explicit UnitBuilder(const Fusion &fu) : fu(fu) {}

    Stmt build(int root) {
        place(root);
        Stmt body = assemble(top);
        check_own_stages();
        std::vector<std::pair<std::string, Expr>> all = lets;
        for (const Node &n : nodes) {
            Expr lo, hi;
            for (const Member &m : n.members) {
                Expr mlo = simplify(var(m.var + ".loop_min") - m.shift);
                Expr mhi = simplify(var(m.var + ".loop_max") - m.shift);
                lo = lo.defined() ? Min::make(lo, mlo) : mlo;
                hi = hi.defined() ? Max::make(hi, mhi) : mhi;
            }
            all.emplace_back(n.name + ".loop_min", lo);
            all.emplace_back(n.name + ".loop_max", hi);
            all.emplace_back(n.name + ".loop_extent",
                             simplify(var(n.name + ".loop_max") + 1 - var(n.name + ".loop_min")));
        }
        for (auto l = all.rbegin(); l != all.rend(); ++l)
            body = LetStmt::make(l->first, l->second, body);
        const FusedStage &r = fu.stages[root];
        const Dim &outer = r.def().schedule.dims.back();
        return For::make(r.prefix() + "__outermost", 0, 1, outer.for_type, outer.device_api, body);
    }

private:
    struct Member {
        int stage;
        std::string var; ///< the member's own loop variable
        Expr shift;      ///< member variable = loop variable + shift
    };
    struct Item {
        int node = -1;  ///< a shared loop, or
        int stage = -1; ///< the part of a stage (its loops past the shared ones)
        Stmt part;
    };
    struct Node {
        std::string name;
        ForType for_type;
        DeviceAPI device_api;
        Partition partition;
        std::vector<Member> members;
        std::vector<Item> items;
    };

    const Fusion &fu;
    std::vector<Node> nodes;
    std::vector<Item> top;
    std::vector<std::pair<std::string, Expr>> lets;
    /// For each stage placed: the shared loops it runs in (outermost first) and its shift in each.
    std::map<int, std::vector<int>> stage_nodes;
    std::map<int, std::vector<Expr>> stage_shifts;
    /// Where each stage's part runs among the parts of the unit.
    std::map<int, int> sequence;

    std::vector<Item> &items_at(int s, int depth) {
        return depth == 0 ? top : nodes[stage_nodes[s][depth - 1]].items;
    }

    void place(int s) {
        const FusedStage &st = fu.stages[s];
        PeeledNest p = peel(st.f, st.stage, st.shared);
        lets.insert(lets.end(), p.lets.begin(), p.lets.end());
        // The loops this stage shares with its children but not with its parent are its own.
        for (int j = st.depth; j < st.shared; j++) {
            const For *l = p.loops[j];
            Node n;
            n.name = fused_name(st.prefix(), st.loops[j]);
            n.for_type = l->for_type;
            n.device_api = l->device_api;
            n.partition = l->partition_policy;
            n.members.push_back({s, l->name, Expr(0)});
            nodes.push_back(n);
            items_at(s, j).push_back(Item{(int)nodes.size() - 1, -1, Stmt()});
            stage_nodes[s].push_back((int)nodes.size() - 1);
            stage_shifts[s].push_back(Expr(0));
        }
        // Its part: each shared loop's iteration bound to its own variable, under a guard of its
        // own range (the loop covers the union of the members' ranges).
        const std::vector<int> &mine = stage_nodes[s];
        const std::vector<Expr> &shifts = stage_shifts[s];
        Stmt part = p.inner;
        for (int j = st.shared - 1; j >= 0; j--) {
            part = For::make(p.loops[j]->name, simplify(var(nodes[mine[j]].name) + shifts[j]), 1,
                             ForType::Serial, DeviceAPI::None, part);
        }
        for (int j = st.shared - 1; j >= 0; j--) {
            Expr u = var(nodes[mine[j]].name);
            const std::string &v = p.loops[j]->name;
            Expr in_range = simplify(var(v + ".loop_min") - shifts[j]) <= u &&
                            u <= simplify(var(v + ".loop_max") - shifts[j]);
            part = IfThenElse::make(likely(in_range), part);
        }
        items_at(s, st.shared).push_back(Item{-1, s, part});
        for (int c : st.children) {
            const FusedStage &cs = fu.stages[c];
            for (int j = 0; j < cs.depth; j++) {
                const std::string parent_var = st.prefix() + st.loops[j];
                const std::string child_var = cs.prefix() + cs.loops[j];
                Expr shift = shifts[j];
                if (cs.align[j] == LoopAlignStrategy::AlignStart) {
                    shift = shift + (var(child_var + ".loop_min") - var(parent_var + ".loop_min"));
                } else if (cs.align[j] == LoopAlignStrategy::AlignEnd) {
                    shift = shift + (var(child_var + ".loop_max") - var(parent_var + ".loop_max"));
                }
                shift = simplify(shift);
                nodes[mine[j]].members.push_back({c, child_var, shift});
                stage_nodes[c].push_back(mine[j]);
                stage_shifts[c].push_back(shift);
            }
            place(c);
        }
    }

    Stmt assemble(const std::vector<Item> &items) {
        std::vector<Stmt> stmts;
        for (const Item &i : items) {
            if (i.node < 0) {
                sequence[i.stage] = (int)sequence.size();
                stmts.push_back(i.part);
                continue;
            }
            const Node &n = nodes[i.node];
            Stmt body = assemble(n.items);
            stmts.push_back(For::make(n.name, var(n.name + ".loop_min"),
                                      var(n.name + ".loop_extent"), n.for_type, n.device_api, body,
                                      n.partition));
        }
        return Block::make(stmts);
    }

    /// Whether every access of stage `s`'s definition to its own Func, at argument `d`, is the
    /// pure Var `v` itself.
    bool accesses_only_at(int s, int d, const std::string &v) const {
        const FusedStage &st = fu.stages[s];
        if (st.stage == 0) return true;
        const Definition &def = st.def();
        auto is_v = [&](const Expr &e) {
            const Variable *x = e.as<Variable>();
            return x && x->name == v && !x->reduction_domain.defined() && !x->param.defined();
        };
        if (!is_v(def.args[d])) return false;
        bool ok = true;
        auto check = [&](const Expr &e) {
            if (!e.defined()) return;
            visit_exprs(e, [&](const Expr &x) {
                const Call *c = x.as<Call>();
                if (c && c->call_type == Call::Halide && c->name == st.f.name() &&
                    !is_v(c->args[d]))
                    ok = false;
                return ok;
            });
        };
        for (const Expr &e : def.args) check(e);
        for (const Expr &e : def.values) check(e);
        check(def.predicate);
        return ok;
    }

    /// Two stages of one Func in this nest: the earlier must run first, and sharing loops must
    /// not change the result. Provable (and accepted) when each shared loop is a pure Var of the
    /// Func, unshifted in both, at which every stage of the Func here reads and writes it: each
    /// iteration of those loops then touches its own slice of the Func, in the stages' order.
    void check_own_stages() {
        std::map<std::string, std::vector<int>> by_func;
        for (const auto &kv : sequence) by_func[fu.stages[kv.first].f.name()].push_back(kv.first);
        for (auto &kv : by_func) {
            std::vector<int> &ss = kv.second;
            if (ss.size() < 2) continue;
            std::sort(ss.begin(), ss.end(),
                      [&](int a, int b) { return fu.stages[a].stage < fu.stages[b].stage; });
            const Function &f = fu.stages[ss[0]].f;
            for (size_t i = 0; i + 1 < ss.size(); i++) {
                for (size_t k = i + 1; k < ss.size(); k++) check_pair(f, ss, ss[i], ss[k]);
            }
        }
    }

    void check_pair(const Function &f, const std::vector<int> &all, int a, int b) {
        const FusedStage &A = fu.stages[a], &B = fu.stages[b];
        user_assert(sequence[a] < sequence[b])
            << "Invalid compute_with: " << B.text() << " would run before " << A.text()
            << " in their fused loops, but a Func's stages must run in order. Compute " << B.text()
            << " with a stage that runs after " << A.text() << " (or fuse " << A.text()
            << " no deeper than " << B.text() << ").\n";
        const std::vector<int> &na = stage_nodes[a], &nb = stage_nodes[b];
        for (size_t j = 0; j < na.size() && j < nb.size() && na[j] == nb[j]; j++) {
            const std::string &v = A.loops[j];
            int d = -1;
            for (int i = 0; i < f.dimensions(); i++) {
                if (f.args()[i] == v) d = i;
            }
            bool safe =
                d >= 0 && is_const_zero(stage_shifts[a][j]) && is_const_zero(stage_shifts[b][j]);
            for (size_t i = 0; safe && i < all.size(); i++) safe = accesses_only_at(all[i], d, v);
            user_assert(safe)
                << "Invalid compute_with: " << A.text() << " and " << B.text() << ", two stages "
                << "of " << f.name() << ", would share the loop over " << v
                << ", and Loom can't prove that this keeps " << f.name() << "'s values (a stage "
                << "could read or overwrite points of " << f.name() << " that the other computes "
                << "in another iteration). Stages of one Func may share a loop only if it runs "
                << "over a pure Var of the Func (not split), aligned with NoAlign or Auto, and "
                << "every stage of " << f.name() << " in the fused loops reads and writes "
                << f.name() << " at exactly that Var (e.g. " << f.name() << "(x, y) += " << f.name()
                << "(x - 1, y) may share the loop over y, not x). Compute them one "
                << "after the other instead.\n";
        }
    }
};

/// The Funcs `f` reads, directly or through others in `env`, each with the Func it was reached
/// from (for messages).
std::map<std::string, std::string> reachable_callees(const std::string &f,
                                                     const std::map<std::string, Function> &env) {
    std::map<std::string, std::string> from;
    std::vector<std::string> pending{f};
    while (!pending.empty()) {
        std::string n = pending.back();
        pending.pop_back();
        auto it = env.find(n);
        if (it == env.end()) continue;
        for (const std::string &c : direct_callees(it->second)) {
            if (c == f || from.count(c)) continue;
            from[c] = n;
            pending.push_back(c);
        }
    }
    return from;
}

/// Groups the Funcs joined by compute_with, checks them and builds their stages.
class Planner {
public:
    Planner(const std::vector<std::string> &order, const std::map<std::string, Function> &env,
            const std::map<std::string, ComputePlacement> &placements)
        : order(order), env(env), placements(placements) {
        for (size_t i = 0; i < order.size(); i++) rank[order[i]] = (int)i;
    }

    FusionPlan plan() {
        FusionPlan result;
        fu = analyze_fusion(env, rank);
        if (fu.stages.empty()) return result;
        for (const FusedStage &c : fu.stages) {
            if (c.parent < 0) continue;
            const FusedStage &p = fu.stages[c.parent];
            check_member(c, c, p, placements);
            check_member(p, c, p, placements);
            check_levels(c, p);
        }
        for (const std::vector<std::string> &members : groups()) {
            check_dependencies(members);
            result.groups.push_back(build_group(members));
        }
        for (size_t g = 0; g < result.groups.size(); g++) {
            for (const Function &f : result.groups[g].funcs) result.index[f.name()] = (int)g;
        }
        return result;
    }

private:
    const std::vector<std::string> &order;
    const std::map<std::string, Function> &env;
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
            std::map<std::string, std::string> from = reachable_callees(a, env);
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

    FusedGroup build_group(const std::vector<std::string> &members) {
        FusedGroup group;
        group.funcs = nesting_order(members);
        std::map<std::string, int> func_rank;
        for (size_t i = 0; i < group.funcs.size(); i++) func_rank[group.funcs[i].name()] = (int)i;

        // Units: a compute_with tree (by its root), or a stage computed with nothing.
        struct Unit {
            Function f;
            int stage;
            int root; ///< index in fu.stages, -1 for a lone stage
        };
        std::vector<Unit> units;
        std::map<int, int> unit_of_root;
        std::map<std::pair<std::string, int>, int> unit_of;
        for (const Function &f : group.funcs) {
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
        for (const Function &f : group.funcs) {
            for (int k = 0; k + 1 < num_stages(f); k++) {
                int a = unit_of[{f.name(), k}], b = unit_of[{f.name(), k + 1}];
                if (a != b && succ[a].insert(b).second) preds[b]++;
            }
        }
        std::vector<bool> done(units.size(), false);
        std::vector<Stmt> stmts;
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
            const Unit &u = units[best];
            if (u.root < 0) {
                stmts.push_back(build_provide_loop_nest(u.f, u.stage));
            } else {
                stmts.push_back(UnitBuilder(fu).build(u.root));
            }
        }
        group.stages = Block::make(stmts);
        return group;
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

const FusedGroup *FusionPlan::group_of(const std::string &func) const {
    auto it = index.find(func);
    return it == index.end() ? nullptr : &groups[it->second];
}

FusionPlan plan_compute_with(const std::vector<std::string> &order,
                             const std::map<std::string, Function> &env,
                             const std::map<std::string, ComputePlacement> &placements) {
    return Planner(order, env, placements).plan();
}

std::vector<std::string> order_with_fused_groups(const std::vector<std::string> &order,
                                                 const FusionPlan &plan,
                                                 const std::map<std::string, Function> &env) {
    if (plan.groups.empty()) return order;
    // Items: a group, or a Func in no group; ordered topologically by the calls between them,
    // each as early in `order` as its Funcs allow.
    std::map<std::string, int> item_of;
    std::vector<std::vector<std::string>> items;
    std::vector<int> first;
    for (size_t i = 0; i < order.size(); i++) {
        const FusedGroup *g = plan.group_of(order[i]);
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
        for (const std::string &c : direct_callees(env.at(n))) {
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

Stmt build_fused_group(const FusedGroup &group, const Stmt &consumer, bool with_realize) {
    Stmt produce = group.stages, consume = consumer.defined() ? consumer : Evaluate::make(0);
    for (size_t i = group.funcs.size(); i-- > 0;) {
        produce = ProducerConsumer::make_produce(group.funcs[i].name(), produce);
        consume = ProducerConsumer::make_consume(group.funcs[i].name(), consume);
    }
    Stmt s = Block::make(produce, consume);
    if (with_realize) {
        for (size_t i = group.funcs.size(); i-- > 0;) s = realize_around(group.funcs[i], s);
    }
    return s;
}

bool is_fused_stage(const Function &f, int stage, const std::map<std::string, Function> &env) {
    Fusion fu = analyze_fusion(env, {});
    return fu.find(f.name(), stage) >= 0;
}

std::string fused_loop_name(const Function &f, int stage, int dim,
                            const std::map<std::string, Function> &env) {
    const std::vector<Dim> &dims = stage_definition(f, stage).schedule.dims;
    const std::string plain = stage_prefix(f.name(), stage) + dims[dim].var;
    Fusion fu = analyze_fusion(env, {});
    int s = fu.find(f.name(), stage);
    if (s < 0) return plain;
    const FusedStage &st = fu.stages[s];
    if (dim == (int)dims.size() - 1) return fu.stages[fu.root(s)].prefix() + "__outermost";
    int j = (int)dims.size() - 2 - dim;
    if (j >= st.depth && j < st.shared) return fused_name(st.prefix(), st.loops[j]);
    return plain;
}

} // namespace internal
} // namespace loom
