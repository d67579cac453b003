// Halide tutorial lesson 5: vectorize, parallelize, unroll and tile your code.
//
// One Func, gradient(x, y) = x + y, is realized under a sequence of schedules. Each schedule
// changes only the order in which the values are computed, never the values: every section
// traces the stores (so the order can be seen) and prints the loop nest the schedule made, then
// checks each value against plain C++.
//
// Build (Loom or Halide 21):
//   g++ lesson_05_scheduling_1.cpp -std=c++17 -I <include dir> -l<loom or Halide> -lpthread -ldl

#include "Halide.h"

#include <cstdio>

using namespace Halide;

namespace {

// Every value of `result` must be x + y at its own coordinates.
bool check(const Buffer<int> &result, const char *what) {
    for (int y = result.dim(1).min(); y <= result.dim(1).max(); y++) {
        for (int x = result.dim(0).min(); x <= result.dim(0).max(); x++) {
            if (result(x, y) != x + y) {
                printf("%s: result(%d, %d) = %d instead of %d\n", what, x, y, result(x, y), x + y);
                return false;
            }
        }
    }
    return true;
}

} // namespace

int main(int argc, char **argv) {
    Var x("x"), y("y");

    // The default schedule: the innermost loop is the first argument (x), so the values are
    // computed row by row, the way a C programmer writes a loop over an image.
    {
        Func gradient("gradient");
        gradient(x, y) = x + y;
        gradient.trace_stores();

        printf("Evaluating gradient row-major\n");
        Buffer<int> output = gradient.realize({4, 4});
        if (!check(output, "row-major")) return 1;

        // The loop nest Halide made for this schedule:
        printf("Pseudo-code for the schedule:\n");
        gradient.print_loop_nest();
        printf("\n");
    }

    // reorder: y becomes the innermost loop, so the values are computed column by column.
    {
        Func gradient("gradient_col_major");
        gradient(x, y) = x + y;
        gradient.trace_stores();

        // reorder lists the loops from innermost to outermost.
        gradient.reorder(y, x);

        printf("Evaluating gradient column-major\n");
        Buffer<int> output = gradient.realize({4, 4});
        if (!check(output, "column-major")) return 1;

        printf("Pseudo-code for the schedule:\n");
        gradient.print_loop_nest();
        printf("\n");
    }

    // split: the x loop becomes two nested loops, an outer one over pairs and an inner one
    // over the two members of a pair. On its own this changes nothing about the order.
    {
        Func gradient("gradient_split");
        gradient(x, y) = x + y;
        gradient.trace_stores();

        Var x_outer("x_outer"), x_inner("x_inner");
        gradient.split(x, x_outer, x_inner, 2);

        printf("Evaluating gradient with x split into x_outer and x_inner \n");
        Buffer<int> output = gradient.realize({4, 4});
        if (!check(output, "split")) return 1;

        printf("Pseudo-code for the schedule:\n");
        gradient.print_loop_nest();
        printf("\n");
    }

    // fuse: the opposite of split. x and y become a single loop over all 16 pixels.
    {
        Func gradient("gradient_fused");
        gradient(x, y) = x + y;
        gradient.trace_stores();

        Var fused("fused");
        gradient.fuse(x, y, fused);

        printf("Evaluating gradient with x and y fused\n");
        Buffer<int> output = gradient.realize({4, 4});
        if (!check(output, "fuse")) return 1;

        printf("Pseudo-code for the schedule:\n");
        gradient.print_loop_nest();
        printf("\n");
    }

    // Tiling by splitting both loops and reordering the pieces: the image is traversed in 4x4
    // tiles, each tile row by row.
    {
        Func gradient("gradient_tiled");
        gradient(x, y) = x + y;
        gradient.trace_stores();

        Var x_outer("x_outer"), x_inner("x_inner"), y_outer("y_outer"), y_inner("y_inner");
        gradient.split(x, x_outer, x_inner, 4);
        gradient.split(y, y_outer, y_inner, 4);
        gradient.reorder(x_inner, y_inner, x_outer, y_outer);

        // The same in one call:
        //     gradient.tile(x, y, x_outer, y_outer, x_inner, y_inner, 4, 4);

        printf("Evaluating gradient in 4x4 tiles\n");
        Buffer<int> output = gradient.realize({8, 8});
        if (!check(output, "tiles")) return 1;

        printf("Pseudo-code for the schedule:\n");
        gradient.print_loop_nest();
        printf("\n");
    }

    // vectorize: the inner loop of a split by 4 becomes one SIMD operation over 4 values, so
    // each store in the trace writes a vector.
    {
        Func gradient("gradient_in_vectors");
        gradient(x, y) = x + y;
        gradient.trace_stores();

        Var x_outer("x_outer"), x_inner("x_inner");
        gradient.split(x, x_outer, x_inner, 4);
        gradient.vectorize(x_inner);

        // The same in one call:
        //     gradient.vectorize(x, 4);

        printf("Evaluating gradient with x_inner vectorized \n");
        Buffer<int> output = gradient.realize({8, 4});
        if (!check(output, "vectorize")) return 1;

        printf("Pseudo-code for the schedule:\n");
        gradient.print_loop_nest();
        printf("\n");
    }

    // unroll: the inner loop of a split by 2 is written out twice, with no loop left.
    {
        Func gradient("gradient_unroll");
        gradient(x, y) = x + y;
        gradient.trace_stores();

        Var x_outer("x_outer"), x_inner("x_inner");
        gradient.split(x, x_outer, x_inner, 2);
        gradient.unroll(x_inner);

        // The same in one call:
        //     gradient.unroll(x, 2);

        printf("Evaluating gradient unrolled by a factor of two\n");
        Buffer<int> output = gradient.realize({4, 4});
        if (!check(output, "unroll")) return 1;

        printf("Pseudo-code for the schedule:\n");
        gradient.print_loop_nest();
        printf("\n");
    }

    // A split whose factor does not divide the extent: 7 columns in groups of 3. The last group
    // is shifted left to end at the image's edge (TailStrategy::ShiftInwards, the default for a
    // pure definition), so some columns are computed twice: the trace shows the repeated stores.
    {
        Func gradient("gradient_split_7x2");
        gradient(x, y) = x + y;
        gradient.trace_stores();

        Var x_outer("x_outer"), x_inner("x_inner");
        gradient.split(x, x_outer, x_inner, 3);

        printf("Evaluating gradient over a 7x2 box with x split by three \n");
        Buffer<int> output = gradient.realize({7, 2});
        if (!check(output, "split 7 by 3")) return 1;

        printf("Pseudo-code for the schedule:\n");
        gradient.print_loop_nest();
        printf("\n");
    }

    // Fuse the two tile loops into one and run it in parallel: the tiles are computed by
    // several threads at once, so the trace's order can change from run to run.
    {
        Func gradient("gradient_fused_tiles");
        gradient(x, y) = x + y;
        gradient.trace_stores();

        Var x_outer("x_outer"), y_outer("y_outer"), x_inner("x_inner"), y_inner("y_inner"),
            tile_index("tile_index");
        gradient.tile(x, y, x_outer, y_outer, x_inner, y_inner, 4, 4);
        gradient.fuse(x_outer, y_outer, tile_index);
        gradient.parallel(tile_index);

        printf("Evaluating gradient tiles in parallel\n");
        Buffer<int> output = gradient.realize({8, 8});
        if (!check(output, "parallel tiles")) return 1;

        printf("Pseudo-code for the schedule:\n");
        gradient.print_loop_nest();
        printf("\n");
    }

    // All together, on an image whose size the tiles do not divide: parallel 64x64 tiles, each
    // split again into vectors of 4 along x and pairs of rows along y, the pairs unrolled.
    {
        Func gradient_fast("gradient_fast");
        gradient_fast(x, y) = x + y;

        Var x_outer("x_outer"), y_outer("y_outer"), x_inner("x_inner"), y_inner("y_inner"),
            tile_index("tile_index");
        gradient_fast.tile(x, y, x_outer, y_outer, x_inner, y_inner, 64, 64)
            .fuse(x_outer, y_outer, tile_index)
            .parallel(tile_index);

        Var x_inner_outer("x_inner_outer"), y_inner_outer("y_inner_outer"), x_vectors("x_vectors"),
            y_pairs("y_pairs");
        gradient_fast.tile(x_inner, y_inner, x_inner_outer, y_inner_outer, x_vectors, y_pairs, 4, 2)
            .vectorize(x_vectors)
            .unroll(y_pairs);

        // 350 x 250 is not a multiple of 64 x 64: the last tiles shift inwards as above.
        Buffer<int> result = gradient_fast.realize({350, 250});
        if (!check(result, "all together")) return 1;

        printf("Pseudo-code for the schedule:\n");
        gradient_fast.print_loop_nest();
        printf("\n");
    }

    printf("Success!\n");
    return 0;
}
