// Halide tutorial lesson 19: wrapper Funcs.
//
// f.in() makes a new Func that just copies f, and makes every consumer of f read the copy;
// f.in(g) does the same for g alone, and f.in({g, h}) for a list of consumers. The wrapper is
// an ordinary Func with its own schedule, which lets a Func be computed once and then staged
// (copied into a tile-sized buffer, transposed, ...) differently for different consumers,
// and lets an input image (ImageParam or Buffer) be staged the same way. Each section prints
// its loop nest and is checked against plain C++.
//
// Build (Loom or Halide 21):
//   g++ lesson_19_wrapper_funcs.cpp -std=c++17 -I <include dir> -l<loom or Halide>
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

    // A global wrapper: g.in() replaces every use of g. Here g is computed at root, and its
    // wrapper (a copy) is computed per row of f; f reads the copy.
    {
        Func f("f_global"), g("g_global");
        g(x, y) = x + y;
        f(x, y) = g(x, y) * 3 + g(x + 1, y);

        Func g_wrapper = g.in();
        g.compute_root();
        g_wrapper.compute_at(f, y);

        Buffer<int> result = f.realize({16, 8});
        for (int yy = 0; yy < 8; yy++)
            for (int xx = 0; xx < 16; xx++)
                expect(result(xx, yy), (xx + yy) * 3 + (xx + 1 + yy), "global wrapper", xx, yy);
        printf("Pseudo-code for g.in():\n");
        f.print_loop_nest();
        printf("\n");
    }

    // A wrapper for one consumer: g.in(f1) is read by f1 only; f2 still reads g itself. Each
    // consumer gets g placed where it suits it: f1 copies g per row, f2 uses g at root.
    {
        Func f1("f1"), f2("f2"), g("g_local"), out("out_local");
        g(x, y) = x * y;
        f1(x, y) = g(x, y) + 1;
        f2(x, y) = g(x, y) * 2;
        out(x, y) = f1(x, y) + f2(x, y);

        g.compute_root();
        f1.compute_root();
        f2.compute_root();
        Func g_in_f1 = g.in(f1);
        g_in_f1.compute_at(f1, y);

        Buffer<int> result = out.realize({10, 10});
        for (int yy = 0; yy < 10; yy++)
            for (int xx = 0; xx < 10; xx++)
                expect(result(xx, yy), xx * yy + 1 + xx * yy * 2, "local wrapper", xx, yy);
        printf("Pseudo-code for g.in(f1):\n");
        out.print_loop_nest();
        printf("\n");
    }

    // One wrapper shared by a list of consumers: g.in({f1, f2}).
    {
        Func f1("f1_list"), f2("f2_list"), g("g_list"), out("out_list");
        g(x, y) = x - y;
        f1(x, y) = g(x, y) + 1;
        f2(x, y) = g(x, y) * 2;
        out(x, y) = f1(x, y) + f2(x, y);
        f1.compute_root();
        f2.compute_root();
        Func shared_wrapper = g.in({f1, f2});
        shared_wrapper.compute_root();

        Buffer<int> result = out.realize({10, 10});
        for (int yy = 0; yy < 10; yy++)
            for (int xx = 0; xx < 10; xx++)
                expect(result(xx, yy), (xx - yy) + 1 + (xx - yy) * 2, "list wrapper", xx, yy);
        printf("Pseudo-code for g.in({f1, f2}):\n");
        out.print_loop_nest();
        printf("\n");
    }

    // Staging an input: a wrapper of an ImageParam copies the tile of the image each tile of
    // the output needs into a small buffer first (as one would stage into local memory). The
    // copy is vectorized along the image's rows (_0 is the wrapper's first implicit Var).
    {
        ImageParam img(Int(32), 2, "img");
        Func blur("blur_staged");
        blur(x, y) = img(x, y) + img(x + 1, y) + img(x, y + 1);

        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        blur.tile(x, y, xo, yo, xi, yi, 8, 8);
        Func staged = img.in();
        staged.compute_at(blur, xo).vectorize(_0, 4);

        Buffer<int> input(33, 33);
        input.for_each_element([&](int xx, int yy) { input(xx, yy) = xx * 100 + yy * 7; });
        img.set(input);
        Buffer<int> result = blur.realize({32, 32});
        for (int yy = 0; yy < 32; yy++)
            for (int xx = 0; xx < 32; xx++)
                expect(result(xx, yy), input(xx, yy) + input(xx + 1, yy) + input(xx, yy + 1),
                       "staged input", xx, yy);
        printf("Pseudo-code for the staged input:\n");
        blur.print_loop_nest();
        printf("\n");
    }

    // A wrapper of a wrapper: the data copied twice, in two layouts. The first wrapper is
    // computed at root; the second copies per row of f with its loops in transposed order.
    {
        Func f("f_chain"), g("g_chain");
        g(x, y) = 2 * x + 3 * y;
        f(x, y) = g(y, x);

        Func w1 = g.in(f);
        Func w2 = w1.in(f);
        w1.compute_root();
        w2.compute_at(f, y).reorder(y, x);

        Buffer<int> result = f.realize({6, 9});
        for (int yy = 0; yy < 9; yy++)
            for (int xx = 0; xx < 6; xx++)
                expect(result(xx, yy), 2 * yy + 3 * xx, "wrapper of wrapper", xx, yy);
        printf("Pseudo-code for two wrappers in a chain:\n");
        f.print_loop_nest();
        printf("\n");
    }

    if (failures) {
        printf("%d values differ\n", failures);
        return 1;
    }
    printf("Success!\n");
    return 0;
}
