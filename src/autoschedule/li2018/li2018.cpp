#include "autoschedule/li2018/li2018.h"

#include "analysis/associativity.h"
#include "autoschedule/common/parallel_reduction.h"
#include "autoschedule/common/pipeline_model.h"
#include "autoschedule/common/schedule_writer.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "simplify/simplify.h"
#include "support/error.h"
#include "support/util.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <set>

namespace loom {
namespace internal {

namespace {

/// The paper's tile: 16 x 16 points on CPUs.
constexpr int64_t kTile = 16;
/// RVars of at most this many iterations are unrolled innermost in commutative reductions.
constexpr int64_t kUnroll = 4;
/// The RVar iterations (small RVars aside) from which an update's tile keeps all its
/// accumulators inside the reduction (Loom's addition; see tile()).
constexpr int64_t kLongReduction = 4096;
/// A Func whose inlined body (its definition with the inlined Funcs it reads substituted) would
/// exceed this many IR nodes is computed at root: inlining a chain of stencils multiplies (a
/// pyramid's collapse, inlined, reads 4^levels coarse pixels per fine one), and so does the
/// time to compile it.
constexpr int64_t kMaxInlinedNodes = 2000;
/// Every split guards its last iteration: the schedule must hold at sizes other than the
/// estimates, where a shifted or rounded-up tile (or group of tiles) would leave the Func.
constexpr TailStrategy kTail = TailStrategy::GuardWithIf;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

class Li2018 {
public:
    Li2018(const std::vector<Function> &outputs, const Target &target, const Li2018Params &params)
        : model_(outputs, target), params_(params), w_(model_.graph.env, model_.graph.order),
          debug_(get_env("LOOM_DEBUG_AUTOSCHEDULE") == "1") {}

    std::string run(const std::string &header) {
        check_overrides();
        find_inlining_blowups();
        for (const std::string &f : model_.graph.order) w_.reset(f);
        for (const std::string &f : model_.graph.order) {
            if (!checkpointed(f)) continue;
            w_.compute_root(f);
            if (func(f).has_extern_definition()) continue;
            for (int s = 0; s < (int)model_.stages.at(f).size(); s++) schedule_stage(f, s);
        }
        return w_.source(header);
    }

private:
    const Function &func(const std::string &f) const { return model_.graph.func(f); }

    /// The Funcs whose definitions call f (f itself excluded).
    std::set<std::string> consumers(const std::string &f) const {
        std::set<std::string> out;
        for (const auto &kv : model_.graph.callees) {
            if (kv.first == f) continue;
            if (std::find(kv.second.begin(), kv.second.end(), f) != kv.second.end())
                out.insert(kv.first);
        }
        return out;
    }

    /// Why f cannot be inlined, or "" when it can.
    std::string inline_obstacle(const std::string &f) const {
        const Function &fn = func(f);
        if (model_.is_output(f)) return "it is an output of the pipeline";
        if (fn.has_extern_definition()) return "it is an extern Func";
        if (!fn.updates().empty()) return "it has update definitions";
        for (const std::string &c : consumers(f)) {
            if (func(c).has_extern_definition()) return "the extern Func " + c + " reads it";
        }
        return "";
    }

    /// Step 1: roots for reductions, scatters, Funcs read by several others, outputs and
    /// extern Funcs; the user's lists override.
    bool checkpointed(const std::string &f) const {
        if (params_.compute_root.count(f)) return true;
        if (params_.inline_funcs.count(f)) return false;
        return !inline_obstacle(f).empty() || consumers(f).size() > 1 || too_large_.count(f);
    }

    /// Fills too_large_, producers first: the inlined size of a Func counts each call to an
    /// inlined Func as that Func's inlined size.
    void find_inlining_blowups() {
        std::map<std::string, int64_t> inlined_size;
        for (const std::string &f : model_.graph.order) {
            if (checkpointed(f)) continue;
            int64_t size = 0;
            for (const Expr &v : func(f).definition().values) {
                visit_exprs(v, [&](const Expr &e) {
                    const Call *c = e.as<Call>();
                    auto it = c ? inlined_size.find(c->name) : inlined_size.end();
                    size += it == inlined_size.end() ? 1 : it->second;
                    return true;
                });
            }
            if (size > kMaxInlinedNodes) {
                too_large_.insert(f);
                if (debug_)
                    std::cerr << "Li2018: " << f << " at root: " << size << " nodes inlined\n";
            } else {
                inlined_size[f] = size;
            }
        }
    }

