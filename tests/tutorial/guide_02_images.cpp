// User guide, tutorial 2 (docs/tutorial/02-images.md): a photograph in, a brighter one out.
// Reads tutorial_rgb.png from $LOOM_SHARED_IMAGES (default ../shared/images), writes
// brighter.png into the working folder. Prints what the page shows; exits nonzero if a pixel
// differs from plain C++.
#include <loom/loom.h>

#include "halide_image_io.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace loom;

int main() {
    // Unbuffered, so what the program prints and what Loom prints (loop nests go to stderr,
    // print() and traces to stdout) stay in order.
    setvbuf(stdout, nullptr, _IONBF, 0);
    const char *dir = std::getenv("LOOM_SHARED_IMAGES");
    std::string images = dir ? dir : "../shared/images";
    Buffer<uint8_t> input = Halide::Tools::load_image(images + "/tutorial_rgb.png");
    printf("input: %d x %d x %d, uint8\n", input.width(), input.height(), input.channels());

    // The arithmetic is done in float (uint8 would wrap at 256), clamped, and cast back.
    Func brighter("brighter");
    Var x("x"), y("y"), c("c");
    Expr value = cast<float>(input(x, y, c)) * 1.5f;
    brighter(x, y, c) = cast<uint8_t>(min(value, 255.0f));

    // The output has the input's shape.
    Buffer<uint8_t> output = brighter.realize({input.width(), input.height(), input.channels()});
    Halide::Tools::save_image(output, "brighter.png");
    printf("output: %d x %d x %d, written to brighter.png\n", output.width(), output.height(),
           output.channels());

    long bad = 0, saturated = 0;
    for (int ch = 0; ch < input.channels(); ch++) {
        for (int j = 0; j < input.height(); j++) {
            for (int i = 0; i < input.width(); i++) {
                float v = std::min(input(i, j, ch) * 1.5f, 255.0f);
                bad += output(i, j, ch) != (uint8_t)v;
                saturated += output(i, j, ch) == 255;
            }
        }
    }
    printf("pixel (400, 300): (%d, %d, %d) -> (%d, %d, %d)\n", input(400, 300, 0),
           input(400, 300, 1), input(400, 300, 2), output(400, 300, 0), output(400, 300, 1),
           output(400, 300, 2));
    printf("%ld of %d values saturated at 255\n", saturated,
           input.width() * input.height() * input.channels());
    printf(bad ? "FAILED\n" : "Success!\n");
    return bad ? 1 : 0;
}
