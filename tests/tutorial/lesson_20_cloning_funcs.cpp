// Halide tutorial lesson 20: cloning Funcs.
//
// f.clone_in(g) makes a copy of f (its definition and its schedule so far) and makes g read the
// copy; every other consumer of f still reads f. Unlike a wrapper (lesson 19), the clone does
// not read f: it recomputes f's values itself, so f and its clone can be placed and scheduled
// independently, e.g. f computed at root for one consumer and recomputed per row, vectorized,
// for another. Each section prints its loop nest and is checked against plain C++.
//
// Build (Loom or Halide 21):
//   g++ lesson_20_cloning_funcs.cpp -std=c++17 -I <include dir> -l<loom or Halide>
//       -lpthread -ldl

#include "Halide.h"

#include <cstdio>

using namespace Halide;

namespace {

int failures = 0;

void expect(int actual, int expected, const char *what, int x, int y) {
    if (actual != expected && failures++ < 10)
        printf("%s at (%d, %d): %d instead of %d\n", what, x, y, actual, expected);
}

} // namespace

int main(int argc, char **argv) {
    Var x("x"), y("y");

    // Two consumers of f, g and h, both outputs of one pipeline. f is cloned into g: g reads
    // f_clone_in_g, computed per row of g, while h reads f itself, computed at root.
    {
        Func f("f"), g("g"), h("h");
        f(x, y) = x + y;
        g(x, y) = 2 * f(x, y) + 3;
        h(x, y) = f(x, y) + f(x + 1, y) + 10;

        Func f_clone = f.clone_in(g);
        f.compute_root();
        f_clone.compute_at(g, y).vectorize(x, 4);

        Pipeline p({g, h});
        Buffer<int> g_result(16, 8), h_result(16, 8);
        p.realize({g_result, h_result});
        for (int yy = 0; yy < 8; yy++) {
            for (int xx = 0; xx < 16; xx++) {
                expect(g_result(xx, yy), 2 * (xx + yy) + 3, "g", xx, yy);
                expect(h_result(xx, yy), (xx + yy) + (xx + 1 + yy) + 10, "h", xx, yy);
            }
        }
        printf("Pseudo-code for g, which reads a clone of f, and h, which reads f:\n");
        p.print_loop_nest();
        printf("\n");
    }

    // One clone shared by a list of consumers: f.clone_in({g, h}) gives g and h the same copy,
    // while k keeps reading f. The clone is computed at root; f is inlined into k.
    {
        Func f("f2"), g("g2"), h("h2"), k("k2");
        f(x, y) = x * y;
        g(x, y) = f(x, y) + 1;
        h(x, y) = f(x, y) - 1;
        k(x, y) = f(x, y) * 5;

        Func f_clone = f.clone_in({g, h});
        f_clone.compute_root();

        Pipeline p({g, h, k});
        Buffer<int> g_result(8, 8), h_result(8, 8), k_result(8, 8);
        p.realize({g_result, h_result, k_result});
        for (int yy = 0; yy < 8; yy++) {
            for (int xx = 0; xx < 8; xx++) {
                expect(g_result(xx, yy), xx * yy + 1, "g2", xx, yy);
                expect(h_result(xx, yy), xx * yy - 1, "h2", xx, yy);
                expect(k_result(xx, yy), xx * yy * 5, "k2", xx, yy);
            }
        }
        printf("Pseudo-code for a clone shared by g and h:\n");
        p.print_loop_nest();
        printf("\n");
    }

    // A clone keeps the schedule the original had when it was cloned, including an update
    // definition; afterwards the two are scheduled independently.
    {
        Func f("f3"), g("g3"), h("h3");
        f(x) = x;
        RDom r(1, 15, "r3");
        f(r) = f(r) + f(r - 1); // running sum
        g(x) = f(x) * 2;
        h(x) = f(x) + 100;
        f.compute_root();

        Func f_clone = f.clone_in(h);
        f_clone.compute_at(h, x); // the clone's whole scan is recomputed per value of h

        Pipeline p({g, h});
        Buffer<int> g_result(16), h_result(16);
        p.realize({g_result, h_result});
        int sum = 0;
        for (int xx = 0; xx < 16; xx++) {
            sum += xx;
            expect(g_result(xx), sum * 2, "g3", xx, 0);
            expect(h_result(xx), sum + 100, "h3", xx, 0);
        }
        printf("Pseudo-code for a clone with an update:\n");
        p.print_loop_nest();
        printf("\n");
    }

    if (failures) {
        printf("%d values differ\n", failures);
        return 1;
    }
    printf("Success!\n");
    return 0;
}
