// A Halide program, unchanged: the paper's 3x3 blur, JIT-compiled through an installed Loom and
// checked against naive loops. Prints "jit_consumer: ok" and returns 0 when every pixel matches.
#include "Halide.h"

#include <cstdio>

int main() {
    using namespace Halide;
    const int w = 67, h = 45;
    Buffer<uint16_t> in(w, h);
    in.for_each_element([&](int x, int y) { in(x, y) = (uint16_t)((x * 37 + y * 101) % 4096); });
    Var x("x"), y("y"), xi("xi"), yi("yi");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func blur_x("blur_x"), blur_y("blur_y");
    blur_x(x, y) = (clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y)) / 3;
    blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
    blur_y.tile(x, y, xi, yi, 32, 8).vectorize(xi, 8).parallel(y);
    blur_x.compute_at(blur_y, x).vectorize(x, 8);
    Buffer<uint16_t> out = blur_y.realize({w, h});
    auto at = [&](int px, int py) {
        px = px < 0 ? 0 : px >= w ? w - 1 : px;
        py = py < 0 ? 0 : py >= h ? h - 1 : py;
        return (int)in(px, py);
    };
    int bad = 0;
    for (int py = 0; py < h; py++) {
        for (int px = 0; px < w; px++) {
            auto bx = [&](int yy) { return (at(px - 1, yy) + at(px, yy) + at(px + 1, yy)) / 3; };
            bad += out(px, py) != (bx(py - 1) + bx(py) + bx(py + 1)) / 3;
        }
    }
    std::printf("jit_consumer: %s (%d of %d pixels differ)\n", bad ? "FAILED" : "ok", bad, w * h);
    return bad ? 1 : 0;
}
