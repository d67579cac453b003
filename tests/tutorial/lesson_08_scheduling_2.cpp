// Halide tutorial lesson 8: scheduling multi-stage pipelines.
//
// A two-stage pipeline (a producer and a consumer averaging 2x2 blocks of it) under the
// placements Halide offers: inlined, computed at root, computed per row or per pixel of the
// consumer, stored once and computed per row (sliding window), stored per row and computed per
// pixel, computed per tile, and a mixed schedule with threads and vectors. Every version traces
// what it computes, prints its loop nest and is checked against plain C++.
//
// Build (Loom or Halide 21):
//   g++ lesson_08_scheduling_2.cpp -std=c++17 -I <include dir> -l<loom or Halide> -lpthread -ldl

#include "Halide.h"

#include <cmath>
#include <cstdio>

using namespace Halide;

namespace {

float producer_ref(int x, int y) { return std::sin((float)(x * y)); }

float consumer_ref(int x, int y) {
    return (producer_ref(x, y) + producer_ref(x, y + 1) + producer_ref(x + 1, y) +
            producer_ref(x + 1, y + 1)) /
           4;
}

// Each value against the C++ consumer; sin may differ from the C library's in the last bits.
bool check(const Buffer<float> &result, const char *what) {
    for (int y = result.dim(1).min(); y <= result.dim(1).max(); y++) {
        for (int x = result.dim(0).min(); x <= result.dim(0).max(); x++) {
            float expected = consumer_ref(x, y);
            if (std::fabs(result(x, y) - expected) > 1e-5f) {
                printf("%s: result(%d, %d) = %f instead of %f\n", what, x, y, result(x, y),
                       expected);
                return false;
            }
        }
    }
    return true;
}

} // namespace

