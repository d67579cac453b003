// Pipeline's automatic-scheduling entry points (Halide's apply_autoscheduler, add_autoscheduler,
// get_func) and load_plugin. The built-in schedulers live in src/autoschedule; this file adds
// the registry of user schedulers (which take a Pipeline, a driver type), the plugin loader and
// the timer the tuning modes measure candidate schedules with.
#include <loom/callable.h>
#include <loom/ir_operator.h>
#include <loom/pipeline.h>

#include "autoschedule/autoschedule.h"
#include "driver/pipeline_contents.h"
#include "ir/parameter.h"
#include "lang/call_graph.h"
#include "simplify/simplify.h"
#include "support/error.h"
#include "support/util.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iostream>
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

/// A buffer of `type` over `shape` holding small values of its type (a deterministic pattern:
/// no NaNs or denormals to distort timings, small enough to serve as indices).
Buffer<void> synthetic_buffer(Type type, const std::vector<std::pair<int64_t, int64_t>> &shape) {
    std::vector<int> sizes, mins;
    for (const auto &d : shape) {
        mins.push_back((int)d.first);
        sizes.push_back((int)std::max<int64_t>(d.second, 1));
    }
    Buffer<void> b(type, sizes);
    b.set_min(mins);
    void *host = b.raw_buffer()->host;
    for (size_t i = 0; i < b.number_of_elements(); i++) {
        const int v = (int)((i * 37 + (i >> 7) * 11) % 61);
        const double f = v / 61.0;
        switch (type.code()) {
        case Type::Float:
            if (type.bits() == 64) {
                ((double *)host)[i] = f;
            } else if (type.bits() == 32) {
                ((float *)host)[i] = (float)f;
            } else {
                ((uint16_t *)host)[i] = (uint16_t)(0x3800 + v); // float16 in [0.5, 0.53)
            }
            break;
        default: {
            const uint64_t u = type.bits() == 1 ? (uint64_t)(v & 1) : (uint64_t)v;
            std::memcpy((char *)host + i * type.bytes(), &u, type.bytes()); // little-endian
        }
        }
    }
    return b;
}

/// The ScheduleTimer of apply_autoscheduler: compiles the pipeline under the schedule now in
/// its Funcs as a Callable over its arguments and times it at `shapes`. Inputs bound to a
/// Buffer run on it; the others get synthetic data of the estimated shape; scalar Params take
/// their estimate (or value). Seconds per run: the median of a few runs after a warm-up one.
double time_current_schedule(Pipeline pipeline, const Target &target, const BufferShapes &shapes) {
    try {
        PipelineContents &c = pipeline_contents(pipeline.get_contents());
        std::vector<Argument> args;
        std::vector<Buffer<void>> buffers;
        std::vector<uint64_t> scalars;
        std::vector<std::pair<bool, size_t>> slots; // (is buffer, index)
        for (const LoweredArgument &a : input_arguments(c)) {
            if (a.is_buffer()) {
                if (a.param.defined() && a.param.is_bound_buffer()) continue; // embedded
                Buffer<void> b = a.param.defined() ? a.param.buffer() : Buffer<void>();
                if (!b.defined()) {
                    auto shape = shapes.find(a.name);
                    if (shape == shapes.end()) return -1;
                    b = synthetic_buffer(a.type, shape->second);
                }
                args.emplace_back(a.name, Argument::InputBuffer, a.type, a.dimensions);
                slots.push_back({true, buffers.size()});
                buffers.push_back(b);
            } else {
                Parameter value(a.type, false, 0, a.name);
                if (a.param.defined()) {
                    // (An estimate may be an unfolded cast, e.g. float32(1.0).)
                    value.set_scalar_expr(simplify(cast(a.type, a.param.estimate().defined()
                                                                    ? a.param.estimate()
                                                                    : a.param.scalar_expr())));
                }
                uint64_t bits = 0;
                std::memcpy(&bits, value.scalar_address(), a.type.bytes());
                args.emplace_back(a.name, Argument::InputScalar, a.type, 0);
                slots.push_back({false, scalars.size()});
                scalars.push_back(bits);
            }
        }
        for (const Function &f : c.outputs) {
            for (const Type &t : f.output_types()) {
                slots.push_back({true, buffers.size()});
                buffers.push_back(synthetic_buffer(t, shapes.at(f.name())));
            }
        }
        Callable callable = pipeline.compile_to_callable(args, target);
        JITUserContext *context = nullptr;
        std::vector<const void *> argv = {&context};
        for (const auto &s : slots) {
            argv.push_back(s.first ? (const void *)buffers[s.second].raw_buffer()
                                   : (const void *)&scalars[s.second]);
        }
        auto run = [&] {
            const auto t0 = std::chrono::steady_clock::now();
            if (callable.call_argv_fast(argv.size(), argv.data()) != 0) return -1.0;
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        };
        if (run() < 0) return -1;
        std::vector<double> times;
        double total = 0;
        while (times.size() < 5 && (times.size() < 2 || total < 1.0)) {
            const double t = run();
            if (t < 0) return -1;
            times.push_back(t);
            total += t;
        }
        std::sort(times.begin(), times.end());
        return times[times.size() / 2];
    } catch (const Error &e) {
        // A candidate that can't compile or run is dropped; the debug output says why.
        if (get_env("LOOM_DEBUG_AUTOSCHEDULE") == "1")
            std::cerr << "Loom: timing a candidate failed: " << e.what() << "\n";
        return -1;
    }
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
    results.schedule_source = run_builtin_autoscheduler(
        name, outputs, target, autoscheduler_params.extra,
        [&](const BufferShapes &shapes) { return time_current_schedule(*this, target, shapes); });
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
