// Pipeline's automatic-scheduling entry points (Halide's apply_autoscheduler, add_autoscheduler,
// get_func) and load_plugin. The built-in schedulers live in src/autoschedule; this file adds
// the registry of user schedulers (which take a Pipeline, a driver type) and the plugin loader.
#include <loom/pipeline.h>

#include "autoschedule/autoschedule.h"
#include "driver/pipeline_contents.h"
#include "lang/call_graph.h"
#include "support/error.h"
#include "support/util.h"

#include <dlfcn.h>

#include <mutex>

namespace loom {

using namespace internal;

namespace {

std::mutex registry_mutex;

std::map<std::string, AutoSchedulerFn> &user_autoschedulers() {
    static std::map<std::string, AutoSchedulerFn> registry;
    return registry;
}

std::vector<Function> output_functions(const Pipeline &p) {
    std::vector<Function> fs;
    for (const Func &f : p.outputs()) fs.push_back(f.function());
    return fs;
}

/// Whether `lib_name` names one of Halide's autoscheduler plugins, which Loom has built in.
bool is_halide_plugin(const std::string &lib_name) {
    std::string base = lib_name.substr(lib_name.find_last_of('/') + 1);
    if (starts_with(base, "lib")) base = base.substr(3);
    base = base.substr(0, base.find('.'));
    return base == "autoschedule_mullapudi2016" || base == "autoschedule_adams2019" ||
           base == "autoschedule_anderson2021" || base == "autoschedule_li2018";
}

} // namespace

std::string AutoschedulerParams::to_string() const {
    std::string s = "autoscheduler=" + name;
    for (const auto &kv : extra) s += " autoscheduler." + kv.first + "=" + kv.second;
    return s;
}

Func Pipeline::get_func(size_t index) {
    user_assert(defined()) << "Pipeline::get_func on an undefined Pipeline.\n";
    const std::vector<Function> outputs = output_functions(*this);
    const std::map<std::string, Function> env = find_transitive_calls(outputs, false);
    const std::vector<std::string> order = topological_order(outputs, env);
    user_assert(index < order.size()) << "Pipeline::get_func(" << index
                                      << "): the pipeline has only " << order.size() << " Funcs.\n";
    return Func(env.at(order[index]));
}

AutoSchedulerResults
Pipeline::apply_autoscheduler(const Target &target,
                              const AutoschedulerParams &autoscheduler_params) const {
    user_assert(defined()) << "apply_autoscheduler on an undefined Pipeline.\n";
    const std::string &name = autoscheduler_params.name;
    AutoSchedulerResults results;
    results.target = target;
    results.autoscheduler_params = autoscheduler_params;
    AutoSchedulerFn user_fn;
    {
        std::lock_guard<std::mutex> lock(registry_mutex);
        auto it = user_autoschedulers().find(name);
        if (it != user_autoschedulers().end()) user_fn = it->second;
    }
    if (user_fn) {
        user_fn(*this, target, autoscheduler_params, &results);
        return results;
    }
    if (!is_builtin_autoscheduler(name)) {
        std::string names;
        for (const std::string &n : builtin_autoscheduler_names()) names += " " + n;
        std::lock_guard<std::mutex> lock(registry_mutex);
        for (const auto &kv : user_autoschedulers()) names += " " + kv.first;
        user_error << (name.empty() ? std::string("apply_autoscheduler needs a scheduler name")
                                    : "There is no autoscheduler named \"" + name + "\"")
                   << ": pass one of" << names << " in AutoschedulerParams.\n";
    }
    const std::vector<Function> outputs = output_functions(*this);
    user_assert(find_transitive_calls(outputs, true).size() ==
                find_transitive_calls(outputs, false).size())
        << "Loom's autoschedulers can't schedule a pipeline with wrapper Funcs (Func::in, "
        << "clone_in, ImageParam::in) yet: schedule it by hand, or remove the wrappers.\n";
    results.schedule_source =
        run_builtin_autoscheduler(name, outputs, target, autoscheduler_params.extra);
    return results;
}

void Pipeline::add_autoscheduler(const std::string &autoscheduler_name,
                                 const AutoSchedulerFn &autoscheduler) {
    std::lock_guard<std::mutex> lock(registry_mutex);
    user_assert(!is_builtin_autoscheduler(autoscheduler_name) &&
                !user_autoschedulers().count(autoscheduler_name))
        << "An autoscheduler named \"" << autoscheduler_name
        << "\" already exists: register yours under another name.\n";
    user_autoschedulers()[autoscheduler_name] = autoscheduler;
}

void load_plugin(const std::string &lib_name) {
    if (is_halide_plugin(lib_name)) return; // built in
    std::string path = lib_name;
    if (path.find('.') == std::string::npos) path = "lib" + path + ".so";
    void *handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_GLOBAL);
    user_assert(handle != nullptr)
        << "load_plugin can't open \"" << path << "\": " << dlerror() << "\n";
}

} // namespace loom