    void check_overrides() const {
        for (const auto *list : {&params_.compute_root, &params_.inline_funcs}) {
            for (const std::string &f : *list) {
                user_assert(model_.graph.env.count(f))
                    << "Autoscheduler Li2018: the Func \"" << f << "\" named in parameter "
                    << (list == &params_.inline_funcs ? "inline" : "compute_root")
                    << " is not computed by this pipeline.\n";
            }
        }
        for (const std::string &f : params_.inline_funcs) {
            const std::string why = inline_obstacle(f);
            user_assert(why.empty())
                << "Autoscheduler Li2018: can't inline \"" << f << "\" (parameter inline): " << why
                << ". Remove it from the list.\n";
            user_assert(!params_.compute_root.count(f))
                << "Autoscheduler Li2018: \"" << f
                << "\" is in both the compute_root and the inline lists; keep it in one.\n";
        }
    }

    /// The estimated extent of each pure loop of stage s of f.
    std::vector<std::pair<std::string, int64_t>> pure_extents(const std::string &f, int s) const {
        const StageModel &sm = model_.stages.at(f)[s];
        const ConcreteBox &region = model_.region.at(f);
        std::vector<std::pair<std::string, int64_t>> out;
        for (size_t i = 0; i < sm.pure_vars.size(); i++) {
            out.emplace_back(sm.pure_vars[i], region[sm.pure_dims[i]].extent());
        }
        return out;
    }

    void schedule_stage(const std::string &f, int s) {
        // The tiles, and the parallel tasks they make with the stage's other pure loops.
        std::vector<std::pair<std::string, int64_t>> large;
        int64_t tiles = 1;
        for (const auto &[var, extent] : pure_extents(f, s)) {
            if (extent >= kTile && large.size() < 2) {
                large.emplace_back(var, extent);
                tiles *= ceil_div(extent, kTile);
            } else {
                tiles *= std::max<int64_t>(extent, 1);
            }
        }
        if (large.size() == 1) tiles = ceil_div(tiles, kTile);
        const bool enough_tiles = !large.empty() && tiles >= params_.parallelism;
        if (s > 0 && !enough_tiles && parallel_reduction(f, s)) return;
        if (!large.empty()) {
            tile(f, s, large);
        } else if (s > 0) {
            parallel_rvar(f, s);
        }
    }

    /// Step 2: 16 x 16 tiles, vectorized inside, in parallel.
    void tile(const std::string &f, int s,
              const std::vector<std::pair<std::string, int64_t>> &large) {
        std::map<std::string, int64_t> extent;
        for (const auto &[var, e] : pure_extents(f, s)) extent[var] = e;
        const std::string a = large[0].first;
        const std::string a_i = plain_loop_name(a) + "_i", a_o = plain_loop_name(a) + "_o";
        w_.split(f, s, a, a_o, a_i, kTile, kTail);
        extent[a_o] = ceil_div(extent[a], kTile);
        std::string b_i;
        if (large.size() == 2) {
            const std::string b = large[1].first;
            b_i = plain_loop_name(b) + "_i";
            const std::string b_o = plain_loop_name(b) + "_o";
            w_.split(f, s, b, b_o, b_i, kTile, kTail);
            extent[b_o] = ceil_div(extent[b], kTile);
        } else if (extent[a_o] >= 2 * kTile) {
            // A 1-D domain: its outer part split again, so a tile is 16 x 16 points.
            b_i = plain_loop_name(a) + "_oi";
            const std::string a_oo = plain_loop_name(a) + "_oo";
            w_.split(f, s, a_o, a_oo, b_i, kTile, kTail);
            extent[a_oo] = ceil_div(extent[a_o], kTile);
        }
        // The vector loop innermost (inside an update's RVars: a reduction sweeps a row of
        // accumulators), then the RVars (the small ones first, unrolled: a bilinear sample's
        // taps share its position and weights), the tile's other loop, and the loops over
        // tiles.
        std::vector<std::string> order = {a_i}, outer;
        const std::set<std::string> small = s > 0 ? small_rvars(f, s) : std::set<std::string>();
        for (const std::string &l : w_.loops(f, s)) {
            if (small.count(l)) order.push_back(l);
        }
        // (Loom's addition:) a reduction over many points (a filter's gradient, summed over
        // the images) keeps the whole tile's accumulators inside its RVars: with the tile's
        // other loop outside them, each of its 16 rows would sweep the reduction's inputs
        // again, from memory.
        const bool long_reduction = s > 0 && large_rvar_iterations(f, s, small) >= kLongReduction;
        if (long_reduction && !b_i.empty()) order.push_back(b_i);
        for (const std::string &l : w_.loops(f, s)) {
            if (w_.is_rvar(f, s, l) && !small.count(l)) order.push_back(l);
        }
        if (!long_reduction && !b_i.empty()) order.push_back(b_i);
        for (const std::string &l : w_.loops(f, s)) {
            if (!w_.is_rvar(f, s, l) && l != a_i && l != b_i) {
                order.push_back(l);
                outer.push_back(l);
            }
        }
        if (order != w_.loops(f, s)) w_.reorder(f, s, order);
        w_.vectorize(f, s, a_i);
        for (const std::string &l : small) w_.unroll(f, s, l);
        if (outer.empty()) return;
        // The loops over tiles (and the stage's other pure loops) fused into one parallel loop
        // of about 8 x parallelism tasks.
        std::string tiles = outer[0];
        int64_t count = extent[outer[0]];
        for (size_t i = 1; i < outer.size(); i++) {
            const std::string fused = "tile" + std::to_string(i);
            w_.fuse(f, s, tiles, outer[i], fused);
            tiles = fused;
            count *= extent[outer[i]];
        }
        const int64_t tasks = 8 * (int64_t)params_.parallelism;
        if (count > 2 * tasks) {
            w_.split(f, s, tiles, "task", "tile_in_task", ceil_div(count, tasks), kTail);
            tiles = "task";
        }
        w_.parallel(f, s, tiles);
    }

