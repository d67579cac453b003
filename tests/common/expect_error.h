// Helpers for tests of user-facing errors: each checks the exception's type and that its message
// names what it should (DESIGN.md §5).
#ifndef LOOM_TESTS_EXPECT_ERROR_H
#define LOOM_TESTS_EXPECT_ERROR_H

#include <loom/error.h>

#include "common/unique_names.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

namespace loom_test {

/// Checks that `msg` contains every string in `parts` (Func names compared without the
/// suffixes of reused names: "f$1" is "f").
inline void expect_contains(const std::string &msg, std::initializer_list<std::string> parts) {
    const std::string text = without_unique_suffixes(msg);
    for (const std::string &p : parts) {
        EXPECT_NE(text.find(p), std::string::npos) << "message lacks \"" << p << "\":\n" << msg;
    }
}

/// Runs f, expecting an exception of type E (loom::CompileError by default) whose message
/// contains every string in `parts`.
template <typename E = loom::CompileError, typename F>
void expect_error(F f, std::initializer_list<std::string> parts) {
    try {
        f();
    } catch (const E &e) {
        expect_contains(e.what(), parts);
        return;
    } catch (const std::exception &e) {
        ADD_FAILURE() << "expected another exception type, got: " << e.what();
        return;
    }
    ADD_FAILURE() << "expected an exception, nothing was thrown";
}

} // namespace loom_test

#endif
