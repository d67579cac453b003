#include "autoschedule/autoschedule.h"

#include "autoschedule/li2018/li2018.h"
#include "autoschedule/loom/loom_scheduler.h"
#include "autoschedule/mullapudi2016/mullapudi2016.h"
#include "autoschedule/polymage/polymage.h"
#include "support/error.h"
#include "support/util.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <set>
#include <sstream>

namespace loom {
namespace internal {

namespace {

/// The value of `key` parsed as a number, or a CompileError naming the scheduler and key.
double parse_number(const std::string &scheduler, const std::string &key, const std::string &value,
                    bool integer, bool zero_allowed = false) {
    char *end = nullptr;
    errno = 0;
    const double v = std::strtod(value.c_str(), &end);
    user_assert(!value.empty() && *end == '\0' && errno == 0 &&
                (v > 0 || (zero_allowed && v == 0)) && (!integer || v == (double)(int64_t)v))
        << "Autoscheduler " << scheduler << " parameter " << key << " must be a "
        << (zero_allowed ? "non-negative " : "positive ") << (integer ? "integer" : "number")
        << ", not \"" << value << "\".\n";
    return v;
}

/// "a, b" as {a, b} (spaces and empty items dropped).
std::set<std::string> parse_names(const std::string &value) {
    std::set<std::string> names;
    for (std::string item : split_string(value, ",")) {
        item.erase(std::remove(item.begin(), item.end(), ' '), item.end());
        if (!item.empty()) names.insert(item);
    }
    return names;
}

/// "256x32" as {256, 32}, or a CompileError.
std::vector<int64_t> parse_sizes(const std::string &scheduler, const std::string &key,
                                 const std::string &value) {
    std::vector<int64_t> sizes;
    size_t start = 0;
    while (start <= value.size()) {
        const size_t x = std::min(value.find('x', start), value.size());
        sizes.push_back(
            (int64_t)parse_number(scheduler, key, value.substr(start, x - start), true));
        start = x + 1;
    }
    return sizes;
}

/// Parameters of Halide's Adams2019 and Anderson2021 (learned cost models).
const std::set<std::string> &learned_model_keys() {
    static const std::set<std::string> keys = {"beam_size",
                                               "random_dropout",
                                               "random_dropout_seed",
                                               "weights_path",
                                               "disable_subtiling",
                                               "disable_memoized_features",
                                               "disable_memoized_blocks",
                                               "memory_limit",
                                               "search_space_options",
                                               "freeze_inline_compute_root",
                                               "randomize_tilings",
                                               "num_passes",
                                               "stack_factor",
                                               "shared_memory_limit_kb",
                                               "shared_memory_sm_limit_kb",
                                               "active_block_limit",
                                               "active_warp_limit"};
    return keys;
}

std::string header_for(const std::string &name, const Target &target,
                       const std::map<std::string, std::string> &params) {
    std::ostringstream os;
    os << "// Schedule written by Loom's \"" << name << "\" autoscheduler for target "
       << target.to_string() << ".\n";
    os << "// Parameters:";
    for (const auto &kv : params) os << " " << kv.first << "=" << kv.second;
    os << "\n// Paste it after the algorithm, with the scheduled Pipeline in scope as "
          "`pipeline`.\n";
    return os.str();
}

} // namespace

std::vector<std::string> builtin_autoscheduler_names() {
    return {"Loom", "Mullapudi2016", "PolyMage", "Li2018", "Adams2019", "Anderson2021"};
}

bool is_builtin_autoscheduler(const std::string &name) {
    for (const std::string &n : builtin_autoscheduler_names()) {
        if (n == name) return true;
    }
    return false;
}

std::string run_builtin_autoscheduler(const std::string &name, const std::vector<Function> &outputs,
                                      const Target &target,
                                      const std::map<std::string, std::string> &extra,
                                      const ScheduleTimer &timer) {
    internal_assert(is_builtin_autoscheduler(name)) << "no built-in autoscheduler " << name;
    const bool learned = name == "Adams2019" || name == "Anderson2021";
    if (learned) {
        std::cerr << "Loom: the " << name << " autoscheduler (a learned cost model) is not part of "
                  << "Loom; running Loom's own instead.\n";
    }
    CostParams cost;
    PolyMageParams polymage;
    double autotune_s = 0;
    // The keys each scheduler takes, with their defaults (printed in the source's header).
    std::map<std::string, std::string> used;
    Li2018Params li2018;
    if (name == "Li2018") {
        used = {{"parallelism", std::to_string(li2018.parallelism)},
                {"compute_root", ""},
                {"inline", ""}};
    } else if (name != "PolyMage") {
        used = {{"parallelism", std::to_string(cost.parallelism)},
                {"last_level_cache_size", std::to_string(cost.last_level_cache_size)},
                {"balance", std::to_string((int)cost.balance)}};
    } else {
        used = {{"parallelism", std::to_string(cost.parallelism)},
                {"tile_sizes", "256x32"},
                {"overlap_threshold", "0.4"}};
    }
    if (name != "Mullapudi2016" && name != "Li2018") used["autotune_s"] = "0";
    for (const auto &kv : extra) {
        const std::string &key = kv.first;
        if (used.count(key)) {
            if (key == "parallelism") {
                cost.parallelism = (int)parse_number(name, key, kv.second, true);
                li2018.parallelism = cost.parallelism;
            } else if (key == "last_level_cache_size") {
                cost.last_level_cache_size = (int64_t)parse_number(name, key, kv.second, true);
            } else if (key == "balance") {
                cost.balance = parse_number(name, key, kv.second, false);
            } else if (key == "autotune_s") {
                autotune_s = parse_number(name, key, kv.second, false, true);
            } else if (key == "tile_sizes") {
                polymage.tile_sizes = parse_sizes(name, key, kv.second);
            } else if (key == "compute_root") {
                li2018.compute_root = parse_names(kv.second);
            } else if (key == "inline") {
                li2018.inline_funcs = parse_names(kv.second);
            } else if (key == "overlap_threshold") {
                polymage.overlap_threshold = parse_number(name, key, kv.second, false, true);
            }
            used[key] = kv.second;
        } else if (learned && learned_model_keys().count(key)) {
            // Keys of Halide's learned-model schedulers that Loom's has no use for: accepted so
            // programs naming them run unchanged.
            continue;
        } else {
            std::string keys;
            for (const auto &u : used) keys += (keys.empty() ? "" : ", ") + u.first;
            user_error << "Autoscheduler " << name << " has no parameter \"" << key
                       << "\": its parameters are " << keys
                       << (learned ? " (and Halide's " + name + " keys, which Loom ignores)" : "")
                       << ".\n";
        }
    }
    const std::string header = header_for(name, target, used);
    if (name == "Mullapudi2016") return autoschedule_mullapudi2016(outputs, target, cost, header);
    if (name == "Li2018") return autoschedule_li2018(outputs, target, li2018, header);
    if (name == "PolyMage") {
        polymage.cost = cost;
        polymage.autotune_s = autotune_s;
        return autoschedule_polymage(outputs, target, polymage, header, timer);
    }
    LoomSchedulerParams loom;
    loom.cost = cost;
    loom.autotune_s = autotune_s;
    return autoschedule_loom(outputs, target, loom, header, timer);
}

} // namespace internal
} // namespace loom
