// Every app (apps/, benchmark size, hand schedule) through the C back end against the LLVM back
// end's JIT code, in one process: the app's Func is written with compile_to_c, built by a C
// compiler into a shared object (-Bsymbolic: its own C runtime and thread pool) and loaded; it
// runs on the app's own input buffers, alternating with the JIT, and its output is compared
// with the JIT's (for floats relative to max(1, |JIT|), for integers in units: float rounding
// that differs before a conversion to an integer moves it by one).
// Usage: c_backend_apps [--small] [--runs N] [--configs a,b,...] [app...]
// --configs keeps the named configurations only (e.g. "gcc generic,gcc avx2").
// With LOOM_KEEP_C=1 the generated C files and shared objects are kept (<app>.c, <app>-<config>.so
// in the printed folder), to profile them; LOOM_C_FLAGS adds C compiler flags (e.g. -g).
#include "Halide.h"

#include "common/all_apps.h"

// The public arguments' parameters (to pass the app's bound inputs): driver internals.
#include "driver/module_contents.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace {

double now_ms() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/// The largest difference between two outputs: for floats relative to max(1, |a|), for
/// integers in units of the type (0 when identical).
double max_difference(const Halide::Buffer<> &a, const Halide::Buffer<> &b) {
    const halide_buffer_t *x = a.raw_buffer(), *y = b.raw_buffer();
    size_t n = x->size_in_bytes();
    if (std::memcmp(x->host, y->host, n) == 0) return 0;
    Halide::Type t = a.type();
    double worst = 0;
    for (size_t i = 0; i < n / t.bytes(); i++) {
        double p, q;
        if (t == Halide::Float(32)) {
            p = ((const float *)x->host)[i];
            q = ((const float *)y->host)[i];
            worst = std::max(worst, std::abs(p - q) / std::max(1.0, std::abs(p)));
            continue;
        }
        if (t == Halide::UInt(8)) {
            p = x->host[i];
            q = y->host[i];
        } else if (t == Halide::UInt(16)) {
            p = ((const uint16_t *)x->host)[i];
            q = ((const uint16_t *)y->host)[i];
        } else if (t == Halide::Int(32)) {
            p = ((const int32_t *)x->host)[i];
            q = ((const int32_t *)y->host)[i];
        } else {
            return INFINITY; // a type this comparison does not read
        }
        worst = std::max(worst, std::abs(p - q));
    }
    return worst;
}

struct Config {
    std::string name, command;
};

} // namespace

