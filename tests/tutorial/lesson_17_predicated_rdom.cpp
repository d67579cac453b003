// Halide tutorial lesson 17: reductions over non-rectangular domains.
//
// RDom::where restricts a reduction domain to the points where a condition holds: the update
// still loops over the RDom's bounding box, but is applied only where the predicate is true.
// The predicate may use the RDom's variables, other Exprs and other Funcs. Each result is
// traced and checked against plain C++.
//
// Build (Loom or Halide 21):
//   g++ lesson_17_predicated_rdom.cpp -std=c++17 -I <include dir> -l<loom or Halide>
//       -lpthread -ldl

#include "Halide.h"

#include <algorithm>
#include <cstdio>

using namespace Halide;

int main(int argc, char **argv) {
    Var x("x"), y("y");

    // A disc: the points of a 7x7 box within distance 3 of its centre (3, 3) are doubled.
    {
        Func circle("circle");
        circle(x, y) = x + y;

        RDom r(0, 7, 0, 7);
        r.where((r.x - 3) * (r.x - 3) + (r.y - 3) * (r.y - 3) <= 10);
        circle(r.x, r.y) *= 2;

        circle.trace_stores();
        printf("Evaluating the circle\n");
        Buffer<int> result = circle.realize({7, 7});
        for (int yy = 0; yy < 7; yy++) {
            for (int xx = 0; xx < 7; xx++) {
                int expected = xx + yy;
                if ((xx - 3) * (xx - 3) + (yy - 3) * (yy - 3) <= 10) expected *= 2;
                if (result(xx, yy) != expected) {
                    printf("circle(%d, %d) = %d instead of %d\n", xx, yy, result(xx, yy), expected);
                    return 1;
                }
            }
        }
        printf("Pseudo-code for the circle:\n");
        circle.print_loop_nest();
        printf("\n");
    }

    // Several where clauses are ANDed together: here the triangle of a 10x10 box strictly above
    // the diagonal, and only its even columns, are set to 40.
    {
        Func triangle("triangle");
        triangle(x, y) = 10;

        RDom r(0, 8, 0, 10);
        r.where(r.x < r.y);
        r.where(r.x % 2 == 0);
        triangle(r.x, r.y) = 40;

        triangle.trace_stores();
        printf("Evaluating the triangle\n");
        Buffer<int> result = triangle.realize({10, 10});
        for (int yy = 0; yy < 10; yy++) {
            for (int xx = 0; xx < 10; xx++) {
                int expected = (xx < 8 && xx < yy && xx % 2 == 0) ? 40 : 10;
                if (result(xx, yy) != expected) {
                    printf("triangle(%d, %d) = %d instead of %d\n", xx, yy, result(xx, yy),
                           expected);
                    return 1;
                }
            }
        }
        printf("Pseudo-code for the triangle:\n");
        triangle.print_loop_nest();
        printf("\n");
    }

    // The predicate may read other Funcs and use the pure Vars of the update: the sum of
    // f(x, r) over the rows r where f is below x + 2 (a data-dependent condition, evaluated per
    // point of the domain).
    {
        Func f("f"), total("total");
        f(x, y) = (x * 7 + y * 13) % 11;

        RDom r(0, 12, "r");
        r.where(f(x, r) < x + 2);
        total(x) = 0;
        total(x) += f(x, r);
        f.compute_root();

        total.trace_stores();
        printf("Evaluating the sum of f where f is small\n");
        Buffer<int> result = total.realize({8});
        for (int xx = 0; xx < 8; xx++) {
            int expected = 0;
            for (int rr = 0; rr < 12; rr++) {
                int v = (xx * 7 + rr * 13) % 11;
                if (v < xx + 2) expected += v;
            }
            if (result(xx) != expected) {
                printf("total(%d) = %d instead of %d\n", xx, result(xx), expected);
                return 1;
            }
        }
    }

    // An inline reduction over a predicated domain: the largest value of g on a ring.
    {
        Func g("g");
        g(x, y) = (x * 31 + y * 17) % 50;
        RDom r(-5, 11, -5, 11, "ring");
        Expr d2 = r.x * r.x + r.y * r.y;
        r.where(d2 >= 9 && d2 <= 25);
        Func ring_max("ring_max");
        ring_max(x, y) = maximum(g(x + r.x, y + r.y));
        Buffer<int> result = ring_max.realize({6, 6});
        for (int yy = 0; yy < 6; yy++) {
            for (int xx = 0; xx < 6; xx++) {
                int expected = -1;
                for (int dy = -5; dy <= 5; dy++) {
                    for (int dx = -5; dx <= 5; dx++) {
                        int dd = dx * dx + dy * dy;
                        if (dd < 9 || dd > 25) continue;
                        int xx2 = xx + dx, yy2 = yy + dy;
                        // % of a negative number rounds towards negative infinity in Halide.
                        int v = ((xx2 * 31 + yy2 * 17) % 50 + 50) % 50;
                        expected = std::max(expected, v);
                    }
                }
                if (result(xx, yy) != expected) {
                    printf("ring_max(%d, %d) = %d instead of %d\n", xx, yy, result(xx, yy),
                           expected);
                    return 1;
                }
            }
        }
    }

    printf("Success!\n");
    return 0;
}
