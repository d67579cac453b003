#include "autoschedule/common/schedule_writer.h"

#include "support/error.h"
#include "support/util.h"

#include <loom/func.h>

#include <algorithm>
#include <cctype>
#include <sstream>

namespace loom {
namespace internal {

namespace {

bool is_cpp_keyword(const std::string &s) {
    static const std::set<std::string> keywords = {
        "auto",    "bool",     "break",  "case",     "char",      "class", "const",    "continue",
        "default", "delete",   "do",     "double",   "else",      "enum",  "extern",   "float",
        "for",     "goto",     "if",     "int",      "long",      "new",   "return",   "short",
        "signed",  "sizeof",   "static", "struct",   "switch",    "this",  "true",     "false",
        "union",   "unsigned", "void",   "while",    "namespace", "using", "template", "typename",
        "Var",     "RVar",     "Func",   "pipeline", "Pipeline",  "Expr",  "Stage",    "LoopLevel"};
    return keywords.count(s) > 0;
}

std::string tail_name(TailStrategy t) {
    switch (t) {
    case TailStrategy::RoundUp:
        return "TailStrategy::RoundUp";
    case TailStrategy::GuardWithIf:
        return "TailStrategy::GuardWithIf";
    case TailStrategy::ShiftInwards:
        return "TailStrategy::ShiftInwards";
    default:
        internal_error << "ScheduleWriter: no source form for this tail strategy";
        return "";
    }
}

VarOrRVar var_or_rvar(const std::string &name, bool rvar) { return VarOrRVar(name, rvar); }

} // namespace

ScheduleWriter::ScheduleWriter(const std::map<std::string, Function> &env,
                               const std::vector<std::string> &order)
    : env_(env) {
    for (size_t i = 0; i < order.size(); i++) func_index_[order[i]] = i;
    for (const auto &kv : env_) add_func(kv.second);
}

void ScheduleWriter::add_func(const Function &f) {
    // A Func made by rfactor has RVars of the Func it came from: they keep those origins.
    for (int s = 1; s < num_stages(f) && !created_.count(f.name()); s++) {
        const Definition &def = stage_definition(f, s);
        if (!def.rdom.defined()) continue;
        for (size_t i = 0; i < def.rdom.domain().size(); i++) {
            rvar_origins_.emplace(def.rdom.domain()[i].var, RVarOrigin{f.name(), s - 1, (int)i});
        }
    }
    for (int s = 0; s < num_stages(f); s++) record_loops(f, s);
}

void ScheduleWriter::record_loops(const Function &f, int s) {
    const std::string key = stage_key(f.name(), s);
    std::vector<std::string> &loops = loops_[key];
    loops.clear();
    rvars_[key].clear();
    for (const Dim &d : stage_definition(f, s).schedule.dims) {
        if (d.var == "__outermost") continue;
        // A loop made by a split or fuse is "<old>.<new>", which the writer calls <new>.
        const bool original = rvar_origins_.count(d.var) ||
                              std::find(f.args().begin(), f.args().end(), d.var) != f.args().end();
        loops.push_back(original ? d.var : d.var.substr(d.var.rfind('.') + 1));
        if (d.is_rvar()) rvars_[key].insert(loops.back());
    }
}

std::string ScheduleWriter::stage_key(const std::string &f, int stage) const {
    return f + "#" + std::to_string(stage);
}

std::string ScheduleWriter::ident(const std::string &name) const {
    auto it = idents_.find(name);
    if (it != idents_.end()) return it->second;
    // Keys are "var:<name>" or "func:<name>": one namespace of identifiers for both.
    std::string id = c_identifier(name.substr(name.find(':') + 1));
    if (id.empty() || std::isdigit((unsigned char)id[0])) id = "v" + id;
    if (is_cpp_keyword(id)) id += "_";
    std::string unique = id;
    for (int k = 2; taken_idents_.count(unique); k++) unique = id + "_" + std::to_string(k);
    taken_idents_.insert(unique);
    idents_[name] = unique;
    return unique;
}

void ScheduleWriter::use_var(const std::string &name, bool rvar) {
    if (!vars_used_.count(name)) {
        vars_used_[name] = rvar;
        ident("var:" + name);
    }
}

void ScheduleWriter::reset(const std::string &name) {
    Function f = env_.at(name);
    FuncSchedule &fs = f.schedule();
    // A pure Func placed before (autodiff computes some adjoints at the root) must be inlined
    // by the source too, unless a directive places it again.
    if (f.updates().empty() && !f.has_extern_definition() && !fs.compute_level.is_inlined()) {
        placed_before_.insert(name);
    }
    fs.compute_level = LoopLevelSpec::inlined();
    fs.store_level = LoopLevelSpec::inlined();
    fs.hoist_storage_level = LoopLevelSpec::inlined();
    fs.store_level_set = false;
    fs.touched = false;
    for (int s = 0; s < num_stages(f); s++) {
        Definition &def = s == 0 ? f.definition() : f.updates()[s - 1];
        def.schedule.splits.clear();
        def.schedule.dims =
            s == 0 ? default_dims(def.args, def.rdom) : default_update_dims(def, name);
        def.schedule.touched = false;
        record_loops(f, s);
    }
    f.touch();
}

bool ScheduleWriter::is_rvar(const std::string &f, int stage, const std::string &var) const {
    auto it = rvars_.find(stage_key(f, stage));
    return it != rvars_.end() && it->second.count(var);
}

const std::vector<std::string> &ScheduleWriter::loops(const std::string &f, int stage) const {
    return loops_.at(stage_key(f, stage));
}

void ScheduleWriter::split(const std::string &f, int stage, const std::string &old,
                           const std::string &outer, const std::string &inner, int64_t factor,
                           TailStrategy tail) {
    const bool rv = is_rvar(f, stage, old);
    Stage(env_.at(f), stage)
        .split(var_or_rvar(old, rv), var_or_rvar(outer, rv), var_or_rvar(inner, rv),
               Expr((int)factor), tail);
    std::vector<std::string> &loops = loops_[stage_key(f, stage)];
    auto it = std::find(loops.begin(), loops.end(), old);
    internal_assert(it != loops.end()) << "ScheduleWriter::split: no loop " << old;
    *it = inner;
    loops.insert(it + 1, outer);
    if (rv) {
        rvars_[stage_key(f, stage)].insert(outer);
        rvars_[stage_key(f, stage)].insert(inner);
    }
    for (const std::string &v : {old, outer, inner}) use_var(v, rv);
    directives_.push_back({f, stage,
                           ".split(" + ident("var:" + old) + ", " + ident("var:" + outer) + ", " +
                               ident("var:" + inner) + ", " + std::to_string(factor) +
                               (tail == TailStrategy::Auto ? "" : ", " + tail_name(tail)) + ")"});
}

void ScheduleWriter::reorder(const std::string &f, int stage,
                             const std::vector<std::string> &vars) {
    std::vector<VarOrRVar> args;
    std::string text = ".reorder(";
    for (size_t i = 0; i < vars.size(); i++) {
        const bool rv = is_rvar(f, stage, vars[i]);
        args.push_back(var_or_rvar(vars[i], rv));
        use_var(vars[i], rv);
        text += (i ? ", " : "") + ident("var:" + vars[i]);
    }
    Stage(env_.at(f), stage).reorder(args);
    // The listed loops take the slots they occupied, in the order given.
    std::vector<std::string> &loops = loops_[stage_key(f, stage)];
    std::vector<size_t> slots;
    for (size_t i = 0; i < loops.size(); i++) {
        if (std::find(vars.begin(), vars.end(), loops[i]) != vars.end()) slots.push_back(i);
    }
    for (size_t i = 0; i < slots.size(); i++) loops[slots[i]] = vars[i];
    directives_.push_back({f, stage, text + ")"});
}

void ScheduleWriter::vectorize(const std::string &f, int stage, const std::string &var) {
    const bool rv = is_rvar(f, stage, var);
    Stage(env_.at(f), stage).vectorize(var_or_rvar(var, rv));
    use_var(var, rv);
    directives_.push_back({f, stage, ".vectorize(" + ident("var:" + var) + ")"});
}

void ScheduleWriter::parallel(const std::string &f, int stage, const std::string &var) {
    const bool rv = is_rvar(f, stage, var);
    Stage(env_.at(f), stage).parallel(var_or_rvar(var, rv));
    use_var(var, rv);
    directives_.push_back({f, stage, ".parallel(" + ident("var:" + var) + ")"});
}

void ScheduleWriter::unroll(const std::string &f, int stage, const std::string &var) {
    const bool rv = is_rvar(f, stage, var);
    Stage(env_.at(f), stage).unroll(var_or_rvar(var, rv));
    use_var(var, rv);
    directives_.push_back({f, stage, ".unroll(" + ident("var:" + var) + ")"});
}

void ScheduleWriter::fuse(const std::string &f, int stage, const std::string &inner,
                          const std::string &outer, const std::string &fused) {
    const bool rv = is_rvar(f, stage, inner);
    Stage(env_.at(f), stage)
        .fuse(var_or_rvar(inner, rv), var_or_rvar(outer, rv), var_or_rvar(fused, rv));
    std::vector<std::string> &loops = loops_[stage_key(f, stage)];
    loops.erase(std::find(loops.begin(), loops.end(), outer));
    auto it = std::find(loops.begin(), loops.end(), inner);
    internal_assert(it != loops.end()) << "ScheduleWriter::fuse: no loop " << inner;
    *it = fused;
    if (rv) rvars_[stage_key(f, stage)].insert(fused);
    for (const std::string &v : {inner, outer, fused}) use_var(v, rv);
    directives_.push_back({f, stage,
                           ".fuse(" + ident("var:" + inner) + ", " + ident("var:" + outer) + ", " +
                               ident("var:" + fused) + ")"});
}

void ScheduleWriter::atomic(const std::string &f, int stage) {
    Stage(env_.at(f), stage).atomic();
    directives_.push_back({f, stage, ".atomic()"});
}

std::string
ScheduleWriter::rfactor(const std::string &f, int stage,
                        const std::vector<std::pair<std::string, std::string>> &preserved) {
    std::vector<std::pair<RVar, Var>> pairs;
    std::string list;
    for (const auto &p : preserved) {
        internal_assert(is_rvar(f, stage, p.first))
            << "ScheduleWriter::rfactor: " << p.first << " is not an RVar loop of " << f;
        pairs.emplace_back(RVar(p.first), Var(p.second));
        use_var(p.first, true);
        use_var(p.second, false);
        list += std::string(list.empty() ? "" : ", ") + "{" + ident("var:" + p.first) + ", " +
                ident("var:" + p.second) + "}";
    }
    const Func intm = Stage(env_.at(f), stage).rfactor(pairs);
    const std::string name = intm.name();
    env_[name] = intm.function();
    created_.insert(name);
    add_func(intm.function());
    std::string stage_text = ident("func:" + f);
    if (stage > 0) stage_text += ".update(" + std::to_string(stage - 1) + ")";
    directives_.push_back(
        {"", 0,
         "    Func " + ident("func:" + name) + " = " + stage_text + ".rfactor({" + list + "});\n"});
    // The merge that replaces the update loops over the preserved RVars only.
    record_loops(env_.at(f), stage);
    return name;
}

void ScheduleWriter::compute_root(const std::string &f) {
    Func(env_.at(f)).compute_root();
    placed_before_.erase(f);
    directives_.push_back({f, 0, ".compute_root()"});
}

void ScheduleWriter::compute_at(const std::string &f, const std::string &at,
                                const std::string &var) {
    const int last = num_stages(env_.at(at)) - 1;
    const bool rv = is_rvar(at, last, var);
    Func(env_.at(f)).compute_at(LoopLevel(Func(env_.at(at)), var_or_rvar(var, rv)));
    placed_before_.erase(f);
    use_var(var, rv);
    if (std::find(funcs_used_.begin(), funcs_used_.end(), at) == funcs_used_.end()) {
        funcs_used_.push_back(at);
    }
    directives_.push_back(
        {f, 0, ".compute_at(" + ident("func:" + at) + ", " + ident("var:" + var) + ")"});
}

std::string ScheduleWriter::source(const std::string &header) const {
    std::ostringstream os;
    os << header << "{\n";
    // Func handles, in declaration order, for every Func a directive names (and the Funcs whose
    // RVars it uses).
    std::set<std::string> named(funcs_used_.begin(), funcs_used_.end());
    for (const Directive &d : directives_) named.insert(d.func);
    named.insert(placed_before_.begin(), placed_before_.end());
    named.erase("");
    for (const auto &kv : vars_used_) {
        auto o = rvar_origins_.find(kv.first);
        if (kv.second && o != rvar_origins_.end()) named.insert(o->second.func);
    }
    for (const std::string &f : created_) named.erase(f);
    std::vector<std::pair<size_t, std::string>> handles;
    for (const std::string &f : named) handles.push_back({func_index_.at(f), f});
    std::sort(handles.begin(), handles.end());
    os << "    // Funcs by name (the order of Pipeline::get_func differs between Loom and "
          "Halide).\n"
       << "    auto func_named = [&](const std::string &name) {\n"
       << "        for (size_t i = 0;; i++) {\n"
       << "            Func f = pipeline.get_func(i);\n"
       << "            if (f.name() == name) return f;\n"
       << "        }\n"
       << "    };\n";
    for (const auto &h : handles) {
        os << "    Func " << ident("func:" + h.second) << " = func_named(\"" << h.second
           << "\");\n";
    }
    for (const auto &kv : vars_used_) {
        const std::string &id = ident("var:" + kv.first);
        auto o = rvar_origins_.find(kv.first);
        if (!kv.second) {
            os << "    Var " << id << "(\"" << kv.first << "\");\n";
        } else if (o != rvar_origins_.end()) {
            os << "    RVar " << id << " = " << ident("func:" + o->second.func) << ".rvars("
               << o->second.update << ")[" << o->second.index << "];\n";
        } else {
            os << "    RVar " << id << "(\"" << kv.first << "\");\n";
        }
    }
    for (const std::string &f : placed_before_) {
        os << "    " << ident("func:" + f) << ".compute_inline();\n";
    }
    for (size_t i = 0; i < directives_.size(); i++) {
        const Directive &d = directives_[i];
        if (d.func.empty()) {
            os << d.text;
            continue;
        }
        const bool starts =
            i == 0 || directives_[i - 1].func != d.func || directives_[i - 1].stage != d.stage;
        if (starts) {
            os << "    " << ident("func:" + d.func);
            if (d.stage > 0) os << ".update(" << d.stage - 1 << ")";
            os << "\n";
        }
        os << "        " << d.text;
        const bool ends = i + 1 == directives_.size() || directives_[i + 1].func != d.func ||
                          directives_[i + 1].stage != d.stage;
        os << (ends ? ";\n" : "\n");
    }
    os << "}\n";
    return os.str();
}

} // namespace internal
} // namespace loom
