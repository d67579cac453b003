// Halide tutorial lesson 2: processing images.
//
// This lesson loads an image from a file, brightens it with a one-stage pipeline, and saves the
// result. It then checks every pixel against a plain C++ loop.
//
// Build (Loom or Halide 21):
//   g++ lesson_02_input_image.cpp -std=c++17 -I <include dir> -I <tools dir> -l<loom or Halide>
//       -lpng -ljpeg -lpthread -ldl -o lesson_02
// Run it from a writable directory; LOOM_SHARED_IMAGES names the folder of the input images.

// Halide.h holds the whole language; halide_image_io.h holds the helpers that read and write
// PNG, JPEG and PGM/PPM files.
#include "Halide.h"
#include "halide_image_io.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace Halide;
using namespace Halide::Tools;

int main(int argc, char **argv) {
    const char *images = std::getenv("LOOM_SHARED_IMAGES");
    std::string input_path =
        std::string(images ? images : "../shared/images") + "/tutorial_rgb.png";

    // load_image reads the file into a Buffer. The Buffer's element type must be the file's:
    // this is an 8-bit color PNG, so Buffer<uint8_t>. A color image has three dimensions:
    // x, y, and the channel c (red, green, blue).
    Buffer<uint8_t> input = load_image(input_path);

    // The pipeline has one stage, a Func called brighter, defined over three Vars.
    Func brighter;
    Var x, y, c;

    // Build the value of brighter at (x, y, c) step by step, as an Expr. Start from the input
    // pixel at the same place.
    Expr value = input(x, y, c);

    // Multiplying a uint8 by 1.5 would overflow, so first convert it to a 32-bit float...
    value = cast<float>(value);

    // ...then scale it up by one and a half...
    value = value * 1.5f;

    // ...clamp it so it stays a valid 8-bit intensity...
    value = min(value, 255.0f);

    // ...and convert it back to an 8-bit unsigned integer (the cast truncates).
    value = cast<uint8_t>(value);

    // Now brighter is defined by that expression.
    brighter(x, y, c) = value;

    // The above could have been written in one line:
    //     brighter(x, y, c) = cast<uint8_t>(min(input(x, y, c) * 1.5f, 255));
    // since mixing a uint8 with a float in Halide makes a float, just as in C.

    // Nothing has been computed yet: the Func only describes the image. realize() compiles the
    // pipeline and runs it over a domain as large as the input, giving a new Buffer. The sizes
    // must be given because brighter is defined everywhere, not only inside the input.
    Buffer<uint8_t> output = brighter.realize({input.width(), input.height(), input.channels()});

    // Save the result to a file in the current directory.
    save_image(output, "brighter.png");

    // Check every pixel against the same computation in C++, and check the file holds it too.
    Buffer<uint8_t> saved = load_image("brighter.png");
    for (int cc = 0; cc < input.channels(); cc++) {
        for (int yy = 0; yy < input.height(); yy++) {
            for (int xx = 0; xx < input.width(); xx++) {
                float scaled = std::min(input(xx, yy, cc) * 1.5f, 255.0f);
                uint8_t expected = (uint8_t)scaled;
                if (output(xx, yy, cc) != expected || saved(xx, yy, cc) != expected) {
                    printf("brighter(%d, %d, %d) = %d (saved: %d) instead of %d\n", xx, yy, cc,
                           output(xx, yy, cc), saved(xx, yy, cc), expected);
                    return 1;
                }
            }
        }
    }

    printf("Success!\n");
    return 0;
}
