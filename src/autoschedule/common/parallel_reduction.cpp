#include "autoschedule/common/parallel_reduction.h"

#include "analysis/associativity.h"
#include "support/util.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <vector>

namespace loom {
namespace internal {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Every split guards its last iteration: the schedule must hold at sizes other than the
/// estimates.
constexpr TailStrategy kTail = TailStrategy::GuardWithIf;

} // namespace

std::string plain_loop_name(const std::string &name) {
    std::string s = c_identifier(name);
    std::replace(s.begin(), s.end(), '.', '_');
    return s;
}

std::string largest_distinct_rvar(const PipelineModel &model, const std::string &f, int s) {
    const StageModel &sm = model.stages.at(f)[s];
    std::map<std::string, int64_t> extent;
    for (size_t i = 0; i < sm.rvars.size(); i++) extent[sm.rvars[i]] = sm.rvar_spans[i].extent();
    std::string best;
    for (const Dim &d : stage_definition(model.graph.func(f), s).schedule.dims) {
        if (d.kind != Dim::Kind::PureRVar || !extent.count(d.var)) continue;
        if (extent[d.var] >= 2 && (best.empty() || extent[d.var] > extent[best])) best = d.var;
    }
    return best;
}

bool rfactor_large_reduction(const PipelineModel &model, ScheduleWriter &w, const std::string &f,
                             int s, int parallelism, int64_t tile) {
    const Function &fn = model.graph.func(f);
    const Definition &def = stage_definition(fn, s);
    if (!def.rdom.defined()) return false;
    bool scatter = false;
    for (size_t i = 0; i < def.args.size(); i++) {
        const Variable *v = def.args[i].as<Variable>();
        scatter |= !v || v->name != fn.args()[i];
    }
    const AssociativeOp op = prove_associativity(f, def.args, def.values);
    if (!op.associative) return false;
    // argmin/argmax keep the first extreme in loop order: rfactor may preserve only the
    // outermost RVars, and the lanes here are the innermost.
    for (AssociativeOpKind k : op.kinds) {
        if (k == AssociativeOpKind::ArgMinIndex || k == AssociativeOpKind::ArgMaxIndex) {
            return false;
        }
    }
    const StageModel &sm = model.stages.at(f)[s];
    int64_t points = 1;
    std::vector<size_t> large;
    for (size_t i = 0; i < sm.rvars.size(); i++) {
        points *= sm.rvar_spans[i].extent();
        if (sm.rvar_spans[i].extent() >= tile) large.push_back(i);
    }
    if (points < tile * tile * parallelism || large.empty()) return false;
    // The intermediate holds a copy of f's points per lane and strip: worth it only while
    // that is less than the points the reduction visits.
    const int64_t copies =
        tile * (large.size() >= 2 ? ceil_div(sm.rvar_spans[large[1]].extent(), tile)
                                  : 8 * (int64_t)parallelism);
    const ConcreteBox &region = model.region.at(f);
    if (box_points(region) * copies > sm.points(region)) return false;
    // The intermediate's two new dimensions: names no Var of f has.
    std::string lane = "lane", strip = "strip";
    for (const std::string &a : fn.args()) {
        if (a == lane) lane += "_";
        if (a == strip) strip += "_";
    }
    const std::string r1 = sm.rvars[large[0]];
    const std::string r1_i = plain_loop_name(r1) + "_i", r1_o = plain_loop_name(r1) + "_o";
    // With one large RVar, its outer part is split into about 8 x parallelism strips.
    const int64_t outer = ceil_div(sm.rvar_spans[large[0]].extent(), tile);
    const int64_t per_strip = std::max<int64_t>(tile, ceil_div(outer, 8 * (int64_t)parallelism));
    if (large.size() == 1 && outer < 2 * per_strip) return false;
    w.split(f, s, r1, r1_o, r1_i, tile, kTail);
    std::string strips;
    if (large.size() >= 2) {
        const std::string r2 = sm.rvars[large[1]];
        strips = plain_loop_name(r2) + "_o";
        w.split(f, s, r2, strips, plain_loop_name(r2) + "_i", tile, kTail);
    } else {
        strips = plain_loop_name(r1) + "_oo";
        w.split(f, s, r1_o, strips, plain_loop_name(r1) + "_oi", per_strip, kTail);
    }
    const std::string intm = w.rfactor(f, s, {{r1_i, lane}, {strips, strip}});
    w.compute_root(intm);
    // The intermediate: lanes innermost as one vector (column-wise partial sums), strips
    // outermost in parallel.
    std::vector<std::string> order = {lane};
    for (const std::string &l : w.loops(intm, 1)) {
        if (l != lane && l != strip) order.push_back(l);
    }
    order.push_back(strip);
    if (order != w.loops(intm, 1)) w.reorder(intm, 1, order);
    // (A scatter's lanes store at data-dependent places: they stay scalar.)
    if (!scatter) w.vectorize(intm, 1, lane);
    w.parallel(intm, 1, strip);
    if (get_env("LOOM_DEBUG_AUTOSCHEDULE") == "1")
        std::cerr << "autoschedule: " << f << " update " << s - 1 << " rfactor'd\n";
    return true;
}

} // namespace internal
} // namespace loom
