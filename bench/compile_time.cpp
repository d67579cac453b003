// Compile time of long chains of inlined Funcs, built once against Loom and once against
// Halide 21 by bench/compile_time.sh. Each chain's output is compiled (compile_jit) and run on
// 8x8 pixels; prints "<shape> <stages> <seconds> <checksum>" per chain, the checksum so the
// two libraries can be seen to compute the same thing.
//   same_point: f(x, y) = select(p(x, y) > 0, p(x, y), 0 - p(x, y)) + 1  (one point, read 3x)
//   stencil3:   f(x, y) = (p(x - 1, y) + 2 * p(x, y) + p(x + 1, y)) / 4  (3^n taps inlined)
#include "Halide.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace Halide;

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s <same_point|stencil3> <stages>\n", argv[0]);
        return 1;
    }
    std::string shape = argv[1];
    int stages = atoi(argv[2]);
    Var x("x"), y("y");
    auto start = std::chrono::steady_clock::now();
    Func prev("c0");
    prev(x, y) = x - 2 * y;
    for (int i = 1; i < stages; i++) {
        Func f("c" + std::to_string(i));
        if (shape == "same_point") {
            f(x, y) = select(prev(x, y) > 0, prev(x, y), 0 - prev(x, y)) + 1;
        } else {
            f(x, y) = (prev(x - 1, y) + 2 * prev(x, y) + prev(x + 1, y)) / 4;
        }
        prev = f;
    }
    prev.compile_jit();
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    Buffer<int> out = prev.realize({8, 8});
    long sum = 0;
    for (int j = 0; j < 8; j++)
        for (int i = 0; i < 8; i++) sum += out(i, j);
    printf("%s %d %.3f %ld\n", shape.c_str(), stages, seconds, sum);
    return 0;
}
