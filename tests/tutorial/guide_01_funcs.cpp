// User guide, tutorial 1 (docs/tutorial/01-funcs.md): Funcs, Vars and Exprs; realizing a Func
// into a Buffer. Prints what the page shows; exits nonzero if a value differs from plain C++.
#include <loom/loom.h>

#include <cstdio>

using namespace loom;

int main() {
    // Unbuffered, so what the program prints and what Loom prints (loop nests go to stderr,
    // print() and traces to stdout) stay in order.
    setvbuf(stdout, nullptr, _IONBF, 0);
    // A Func is a pure function over an infinite integer domain; Vars name its dimensions.
    Func gradient("gradient");
    Var x("x"), y("y");
    // An Expr is a symbolic value: x + y is not computed here, it is recorded.
    Expr e = x + y;
    gradient(x, y) = e;

    // realize() compiles the pipeline for this machine and computes it over [0, 4) x [0, 3).
    Buffer<int32_t> out = gradient.realize({4, 3});
    printf("out is %d x %d, of %s\n", out.width(), out.height(),
           out.type() == Int(32) ? "int32" : "another type");
    for (int j = 0; j < out.height(); j++) {
        for (int i = 0; i < out.width(); i++) printf("%3d", out(i, j));
        printf("\n");
    }

    // Every Expr has a type, inferred from its operands (x + y is int32); casts are explicit;
    // select is the pure if-then-else.
    Func shaded("shaded");
    shaded(x, y) = select(x > y, cast<uint8_t>(x * 40), cast<uint8_t>(255 - y * 40));
    Buffer<uint8_t> s = shaded.realize({4, 3});
    printf("shaded's type is uint%d\n", s.type().bits());
    int bad = 0;
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 4; i++) {
            uint8_t expected = i > j ? (uint8_t)(i * 40) : (uint8_t)(255 - j * 40);
            bad += s(i, j) != expected;
            bad += out(i, j) != i + j;
        }
    }
    printf("shaded(3, 1) = %d, shaded(0, 2) = %d\n", s(3, 1), s(0, 2));

    // A Func can be realized anywhere in its infinite domain: here over [-2, 0) x [10, 12).
    Buffer<int32_t> shifted(2, 2);
    shifted.set_min({-2, 10});
    gradient.realize(shifted);
    printf("gradient(-2, 10) = %d, gradient(-1, 11) = %d\n", shifted(-2, 10), shifted(-1, 11));
    bad += shifted(-2, 10) != 8 || shifted(-1, 11) != 10;

    printf(bad ? "FAILED\n" : "Success!\n");
    return bad ? 1 : 0;
}
