// Halide tutorial lesson 6: realizing Funcs over arbitrary domains.
//
// A Func has no size of its own: realize computes it over whatever rectangle the output Buffer
// covers, and that rectangle need not start at zero. This lesson realizes the same gradient over
// an 8x8 image at the origin and over a 5x7 image whose top-left corner is (100, 50), tracing
// the stores, and checks both against plain C++.
//
// Build (Loom or Halide 21):
//   g++ lesson_06_realizing_over_shifted_domains.cpp -std=c++17 -I <include dir>
//       -l<loom or Halide> -lpthread -ldl

#include "Halide.h"

#include <cstdio>

using namespace Halide;

int main(int argc, char **argv) {
    Func gradient("gradient");
    Var x("x"), y("y");
    gradient(x, y) = x + y;
    gradient.trace_stores();

    // realize({8, 8}) makes a new Buffer whose coordinates run from 0 to 7 in x and y, and
    // computes the gradient over it.
    printf("Evaluating gradient from (0, 0) to (7, 7)\n");
    Buffer<int> result(8, 8);
    gradient.realize(result);

    for (int yy = 0; yy < 8; yy++) {
        for (int xx = 0; xx < 8; xx++) {
            if (result(xx, yy) != xx + yy) {
                printf("result(%d, %d) = %d instead of %d\n", xx, yy, result(xx, yy), xx + yy);
                return 1;
            }
        }
    }

    // A Buffer's coordinates can start anywhere. This one is 5 wide and 7 tall; set_min moves
    // its top-left corner to (100, 50), so it holds the values for x from 100 to 104 and y from
    // 50 to 56. Realizing into it computes the gradient exactly there.
    Buffer<int> shifted(5, 7);
    printf("Evaluating gradient from (100, 50) to (104, 56)\n");
    shifted.set_min(100, 50);
    gradient.realize(shifted);

    // The Buffer is indexed with the same coordinates it was computed at.
    for (int yy = 50; yy < 57; yy++) {
        for (int xx = 100; xx < 105; xx++) {
            if (shifted(xx, yy) != xx + yy) {
                printf("shifted(%d, %d) = %d instead of %d\n", xx, yy, shifted(xx, yy), xx + yy);
                return 1;
            }
        }
    }

    // The Buffer also says where its domain lies.
    if (shifted.dim(0).min() != 100 || shifted.dim(1).min() != 50 || shifted.width() != 5 ||
        shifted.height() != 7) {
        printf("shifted covers [%d, %d] x [%d, %d] instead of [100, 104] x [50, 56]\n",
               shifted.dim(0).min(), shifted.dim(0).max(), shifted.dim(1).min(),
               shifted.dim(1).max());
        return 1;
    }

    // The same works in three dimensions, and with a region realized directly: this Func is
    // computed over x in [-2, 1], y in [3, 5], c in [0, 2].
    Func weighted("weighted");
    Var c("c");
    weighted(x, y, c) = x * 100 + y * 10 + c;
    Buffer<int> box(4, 3, 3);
    box.set_min(-2, 3, 0);
    weighted.realize(box);
    for (int cc = 0; cc < 3; cc++) {
        for (int yy = 3; yy <= 5; yy++) {
            for (int xx = -2; xx <= 1; xx++) {
                int expected = xx * 100 + yy * 10 + cc;
                if (box(xx, yy, cc) != expected) {
                    printf("box(%d, %d, %d) = %d instead of %d\n", xx, yy, cc, box(xx, yy, cc),
                           expected);
                    return 1;
                }
            }
        }
    }

    printf("Success!\n");
    return 0;
}
