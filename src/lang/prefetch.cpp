// Stage::prefetch and Func::prefetch: record a PrefetchDirective on the stage; lowering
// (src/lower/inject_prefetch.cpp) inserts the prefetches at the loop.
#include <loom/func.h>
#include <loom/image_param.h>

#include "lang/function.h"
#include "support/error.h"

namespace loom {

using namespace internal;

namespace {

void add_prefetch(const Stage &stage, const std::string &name, const Parameter &param,
                  const VarOrRVar &at, const VarOrRVar &from, const Expr &offset,
                  PrefetchBoundStrategy strategy) {
    Definition &def = stage.definition();
    const std::string where = "In schedule for " + stage.name() + ": can't prefetch " + name;
    int a = find_loop(stage.function(), def, at.name());
    user_assert(a >= 0) << where << " at " << at.name() << " because " << stage.name()
                        << " has no loop over " << at.name()
                        << ". Its loops, outermost first, are: " << loop_list(def) << ".\n";
    int f = find_loop(stage.function(), def, from.name());
    user_assert(f >= 0) << where << " from " << from.name() << " because " << stage.name()
                        << " has no loop over " << from.name()
                        << ". Its loops, outermost first, are: " << loop_list(def) << ".\n";
    // dims are innermost first: `from` must be `at` or a loop outside it.
    user_assert(f >= a) << where << " at " << at.name() << " from " << from.name() << ": the "
                        << "loop " << from.name() << " is inside " << at.name()
                        << "; prefetch from the loop itself or one outside it.\n";
    user_assert(offset.defined() && (offset.type().is_int() || offset.type().is_uint()))
        << where << ": the offset must be an integer expression.\n";
    PrefetchDirective p;
    p.name = name;
    p.at = def.schedule.dims[a].var;
    p.from = def.schedule.dims[f].var;
    p.offset = offset;
    p.strategy = strategy;
    p.param = param;
    def.schedule.prefetches.push_back(p);
    def.schedule.touched = true;
    stage.function().touch();
}

} // namespace

Stage &Stage::prefetch(const Func &f, const VarOrRVar &at, const VarOrRVar &from, Expr offset,
                       PrefetchBoundStrategy strategy) {
    add_prefetch(*this, f.name(), Parameter(), at, from, offset, strategy);
    return *this;
}

Stage &Stage::prefetch(const internal::Parameter &param, const VarOrRVar &at, const VarOrRVar &from,
                       Expr offset, PrefetchBoundStrategy strategy) {
    user_assert(param.defined() && param.is_buffer())
        << "In schedule for " << name() << ": prefetch needs a Func or an input buffer.\n";
    add_prefetch(*this, param.name(), param, at, from, offset, strategy);
    return *this;
}

Stage &Stage::prefetch(const OutputImageParam &image, const VarOrRVar &at, const VarOrRVar &from,
                       Expr offset, PrefetchBoundStrategy strategy) {
    return prefetch(image.parameter(), at, from, offset, strategy);
}

Func &Func::prefetch(const OutputImageParam &image, const VarOrRVar &at, const VarOrRVar &from,
                     Expr offset, PrefetchBoundStrategy strategy) {
    Stage(function(), 0).prefetch(image.parameter(), at, from, offset, strategy);
    return *this;
}

Func &Func::prefetch(const Func &f, const VarOrRVar &at, const VarOrRVar &from, Expr offset,
                     PrefetchBoundStrategy strategy) {
    Stage(function(), 0).prefetch(f, at, from, offset, strategy);
    return *this;
}

Func &Func::prefetch(const internal::Parameter &param, const VarOrRVar &at, const VarOrRVar &from,
                     Expr offset, PrefetchBoundStrategy strategy) {
    Stage(function(), 0).prefetch(param, at, from, offset, strategy);
    return *this;
}

} // namespace loom
