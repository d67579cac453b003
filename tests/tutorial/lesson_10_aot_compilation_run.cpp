// Tutorial lesson 10, part 2 of 2: calling the ahead-of-time compiled pipeline.
//
// A re-creation of Halide's lesson 10 (see lesson_10_aot_compilation_generate.cpp). This program
// includes neither Halide.h nor anything of the compiler: only the header the generator wrote
// and the header-only buffer class, and it links only the static library.
#include "lesson_10_halide.h"

// Halide::Runtime::Buffer is header-only; it converts to the halide_buffer_t * the generated
// function takes.
#include "HalideBuffer.h"

#include <stdio.h>

int main(int argc, char **argv) {
    // lesson_10_halide.h declares
    //
    //   int brighter(struct halide_buffer_t *_input_buffer, uint8_t _offset,
    //                struct halide_buffer_t *_brighter_buffer);
    //
    // in the order the generator listed the arguments: the ImageParam as a buffer pointer, the
    // Param<uint8_t> as a plain uint8_t, and the output buffer last.

    // An input image with a pattern to check against, and an output of the same size.
    Halide::Runtime::Buffer<uint8_t> input(640, 480), output(640, 480);
    for (int y = 0; y < 480; y++) {
        for (int x = 0; x < 640; x++) {
            input(x, y) = (x ^ (y + 1)) & 0xff;
        }
    }

    // The scalar argument.
    uint8_t offset = 17;

    // The call: 0 means success, anything else is a Halide error code.
    int error = brighter(input, offset, output);

    if (error) {
        printf("Halide returned an error: %d\n", error);
        return -1;
    }

    // Every output pixel must be its input pixel plus the offset, modulo 256 (uint8_t wraps).
    for (int y = 0; y < 480; y++) {
        for (int x = 0; x < 640; x++) {
            uint8_t input_val = input(x, y);
            uint8_t output_val = output(x, y);
            uint8_t correct_val = input_val + offset;
            if (output_val != correct_val) {
                printf("output(%d, %d) was %d instead of %d\n", x, y, output_val, correct_val);
                return -1;
            }
        }
    }

    printf("Success!\n");
    return 0;
}
