// Stage::compute_with and Func's forwards. Fusing the loop nests of two stages is not
// implemented yet: the directive is a CompileError rather than a silently ignored schedule.
#include <loom/func.h>

#include "lang/function.h"
#include "support/error.h"

namespace loom {

Stage &Stage::compute_with(LoopLevel loop_level, LoopAlignStrategy align) {
    (void)align;
    user_error << "In schedule for " << name() << ": compute_with("
               << (loop_level.is_root() ? std::string("root")
                                        : loop_level.func() + "." + loop_level.var())
               << ") is not supported yet: Loom can't fuse the loop nests of two stages. "
               << "Schedule the stages separately (e.g. compute both at the same loop level).\n";
    return *this;
}

Stage &Stage::compute_with(const Stage &s, const VarOrRVar &var, LoopAlignStrategy align) {
    user_error << "In schedule for " << name() << ": compute_with(" << s.name() << ", "
               << var.name() << ") is not supported yet: Loom can't fuse the loop nests of two "
               << "stages. Schedule the stages separately (e.g. compute both at the same loop "
               << "level).\n";
    (void)align;
    return *this;
}

Func &Func::compute_with(const Stage &s, const VarOrRVar &var, LoopAlignStrategy align) {
    Stage(*this).compute_with(s, var, align);
    return *this;
}

Func &Func::compute_with(LoopLevel loop_level, LoopAlignStrategy align) {
    Stage(*this).compute_with(loop_level, align);
    return *this;
}

} // namespace loom