    /// The iterations of update s of f over its RVars other than `small`.
    int64_t large_rvar_iterations(const std::string &f, int s, const std::set<std::string> &small) {
        const StageModel &sm = model_.stages.at(f)[s];
        int64_t n = 1;
        for (size_t i = 0; i < sm.rvars.size(); i++) {
            if (!small.count(sm.rvars[i])) n *= std::max<int64_t>(sm.rvar_spans[i].extent(), 1);
        }
        return n;
    }

    /// Step 3: a large associative reduction into few points made parallel with rfactor
    /// (rfactor_large_reduction). Returns false (scheduling nothing) when the update is not one.
    bool parallel_reduction(const std::string &f, int s) {
        return rfactor_large_reduction(model_, w_, f, s, params_.parallelism, kTile);
    }

    /// Step 4: a scatter or scan in parallel over its largest RVar whose iterations write
    /// distinct elements, moved outermost; serial when none. (Loom's addition:) the small RVars
    /// (small_rvars: a bilinear sample's 2 x 2 taps) go innermost, unrolled: the values each
    /// point computes for all of them (its position, its adjoint) are then computed once
    /// instead of once per pass.
    void parallel_rvar(const std::string &f, int s) {
        const std::string best = largest_distinct_rvar(model_, f, s);
        std::set<std::string> small = small_rvars(f, s);
        small.erase(best);
        if (best.empty() && small.empty()) return;
        std::vector<std::string> order;
        for (const std::string &l : w_.loops(f, s)) {
            if (small.count(l)) order.push_back(l);
        }
        for (const std::string &l : w_.loops(f, s)) {
            if (l != best && !small.count(l)) order.push_back(l);
        }
        if (!best.empty()) order.push_back(best);
        if (order != w_.loops(f, s)) w_.reorder(f, s, order);
        for (const std::string &l : small) w_.unroll(f, s, l);
        if (!best.empty()) w_.parallel(f, s, best);
    }

    /// The RVars of update s of f that run innermost and unrolled: at most kUnroll iterations
    /// (constant extents only: an estimate of 2 images is no bound), in a commutative
    /// reduction, whose RVars may run in any order.
    std::set<std::string> small_rvars(const std::string &f, int s) {
        std::set<std::string> small;
        const Definition &def = stage_definition(func(f), s);
        if (!def.rdom.defined() || !commutative(f, s)) return small;
        for (const ReductionVariable &rv : def.rdom.domain()) {
            const Expr extent = simplify(rv.extent);
            const int64_t *n = as_const_int(extent);
            if (n && *n >= 2 && *n <= kUnroll) small.insert(rv.var);
        }
        return small;
    }

    /// Whether update s of f combines its values with a commutative operator (a sum, a
    /// product, a minimum...), so its RVars may run in any order.
    bool commutative(const std::string &f, int s) {
        const Definition &def = stage_definition(func(f), s);
        const AssociativeOp op = prove_associativity(f, def.args, def.values);
        if (!op.associative) return false;
        for (AssociativeOpKind k : op.kinds) {
            if (k == AssociativeOpKind::ArgMinIndex || k == AssociativeOpKind::ArgMaxIndex ||
                k == AssociativeOpKind::Unchanged) {
                return false;
            }
        }
        return true;
    }

    PipelineModel model_;
    Li2018Params params_;
    ScheduleWriter w_;
    bool debug_;
    /// Funcs computed at root because inlining them would make too large a body.
    std::set<std::string> too_large_;
};

} // namespace

std::string autoschedule_li2018(const std::vector<Function> &outputs, const Target &target,
                                const Li2018Params &params, const std::string &header) {
    return Li2018(outputs, target, params).run(header);
}

} // namespace internal
} // namespace loom
