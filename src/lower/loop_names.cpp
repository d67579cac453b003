#include "lower/loop_names.h"

#include <cctype>

namespace loom {
namespace internal {

std::string stage_prefix(const std::string &func, int stage) {
    return func + ".s" + std::to_string(stage) + ".";
}

std::string outermost_loop_name(const std::string &func, int stage) {
    return stage_prefix(func, stage) + "__outermost";
}

LoopName parse_loop_name(const std::string &name) {
    LoopName out;
    for (size_t p = name.find(".s"); p != std::string::npos; p = name.find(".s", p + 1)) {
        size_t q = p + 2;
        while (q < name.size() && std::isdigit((unsigned char)name[q])) q++;
        if (q == p + 2 || q >= name.size() || name[q] != '.') continue;
        out.func = name.substr(0, p);
        out.stage = std::stoi(name.substr(p + 2, q - p - 2));
        out.var = name.substr(q + 1);
        break;
    }
    return out;
}

std::string describe_loop(const std::string &name) {
    LoopName l = parse_loop_name(name);
    return l.valid() ? l.var + " of " + l.func : name;
}

std::string loop_level_text(const std::string &name) {
    LoopName l = parse_loop_name(name);
    if (!l.valid()) return name;
    return l.func + ", " + (l.var == "__outermost" ? std::string("Var::outermost()") : l.var);
}

std::string fused_loop_name(const std::string &prefix, const std::string &loop) {
    size_t dot = loop.rfind('.');
    if (dot == std::string::npos) return prefix + "fused." + loop;
    return prefix + loop.substr(0, dot + 1) + "fused." + loop.substr(dot + 1);
}

std::string stage_loop_name(const Fusion &fusion, const Function &f, int stage, int dim) {
    const std::vector<Dim> &dims = stage_definition(f, stage).schedule.dims;
    const std::string plain = stage_prefix(f.name(), stage) + dims[dim].var;
    int s = fusion.find(f.name(), stage);
    if (s < 0) return plain;
    const FusedStage &st = fusion.stages[s];
    if (dim == (int)dims.size() - 1) {
        const FusedStage &root = fusion.stages[fusion.root(s)];
        return outermost_loop_name(root.f.name(), root.stage);
    }
    int j = (int)dims.size() - 2 - dim;
    if (j >= st.depth && j < st.shared) {
        return fused_loop_name(stage_prefix(f.name(), stage), st.loops[j]);
    }
    return plain;
}

} // namespace internal
} // namespace loom
