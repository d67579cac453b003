// Tutorial lesson 10, part 1 of 2: compiling a pipeline ahead of time.
//
// A re-creation of Halide's lesson 10 (whose sources are not available offline), written for
// Loom's tests: it uses the same API calls through include/compat.
//
// So far every pipeline was compiled just in time, inside the program that ran it. Here the
// program that defines the pipeline only compiles it, into a static library and a C header;
// a second program (lesson_10_aot_compilation_run.cpp) links that library and calls the
// pipeline like any C function, with no compiler, libloom or LLVM at run time. The steps:
//
//   1. build and run this program: it writes lesson_10_halide.a and lesson_10_halide.h;
//   2. build lesson_10_aot_compilation_run.cpp against that header and link it with
//      lesson_10_halide.a -lpthread -ldl -lm, then run it.
//
// (tests/aot/lesson_10.cmake does both in this repository's build.)

#include "Halide.h"

#include <stdio.h>

using namespace Halide;

int main(int argc, char **argv) {
    Func brighter;
    Var x, y;

    // The values the compiled function will receive when it is called. A Param stands for a
    // scalar (here the amount to add) ...
    Param<uint8_t> offset;

    // ... and an ImageParam for a buffer: its element type and its number of dimensions (two for
    // a gray image; the channels of a colour image would be a third).
    ImageParam input(type_of<uint8_t>(), 2);

    // The algorithm reads them like a Buffer and an Expr.
    brighter(x, y) = input(x, y) + offset;

    // Sixteen pixels per vector along x, rows in parallel.
    brighter.vectorize(x, 16).parallel(y);

    // Compile instead of realizing. The argument list fixes the C function's parameters and
    // their order (the output buffer comes last); "brighter" is the function's name.
    brighter.compile_to_static_library("lesson_10_halide", {input, offset}, "brighter");

    printf("Halide pipeline compiled, but not yet run.\n");

    // The second half is in lesson_10_aot_compilation_run.cpp.

    return 0;
}
