// The lowered statement or the assembly of a Func as text (compile_to_lowered_stmt /
// compile_to_assembly through a temporary file), for tests that check that a directive or an
// instruction-selection rule took effect.
#ifndef LOOM_TESTS_COMMON_LOWERED_TEXT_H
#define LOOM_TESTS_COMMON_LOWERED_TEXT_H

#include <loom/loom.h>

#include "common/unique_names.h"

#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

/// What `write` writes to a temporary file, read back.
inline std::string text_written_by(const std::function<void(const std::string &)> &write) {
    char name[] = "/tmp/loom_text_XXXXXX";
    int fd = mkstemp(name);
    close(fd);
    write(name);
    std::ifstream in(name);
    std::stringstream ss;
    ss << in.rdbuf();
    std::remove(name);
    return ss.str();
}

/// The text of f's lowered statement, compiled with `args` as its arguments, without the
/// suffixes of reused Func names.
inline std::string lowered(loom::Func f, const std::vector<loom::Argument> &args = {}) {
    return without_unique_suffixes(text_written_by(
        [&](const std::string &file) { f.compile_to_lowered_stmt(file, args, loom::Text); }));
}

/// f's assembly for `target`, compiled with `args` as its arguments, as function "f".
inline std::string assembly(loom::Func f, const std::vector<loom::Argument> &args,
                            const loom::Target &target) {
    return text_written_by(
        [&](const std::string &file) { f.compile_to_assembly(file, args, "f", target); });
}

/// How many instructions of f's assembly for `target` have a mnemonic that starts with
/// `mnemonic` ("vfmadd" counts vfmadd213ps and vfmadd231ps).
inline int count_in_assembly(loom::Func f, const std::vector<loom::Argument> &args,
                             const std::string &mnemonic, const loom::Target &target) {
    std::istringstream text(assembly(f, args, target));
    std::string line;
    int n = 0;
    while (std::getline(text, line)) n += line.find("\t" + mnemonic) != std::string::npos;
    return n;
}

/// The bodies of f's innermost loops in its assembly for `target`: from a label to the last jump
/// back to it, holding no other such loop.
inline std::vector<std::string> innermost_loop_bodies(loom::Func f,
                                                      const std::vector<loom::Argument> &args,
                                                      const loom::Target &target) {
    std::vector<std::string> lines;
    std::istringstream text(assembly(f, args, target));
    for (std::string line; std::getline(text, line);) lines.push_back(line);
    std::vector<std::pair<size_t, size_t>> loops;
    for (size_t i = 0; i < lines.size(); i++) {
        const std::string &l = lines[i];
        if (l.empty() || l[0] == '\t' || l.back() != ':') continue;
        const std::string target_of_jump = "\t" + l.substr(0, l.size() - 1);
        size_t end = i;
        for (size_t j = i + 1; j < lines.size(); j++) {
            const std::string &m = lines[j];
            if (m.compare(0, 2, "\tj") == 0 && m.size() >= target_of_jump.size() &&
                m.compare(m.size() - target_of_jump.size(), target_of_jump.size(),
                          target_of_jump) == 0) {
                end = j;
            }
        }
        if (end > i) loops.push_back({i, end});
    }
    std::vector<std::string> bodies;
    for (const auto &outer : loops) {
        bool nested = false;
        for (const auto &inner : loops) {
            nested |= inner != outer && inner.first >= outer.first && inner.second <= outer.second;
        }
        if (nested) continue;
        std::string body;
        for (size_t j = outer.first; j <= outer.second; j++) body += lines[j] + "\n";
        bodies.push_back(body);
    }
    return bodies;
}

#endif
