// `make demo`: runs every registered application (apps/common/all_apps.h) on a real photograph
// at its natural size (AppOptions::natural: tutorial_rgb.png for the RGB apps, gray.png or
// tutorial_gray.png for the gray ones, the Bayer raw for the camera pipeline; synthetic inputs
// for matmul, conv_layer and vgg16, whose inputs are not images), writes each app's input and
// output as <out>/<app>_before.png and <out>/<app>_after.png, runs the longer demo run of the
// apps that have one (AppInstance::run_for_demo: the snake iterates until its contour settles)
// and prints a table of JIT compile and run times. The same source builds against Halide 21:
// apps/demo/demo.sh runs both and writes <out>/index.html (apps/demo/report.py).
//
//     loom_demo [--images DIR] [--out DIR] [--small | --benchmark] [--runs N] [--no-pictures]
//               [--tsv FILE] [app...]
//
// --small runs the apps' small inputs (a quick run), --benchmark the benchmark sizes
// (the photographs tiled; `make bench` is the place to time those). --tsv also writes the table
// as tab-separated lines for demo.sh: a "#mode <mode> <runs> <jit_setup_ms>" line, then per app
// "app input jit_ms run_ms timed_runs status demo_steps demo_compile_ms demo_run_ms demo_text"
// (-1: not measured; the demo_ fields describe run_for_demo, empty text when there is none).
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

/// An app slower than this (its warm-up run) is timed once rather than `runs` times, which keeps
/// the whole demo to a few minutes.
constexpr double kSlowMs = 500;

struct Row {
    std::string name, size, status;
    double jit_ms = -1, run_ms = -1;
    int timed_runs = 0;
    DemoRun demo;
};

std::string ms_text(double ms) {
    if (ms < 0) return "-";
    char buf[32];
    std::snprintf(buf, sizeof(buf), ms >= 100 ? "%.0f" : "%.1f", ms);
    return buf;
}

/// s with tabs and newlines replaced by spaces (one TSV field).
std::string field(std::string s) {
    std::replace(s.begin(), s.end(), '\t', ' ');
    std::replace(s.begin(), s.end(), '\n', ' ');
    return s;
}

} // namespace

int main(int argc, char **argv) {
    std::string images = "../shared/images", out = "demo_output", tsv;
    AppOptions opt;
    opt.natural = true;
    int runs = 5;
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
        else if (!std::strcmp(argv[i], "--small")) {
            opt.natural = false;
            opt.paper_size = false;
        } else if (!std::strcmp(argv[i], "--benchmark")) {
            opt.natural = false;
            opt.paper_size = true;
        } else if (!std::strcmp(argv[i], "--no-pictures"))
            pictures = false;
        else if (argv[i][0] == '-') {
            std::fprintf(stderr, "usage: loom_demo [--images DIR] [--out DIR] [--small | "
                                 "--benchmark] [--runs N] [--no-pictures] [--tsv FILE] [app...]\n");
            return 2;
        } else
            only.push_back(argv[i]);
    }
    opt.images_dir = images;
    const char *mode = opt.natural ? "natural" : opt.paper_size ? "benchmark" : "small";
    if (pictures) mkdir(out.c_str(), 0755);
    std::printf("%s: every app on the photographs in %s (%s sizes)%s%s\n", kLibrary, images.c_str(),
                mode, pictures ? ", pictures to " : "", pictures ? out.c_str() : "");

    // The library's one-time JIT setup (measured about 0.5 s for Halide 21, 20-30 ms for Loom) is
    // paid by a trivial pipeline first and reported apart, so that the first app's JIT time is
    // its own (as in bench/app_bench.cpp).
    double setup_ms = once_ms([] {
        Halide::Func trivial("jit_setup");
        Halide::Var x("x");
        trivial(x) = x;
        Halide::Buffer<int> b = trivial.realize({8});
    });

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
            // One warm-up run (not counted), then the median of the timed runs.
            double first = once_ms([&] { app->run(); });
            row.timed_runs = first > kSlowMs ? 1 : runs;
            std::vector<double> times;
            for (int i = 0; i < row.timed_runs; i++) times.push_back(once_ms([&] { app->run(); }));
            std::sort(times.begin(), times.end());
            row.run_ms = times[times.size() / 2];
            row.demo = app->run_for_demo();
            if (pictures) {
                std::string stem = out + "/" + entry.name;
                // Halide's save_image takes a non-const reference.
                Halide::Buffer<uint8_t> before = app->input_picture(), after = app->picture();
                Halide::Tools::save_image(before, stem + "_before.png");
                Halide::Tools::save_image(after, stem + "_after.png");
                row.status = std::string(entry.name) + "_{before,after}.png";
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

    std::printf("\n%-16s %8s %9s  %-30s %s\n", "app", "JIT ms", "run ms",
                pictures ? "pictures" : "status", "input");
    for (const Row &r : rows) {
        std::printf("%-16s %8s %9s  %-30s %s\n", r.name.c_str(), ms_text(r.jit_ms).c_str(),
                    ms_text(r.run_ms).c_str(), r.status.c_str(), r.size.c_str());
        if (!r.demo.what.empty())
            std::printf("%-16s   demo run: %s; %d steps in %s ms (%.2f ms each), JIT %s ms\n", "",
                        r.demo.what.c_str(), r.demo.steps, ms_text(r.demo.run_ms).c_str(),
                        r.demo.run_ms / std::max(1, r.demo.steps),
                        ms_text(r.demo.compile_ms).c_str());
    }
    std::printf("(%s; JIT ms: schedule + compile_jit, once, after a trivial pipeline paid the "
                "library's one-time JIT setup, %s ms; run ms: median of %d runs after a warm-up, "
                "one run for apps slower than %.1f s)\n",
                kLibrary, ms_text(setup_ms).c_str(), runs, kSlowMs / 1000);
    if (!tsv.empty()) {
        std::ofstream f(tsv);
        f << "#mode\t" << mode << '\t' << runs << '\t' << setup_ms << '\n';
        for (const Row &r : rows) {
            f << r.name << '\t' << field(r.size) << '\t' << r.jit_ms << '\t' << r.run_ms << '\t'
              << r.timed_runs << '\t'
              << (r.status.compare(0, 7, "failed:") == 0 ? field(r.status) : "ok") << '\t'
              << r.demo.steps << '\t' << r.demo.compile_ms << '\t' << r.demo.run_ms << '\t'
              << field(r.demo.what) << '\n';
        }
    }
    return failures ? 1 : 0;
}
