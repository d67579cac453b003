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
//          [--runs N] [--auto SCHEDULER | --configs SPEC,SPEC,...]
// With --auto, both libraries schedule the app with their autoscheduler of that name
// (Loom's built in, Halide's plugin) instead of the hand-written schedule.
//
// Output, one "key value" line each: app, loom_ms and halide_ms (medians of the runs), ratio
// (the median of the rounds' Loom/Halide ratios), ratio_low and ratio_high (the rounds'
// quartiles), rounds. The thread count comes from the usual variables
// (LOOM_NUM_THREADS, HL_NUM_THREADS), read by each library.
//
// With --configs, any number of instances race instead, each "side:schedule" where side is
// loom or halide and schedule is "hand" or an autoscheduler with optional parameters
// ("Loom;autotune_s=60"): e.g. --configs loom:hand,loom:Loom,halide:Adams2019. Each round runs
// every instance once (the first rotates). Output, per instance in the order given:
// "config <spec> ms <median> schedule_ms <autoscheduler time> ratio <median of the rounds'
// ratios to the first instance>", or "config <spec> failed" (its error on stderr).
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
    double (*schedule_ms)() = nullptr;
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
    s.schedule_ms = (decltype(s.schedule_ms))dlsym(s.library, "race_app_schedule_ms");
    if (!s.open || !s.run || !s.close || !s.schedule_ms) {
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

int usage();

/// The --configs mode (see the file comment).
int race_configs(Side sides[2], const char *app, int paper_size, const std::string &images,
                 const std::string &configs, int warmup, int runs) {
    struct Instance {
        std::string spec;
        Side *side;
        void *app;
        double schedule_ms;
        std::vector<double> times, ratios;
    };
    // First, so the "failed" lines of instances that don't compile or run follow it.
    std::printf("app %s\n", app);
    std::fflush(stdout);
    std::vector<Instance> instances;
    size_t start = 0;
    while (start < configs.size()) {
        const size_t end = std::min(configs.find(',', start), configs.size());
        const std::string spec = configs.substr(start, end - start);
        start = end + 1;
        const size_t colon = spec.find(':');
        const std::string side = spec.substr(0, colon), schedule = spec.substr(colon + 1);
        Side *s = side == "loom" ? &sides[0] : side == "halide" ? &sides[1] : nullptr;
        if (colon == std::string::npos || !s) {
            std::fprintf(stderr, "race: bad config \"%s\" (side:schedule)\n", spec.c_str());
            return 2;
        }
        char err[2048] = "";
        void *handle = s->open(app, paper_size, images.c_str(),
                               schedule == "hand" ? "" : schedule.c_str(), err, sizeof err);
        if (!handle) {
            // Reported and left out: one scheduler failing on an app does not stop the others.
            std::printf("config %s failed\n", spec.c_str());
            std::fprintf(stderr, "race: %s: %s: %s\n", spec.c_str(), app, err);
            continue;
        }
        instances.push_back({spec, s, handle, s->schedule_ms(), {}, {}});
        std::fprintf(stderr, "race: %s scheduled and compiled\n", spec.c_str());
    }
    // A schedule that fails to run in the warm-up is reported and left out, as one that fails
    // to compile is.
    for (int i = 0; i < warmup; i++) {
        for (size_t k = 0; k < instances.size();) {
            if (instances[k].side->run(instances[k].app) >= 0) {
                k++;
                continue;
            }
            std::printf("config %s failed\n", instances[k].spec.c_str());
            instances[k].side->close(instances[k].app);
            instances.erase(instances.begin() + (long)k);
        }
    }
    if (instances.empty()) return 1;
    const size_t n = instances.size();
    for (int round = 0; round < runs; round++) {
        std::vector<double> t(n);
        for (size_t k = 0; k < n; k++) {
            const size_t i = (round + k) % n;
            t[i] = instances[i].side->run(instances[i].app);
            if (t[i] < 0) return 1;
            instances[i].times.push_back(t[i]);
        }
        for (size_t i = 0; i < n; i++) instances[i].ratios.push_back(t[i] / t[0]);
    }
    std::printf("rounds %d\n", runs);
    for (Instance &in : instances) {
        std::printf("config %s ms %.3f schedule_ms %.1f ratio %.3f\n", in.spec.c_str(),
                    quantile(in.times, 0.5), in.schedule_ms, quantile(in.ratios, 0.5));
        in.side->close(in.app);
    }
    return 0;
}

int usage() {
    std::fprintf(stderr, "usage: race <loom .so> <halide .so> <app> [--small] [--images DIR]\n"
                         "            [--warmup N] [--runs N] [--auto SCHEDULER | --configs "
                         "SPEC,...]\n");
    return 2;
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 4) return usage();
    std::string images = "../shared/images";
    int paper_size = 1, warmup = 1, runs = 9;
    std::string autoscheduler, configs;
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
        else if (a == "--configs" && has_value)
            configs = argv[++i];
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
    if (!configs.empty())
        return race_configs(sides, argv[3], paper_size, images, configs, warmup, runs);
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
