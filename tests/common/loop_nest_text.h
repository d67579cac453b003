// The text of print_loop_nest and an ordered-lines check on it, for the tests that check that a
// schedule took effect (the application tests compare each schedule's loop nest this way).
#ifndef LOOM_TESTS_COMMON_LOOP_NEST_TEXT_H
#define LOOM_TESTS_COMMON_LOOP_NEST_TEXT_H

#include <loom/loom.h>

#include "common/unique_names.h"

#include <gtest/gtest.h>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

/// What f.print_loop_nest() prints, without the suffixes of reused Func names.
inline std::string loop_nest_of(loom::Func f) {
    std::ostringstream captured;
    std::streambuf *old = std::cerr.rdbuf(captured.rdbuf());
    f.print_loop_nest();
    std::cerr.rdbuf(old);
    return without_unique_suffixes(captured.str());
}

/// Whether every entry of `lines` occurs in `text`, each after the end of the previous one.
inline ::testing::AssertionResult appears_in_order(const std::string &text,
                                                   const std::vector<std::string> &lines) {
    size_t at = 0;
    for (const std::string &line : lines) {
        size_t found = text.find(line, at);
        if (found == std::string::npos) {
            return ::testing::AssertionFailure() << "missing \"" << line << "\" in order in:\n"
                                                 << text;
        }
        at = found + line.size();
    }
    return ::testing::AssertionSuccess();
}

#endif
