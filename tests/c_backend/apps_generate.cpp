// Writes, for run_app_testbenches.sh, every app of apps/ at its small size under its hand
// schedule, ahead of time: <app>.c (the C back end), <app>.h, <app>_arm64.a (the LLVM back end
// for arm-64-linux) and <app>_tb.c, a testbench (compile_to_testbench) over a corner of the
// output at most 32 wide in each dimension (or the whole output, for schedules whose tiles need
// more), with the app's own input; and apps.txt, the names.
#include "Halide.h"

#include "common/all_apps.h"

#include <loom/testbench.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <output dir>\n", argv[0]);
        return 2;
    }
    std::string dir = argv[1];
    const char *images = std::getenv("LOOM_SHARED_IMAGES");
    std::ofstream names(dir + "/apps.txt");
    for (const AppEntry &e : all_apps()) {
        AppOptions opt;
        opt.paper_size = false;
        opt.images_dir = images ? images : "../shared/images";
        std::unique_ptr<AppInstance> app = e.make(opt);
        app->compile();
        Halide::Func f = app->output_func();
        if (!f.defined()) {
            std::printf("%s: skipped (no output Func for the ahead-of-time back ends)\n", e.name);
            continue;
        }
        // The first realization's inputs and output (hist_eq: one color plane).
        Halide::Buffer<> out = app->prepare_realization(0, app->output());
        Halide::Pipeline p(f);
        std::vector<Halide::Argument> args = p.infer_arguments();
        std::vector<int> sizes;
        for (int d = 0; d < out.dimensions(); d++)
            sizes.push_back(std::min(out.dim(d).extent(), 32));
        std::string base = dir + "/" + std::string(e.name);
        p.compile_to_c(base + ".c", args, e.name, Halide::get_host_target());
        p.compile_to_header(base + ".h", args, e.name, Halide::get_host_target());
        p.compile_to_static_library(base + "_arm64", args, e.name, Halide::Target("arm-64-linux"));
        // Float results may differ in rounding between gcc's code and LLVM's (fast math). A
        // schedule whose tiles are wider than the corner needs a larger output (or reads outside
        // the app's input for it): then the whole output.
        try {
            loom::compile_to_testbench(p, base + "_tb.c", args, e.name, sizes,
                                       Halide::get_host_target(), 1e-3);
        } catch (const loom::Error &) {
            sizes.clear();
            for (int d = 0; d < out.dimensions(); d++) sizes.push_back(out.dim(d).extent());
            loom::compile_to_testbench(p, base + "_tb.c", args, e.name, sizes,
                                       Halide::get_host_target(), 1e-3);
        }
        names << e.name << "\n";
        std::printf("%s: written\n", e.name);
    }
    return 0;
}
