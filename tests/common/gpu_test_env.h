// The environment the GPU tests read (tests/correctness/gpu_schedules.cpp, gpu_apps.cpp):
// LOOM_GPU_TARGET (default "host-opencl": PoCL in CI), LOOM_GPU_COMPILE_ONLY=1 (compile each GPU
// schedule without running it: the ptxas check, tests/gpu/check_ptx.sh) and LOOM_SKIP_OPENCL=1
// (skip OpenCL runs on a machine without a driver). Library-neutral, so a test built against
// Halide's API can use it too.
#ifndef LOOM_TESTS_COMMON_GPU_TEST_ENV_H
#define LOOM_TESTS_COMMON_GPU_TEST_ENV_H

#include <cstdlib>
#include <string>

inline bool env_is_one(const char *name) {
    const char *s = std::getenv(name);
    return s && std::string(s) == "1";
}

inline std::string gpu_target_name() {
    const char *s = std::getenv("LOOM_GPU_TARGET");
    return s && *s ? s : "host-opencl";
}

inline bool compile_only() { return env_is_one("LOOM_GPU_COMPILE_ONLY"); }

inline bool skip_gpu() {
    return env_is_one("LOOM_SKIP_OPENCL") && gpu_target_name().find("opencl") != std::string::npos;
}

#define REQUIRE_GPU()                                                                              \
    do {                                                                                           \
        if (skip_gpu()) GTEST_SKIP() << "LOOM_SKIP_OPENCL=1";                                      \
    } while (0)

#endif
