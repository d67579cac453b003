// Halide tutorial lesson 9: multi-pass Funcs, update definitions, and reductions.
//
// A Func may be defined more than once: a pure definition followed by updates, each of which
// rewrites some of its values in order. Updates over a reduction domain (RDom) loop over its
// points in order, so they can compute histograms, running sums and other reductions. Each
// section below is checked against plain C++ loops.
//
// Build (Loom or Halide 21):
//   g++ lesson_09_update_definitions.cpp -std=c++17 -I <include dir> -I <tools dir>
//       -l<loom or Halide> -lpng -ljpeg -lpthread -ldl
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

int failures = 0;

template <typename T, typename U>
void expect_eq(T actual, U expected, const char *what, int x, int y = 0) {
    if (actual != (T)expected && failures < 10) {
        printf("%s at (%d, %d): %lld instead of %lld\n", what, x, y, (long long)actual,
               (long long)expected);
    }
    if (actual != (T)expected) failures++;
}

} // namespace

int main(int argc, char **argv) {
    const char *images = std::getenv("LOOM_SHARED_IMAGES");
    Buffer<uint8_t> input =
        load_image(std::string(images ? images : "../shared/images") + "/gray_small.png");
    const int W = input.width(), H = input.height();
    printf("input: %d x %d\n", W, H);

    Var x("x"), y("y");

    // Updates: the pure definition sets every value; each update then changes the values it
    // names, in the order they were written.
    {
        Func f("f");
        f(x, y) = x + y;                 // pure definition
        f(2, 1) = 42;                    // update one point
        f(x, 0) = f(x, 1);               // update a row from another row
        f(0, y) = f(0, y) * f(1, y) + 1; // update a column from itself and its neighbour

        Buffer<int> result = f.realize({4, 4});
        int ref[4][4];
        for (int yy = 0; yy < 4; yy++)
            for (int xx = 0; xx < 4; xx++) ref[yy][xx] = xx + yy;
        ref[1][2] = 42;
        for (int xx = 0; xx < 4; xx++) ref[0][xx] = ref[1][xx];
        for (int yy = 0; yy < 4; yy++) ref[yy][0] = ref[yy][0] * ref[yy][1] + 1;
        for (int yy = 0; yy < 4; yy++)
            for (int xx = 0; xx < 4; xx++)
                expect_eq(result(xx, yy), ref[yy][xx], "updates", xx, yy);
        printf("Pseudo-code for f with three updates:\n");
        f.print_loop_nest();
    }

    // An update inside an RDom loop: each value is the sum of the values before it (a running
    // sum along x). The RDom's loop runs in order, so each point sees the one just updated.
    {
        Func g("g");
        g(x, y) = x * y + 1;
        RDom r(1, 49, "r");
        g(r, y) = g(r, y) + g(r - 1, y);

        Buffer<int> result = g.realize({50, 10});
        for (int yy = 0; yy < 10; yy++) {
            int sum = 0;
            for (int xx = 0; xx < 50; xx++) {
                sum += xx * yy + 1;
                expect_eq(result(xx, yy), sum, "running sum", xx, yy);
            }
        }
    }

    // A histogram: the update's left-hand side is computed from the data. The pure definition
    // clears the bins; the update walks every pixel of the input.
    std::vector<int> ref_hist(256, 0);
    for (int yy = 0; yy < H; yy++)
        for (int xx = 0; xx < W; xx++) ref_hist[input(xx, yy)]++;
    {
        Func histogram("histogram");
        histogram(x) = 0;
        RDom r(0, W, 0, H);
        histogram(input(r.x, r.y)) += 1;

        Buffer<int> result = histogram.realize({256});
        for (int i = 0; i < 256; i++) expect_eq(result(i), ref_hist[i], "histogram", i);
    }

    // Scheduling update stages: each stage has its own schedule. The pure definition and the
    // second update are vectorized along x; the first update (a scan along x, over the pure Var
    // y and an RDom in x) has its y loop split into parallel strips of vectorized rows, which is
    // legal because the rows do not depend on each other.
    {
        Func f("f_sched");
        f(x, y) = x * y;
        // Update 0: over the pure Var y and the whole x range of an RDom (a scan along x).
        RDom r(1, 31, "rx");
        f(r, y) = f(r, y) + f(r - 1, y);
        // Update 1: over the pure Var x, doubling row 0.
        f(x, 0) = f(x, 0) * 2;

        f.vectorize(x, 4);
        Var yo("yo"), yi("yi");
        f.update(0).split(y, yo, yi, 8).parallel(yo).vectorize(yi, 4);
        f.update(1).vectorize(x, 4);

        Buffer<int> result = f.realize({32, 32});
        for (int yy = 0; yy < 32; yy++) {
            int sum = 0;
            for (int xx = 0; xx < 32; xx++) {
                sum += xx * yy;
                expect_eq(result(xx, yy), yy == 0 ? sum * 2 : sum, "scheduled updates", xx, yy);
            }
        }
        printf("Pseudo-code for the scheduled updates:\n");
        f.print_loop_nest();
    }

    // A producer computed at a loop of the consumer's update stage: the consumer's pure
    // definition does not use it; its update does, once per x. compute_at(consumer, x) places
    // the producer inside the update's x loop.
    {
        Func producer("producer"), consumer("consumer");
        producer(x) = x * 2;
        consumer(x) = x + 10;
        consumer(x) += producer(x) + producer(x + 1);
        producer.compute_at(consumer, x);

        Buffer<int> result = consumer.realize({10});
        for (int xx = 0; xx < 10; xx++)
            expect_eq(result(xx), xx + 10 + 2 * xx + 2 * (xx + 1), "compute_at update", xx);
        printf("Pseudo-code for a producer at the update's x:\n");
        consumer.print_loop_nest();
    }

    // A producer computed at an RDom variable of the consumer's update.
    {
        Func producer("producer_r"), consumer("consumer_r");
        producer(x, y) = (x * y) / 10 + 8;
        consumer(x, y) = x + y;
        RDom r(0, 5, "rr");
        consumer(x, r) += producer(x, r);
        producer.compute_at(consumer, r);

        Buffer<int> result = consumer.realize({10, 8});
        for (int yy = 0; yy < 8; yy++)
            for (int xx = 0; xx < 10; xx++)
                expect_eq(result(xx, yy), xx + yy + (yy < 5 ? (xx * yy) / 10 + 8 : 0),
                          "compute_at rvar", xx, yy);
        printf("Pseudo-code for a producer at the update's RDom variable:\n");
        consumer.print_loop_nest();
    }

    // Inline reductions: sum, product, maximum, minimum, argmax and argmin over an RDom each
    // make an anonymous Func with an update, computed inside the Func that uses them.
    {
        RDom r(-2, 5, "r5");
        Func clamped = BoundaryConditions::repeat_edge(input);
        Func box("box"), peak("peak"), low("low"), prod("prod"), where("where");
        box(x, y) = sum(cast<uint16_t>(clamped(x + r, y)));
        peak(x, y) = maximum(clamped(x + r, y));
        low(x, y) = minimum(clamped(x + r, y));
        prod(x, y) = product(cast<uint32_t>(clamped(x + r, y)) % 3 + 1);
        Tuple am = argmax(clamped(x + r, y));
        where(x, y) = am[0];

        // One pipeline with the five outputs compiles them together.
        Buffer<uint16_t> box_r(W, H);
        Buffer<uint8_t> peak_r(W, H), low_r(W, H);
        Buffer<uint32_t> prod_r(W, H);
        Buffer<int> where_r(W, H);
        Pipeline({box, peak, low, prod, where}).realize({box_r, peak_r, low_r, prod_r, where_r});
        auto at = [&](int xx, int yy) {
            return (int)input(std::min(std::max(xx, 0), W - 1), std::min(std::max(yy, 0), H - 1));
        };
        for (int yy = 0; yy < H; yy++) {
            for (int xx = 0; xx < W; xx++) {
                int s = 0, mx = 0, mn = 255, p = 1, arg = 0, best = -1;
                for (int i = -2; i <= 2; i++) {
                    int v = at(xx + i, yy);
                    s += v;
                    mx = std::max(mx, v);
                    mn = std::min(mn, v);
                    p *= v % 3 + 1;
                    if (v > best) { // argmax keeps the first point of the largest value
                        best = v;
                        arg = i;
                    }
                }
                expect_eq(box_r(xx, yy), s, "sum", xx, yy);
                expect_eq(peak_r(xx, yy), mx, "maximum", xx, yy);
                expect_eq(low_r(xx, yy), mn, "minimum", xx, yy);
                expect_eq(prod_r(xx, yy), p, "product", xx, yy);
                expect_eq(where_r(xx, yy), arg, "argmax", xx, yy);
            }
        }
    }

    // A reduction inside a consumer, scheduled: the 5x5 box sum of a clamped input is an
    // explicit Func with an update, computed per row of the consumer (compute_at) and
    // vectorized along x in both its stages.
    {
        Func clamped = BoundaryConditions::repeat_edge(input);
        Func local_sum("local_sum"), blurry("blurry");
        RDom r(-2, 5, -2, 5, "box");
        local_sum(x, y) = 0;
        local_sum(x, y) += cast<int>(clamped(x + r.x, y + r.y));
        blurry(x, y) = cast<uint8_t>(local_sum(x, y) / 25);

        Var yo("yo"), yi("yi");
        blurry.split(y, yo, yi, 8).parallel(yo).vectorize(x, 8);
        local_sum.compute_at(blurry, yi).vectorize(x, 8);
        local_sum.update().reorder(x, r.x, r.y).vectorize(x, 8);

        Buffer<uint8_t> result = blurry.realize({W, H});
        auto at = [&](int xx, int yy) {
            return (int)input(std::min(std::max(xx, 0), W - 1), std::min(std::max(yy, 0), H - 1));
        };
        for (int yy = 0; yy < H; yy++) {
            for (int xx = 0; xx < W; xx++) {
                int s = 0;
                for (int dy = -2; dy <= 2; dy++)
                    for (int dx = -2; dx <= 2; dx++) s += at(xx + dx, yy + dy);
                expect_eq(result(xx, yy), s / 25, "box blur", xx, yy);
            }
        }
        printf("Pseudo-code for the blur with its reduction at each row:\n");
        blurry.print_loop_nest();
    }

    if (failures) {
        printf("%d values differ\n", failures);
        return 1;
    }
    printf("Success!\n");
    return 0;
}