int main(int argc, char **argv) {
    Var x("x"), y("y");

    // Inlined (the default): the producer's expression is substituted into the consumer, so
    // each producer value is computed each time it is used (four times here), and the
    // producer has no storage and no stores of its own.
    {
        Func producer("producer_default"), consumer("consumer_default");
        producer(x, y) = sin(x * y);
        consumer(x, y) =
            (producer(x, y) + producer(x, y + 1) + producer(x + 1, y) + producer(x + 1, y + 1)) / 4;
        consumer.trace_stores();
        producer.trace_stores();

        printf("\nEvaluating producer-consumer pipeline with default schedule\n");
        Buffer<float> result = consumer.realize({4, 4});
        if (!check(result, "inline")) return 1;
        printf("Pseudo-code for the schedule:\n");
        consumer.print_loop_nest();
        printf("\n");
    }

    // compute_root: the whole producer is computed first into a 5x5 buffer (bounds inference
    // works out that the 4x4 consumer needs one more row and column), then the consumer reads
    // it. Every producer value is computed once, but the buffer is large and read much later.
    {
        Func producer("producer_root"), consumer("consumer_root");
        producer(x, y) = sin(x * y);
        consumer(x, y) =
            (producer(x, y) + producer(x, y + 1) + producer(x + 1, y) + producer(x + 1, y + 1)) / 4;
        producer.compute_root();
        consumer.trace_stores();
        producer.trace_stores();

        printf("\nEvaluating producer.compute_root()\n");
        Buffer<float> result = consumer.realize({4, 4});
        if (!check(result, "compute_root")) return 1;
        printf("Pseudo-code for the schedule:\n");
        consumer.print_loop_nest();
        printf("\n");
    }

    // compute_at the consumer's y loop: before each row of the consumer, the two rows of the
    // producer it needs are computed. Less storage, better locality, but rows shared by
    // consecutive consumer rows are computed twice.
    {
        Func producer("producer_y"), consumer("consumer_y");
        producer(x, y) = sin(x * y);
        consumer(x, y) =
            (producer(x, y) + producer(x, y + 1) + producer(x + 1, y) + producer(x + 1, y + 1)) / 4;
        producer.compute_at(consumer, y);
        producer.trace_stores();
        consumer.trace_stores();

        printf("\nEvaluating producer.compute_at(consumer, y)\n");
        Buffer<float> result = consumer.realize({4, 4});
        if (!check(result, "compute_at y")) return 1;
        printf("Pseudo-code for the schedule:\n");
        consumer.print_loop_nest();
        printf("\n");
    }

    // store_root + compute_at y: the producer's storage lives outside the loops, so the values
    // computed for one row are still there for the next; each row of the consumer computes only
    // the one new producer row it needs (the sliding window). The trace shows each producer
    // value stored once.
    {
        Func producer("producer_root_y"), consumer("consumer_root_y");
        producer(x, y) = sin(x * y);
        consumer(x, y) =
            (producer(x, y) + producer(x, y + 1) + producer(x + 1, y) + producer(x + 1, y + 1)) / 4;
        producer.store_root();
        producer.compute_at(consumer, y);
        producer.trace_stores();
        consumer.trace_stores();

        printf("\nEvaluating producer.store_root().compute_at(consumer, y)\n");
        Buffer<float> result = consumer.realize({4, 4});
        if (!check(result, "store_root compute_at y")) return 1;
        printf("Pseudo-code for the schedule:\n");
        consumer.print_loop_nest();
        printf("\n");
    }

    // compute_at the consumer's x loop: a 2x2 block of the producer is computed for every
    // consumer pixel. Perfect locality, four times the work.
    {
        Func producer("producer_x"), consumer("consumer_x");
        producer(x, y) = sin(x * y);
        consumer(x, y) =
            (producer(x, y) + producer(x, y + 1) + producer(x + 1, y) + producer(x + 1, y + 1)) / 4;
        producer.compute_at(consumer, x);
        producer.trace_stores();
        consumer.trace_stores();

        printf("\nEvaluating producer.compute_at(consumer, x)\n");
        Buffer<float> result = consumer.realize({4, 4});
        if (!check(result, "compute_at x")) return 1;
        printf("Pseudo-code for the schedule:\n");
        consumer.print_loop_nest();
        printf("\n");
    }

    // store_root + compute_at x: the window slides along x as well as y, so every producer
    // value is again computed once, now one new column per consumer pixel.
    {
        Func producer("producer_root_x"), consumer("consumer_root_x");
        producer(x, y) = sin(x * y);
        consumer(x, y) =
            (producer(x, y) + producer(x, y + 1) + producer(x + 1, y) + producer(x + 1, y + 1)) / 4;
        producer.store_root().compute_at(consumer, x);
        producer.trace_stores();
        consumer.trace_stores();

        printf("\nEvaluating producer.store_root().compute_at(consumer, x)\n");
        Buffer<float> result = consumer.realize({4, 4});
        if (!check(result, "store_root compute_at x")) return 1;
        printf("Pseudo-code for the schedule:\n");
        consumer.print_loop_nest();
        printf("\n");
    }

    // store_at y + compute_at x: storage for one row's worth of the producer, filled one
    // column at a time per consumer pixel.
    {
        Func producer("producer_y_x"), consumer("consumer_y_x");
        producer(x, y) = sin(x * y);
        consumer(x, y) =
            (producer(x, y) + producer(x, y + 1) + producer(x + 1, y) + producer(x + 1, y + 1)) / 4;
        producer.store_at(consumer, y).compute_at(consumer, x);
        producer.trace_stores();
        consumer.trace_stores();

        printf("\nEvaluating producer.store_at(consumer, y).compute_at(consumer, x)\n");
        Buffer<float> result = consumer.realize({4, 4});
        if (!check(result, "store_at y compute_at x")) return 1;
        printf("Pseudo-code for the schedule:\n");
        consumer.print_loop_nest();
        printf("\n");
    }

    // Tiles: the consumer in 4x4 tiles, the producer computed per tile (a 5x5 block each).
    {
        Func producer("producer_tile"), consumer("consumer_tile");
        producer(x, y) = sin(x * y);
        consumer(x, y) =
            (producer(x, y) + producer(x, y + 1) + producer(x + 1, y) + producer(x + 1, y + 1)) / 4;
        Var x_outer("x_outer"), y_outer("y_outer"), x_inner("x_inner"), y_inner("y_inner");
        consumer.tile(x, y, x_outer, y_outer, x_inner, y_inner, 4, 4);
        producer.compute_at(consumer, x_outer);
        producer.trace_stores();
        consumer.trace_stores();

        printf("\nEvaluating:\n"
               "consumer.tile(x, y, x_outer, y_outer, x_inner, y_inner, 4, 4);\n"
               "producer.compute_at(consumer, x_outer);\n");
        Buffer<float> result = consumer.realize({8, 8});
        if (!check(result, "tiles")) return 1;
        printf("Pseudo-code for the schedule:\n");
        consumer.print_loop_nest();
        printf("\n");
    }

    // A mixed schedule: strips of 16 rows of the consumer in parallel, each vectorized along
    // x; the producer stored per strip and computed per row inside it (a sliding window within
    // each strip), also vectorized. Loads are traced here too.
    {
        Func producer("producer_mixed"), consumer("consumer_mixed");
        producer(x, y) = sin(x * y);
        consumer(x, y) =
            (producer(x, y) + producer(x, y + 1) + producer(x + 1, y) + producer(x + 1, y + 1)) / 4;
        Var yo("yo"), yi("yi");
        consumer.split(y, yo, yi, 16).parallel(yo).vectorize(x, 4);
        producer.store_at(consumer, yo).compute_at(consumer, yi).vectorize(x, 4);

        // 8x32: two strips of 16 rows, two vectors per row.
        printf("\nEvaluating the mixed schedule on 8x32\n");
        Buffer<float> small(8, 32);
        producer.trace_loads();
        consumer.realize(small);
        if (!check(small, "mixed, traced")) return 1;
        printf("Pseudo-code for the schedule:\n");
        consumer.print_loop_nest();
        printf("\n");
    }

    // The same mixed schedule untraced on a larger image, checked everywhere.
    {
        Func producer("producer_mixed_big"), consumer("consumer_mixed_big");
        producer(x, y) = sin(x * y);
        consumer(x, y) =
            (producer(x, y) + producer(x, y + 1) + producer(x + 1, y) + producer(x + 1, y + 1)) / 4;
        Var yo("yo"), yi("yi");
        consumer.split(y, yo, yi, 16).parallel(yo).vectorize(x, 4);
        producer.store_at(consumer, yo).compute_at(consumer, yi).vectorize(x, 4);
        Buffer<float> result = consumer.realize({160, 160});
        if (!check(result, "mixed")) return 1;
    }

    printf("Success!\n");
    return 0;
}
