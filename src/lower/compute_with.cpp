#include "lower/compute_with.h"

#include <loom/ir_operator.h>

#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "lower/build_provide_loop_nest.h"
#include "lower/loop_names.h"
#include "simplify/simplify.h"
#include "support/error.h"

#include <algorithm>
#include <map>
#include <utility>

namespace loom {
namespace internal {

namespace {

Expr var(const std::string &name) { return Variable::make(Int(32), name); }

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
        return For::make(outermost_loop_name(r.f.name(), r.stage), 0, 1, outer.for_type,
                         outer.device_api, body);
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
            n.name = fused_loop_name(stage_prefix(st.f.name(), st.stage), st.loops[j]);
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
                const std::string parent_var = stage_prefix(st.f.name(), st.stage) + st.loops[j];
                const std::string child_var = stage_prefix(cs.f.name(), cs.stage) + cs.loops[j];
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

} // namespace

Stmt build_fused_group(const FusedGroup &group, const Fusion &fusion, const Stmt &consumer,
                       bool with_realize) {
    std::vector<Stmt> units;
    for (const FusedUnit &u : group.units) {
        units.push_back(u.root < 0 ? build_provide_loop_nest(u.f, u.stage)
                                   : UnitBuilder(fusion).build(u.root));
    }
    Stmt produce = Block::make(units), consume = consumer.defined() ? consumer : Evaluate::make(0);
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

} // namespace internal
} // namespace loom
