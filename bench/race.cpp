// The same-process race: Loom's and Halide 21's JIT-compiled code for one application, timed in
// one process, run by run. Processes that run one library each (bench/apps.sh) see the
// machine's speed drift between them; here each round runs both back to back (which goes first
// alternates), so drift over seconds cancels in the round's ratio. The two libraries cannot be
// linked into one program (Loom implements Halide's API under the same names), so each side is
// bench/race_app.cpp built as a shared library against one of them, and Halide's side is loaded
// with dlmopen into a link-map namespace of its own (see load()). bench/race.sh builds both sides
// and runs this for every app.
//
//     race <loom side .so> <halide side .so> <app> [--small] [--images DIR] [--warmup N]
//          [--runs N] [--auto SCHEDULER]
// With --auto, both libraries schedule the app with their autoscheduler of that name
// (Loom's built in, Halide's plugin) instead of the hand-written schedule.
//
// Output, one "key value" line each: app, loom_ms and halide_ms (medians of the runs), ratio
// (the median of the rounds' Loom/Halide ratios), ratio_low and ratio_high (the rounds'
// quartiles), rounds. The thread count comes from the usual variables
// (LOOM_NUM_THREADS, HL_NUM_THREADS), read by each library.
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Side {
    const char *label;
    void *library = nullptr;
    void *(*open)(const char *, int, const char *, const char *, char *, int) = nullptr;
    double (*run)(void *) = nullptr;
    void (*close)(void *) = nullptr;
    void *app = nullptr;
};

bool load(Side &s, const char *path, bool own_namespace) {
    // In its own namespace, the side's library (libHalide) and its LLVM stay apart from the
    // other side's. Only one side can have one: LLVM's JIT dlopens libraries RTLD_GLOBAL, which
    // glibc 2.36 does not support outside the base namespace (a crash in add_to_global_resize),
    // and Loom's JIT does so (it searches libloom for the runtime), so Loom's side stays in the
    // base namespace.
    s.library = own_namespace ? dlmopen(LM_ID_NEWLM, path, RTLD_NOW | RTLD_LOCAL)
                              : dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    if (!s.library) {
        std::fprintf(stderr, "race: cannot load %s: %s\n", path, dlerror());
        return false;
    }
    s.open = (decltype(s.open))dlsym(s.library, "race_app_open");
    s.run = (decltype(s.run))dlsym(s.library, "race_app_run");
    s.close = (decltype(s.close))dlsym(s.library, "race_app_close");
    if (!s.open || !s.run || !s.close) {
        std::fprintf(stderr, "race: %s lacks the race_app_* functions\n", path);
        return false;
    }
    return true;
}

/// The q-quantile of v (nearest rank).
double quantile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    size_t i = (size_t)(q * (double)(v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
}

int usage() {
    std::fprintf(stderr, "usage: race <loom .so> <halide .so> <app> [--small] [--images DIR]\n"
                         "            [--warmup N] [--runs N] [--auto SCHEDULER]\n");
    return 2;
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 4) return usage();
    std::string images = "../shared/images";
    int paper_size = 1, warmup = 1, runs = 9;
    std::string autoscheduler;
    for (int i = 4; i < argc; i++) {
        std::string a = argv[i];
        bool has_value = i + 1 < argc;
        if (a == "--small")
            paper_size = 0;
        else if (a == "--images" && has_value)
            images = argv[++i];
        else if (a == "--warmup" && has_value)
            warmup = std::atoi(argv[++i]);
        else if (a == "--runs" && has_value)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (a == "--auto" && has_value)
            autoscheduler = argv[++i];
        else
            return usage();
    }
    // The heap policy of bench/app_bench.cpp (big buffers from the heap, freed memory kept
    // mapped), so that no run pays page faults another does not. Each namespace has its own
    // libc and malloc, and mallopt reaches only this one's; glibc's tunables reach both, so the
    // driver runs itself again with them set.
    const char *kTunables = "glibc.malloc.mmap_threshold=268435456:"
                            "glibc.malloc.trim_threshold=1073741824";
    const char *tunables = std::getenv("GLIBC_TUNABLES");
    if (!tunables || std::string(tunables) != kTunables) {
        setenv("GLIBC_TUNABLES", kTunables, 1);
        execv("/proc/self/exe", argv);
        std::perror("race: execv");
        return 1;
    }
    Side sides[2] = {{"loom"}, {"halide"}};
    if (!load(sides[0], argv[1], false) || !load(sides[1], argv[2], true)) return 1;
    for (Side &s : sides) {
        char err[2048] = "";
        s.app = s.open(argv[3], paper_size, images.c_str(), autoscheduler.c_str(), err, sizeof err);
        if (!s.app) {
            std::fprintf(stderr, "race: %s: %s: %s\n", s.label, argv[3], err);
            return 1;
        }
    }
    for (int i = 0; i < warmup; i++)
        for (Side &s : sides)
            if (s.run(s.app) < 0) return 1;

    std::vector<double> times[2], ratios;
    for (int round = 0; round < runs; round++) {
        double t[2];
        for (int k = 0; k < 2; k++) {
            int side = (round + k) % 2; // Loom first in even rounds, Halide first in odd ones
            t[side] = sides[side].run(sides[side].app);
            if (t[side] < 0) return 1;
            times[side].push_back(t[side]);
        }
        ratios.push_back(t[0] / t[1]);
    }
    std::printf("app %s\nloom_ms %.3f\nhalide_ms %.3f\nratio %.3f\nratio_low %.3f\n"
                "ratio_high %.3f\nrounds %d\n",
                argv[3], quantile(times[0], 0.5), quantile(times[1], 0.5), quantile(ratios, 0.5),
                quantile(ratios, 0.25), quantile(ratios, 0.75), runs);
    for (Side &s : sides) s.close(s.app);
    return 0;
}
