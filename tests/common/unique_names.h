// Func names are made unique as in Halide: a name used before in the process gets a suffix
// ("blur", then "blur$1"). Tests that build a pipeline more than once (scheduled and
// unscheduled, one per TEST) compare printed loop nests and statements without the suffixes.
#ifndef LOOM_TESTS_COMMON_UNIQUE_NAMES_H
#define LOOM_TESTS_COMMON_UNIQUE_NAMES_H

#include <cctype>
#include <string>

/// `text` with every "$<digits>" suffix removed.
inline std::string without_unique_suffixes(const std::string &text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); i++) {
        if (text[i] == '$' && i + 1 < text.size() && std::isdigit((unsigned char)text[i + 1])) {
            while (i + 1 < text.size() && std::isdigit((unsigned char)text[i + 1])) i++;
            continue;
        }
        out += text[i];
    }
    return out;
}

#endif
