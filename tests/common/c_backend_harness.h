#ifndef LOOM_TESTS_COMMON_C_BACKEND_HARNESS_H
#define LOOM_TESTS_COMMON_C_BACKEND_HARNESS_H

// Runs pipelines through the C back end: compile_to_c, a C compiler building a shared object,
// dlopen, and a call through <name>_argv, so tests can compare the result with the JIT's.
//
// The shared object is linked with -Bsymbolic so that its own (weak) C runtime serves it, not
// libloom's runtime in the test process. Its error handler is set through the object's own
// halide_set_error_handler and collects messages in CBackendRun::errors.

#include <loom/loom.h>

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace c_backend_test {

/// A C compiler and SIMD mapping to build generated C with.
struct CConfig {
    std::string compiler; ///< "gcc", "clang"
    std::string mapping;  ///< "generic", "scalar", "avx2", "sse41"
    std::string flags;    ///< target options the mapping needs ("-mavx2 -mfma", "-msse4.1")
    std::string suffix;   ///< tells apart configurations of one compiler and mapping
    std::string name() const { return compiler + "_" + mapping + suffix; }
};

/// Whether this machine runs code built with -mavx2 -mfma.
inline bool host_has_avx2() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

/// Whether this machine runs code built with -msse4.1.
inline bool host_has_sse41() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.1");
#else
    return false;
#endif
}

/// The configurations available on this machine (gcc is required; clang if installed): the
/// generic and scalar mappings, the avx2 mapping where the CPU has AVX2 and FMA, and the sse41
/// mapping where it has SSE4.1, and there the generic mapping for the host's own ISA
/// (-march=native) too (with gcc only: each configuration adds about a sixth to the tests'
/// time, and those are intrinsics, which Clang compiles alike).
inline std::vector<CConfig> configs() {
    std::vector<CConfig> r;
    for (const char *cc : {"gcc", "clang"}) {
        std::string probe = std::string("command -v ") + cc + " > /dev/null 2>&1";
        if (std::system(probe.c_str()) != 0) continue;
        for (const char *m : {"generic", "scalar"}) r.push_back({cc, m, "", ""});
        if (host_has_avx2()) r.push_back({cc, "avx2", "-mavx2 -mfma", ""});
        if (host_has_sse41() && std::string(cc) == "gcc") {
            r.push_back({cc, "sse41", "-msse4.1", ""});
            r.push_back({cc, "generic", "-march=native", "_native"});
        }
    }
    return r;
}

inline std::string &collected_errors() {
    static std::string errors;
    return errors;
}

inline void collect_error(void *, const char *msg) { collected_errors() += msg; }

/// A pipeline compiled through the C back end and loaded.
class CBackendRun {
public:
    CBackendRun(loom::Pipeline p, const std::vector<loom::Argument> &args, const CConfig &config,
                const std::string &name = "pipeline", const std::string &extra_flags = "",
                const loom::Target &target = loom::get_host_target()) {
        char dir_template[] = "/tmp/loom_c_backend_XXXXXX";
        dir_ = mkdtemp(dir_template);
        std::string c = dir_ + "/" + name + ".c", so = dir_ + "/" + name + ".so";
        p.compile_to_c(c, args, name, target);
        std::string cmd = config.compiler +
                          " -std=c99 -pedantic -Werror=pedantic -O2 -fPIC "
                          "-shared -Wl,-Bsymbolic -DLOOM_SIMD_" +
                          upper(config.mapping) + " " + config.flags + " " + extra_flags + " -o " +
                          so + " " + c + " -lm -lpthread > " + dir_ + "/cc.log 2>&1";
        if (std::system(cmd.c_str()) != 0) {
            std::ifstream log(dir_ + "/cc.log");
            std::stringstream text;
            text << log.rdbuf();
            ADD_FAILURE() << "C compilation failed (" << cmd << "):\n"
                          << text.str().substr(0, 4000);
            return;
        }
        handle_ = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle_) {
            ADD_FAILURE() << "dlopen failed: " << dlerror();
            return;
        }
        argv_ = (int (*)(void **))dlsym(handle_, (name + "_argv").c_str());
        auto set_handler = (void (*(*)(void (*)(void *, const char *)))(void *, const char *))dlsym(
            handle_, "halide_set_error_handler");
        if (!argv_ || !set_handler) {
            ADD_FAILURE() << "the shared object lacks " << name << "_argv or the runtime";
            return;
        }
        set_handler(collect_error);
        if (!std::getenv("LOOM_KEEP_C")) std::remove(c.c_str());
    }
    ~CBackendRun() {
        if (handle_) {
            // The object's worker threads must stop before its code is unmapped.
            auto shutdown = (void (*)())dlsym(handle_, "halide_shutdown_thread_pool");
            if (shutdown) shutdown();
            dlclose(handle_);
        }
        std::string cmd = "rm -rf " + dir_;
        if (!std::getenv("LOOM_KEEP_C")) (void)std::system(cmd.c_str());
    }
    bool ok() const { return argv_ != nullptr; }
    const std::string &dir() const { return dir_; }

    /// Calls the pipeline with argv-style argument pointers; returns its result code.
    int call(const std::vector<void *> &args) {
        collected_errors().clear();
        std::vector<void *> a = args;
        return argv_(a.data());
    }
    std::string errors() const { return collected_errors(); }

    /// A symbol of the loaded object.
    void *symbol(const std::string &s) const { return dlsym(handle_, s.c_str()); }

private:
    static std::string upper(std::string s) {
        for (char &ch : s) ch = (char)std::toupper((unsigned char)ch);
        return s;
    }
    std::string dir_;
    void *handle_ = nullptr;
    int (*argv_)(void **) = nullptr;
};

} // namespace c_backend_test

#endif
