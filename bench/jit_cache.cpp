// The JIT's persistent compile cache (docs/jit_cache.md) on camera_pipe (apps/camera_pipe): the
// time of the app's compile() (schedule, lowering, JIT; the first compilation in the process, so
// with LLVM's one-time setup) in a fresh process whose cache directory is empty (cold) or holds
// the pipeline from an earlier process (warm). Median of --runs processes each (default 5, cold
// and warm alternating), and warm / cold: the target is at most 5%. Every child runs with
// LOOM_TIME_PASSES=1, so the medians are also split into lowering and the JIT's phases. Each child
// checks its output against the naive reference. Built by bench/CMakeLists.txt; bench/jit_cache.sh
// runs it.
//     jit_cache_bench [--runs N]
#include "Halide.h"

#include "camera_pipe/camera_pipe_app.h"
#include "common/compare.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

extern char **environ;

namespace fs = std::filesystem;

namespace {

/// One process's compile: prints "compile_ms <ms>", exits nonzero on a wrong output.
int child() {
    AppOptions opt;
    opt.paper_size = false; // the input's size does not change the compiled code
    CameraPipeApp app(opt);
    auto start = std::chrono::steady_clock::now();
    app.compile();
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    app.run();
    double err = app_compare::max_rel_error(app.output(), app.reference());
    if (err > app.reference_tolerance()) {
        std::fprintf(stderr, "wrong output: error %g\n", err);
        return 1;
    }
    std::printf("compile_ms %.3f\n", ms);
    return 0;
}

/// What one child reported: its compile time and LOOM_TIME_PASSES's lines, summed by phase
/// ("lowering" for lowering's totals, "jit <phase>" for the JIT's).
struct Run {
    double compile_ms = -1;
    std::map<std::string, double> phases_ms;
};

/// Runs this program's child mode with LOOM_CACHE_DIR=cache; its output goes to `log`.
Run run_child(const std::string &self, const fs::path &cache, const fs::path &log) {
    std::vector<std::string> vars;
    for (char **e = environ; *e; e++) {
        if (std::strncmp(*e, "LOOM_CACHE_DIR=", 15) && std::strncmp(*e, "LOOM_TIME_PASSES=", 17))
            vars.push_back(*e);
    }
    vars.push_back("LOOM_CACHE_DIR=" + cache.string());
    vars.push_back("LOOM_TIME_PASSES=1");
    std::vector<char *> envp;
    for (std::string &v : vars) envp.push_back(v.data());
    envp.push_back(nullptr);
    std::string exe = self, flag = "--child";
    char *argv[] = {exe.data(), flag.data(), nullptr};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    pid_t pid;
    int status = -1;
    if (posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv, envp.data()) == 0) {
        waitpid(pid, &status, 0);
    }
    posix_spawn_file_actions_destroy(&actions);
    Run r;
    std::ifstream in(log);
    for (std::string line; std::getline(in, line);) {
        double ms;
        char phase[128];
        if (std::sscanf(line.c_str(), "compile_ms %lf", &ms) == 1) {
            r.compile_ms = ms;
        } else if (line.rfind("[lower ", 0) == 0 && line.find("] total: ") != std::string::npos) {
            r.phases_ms["lowering"] += std::atof(line.c_str() + line.find("] total: ") + 9);
        } else if (line.rfind("[jit ", 0) == 0 && std::sscanf(line.c_str() + line.find("] ") + 2,
                                                              "%127[^:]: %lf", phase, &ms) == 2) {
            r.phases_ms[std::string("jit ") + phase] += ms;
        }
    }
    // What the phases do not cover: scheduling, the pipeline's own bookkeeping.
    double covered = 0;
    for (const auto &p : r.phases_ms) covered += p.second;
    r.phases_ms["other"] = r.compile_ms - covered;
    if (status != 0 || r.compile_ms < 0) {
        std::fprintf(stderr, "error: a child failed (see %s)\n", log.c_str());
        std::exit(1);
    }
    return r;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty()      ? 0
           : v.size() % 2 ? v[v.size() / 2]
                          : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

/// The median of each phase over `runs` (0 where a run lacks it).
std::map<std::string, double> median_phases(const std::vector<Run> &runs) {
    std::map<std::string, std::vector<double>> all;
    for (const Run &r : runs)
        for (const auto &p : r.phases_ms) all[p.first];
    for (const Run &r : runs)
        for (auto &p : all) {
            auto it = r.phases_ms.find(p.first);
            p.second.push_back(it == r.phases_ms.end() ? 0 : it->second);
        }
    std::map<std::string, double> m;
    for (const auto &p : all) m[p.first] = median(p.second);
    return m;
}

} // namespace

int main(int argc, char **argv) {
    if (argc == 2 && std::strcmp(argv[1], "--child") == 0) return child();
    int runs = 5;
    if (argc == 3 && std::strcmp(argv[1], "--runs") == 0) {
        runs = std::max(1, std::atoi(argv[2]));
    } else if (argc != 1) {
        std::fprintf(stderr, "usage: %s [--runs N]\n", argv[0]);
        return 1;
    }
    const std::string self = fs::read_symlink("/proc/self/exe").string();
    char tmpl[] = "/tmp/loom_jit_cache_bench.XXXXXX";
    const fs::path root = mkdtemp(tmpl);

    // The warm runs share a directory one more process filled. Cold and warm runs alternate,
    // so drift in the machine's load affects both alike.
    const fs::path filled = root / "warm";
    run_child(self, filled, root / "fill.log");
    std::vector<Run> cold, warm;
    for (int i = 0; i < runs; i++) {
        const std::string n = std::to_string(i);
        cold.push_back(run_child(self, root / ("cold" + n), root / ("cold" + n + ".log")));
        warm.push_back(run_child(self, filled, root / ("warm" + n + ".log")));
    }
    for (const Run &r : warm) {
        if (r.phases_ms.count("jit optimize_module")) {
            std::fprintf(stderr, "error: a warm run compiled instead of loading from the cache\n");
            return 1;
        }
    }
    fs::remove_all(root);

    std::vector<double> cold_ms, warm_ms;
    for (const Run &r : cold) cold_ms.push_back(r.compile_ms);
    for (const Run &r : warm) warm_ms.push_back(r.compile_ms);
    const double c = median(cold_ms), w = median(warm_ms);
    std::printf("camera_pipe compile() in a new process, median of %d processes each\n", runs);
    std::printf("| cache | compile ms |\n| --- | ---: |\n");
    std::printf("| cold (empty directory) | %.1f |\n| warm | %.1f |\n", c, w);
    std::printf("warm / cold: %.1f%% (target: at most 5%%)\n", 100 * w / c);
    // The cache spares LLVM's work, not lowering's: what the warm time is besides lowering.
    auto cm = median_phases(cold), wm = median_phases(warm);
    std::printf("warm without lowering: %.1f ms, %.1f%% of cold\n\n", w - wm["lowering"],
                100 * (w - wm["lowering"]) / c);
    std::printf("Median ms by phase (LOOM_TIME_PASSES=1):\n");
    std::printf("| phase | cold | warm |\n| --- | ---: | ---: |\n");
    for (const auto &p : cm) {
        std::printf("| %s | %.1f | %.1f |\n", p.first.c_str(), p.second,
                    wm.count(p.first) ? wm[p.first] : 0.0);
    }
    return 0;
}
