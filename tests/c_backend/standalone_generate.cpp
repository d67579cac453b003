// Writes the C back end's output for the standalone test (run_standalone.sh): blur.c and blur.h,
// a 3x3 blur with a boundary condition, a Param, an embedded lookup table, and a tiled,
// vectorized, parallel schedule. standalone_main.c checks it against loops of its own.
#include <loom/loom.h>

#include <cstdio>
#include <string>

using namespace loom;

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <output dir>\n", argv[0]);
        return 2;
    }
    std::string dir = argv[1];
    ImageParam input(UInt(8), 2, "input");
    Param<int> offset("offset");
    // Used directly, not listed as an argument: embedded as constant data.
    Buffer<uint8_t> lut(256);
    for (int i = 0; i < 256; i++) lut(i) = (uint8_t)(255 - i);

    Func clamped = BoundaryConditions::repeat_edge(input);
    Func bx("blur_x"), by("blur_y"), out("out");
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    bx(x, y) = cast<uint16_t>(clamped(x - 1, y)) + clamped(x, y) + clamped(x + 1, y);
    by(x, y) = (bx(x, y - 1) + bx(x, y) + bx(x, y + 1)) / 9;
    out(x, y) = lut(cast<uint8_t>(clamp(cast<int>(by(x, y)) + offset, 0, 255)));
    out.tile(x, y, xo, yo, xi, yi, 32, 8).vectorize(xi, 8).parallel(yo);
    bx.compute_at(out, xo).vectorize(x, 8);

    std::vector<Argument> args = {input, offset};
    out.compile_to_c(dir + "/blur.c", args, "blur");
    out.compile_to_header(dir + "/blur.h", args, "blur");
    return 0;
}
