// Halide tutorial lesson 18: factoring an associative reduction with rfactor.
//
// The loop over an RDom runs in order, so a reduction cannot simply be parallelized or
// vectorized along its RDom: two iterations may update the same value. When the update is
// associative (sums, products, min, max, ...), rfactor splits it in two: an intermediate Func
// that computes independent partial results along a new pure Var (which may then be run in
// parallel or vectorized), and a final update that combines the partial results. This lesson
// computes a histogram of an image that way, serially, in parallel, vectorized, and both, and
// checks each against plain C++.
//
// Build (Loom or Halide 21):
//   g++ lesson_18_parallel_associative_reductions.cpp -std=c++17 -I <include dir>
//       -I <tools dir> -l<loom or Halide> -lpng -ljpeg -lpthread -ldl
// LOOM_SHARED_IMAGES names the folder of the input images.

#include "Halide.h"
#include "halide_image_io.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace Halide;
using namespace Halide::Tools;

namespace {

bool check(const Buffer<int> &result, const std::vector<int> &expected, const char *what) {
    for (int i = 0; i < (int)expected.size(); i++) {
        if (result(i) != expected[i]) {
            printf("%s: histogram(%d) = %d instead of %d\n", what, i, result(i), expected[i]);
            return false;
        }
    }
    return true;
}

} // namespace

int main(int argc, char **argv) {
    const char *images = std::getenv("LOOM_SHARED_IMAGES");
    Buffer<uint8_t> input =
        load_image(std::string(images ? images : "../shared/images") + "/gray_small.png");
    const int W = input.width(), H = input.height();

    std::vector<int> expected(256, 0);
    for (int yy = 0; yy < H; yy++)
        for (int xx = 0; xx < W; xx++) expected[input(xx, yy)]++;

    Var x("x"), y("y"), u("u");

    // The serial histogram: one loop over all the pixels, in order.
    {
        Func histogram("hist_serial");
        histogram(x) = 0;
        RDom r(0, W, 0, H);
        histogram(input(r.x, r.y)) += 1;

        Buffer<int> result = histogram.realize({256});
        if (!check(result, expected, "serial")) return 1;
        printf("Pseudo-code for the serial histogram:\n");
        histogram.print_loop_nest();
        printf("\n");
    }

    // Parallel over rows: rfactor on r.y gives an intermediate Func with one histogram per row,
    // intermediate(x, y); its update loops over r.x only and can run the rows in parallel. The
    // original Func's update then sums the rows' histograms.
    {
        Func histogram("hist_rows");
        histogram(x) = 0;
        RDom r(0, W, 0, H);
        histogram(input(r.x, r.y)) += 1;

        Func intermediate = histogram.update().rfactor({{r.y, y}});
        intermediate.compute_root().update().parallel(y);

        Buffer<int> result = histogram.realize({256});
        if (!check(result, expected, "parallel rows")) return 1;
        printf("Pseudo-code for the histogram with one partial histogram per row:\n");
        histogram.print_loop_nest();
        printf("\n");
    }

    // Vectorized: r.x is split by 4 and rfactor keeps one histogram per lane of the inner
    // split, intermediate(x, u); the update then runs its u loop as a vector.
    {
        Func histogram("hist_vec");
        histogram(x) = 0;
        RDom r(0, W, 0, H);
        histogram(input(r.x, r.y)) += 1;

        RVar rx_outer("rx_outer"), rx_inner("rx_inner");
        histogram.update().split(r.x, rx_outer, rx_inner, 4);
        Func intermediate = histogram.update().rfactor({{rx_inner, u}});
        intermediate.compute_root();
        intermediate.update().vectorize(u, 4);

        Buffer<int> result = histogram.realize({256});
        if (!check(result, expected, "vectorized")) return 1;
        printf("Pseudo-code for the vectorized histogram:\n");
        histogram.print_loop_nest();
        printf("\n");
    }

    // Both: strips of 16 rows in parallel and 8 lanes of x vectorized, one partial histogram
    // per (strip, lane), intermediate(x, u, y).
    {
        Func histogram("hist_par_vec");
        histogram(x) = 0;
        RDom r(0, W, 0, H);
        histogram(input(r.x, r.y)) += 1;

        RVar rx_outer("rx_outer"), rx_inner("rx_inner"), ry_outer("ry_outer"), ry_inner("ry_inner");
        histogram.update().split(r.x, rx_outer, rx_inner, 8).split(r.y, ry_outer, ry_inner, 16);
        Func intermediate = histogram.update().rfactor({{rx_inner, u}, {ry_outer, y}});
        intermediate.compute_root().update().parallel(y).vectorize(u, 8);
        // The partial histograms are combined by the original Func; its update can be
        // vectorized along the bins.
        histogram.update().vectorize(x, 8);

        Buffer<int> result = histogram.realize({256});
        if (!check(result, expected, "parallel and vectorized")) return 1;
        printf("Pseudo-code for the parallel vectorized histogram:\n");
        histogram.print_loop_nest();
        printf("\n");
    }

    // rfactor works for any associative update the compiler can recognise, such as a
    // maximum: the brightest pixel of each column, computed in parallel strips of rows.
    {
        Func brightest("brightest");
        brightest(x) = cast<uint8_t>(0);
        RDom r(0, H, "ry");
        brightest(x) = max(brightest(x), input(x, r));

        RVar ro("ro"), ri("ri");
        brightest.update().split(r, ro, ri, 32);
        Func partial = brightest.update().rfactor(ro, y);
        partial.compute_root().update().parallel(y);

        Buffer<uint8_t> result = brightest.realize({W});
        for (int xx = 0; xx < W; xx++) {
            int best = 0;
            for (int yy = 0; yy < H; yy++) best = std::max(best, (int)input(xx, yy));
            if (result(xx) != best) {
                printf("brightest(%d) = %d instead of %d\n", xx, result(xx), best);
                return 1;
            }
        }
    }

    printf("Success!\n");
    return 0;
}
