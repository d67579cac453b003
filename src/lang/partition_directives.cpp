// The loop partitioning directives (Halide 21's Partition): partition(var, policy),
// never_partition / always_partition of some loops, never_partition_all / always_partition_all,
// on Stage and Func. They record the policy in the loop's Dim; build_provide_loop_nest carries
// it into For::partition_policy and partition_loops obeys it (Never: the loop stays whole;
// Always: a CompileError when the loop has nothing to partition).
#include <loom/func.h>

#include "lang/function.h"
#include "support/error.h"

namespace loom {

using namespace internal;

namespace {

Dim::Partition to_dim(loom::Partition p) {
    switch (p) {
    case loom::Partition::Never:
        return Dim::Partition::Never;
    case loom::Partition::Always:
        return Dim::Partition::Always;
    default:
        return Dim::Partition::Auto;
    }
}

void set_partition(Stage &stage, const VarOrRVar &var, loom::Partition policy) {
    StageSchedule &s = stage.definition().schedule;
    int i = find_loop(stage.function(), stage.definition(), var.name());
    user_assert(i >= 0) << "In schedule for " << stage.name() << ": can't set the partition "
                        << "policy of " << var.name() << " because " << stage.name()
                        << " has no loop over " << var.name()
                        << ". Its loops, outermost first, are: " << loop_list(stage.definition())
                        << ".\n";
    s.dims[i].partition = to_dim(policy);
    s.touched = true;
    stage.function().touch();
}

void set_all(Stage &stage, loom::Partition policy) {
    StageSchedule &s = stage.definition().schedule;
    // Every loop but the implicit outermost one.
    for (size_t i = 0; i + 1 < s.dims.size(); i++) s.dims[i].partition = to_dim(policy);
    s.touched = true;
    stage.function().touch();
}

} // namespace

Stage &Stage::partition(const VarOrRVar &var, loom::Partition policy) {
    set_partition(*this, var, policy);
    return *this;
}

Stage &Stage::never_partition(const std::vector<VarOrRVar> &vars) {
    for (const VarOrRVar &v : vars) set_partition(*this, v, loom::Partition::Never);
    return *this;
}

Stage &Stage::always_partition(const std::vector<VarOrRVar> &vars) {
    for (const VarOrRVar &v : vars) set_partition(*this, v, loom::Partition::Always);
    return *this;
}

Stage &Stage::never_partition_all() {
    set_all(*this, loom::Partition::Never);
    return *this;
}

Stage &Stage::always_partition_all() {
    set_all(*this, loom::Partition::Always);
    return *this;
}

Func &Func::partition(const VarOrRVar &var, loom::Partition policy) {
    Stage(function(), 0).partition(var, policy);
    return *this;
}

Func &Func::never_partition(const std::vector<VarOrRVar> &vars) {
    Stage(function(), 0).never_partition(vars);
    return *this;
}

Func &Func::always_partition(const std::vector<VarOrRVar> &vars) {
    Stage(function(), 0).always_partition(vars);
    return *this;
}

Func &Func::never_partition_all() {
    Stage(function(), 0).never_partition_all();
    return *this;
}

Func &Func::always_partition_all() {
    Stage(function(), 0).always_partition_all();
    return *this;
}

} // namespace loom
