#include "support/util.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <map>
#include <mutex>

namespace loom {
namespace internal {

std::string unique_name(char prefix) {
    static std::atomic<int> counter[128];
    int n = counter[(unsigned char)prefix & 127].fetch_add(1);
    return std::string(1, prefix) + std::to_string(n);
}

std::string unique_name(const std::string &base) {
    static std::mutex lock;
    static std::map<std::string, int> seen;
    std::lock_guard<std::mutex> guard(lock);
    int &n = seen[base];
    // A base shaped like unique_name(char)'s names (one character, then digits: "f1") always
    // gets a suffix, as in Halide, so it can't equal an anonymous name.
    const bool looks_anonymous =
        base.size() >= 2 && std::all_of(base.begin() + 1, base.end(),
                                        [](char c) { return std::isdigit((unsigned char)c) != 0; });
    std::string result = n == 0 && !looks_anonymous ? base : base + "$" + std::to_string(n);
    n++;
    return result;
}

std::string c_identifier(const std::string &s) {
    std::string r = s;
    for (char &c : r) {
        if (!isalnum((unsigned char)c) && c != '_') c = '_';
    }
    return r;
}

bool starts_with(const std::string &s, const std::string &p) {
    return s.size() >= p.size() && s.compare(0, p.size(), p) == 0;
}

bool ends_with(const std::string &s, const std::string &p) {
    return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

std::vector<std::string> split_string(const std::string &s, const std::string &delim) {
    std::vector<std::string> out;
    size_t start = 0;
    while (true) {
        size_t pos = s.find(delim, start);
        if (pos == std::string::npos) {
            out.push_back(s.substr(start));
            return out;
        }
        out.push_back(s.substr(start, pos - start));
        start = pos + delim.size();
    }
}

std::string get_env(const char *name) {
    const char *v = std::getenv(name);
    return v ? v : "";
}

} // namespace internal
} // namespace loom
