// User guide, tutorial 6 (docs/tutorial/06-multi-stage.md): where a producer is computed and
// stored relative to its consumer: inline, compute_root, compute_at, store_at. The same 3x3 box
// blur under each; every result is checked against plain C++.
#include <loom/loom.h>

#include <cstdio>
#include <functional>
#include <string>

using namespace loom;

namespace {

int failures = 0;

/// The blur with Funcs named input<suffix>, blur_x<suffix>, blur_y<suffix> under `schedule`:
/// prints its loop nest and checks its values.
void show(const char *title, const std::string &suffix,
          const std::function<void(Func, Func, Var, Var)> &schedule) {
    Func input("input" + suffix), blur_x("blur_x" + suffix), blur_y("blur_y" + suffix);
    Var x("x"), y("y");
    input(x, y) = (x * 7 + y * 13) % 256;
    blur_x(x, y) = (input(x - 1, y) + input(x, y) + input(x + 1, y)) / 3;
    blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
    input.compute_root();
    schedule(blur_x, blur_y, x, y);
    printf("\n%s\n", title);
    blur_y.print_loop_nest();
    Buffer<int> out = blur_y.realize({32, 16});
    auto in = [](int i, int j) { return ((i * 7 + j * 13) % 256 + 256) % 256; };
    auto bx = [&](int i, int j) { return (in(i - 1, j) + in(i, j) + in(i + 1, j)) / 3; };
    for (int j = 0; j < 16; j++) {
        for (int i = 0; i < 32; i++) {
            failures += out(i, j) != (bx(i, j - 1) + bx(i, j) + bx(i, j + 1)) / 3;
        }
    }
}

} // namespace

int main() {
    setvbuf(stdout, nullptr, _IONBF, 0); // keep printf and the loop nests (stderr) in order
    show("Inline (the default): blur_x recomputed for every use", "_inline",
         [](Func, Func, Var, Var) {});
    show("blur_x.compute_root(): all of blur_x first, then blur_y", "_root",
         [](Func bx, Func, Var, Var) { bx.compute_root(); });
    show("blur_x.compute_at(blur_y, y): the three rows each output row needs", "_at_y",
         [](Func bx, Func by, Var, Var y) { bx.compute_at(by, y); });
    show("blur_x.store_root().compute_at(blur_y, y): each new row once (sliding window)",
         "_sliding", [](Func bx, Func by, Var, Var y) { bx.store_root().compute_at(by, y); });
    show("Tiles: blur_x computed per 8 x 8 tile of blur_y", "_tiled",
         [](Func bx, Func by, Var x, Var y) {
             Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
             by.tile(x, y, xo, yo, xi, yi, 8, 8);
             bx.compute_at(by, xo);
         });
    printf(failures ? "\nFAILED\n" : "\nSuccess!\n");
    return failures ? 1 : 0;
}
