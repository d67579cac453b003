// fuse_pipelines (loom/pipeline_fusion.h): checks that the pipelines are independent and the
// fusion points equally deep, then records the fusion as a compute_with that shares loops by
// position (StageSchedule::fuse_by_position); lang/fusion checks the rest and
// lower/compute_with builds the merged nest.
#include <loom/pipeline_fusion.h>

#include "lang/function.h"
#include "lang/fusion.h"
#include "support/error.h"

#include <map>
#include <string>
#include <vector>

namespace loom {

using namespace internal;

namespace {

std::vector<Function> functions_of(const Pipeline &p) {
    std::vector<Function> fs;
    for (const Func &f : p.outputs()) fs.push_back(f.function());
    return fs;
}

/// The Function and stage a fusion point names in the pipeline `env`, and how many loops deep it
/// is (1: the outermost loop of that stage).
struct FusionPoint {
    Function f;
    int stage = 0;
    int depth = 0;
    std::string var;
};

FusionPoint find_point(const std::map<std::string, Function> &env, const LoopLevel &at,
                       const char *which, const std::string &outputs) {
    user_assert(!at.is_root() && !at.is_inlined())
        << "fuse_pipelines: the fusion point of the " << which << " pipeline is "
        << (at.is_root() ? "root" : "inlined")
        << "; it must be a loop of one of its Funcs (LoopLevel(f, y)).\n";
    auto it = env.find(at.func());
    user_assert(it != env.end()) << "fuse_pipelines: the fusion point of the " << which
                                 << " pipeline is a loop of " << at.func()
                                 << ", which that pipeline (computing " << outputs
                                 << ") does not compute.\n";
    FusionPoint p;
    p.f = it->second;
    const int stages = 1 + (int)p.f.updates().size();
    p.stage = at.stage_index() < 0 ? stages - 1 : at.stage_index();
    user_assert(p.stage < stages) << "fuse_pipelines: the fusion point of the " << which
                                  << " pipeline names stage " << p.stage << " of " << p.f.name()
                                  << ", which has " << stages << " stage(s).\n";
    const Definition &def = stage_definition(p.f, p.stage);
    const int i = find_loop(p.f, def, at.var());
    user_assert(i >= 0) << "fuse_pipelines: " << p.f.name() << " has no loop " << at.var()
                        << " (its loops, outermost first: " << loop_list(def) << ").\n";
    p.depth = (int)def.schedule.dims.size() - 1 - i;
    p.var = at.var();
    return p;
}

std::string names(const std::vector<Function> &fs) {
    std::string s;
    for (const Function &f : fs) s += (s.empty() ? "" : ", ") + f.name();
    return s;
}

} // namespace

Pipeline fuse_pipelines(const Pipeline &first, const LoopLevel &first_at, const Pipeline &second,
                        const LoopLevel &second_at) {
    user_assert(first.defined() && second.defined())
        << "fuse_pipelines: both pipelines must be defined.\n";
    const std::vector<Function> a = functions_of(first), b = functions_of(second);
    const std::map<std::string, Function> env_a = find_transitive_calls(a, false);
    const std::map<std::string, Function> env_b = find_transitive_calls(b, false);
    for (const auto &kv : env_a) {
        user_assert(!env_b.count(kv.first))
            << "fuse_pipelines: both pipelines compute " << kv.first
            << ". Only independent pipelines can be fused (they may read the same inputs): "
            << "compute " << kv.first << " in one pipeline and pass it to the other as an "
            << "input, or make one pipeline of both with compute_with.\n";
    }
    const FusionPoint p = find_point(env_a, first_at, "first", names(a));
    FusionPoint c = find_point(env_b, second_at, "second", names(b));
    user_assert(p.depth == c.depth)
        << "fuse_pipelines: the fusion points must be equally deep in their loop nests, but "
        << p.var << " is loop " << p.depth << " (from the outside) of " << stage_text(p.f, p.stage)
        << " (" << loop_list(stage_definition(p.f, p.stage)) << ") and " << c.var << " is loop "
        << c.depth << " of " << stage_text(c.f, c.stage) << " ("
        << loop_list(stage_definition(c.f, c.stage)) << ").\n";

    StageSchedule &s = (c.stage == 0 ? c.f.definition() : c.f.updates()[c.stage - 1]).schedule;
    s.fuse_level.kind = LoopLevelSpec::At;
    s.fuse_level.func = p.f.name();
    s.fuse_level.var = p.var;
    s.fuse_level.stage_index = p.stage;
    s.fuse_align.clear();
    s.fuse_align_default = LoopAlignStrategy::NoAlign;
    s.fuse_by_position = true;
    s.touched = true;
    c.f.touch();

    std::vector<Func> outputs = first.outputs();
    for (const Func &f : second.outputs()) outputs.push_back(f);
    return Pipeline(outputs);
}

} // namespace loom
