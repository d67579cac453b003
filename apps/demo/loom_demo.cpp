// `make demo`: runs every registered application (apps/common/all_apps.h) on the shared
// photographs, writes each app's picture as <out>/<app>.png and prints a table of JIT compile and
// run times. The same source builds against Halide 21 (apps/demo/demo.sh does, when the wheel is
// installed, and prints the two libraries side by side).
//
//     loom_demo [--images DIR] [--out DIR] [--small] [--runs N] [--no-pictures]
//               [--tsv FILE] [app...]
//
// --small runs the apps' small inputs instead of the benchmark sizes; --tsv also writes
// the table as tab-separated "app size jit_ms run_ms status" lines (for demo.sh).
#include "Halide.h"
#include "halide_image_io.h"

#include "common/all_apps.h"
#include "common/timing.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <memory>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace {

#ifdef LOOM_COMPAT_HALIDE_H
const char *const kLibrary = "Loom";
#else
const char *const kLibrary = "Halide 21";
#endif

struct Row {
    std::string name, size, status;
    double jit_ms = -1, run_ms = -1;
};

std::string ms_text(double ms) {
    if (ms < 0) return "-";
    char buf[32];
    std::snprintf(buf, sizeof(buf), ms >= 100 ? "%.0f" : "%.1f", ms);
    return buf;
}

} // namespace

int main(int argc, char **argv) {
    std::string images = "../shared/images", out = "demo_output", tsv;
    AppOptions opt;
    int runs = 3;
    bool pictures = true;
    std::vector<std::string> only;
    for (int i = 1; i < argc; i++) {
        bool has_value = i + 1 < argc;
        if (!std::strcmp(argv[i], "--images") && has_value)
            images = argv[++i];
        else if (!std::strcmp(argv[i], "--out") && has_value)
            out = argv[++i];
        else if (!std::strcmp(argv[i], "--tsv") && has_value)
            tsv = argv[++i];
        else if (!std::strcmp(argv[i], "--runs") && has_value)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--small"))
            opt.paper_size = false;
        else if (!std::strcmp(argv[i], "--no-pictures"))
            pictures = false;
        else if (argv[i][0] == '-') {
            std::fprintf(stderr, "usage: loom_demo [--images DIR] [--out DIR] [--small] [--runs N] "
                                 "[--no-pictures] [--tsv FILE] [app...]\n");
            return 2;
        } else
            only.push_back(argv[i]);
    }
    opt.images_dir = images;
    if (pictures) mkdir(out.c_str(), 0755);
    std::printf("%s: every app on the photographs in %s (%s sizes)%s%s\n", kLibrary, images.c_str(),
                opt.paper_size ? "benchmark" : "small", pictures ? ", pictures to " : "",
                pictures ? out.c_str() : "");

    std::vector<Row> rows;
    int failures = 0;
    for (const AppEntry &entry : all_apps()) {
        if (!only.empty() && std::find(only.begin(), only.end(), entry.name) == only.end())
            continue;
        Row row;
        row.name = entry.name;
        std::printf("  %s ...\n", entry.name);
        std::fflush(stdout);
        try {
            std::unique_ptr<AppInstance> app = entry.make(opt);
            row.size = app->input_description();
            row.jit_ms = once_ms([&] { app->compile(); });
            // The warm-up run is timed too: an app slower than half a second is timed once
            // more rather than `runs` times, which keeps the whole demo to a few minutes.
            double first = once_ms([&] { app->run(); });
            std::vector<double> times;
            for (int i = 0; i < (first > 500 ? 1 : runs); i++)
                times.push_back(once_ms([&] { app->run(); }));
            std::sort(times.begin(), times.end());
            row.run_ms = times[times.size() / 2];
            if (pictures) {
                std::string path = out + "/" + entry.name + ".png";
                Halide::Buffer<uint8_t> picture = app->picture();
                Halide::Tools::save_image(picture, path);
                row.status = std::string(entry.name) + ".png";
            } else {
                row.status = "ok";
            }
        } catch (const std::exception &e) {
            row.status = std::string("failed: ") + e.what();
            size_t nl = row.status.find('\n');
            if (nl != std::string::npos) row.status.resize(nl);
            failures++;
        }
        rows.push_back(row);
    }

    std::printf("\n%-16s %8s %9s  %-22s %s\n", "app", "JIT ms", "run ms",
                pictures ? "picture" : "status", "input");
    for (const Row &r : rows) {
        std::printf("%-16s %8s %9s  %-22s %s\n", r.name.c_str(), ms_text(r.jit_ms).c_str(),
                    ms_text(r.run_ms).c_str(), r.status.c_str(), r.size.c_str());
    }
    std::printf("(%s; JIT ms: schedule + compile_jit once; run ms: median of %d runs after a "
                "warm-up, one run for apps slower than 0.5 s)\n",
                kLibrary, runs);
    if (!tsv.empty()) {
        std::ofstream f(tsv);
        for (const Row &r : rows) {
            f << r.name << '\t' << r.size << '\t' << r.jit_ms << '\t' << r.run_ms << '\t'
              << (r.status.compare(0, 7, "failed:") == 0 ? r.status : "ok") << '\n';
        }
    }
    return failures ? 1 : 0;
}
