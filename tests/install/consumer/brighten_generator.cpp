// The generator of loom_add_aot_library(brighten ...): writes <prefix>.a and <prefix>.h, a
// pipeline out(x, y) = in(x, y) * gain + 1 with the gain (argv[2]) a constant.
#include "Halide.h"

#include <cstdlib>
#include <string>

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    using namespace Halide;
    ImageParam in(Int(32), 2, "in");
    Var x("x"), y("y");
    Func out("brighten");
    out(x, y) = in(x, y) * std::atoi(argv[2]) + 1;
    out.vectorize(x, 8, TailStrategy::GuardWithIf);
    out.compile_to_static_library(argv[1], {in}, "brighten");
    return 0;
}
