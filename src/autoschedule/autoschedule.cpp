#include "autoschedule/autoschedule.h"

#include "autoschedule/mullapudi2016/mullapudi2016.h"
#include "support/error.h"

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
                    bool integer) {
    char *end = nullptr;
    errno = 0;
    const double v = std::strtod(value.c_str(), &end);
    user_assert(!value.empty() && *end == '\0' && errno == 0 && v > 0 &&
                (!integer || v == (double)(int64_t)v))
        << "Autoscheduler " << scheduler << " parameter " << key << " must be a positive "
        << (integer ? "integer" : "number") << ", not \"" << value << "\".\n";
    return v;
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
    return {"Mullapudi2016", "Adams2019", "Anderson2021"};
}

bool is_builtin_autoscheduler(const std::string &name) {
    for (const std::string &n : builtin_autoscheduler_names()) {
        if (n == name) return true;
    }
    return false;
}

std::string run_builtin_autoscheduler(const std::string &name, const std::vector<Function> &outputs,
                                      const Target &target,
                                      const std::map<std::string, std::string> &extra) {
    internal_assert(is_builtin_autoscheduler(name)) << "no built-in autoscheduler " << name;
    if (name == "Adams2019" || name == "Anderson2021") {
        std::cerr << "Loom: the " << name << " autoscheduler (a learned cost model) is not part of "
                  << "Loom; running Mullapudi2016 instead.\n";
    }
    MullapudiParams p;
    std::map<std::string, std::string> used = {
        {"parallelism", std::to_string(p.parallelism)},
        {"last_level_cache_size", std::to_string(p.last_level_cache_size)},
        {"balance", std::to_string((int)p.balance)}};
    for (const auto &kv : extra) {
        if (kv.first == "parallelism") {
            p.parallelism = (int)parse_number(name, kv.first, kv.second, true);
        } else if (kv.first == "last_level_cache_size") {
            p.last_level_cache_size = (int64_t)parse_number(name, kv.first, kv.second, true);
        } else if (kv.first == "balance") {
            p.balance = parse_number(name, kv.first, kv.second, false);
        } else if (name != "Mullapudi2016" && learned_model_keys().count(kv.first)) {
            // Keys of Halide's learned-model schedulers that Mullapudi2016 has no use for:
            // accepted so programs naming them run unchanged.
            continue;
        } else {
            user_error << "Autoscheduler " << name << " has no parameter \"" << kv.first
                       << "\": its parameters are parallelism, last_level_cache_size and "
                       << "balance"
                       << (name == "Mullapudi2016"
                               ? ""
                               : " (and Halide's " + name + " keys, which Loom ignores)")
                       << ".\n";
        }
        used[kv.first] = kv.second;
    }
    return autoschedule_mullapudi2016(outputs, target, p, header_for(name, target, used));
}

} // namespace internal
} // namespace loom
