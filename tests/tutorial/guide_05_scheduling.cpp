// User guide, tutorial 5 (docs/tutorial/05-scheduling.md): the loop transformations of one
// stage. Each schedule changes only the order of evaluation: every result is checked against
// plain C++, and the loop nest of each is printed.
#include <loom/loom.h>

#include <cstdio>
#include <functional>

using namespace loom;

namespace {

int failures = 0;

/// Applies `schedule` to a fresh Func named `name`, prints its loop nest and checks its values.
void show(const char *title, const char *name,
          const std::function<void(Func, Var, Var)> &schedule) {
    Func f(name);
    Var x("x"), y("y");
    f(x, y) = x * 3 + y;
    schedule(f, x, y);
    printf("\n%s\n", title);
    f.print_loop_nest();
    Buffer<int> out = f.realize({64, 32});
    for (int j = 0; j < 32; j++) {
        for (int i = 0; i < 64; i++) failures += out(i, j) != i * 3 + j;
    }
}

} // namespace

int main() {
    setvbuf(stdout, nullptr, _IONBF, 0); // keep printf and the loop nests (stderr) in order
    show("Default: y outer, x inner", "f_default", [](Func, Var, Var) {});
    show("f.reorder(y, x): x outer", "f_reordered", [](Func f, Var x, Var y) { f.reorder(y, x); });
    show("f.split(x, xo, xi, 4): x as xo * 4 + xi", "f_split", [](Func f, Var x, Var) {
        Var xo("xo"), xi("xi");
        f.split(x, xo, xi, 4);
    });
    show("f.fuse(x, y, xy): one loop over both", "f_fused", [](Func f, Var x, Var y) {
        Var xy("xy");
        f.fuse(x, y, xy);
    });
    show("f.tile(x, y, xo, yo, xi, yi, 8, 4): 8 x 4 tiles", "f_tiled", [](Func f, Var x, Var y) {
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        f.tile(x, y, xo, yo, xi, yi, 8, 4);
    });
    show("f.vectorize(x, 8): 8 lanes at a time", "f_vectorized",
         [](Func f, Var x, Var) { f.vectorize(x, 8); });
    show("f.split(x, xo, xi, 2).unroll(xi): two copies of the body", "f_unrolled",
         [](Func f, Var x, Var) {
             Var xo("xo"), xi("xi");
             f.split(x, xo, xi, 2).unroll(xi);
         });
    show("Tiles in parallel, vectorized inside", "f_parallel_tiles", [](Func f, Var x, Var y) {
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi"), tile("tile");
        f.tile(x, y, xo, yo, xi, yi, 16, 8).fuse(xo, yo, tile).parallel(tile).vectorize(xi, 8);
    });
    printf(failures ? "\nFAILED\n" : "\nSuccess!\n");
    return failures ? 1 : 0;
}
