#ifndef LOOM_TESTS_COMMON_SCOPED_ENV_H
#define LOOM_TESTS_COMMON_SCOPED_ENV_H

// An environment variable set for the lifetime of the object (HL_TARGET, HL_JIT_TARGET, ...).

#include <cstdlib>
#include <string>

namespace loom_test {

struct ScopedEnv {
    std::string name;
    ScopedEnv(const char *n, const char *v) : name(n) { setenv(n, v, 1); }
    ~ScopedEnv() { unsetenv(name.c_str()); }
};

} // namespace loom_test

#endif
