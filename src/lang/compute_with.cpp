// Stage::compute_with and Func's forwards: they only record the fusion in the stage's schedule
// (StageSchedule::fuse_level and the alignment strategies). Whether the fusion is legal depends
// on the whole pipeline (compute levels, dependencies, the loops of both stages), so it is
// checked when the pipeline's function graph is built (src/lang/fusion.cpp) and lowered by
// src/lower/compute_with.cpp.
#include <loom/func.h>

#include "lang/function.h"
#include "support/error.h"

namespace loom {

namespace {

/// "f.s0.x" style text for messages: "<stage name>.<var>".
std::string level_text(const LoopLevel &l) {
    if (l.is_root()) return "root";
    if (l.is_inlined()) return "inlined";
    std::string stage = l.stage_index() > 0 ? ".update(" + std::to_string(l.stage_index() - 1) + ")"
                                            : std::string();
    return l.func() + stage + "." + l.var();
}

/// Records the fusion of `stage` with the loop `loop_level` names (see StageSchedule::fuse_level).
void record_compute_with(const Stage &stage, const LoopLevel &loop_level,
                         const std::vector<std::pair<VarOrRVar, LoopAlignStrategy>> &align,
                         LoopAlignStrategy default_align) {
    internal::Function f = stage.function();
    const int k = stage.stage_index();
    const internal::Definition &base = k == 0 ? f.definition() : f.updates()[k - 1];
    user_assert(&stage.definition() == &base)
        << "In schedule for " << stage.name() << ": compute_with can't be applied to a "
        << "specialization (Stage::specialize); call it on the stage itself, which must then "
        << "have no specializations.\n";
    user_assert(!loop_level.is_inlined() && !loop_level.is_root())
        << "In schedule for " << stage.name() << ": compute_with(" << level_text(loop_level)
        << ") needs a loop of another stage, e.g. compute_with(g, y) or "
        << "compute_with(LoopLevel(g, y)).\n";
    user_assert(!f.has_extern_definition())
        << "In schedule for " << stage.name() << ": " << f.name()
        << " is an extern Func; its loops are in its C function, so compute_with can't fuse "
        << "them.\n";
    const int parent_stage = loop_level.stage_index() < 0 ? -1 : loop_level.stage_index();
    const bool itself = loop_level.func() == f.name() &&
                        (parent_stage == k || (parent_stage < 0 && k == (int)f.updates().size()));
    user_assert(!itself) << "In schedule for " << stage.name()
                         << ": a stage can't be computed with itself (" << level_text(loop_level)
                         << "). Name a stage of another Func.\n";
    internal::StageSchedule &s = stage.definition().schedule;
    s.fuse_level.kind = internal::LoopLevelSpec::At;
    s.fuse_level.func = loop_level.func();
    s.fuse_level.var = loop_level.var();
    s.fuse_level.stage_index = parent_stage;
    s.fuse_align.clear();
    for (const auto &a : align) s.fuse_align[a.first.name()] = a.second;
    s.fuse_align_default = default_align;
    s.touched = true;
    f.touch();
}

} // namespace

Stage &Stage::compute_with(LoopLevel loop_level, LoopAlignStrategy align) {
    record_compute_with(*this, loop_level, {}, align);
    return *this;
}

Stage &Stage::compute_with(LoopLevel loop_level,
                           const std::vector<std::pair<VarOrRVar, LoopAlignStrategy>> &align) {
    record_compute_with(*this, loop_level, align, LoopAlignStrategy::Auto);
    return *this;
}

Stage &Stage::compute_with(const Stage &s, const VarOrRVar &var, LoopAlignStrategy align) {
    return compute_with(LoopLevel(Func(s.function()), var, s.stage_index()), align);
}

Stage &Stage::compute_with(const Stage &s, const VarOrRVar &var,
                           const std::vector<std::pair<VarOrRVar, LoopAlignStrategy>> &align) {
    return compute_with(LoopLevel(Func(s.function()), var, s.stage_index()), align);
}

Func &Func::compute_with(const Stage &s, const VarOrRVar &var, LoopAlignStrategy align) {
    Stage(*this).compute_with(s, var, align);
    return *this;
}

Func &Func::compute_with(LoopLevel loop_level, LoopAlignStrategy align) {
    Stage(*this).compute_with(loop_level, align);
    return *this;
}

Func &Func::compute_with(const Stage &s, const VarOrRVar &var,
                         const std::vector<std::pair<VarOrRVar, LoopAlignStrategy>> &align) {
    Stage(*this).compute_with(s, var, align);
    return *this;
}

Func &Func::compute_with(LoopLevel loop_level,
                         const std::vector<std::pair<VarOrRVar, LoopAlignStrategy>> &align) {
    Stage(*this).compute_with(loop_level, align);
    return *this;
}

} // namespace loom