int main(int argc, char **argv) {
    bool small = false;
    int runs = 7;
    std::set<std::string> only;
    std::string wanted_configs;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--small") {
            small = true;
        } else if (a == "--runs" && i + 1 < argc) {
            runs = std::atoi(argv[++i]);
        } else if (a == "--configs" && i + 1 < argc) {
            wanted_configs = "," + std::string(argv[++i]) + ",";
        } else {
            only.insert(a);
        }
    }
    std::vector<Config> configs;
    auto have = [](const char *cc) {
        return std::system((std::string("command -v ") + cc + " > /dev/null").c_str()) == 0;
    };
    const char *extra = std::getenv("LOOM_C_FLAGS");
    const std::string base = " -std=c99 -O3 -march=native -Wno-psabi -fPIC -shared -Wl,-Bsymbolic" +
                             std::string(extra ? " " + std::string(extra) : "");
    configs.push_back({"gcc generic", "gcc" + base + " -DLOOM_SIMD_GENERIC"});
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        configs.push_back({"gcc avx2", "gcc" + base + " -DLOOM_SIMD_AVX2"});
    }
    if (__builtin_cpu_supports("sse4.1")) {
        // x86 without AVX: the sse41 mapping against the generic one for the same ISA.
        std::string sse = base;
        sse.replace(sse.find(" -march=native"), 14, " -msse4.1");
        configs.push_back({"gcc generic sse4.1", "gcc" + sse + " -DLOOM_SIMD_GENERIC"});
        configs.push_back({"gcc sse41", "gcc" + sse + " -DLOOM_SIMD_SSE41"});
    }
    configs.push_back({"gcc scalar", "gcc" + base + " -DLOOM_SIMD_SCALAR"});
    if (have("clang")) {
        configs.push_back({"clang generic", "clang" + base + " -DLOOM_SIMD_GENERIC"});
    }
    if (!wanted_configs.empty()) {
        configs.erase(std::remove_if(configs.begin(), configs.end(),
                                     [&](const Config &c) {
                                         return wanted_configs.find("," + c.name + ",") ==
                                                std::string::npos;
                                     }),
                      configs.end());
    }
    char dir_template[] = "/tmp/loom_c_apps_XXXXXX";
    std::string dir = mkdtemp(dir_template);
    const char *images = std::getenv("LOOM_SHARED_IMAGES");
    std::printf("C back end / LLVM back end (JIT) per app, %s size, medians of %d alternating "
                "runs; 'max diff': the largest output difference (floats: relative to max(1, "
                "|JIT|); integers: in units)\n",
                small ? "small" : "benchmark", runs);
    for (const AppEntry &e : all_apps()) {
        if (!only.empty() && !only.count(e.name)) continue;
        AppOptions opt;
        opt.paper_size = !small;
        opt.images_dir = images ? images : "../shared/images";
        std::unique_ptr<AppInstance> app = e.make(opt);
        app->compile();
        Halide::Func f = app->output_func();
        if (!f.defined()) {
            std::printf("%-16s skipped: no output Func for the ahead-of-time back ends\n", e.name);
            continue;
        }
        app->run();
        Halide::Buffer<> jit_out = app->output();
        Halide::Pipeline p(f);
        std::vector<Halide::Argument> args = p.infer_arguments();
        Halide::Module m = p.compile_to_module(args, "app", Halide::get_host_target());
        const auto &mc =
            *static_cast<const loom::internal::ModuleContents *>(m.get_contents().get());
        std::vector<int> sizes;
        for (int d = 0; d < jit_out.dimensions(); d++) sizes.push_back(jit_out.dim(d).extent());
        Halide::Buffer<> c_out(jit_out.type(), sizes);
        // One argv per realization of run(): each input's bound buffer (kept alive here: the
        // next realization binds another) or an 8-byte slot holding the scalar's value, then
        // the realization's part of the C output.
        const int n = app->realizations();
        std::vector<std::vector<uint64_t>> slots(n, std::vector<uint64_t>(mc.public_args.size()));
        std::vector<std::vector<void *>> argvs(n);
        std::vector<Halide::Buffer<>> kept;
        bool ok = true;
        for (int r = 0; r < n; r++) {
            Halide::Buffer<> out_view = app->prepare_realization(r, c_out);
            kept.push_back(out_view);
            for (size_t i = 0; i < mc.public_args.size(); i++) {
                const loom::internal::AotArgument &a = mc.public_args[i];
                if (a.arg.kind == loom::internal::LoweredArgument::OutputBuffer) {
                    argvs[r].push_back(out_view.raw_buffer());
                    continue;
                }
                const loom::internal::Parameter &param = mc.lowered.args[a.lowered_index].param;
                if (a.arg.is_buffer()) {
                    kept.push_back(param.buffer());
                    argvs[r].push_back(kept.back().raw_buffer());
                    continue;
                }
                uint64_t &slot = slots[r][i];
                loom::Expr v = param.scalar_expr();
                if (const auto *imm = v.as<loom::internal::IntImm>()) {
                    std::memcpy(&slot, &imm->value, a.arg.type.bytes());
                } else if (const auto *u = v.as<loom::internal::UIntImm>()) {
                    std::memcpy(&slot, &u->value, a.arg.type.bytes());
                } else if (const auto *fl = v.as<loom::internal::FloatImm>()) {
                    float f32 = (float)fl->value;
                    if (a.arg.type.bits() == 32)
                        std::memcpy(&slot, &f32, 4);
                    else
                        std::memcpy(&slot, &fl->value, 8);
                } else {
                    ok = false;
                }
                argvs[r].push_back(&slot);
            }
        }
        if (!ok) {
            std::printf("%-16s skipped: a scalar argument has no constant value\n", e.name);
            continue;
        }
        const bool keep = std::getenv("LOOM_KEEP_C") != nullptr;
        std::string src = dir + "/" + (keep ? e.name : "app") + ".c";
        p.compile_to_c(src, args, "app", Halide::get_host_target());
        for (const Config &c : configs) {
            std::string tag = c.name;
            for (char &ch : tag) ch = ch == ' ' ? '-' : ch;
            std::string so = dir + "/" + (keep ? std::string(e.name) + "-" + tag : "app") + ".so";
            std::string cmd = c.command + " -o " + so + " " + src + " -lm -lpthread";
            double t0 = now_ms();
            if (std::system(cmd.c_str()) != 0) {
                std::printf("%-16s %-18s C compilation failed\n", e.name, c.name.c_str());
                continue;
            }
            double cc_ms = now_ms() - t0;
            void *h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
            auto fn = (int (*)(void **))dlsym(h, "app_argv");
            std::vector<double> c_ms, jit_ms;
            int err = 0;
            for (int r = 0; r < runs + 1; r++) {
                for (int k = 0; k < 2; k++) {
                    bool use_c = (k == 0) == (r % 2 == 0);
                    double s = now_ms();
                    if (use_c) {
                        for (const std::vector<void *> &argv : argvs) {
                            std::vector<void *> a = argv;
                            err |= fn(a.data());
                        }
                    } else {
                        app->run();
                    }
                    double t = now_ms() - s;
                    if (r > 0) (use_c ? c_ms : jit_ms).push_back(t);
                }
            }
            std::printf("%-16s %-18s C %9.2f ms  JIT %9.2f ms  ratio %5.2f  max diff %.1e  (C "
                        "compile %.1f s)%s\n",
                        e.name, c.name.c_str(), median(c_ms), median(jit_ms),
                        median(c_ms) / median(jit_ms), max_difference(app->output(), c_out),
                        cc_ms / 1000, err ? "  RETURNED AN ERROR" : "");
            std::fflush(stdout);
            auto shutdown = (void (*)())dlsym(h, "halide_shutdown_thread_pool");
            if (shutdown) shutdown();
            dlclose(h);
        }
    }
    if (std::getenv("LOOM_KEEP_C")) {
        std::printf("kept the C files and shared objects in %s\n", dir.c_str());
        return 0;
    }
    std::string rm = "rm -rf " + dir;
    return std::system(rm.c_str());
}
