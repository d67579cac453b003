// Halide tutorial lesson 7: multi-stage pipelines.
//
// This lesson blurs a color photograph with a pipeline of several Funcs, first over the region
// where the input is defined, then over the whole image with a clamped input. Each result is
// checked against plain C++ loops.
//
// Build (Loom or Halide 21):
//   g++ lesson_07_multi_stage_pipelines.cpp -std=c++17 -I <include dir> -I <tools dir>
//       -l<loom or Halide> -lpng -ljpeg -lpthread -ldl -o lesson_07
// Run it from a writable directory; LOOM_SHARED_IMAGES names the folder of the input images.

#include "Halide.h"
#include "halide_image_io.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace Halide;
using namespace Halide::Tools;

namespace {

// The blur of the lesson in plain C++ at one pixel, reading the input through `at`, which
// decides what happens outside the image.
template <typename At>
uint8_t reference_blur(At at, int x, int y, int c) {
    auto blur_x = [&](int xx, int yy) {
        return (uint16_t)((at(xx - 1, yy, c) + 2 * at(xx, yy, c) + at(xx + 1, yy, c)) / 4);
    };
    return (uint8_t)((blur_x(x, y - 1) + 2 * blur_x(x, y) + blur_x(x, y + 1)) / 4);
}

} // namespace

int main(int argc, char **argv) {
    const char *images = std::getenv("LOOM_SHARED_IMAGES");
    std::string input_path =
        std::string(images ? images : "../shared/images") + "/tutorial_rgb.png";

    // The Vars are shared by both pipelines.
    Var x("x"), y("y"), c("c");

    // First pipeline: a 3x3 blur, computed only where the input is defined.
    {
        Buffer<uint8_t> input = load_image(input_path);

        // Widen the input to 16 bits, so the sums below cannot overflow.
        Func input_16("input_16");
        input_16(x, y, c) = cast<uint16_t>(input(x, y, c));

        // Blur horizontally with the weights 1 2 1 ...
        Func blur_x("blur_x");
        blur_x(x, y, c) =
            (input_16(x - 1, y, c) + 2 * input_16(x, y, c) + input_16(x + 1, y, c)) / 4;

        // ... then blur that vertically.
        Func blur_y("blur_y");
        blur_y(x, y, c) = (blur_x(x, y - 1, c) + 2 * blur_x(x, y, c) + blur_x(x, y + 1, c)) / 4;

        // Narrow back to 8 bits.
        Func output("output");
        output(x, y, c) = cast<uint8_t>(blur_y(x, y, c));

        // Each stage reads its input one pixel to each side, so the output at (x, y) needs the
        // input from x - 1 to x + 1 and y - 1 to y + 1. Halide works out those bounds by itself
        // (bounds inference). Realizing over the input's full size would read outside it, so
        // realize into a Buffer two pixels smaller in x and y, whose coordinates start at (1, 1):
        // its pixels are exactly those whose neighbours all lie inside the input.
        Buffer<uint8_t> result(input.width() - 2, input.height() - 2, 3);
        result.set_min(1, 1);
        output.realize(result);

        save_image(result, "blurry_parrot_1.png");

        auto at = [&](int xx, int yy, int cc) { return (int)input(xx, yy, cc); };
        for (int cc = 0; cc < 3; cc++) {
            for (int yy = result.top(); yy <= result.bottom(); yy++) {
                for (int xx = result.left(); xx <= result.right(); xx++) {
                    uint8_t expected = reference_blur(at, xx, yy, cc);
                    if (result(xx, yy, cc) != expected) {
                        printf("result(%d, %d, %d) = %d instead of %d\n", xx, yy, cc,
                               result(xx, yy, cc), expected);
                        return 1;
                    }
                }
            }
        }
    }

    // Second pipeline: the same blur over the whole image. The input is wrapped in a Func that
    // clamps the coordinates into the image, so reads past the edge repeat the edge pixels.
    {
        Buffer<uint8_t> input = load_image(input_path);

        // clamp(v, lo, hi) keeps v within [lo, hi]. The wrapper reads the input only inside its
        // bounds, whatever x and y the later stages ask for.
        Func clamped("clamped");
        Expr clamped_x = clamp(x, 0, input.width() - 1);
        Expr clamped_y = clamp(y, 0, input.height() - 1);
        clamped(x, y, c) = input(clamped_x, clamped_y, c);

        // The same could be written with a boundary condition helper:
        //     Func clamped = BoundaryConditions::repeat_edge(input);

        // The rest of the pipeline is the same as before, reading from clamped.
        Func input_16("input_16");
        input_16(x, y, c) = cast<uint16_t>(clamped(x, y, c));

        Func blur_x("blur_x");
        blur_x(x, y, c) =
            (input_16(x - 1, y, c) + 2 * input_16(x, y, c) + input_16(x + 1, y, c)) / 4;

        Func blur_y("blur_y");
        blur_y(x, y, c) = (blur_x(x, y - 1, c) + 2 * blur_x(x, y, c) + blur_x(x, y + 1, c)) / 4;

        Func output("output");
        output(x, y, c) = cast<uint8_t>(blur_y(x, y, c));

        // Now the output can cover the whole input: realize it at the input's size.
        Buffer<uint8_t> result = output.realize({input.width(), input.height(), 3});

        save_image(result, "blurry_parrot_2.png");

        int w = input.width(), h = input.height();
        auto at = [&](int xx, int yy, int cc) {
            return (int)input(std::min(std::max(xx, 0), w - 1), std::min(std::max(yy, 0), h - 1),
                              cc);
        };
        for (int cc = 0; cc < 3; cc++) {
            for (int yy = 0; yy < h; yy++) {
                for (int xx = 0; xx < w; xx++) {
                    uint8_t expected = reference_blur(at, xx, yy, cc);
                    if (result(xx, yy, cc) != expected) {
                        printf("result(%d, %d, %d) = %d instead of %d\n", xx, yy, cc,
                               result(xx, yy, cc), expected);
                        return 1;
                    }
                }
            }
        }
    }

    printf("Success!\n");
    return 0;
}
