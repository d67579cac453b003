// Stage::prefetch and Func::prefetch (being implemented: lowering in src/lower/inject_prefetch).
#include <loom/func.h>

#include "lang/function.h"
#include "support/error.h"

namespace loom {

using namespace internal;

Stage &Stage::prefetch(const Func &f, const VarOrRVar &at, const VarOrRVar &from, Expr offset,
                       PrefetchBoundStrategy strategy) {
    user_error << "In schedule for " << name() << ": prefetch of " << f.name() << " at "
               << at.name() << " is not supported by Loom yet.\n";
    return *this;
}

Stage &Stage::prefetch(const internal::Parameter &param, const VarOrRVar &at,
                       const VarOrRVar &from, Expr offset, PrefetchBoundStrategy strategy) {
    user_error << "In schedule for " << name() << ": prefetch at " << at.name()
               << " is not supported by Loom yet.\n";
    return *this;
}

Func &Func::prefetch(const Func &f, const VarOrRVar &at, const VarOrRVar &from, Expr offset,
                     PrefetchBoundStrategy strategy) {
    Stage(function(), 0).prefetch(f, at, from, offset, strategy);
    return *this;
}

Func &Func::prefetch(const internal::Parameter &param, const VarOrRVar &at,
                     const VarOrRVar &from, Expr offset, PrefetchBoundStrategy strategy) {
    Stage(function(), 0).prefetch(param, at, from, offset, strategy);
    return *this;
}

} // namespace loom
