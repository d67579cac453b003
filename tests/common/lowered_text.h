// The lowered statement of a Func as text (compile_to_lowered_stmt through a temporary file),
// for tests that check that a directive took effect in the loop nest.
#ifndef LOOM_TESTS_COMMON_LOWERED_TEXT_H
#define LOOM_TESTS_COMMON_LOWERED_TEXT_H

#include <loom/loom.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

/// The text of f's lowered statement, compiled with `args` as its arguments.
inline std::string lowered(loom::Func f, const std::vector<loom::Argument> &args = {}) {
    char name[] = "/tmp/loom_lowered_XXXXXX";
    int fd = mkstemp(name);
    close(fd);
    f.compile_to_lowered_stmt(name, args, loom::Text);
    std::ifstream in(name);
    std::stringstream ss;
    ss << in.rdbuf();
    std::remove(name);
    return ss.str();
}

#endif
