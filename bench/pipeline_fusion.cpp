// Pipeline fusion (loom/pipeline_fusion.h; Vocke §3.3): a 3x3 blur and a Sobel of the same
// 1920x1080 uint16 image, run one after the other (two pipelines) and fused into one, under three
// schedules, through the LLVM back end (JIT) and the C back end (gcc and clang -O3
// -march=native, generic mapping). Serial rows: the single-core case a DSP is in. Each
// configuration alternates the separate and the fused runs; outputs are compared first.
// Usage: pipeline_fusion_bench [runs]   (default 21). Prints the medians and fused / separate.
#include <loom/loom.h>
#include <loom/pipeline_fusion.h>

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

using namespace loom;

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

struct Filters {
    ImageParam input{UInt(16), 2, "input"};
    Var x{"x"}, y{"y"}, xo{"xo"}, xi{"xi"};
    Func blur_x{"blur_x"}, blur{"blur"}, sobel{"sobel"};
    Filters() {
        blur_x(x, y) = cast<uint32_t>(input(x, y)) + input(x + 1, y) + input(x + 2, y);
        blur(x, y) = cast<uint16_t>((blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 9);
        auto p = [&](int a, int b) { return cast<int32_t>(input(x + a, y + b)); };
        Expr gx = (p(2, 0) + 2 * p(2, 1) + p(2, 2)) - (p(0, 0) + 2 * p(0, 1) + p(0, 2));
        Expr gy = (p(0, 2) + 2 * p(1, 2) + p(2, 2)) - (p(0, 0) + 2 * p(1, 0) + p(2, 0));
        sobel(x, y) = cast<uint16_t>(min(abs(gx) + abs(gy), 65535));
    }
};

struct Schedule {
    const char *name;
    /// Schedules both and returns the fusion point's loop (a Var of both).
    std::function<Var(Filters &)> apply;
};

const Schedule schedules[] = {
    {"scalar, fused innermost (x)", [](Filters &f) { return f.x; }},
    {"vectors of 16, fused at the vector loop (xo)",
     [](Filters &f) {
         f.blur.split(f.x, f.xo, f.xi, 16).vectorize(f.xi);
         f.sobel.split(f.x, f.xo, f.xi, 16).vectorize(f.xi);
         return f.xo;
     }},
    {"vectors of 16, fused at the rows (y)",
     [](Filters &f) {
         f.blur.vectorize(f.x, 16);
         f.sobel.vectorize(f.x, 16);
         return f.y;
     }},
};

/// A pipeline built by a C compiler into a shared object and loaded.
struct CBuilt {
    void *handle = nullptr;
    int (*argv)(void **) = nullptr;
    CBuilt(Pipeline p, const std::vector<Argument> &args, const std::string &compiler,
           const std::string &dir, const std::string &name) {
        std::string src = dir + "/" + name + ".c", so = dir + "/" + name + ".so";
        p.compile_to_c(src, args, name);
        std::string cmd = compiler + " -std=c99 -O3 -march=native -Wno-psabi -DLOOM_SIMD_GENERIC " +
                          "-fPIC -shared -Wl,-Bsymbolic -o " + so + " " + src + " -lm -lpthread";
        if (std::system(cmd.c_str()) != 0) {
            std::fprintf(stderr, "%s failed\n", cmd.c_str());
            std::exit(1);
        }
        handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
        argv = (int (*)(void **))dlsym(handle, (name + "_argv").c_str());
    }
    ~CBuilt() {
        auto shutdown = (void (*)())dlsym(handle, "halide_shutdown_thread_pool");
        shutdown();
        dlclose(handle);
    }
    void run(std::vector<void *> a) {
        if (argv(a.data()) != 0) std::exit(1);
    }
};

bool same(const Buffer<uint16_t> &a, const Buffer<uint16_t> &b) {
    return std::equal(a.data(), a.data() + a.number_of_elements(), b.data());
}

} // namespace

int main(int argc, char **argv) {
    const int runs = argc > 1 ? std::atoi(argv[1]) : 21;
    const int w = 1920, h = 1080;
    Buffer<uint16_t> in(w + 2, h + 2);
    in.for_each_element([&](int i, int j) { in(i, j) = (uint16_t)((i * 73 + j * 151) % 4093); });
    char dir_template[] = "/tmp/loom_fusion_bench_XXXXXX";
    std::string dir = mkdtemp(dir_template);
    std::printf("Blur 3x3 + Sobel of one %dx%d u16 image, serial rows: separate pipelines vs "
                "fused, medians of %d alternating runs\n",
                w, h, runs);
    for (const Schedule &sched : schedules) {
        Filters sep, fus;
        sched.apply(sep);
        Var at = sched.apply(fus);
        Pipeline blur(sep.blur), sobel(sep.sobel);
        Pipeline fused = fuse_pipelines(Pipeline(fus.blur), LoopLevel(fus.blur, at),
                                        Pipeline(fus.sobel), LoopLevel(fus.sobel, at));
        sep.input.set(in);
        fus.input.set(in);
        Buffer<uint16_t> b1(w, h), s1(w, h), b2(w, h), s2(w, h);
        for (const char *config : {"JIT", "gcc", "clang"}) {
            std::function<void()> run_separate, run_fused;
            std::unique_ptr<CBuilt> cb, cs, cf;
            if (std::string(config) == "JIT") {
                run_separate = [&] {
                    blur.realize(b1);
                    sobel.realize(s1);
                };
                run_fused = [&] { fused.realize({b2, s2}); };
            } else {
                if (std::system((std::string("command -v ") + config + " > /dev/null").c_str()))
                    continue;
                cb.reset(new CBuilt(blur, {sep.input}, config, dir, "blur"));
                cs.reset(new CBuilt(sobel, {sep.input}, config, dir, "sobel"));
                cf.reset(new CBuilt(fused, {fus.input}, config, dir, "fused"));
                run_separate = [&] {
                    cb->run({in.raw_buffer(), b1.raw_buffer()});
                    cs->run({in.raw_buffer(), s1.raw_buffer()});
                };
                run_fused = [&] { cf->run({in.raw_buffer(), b2.raw_buffer(), s2.raw_buffer()}); };
            }
            std::vector<double> sep_ms, fus_ms;
            for (int r = 0; r < runs + 1; r++) {
                for (int k = 0; k < 2; k++) {
                    bool fused_now = (k == 0) == (r % 2 == 0);
                    double t0 = now_ms();
                    (fused_now ? run_fused : run_separate)();
                    double t = now_ms() - t0;
                    if (r > 0) (fused_now ? fus_ms : sep_ms).push_back(t);
                }
            }
            if (!same(b1, b2) || !same(s1, s2)) {
                std::printf("%s %s: fused outputs DIFFER\n", sched.name, config);
                return 1;
            }
            std::printf("%-46s %-6s separate %7.2f ms  fused %7.2f ms  fused/separate %.2f\n",
                        sched.name, config, median(sep_ms), median(fus_ms),
                        median(fus_ms) / median(sep_ms));
        }
    }
    std::string rm = "rm -rf " + dir;
    return std::system(rm.c_str());
}
