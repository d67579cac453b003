#include "lower/default_schedule.h"

#include "lower/extern_stages.h"

namespace loom {
namespace internal {

std::map<std::string, ComputePlacement>
default_schedule(const std::vector<Function> &outputs, const std::map<std::string, Function> &env) {
    std::map<std::string, ComputePlacement> result;
    for (const auto &kv : env) {
        const Function &f = kv.second;
        const LoopLevelSpec &level = f.schedule().compute_level;
        ComputePlacement p;
        if (level.is_root()) {
            p.kind = ComputePlacement::Root;
        } else if (level.kind == LoopLevelSpec::At) {
            p.kind = ComputePlacement::At;
            p.level = level;
        } else if (!f.updates().empty()) {
            // An update needs storage to accumulate into, so a reduction cannot be inlined.
            p.kind = ComputePlacement::Innermost;
        } else {
            p.kind = ComputePlacement::Inline;
        }
        result[kv.first] = p;
    }
    // Outputs write into the caller's buffers, computed once over their whole region.
    for (const Function &o : outputs)
        result[o.name()] = ComputePlacement{ComputePlacement::Root, {}};
    // Extern stages are never inlined, nor are the Funcs they read.
    apply_extern_stage_placements(env, result);
    return result;
}

} // namespace internal
} // namespace loom
