// Compiles the blur app's paper schedule ahead of time, into <dir>/<name>.a with the function
// <name>, for bench/same_process.sh. Built once against Loom and once against Halide 21 (the
// same source). Usage: same_process_gen <dir> <name> [no_runtime]
#include "Halide.h"

#include "blur/blur.h"

#include <string>

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    BlurPipeline p;
    p.schedule_paper();
    Halide::Target t = Halide::get_host_target();
    if (argc > 3 && std::string(argv[3]) == "no_runtime")
        t = t.with_feature(Halide::Target::NoRuntime);
    p.blur_y.compile_to_static_library(std::string(argv[1]) + "/" + argv[2], {p.input}, argv[2], t);
    return 0;
}
