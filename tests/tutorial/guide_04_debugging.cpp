// User guide, tutorial 4 (docs/tutorial/04-debugging.md): print() inside an Expr, print_when,
// and tracing the values a Func stores. Prints what the page shows.
#include <loom/loom.h>

#include <cstdio>

using namespace loom;

int main() {
    // Unbuffered, so what the program prints and what Loom prints (loop nests go to stderr,
    // print() and traces to stdout) stay in order.
    setvbuf(stdout, nullptr, _IONBF, 0);
    Func f("f"), g("g");
    Var x("x"), y("y");
    f(x, y) = x * 10 + y;
    // print() returns its first argument and prints all of them when the value is computed.
    g(x, y) = print(f(x, y) * 2, "<- g at", x, y);
    Buffer<int> out = g.realize({2, 2});

    // print_when prints only where the condition holds.
    Func h("h");
    h(x) = print_when(x == 3, x * x, "h at x = 3 is", x * x);
    Buffer<int> hb = h.realize({5});

    // trace_stores: every value the Func stores, with its coordinates (Halide's trace format).
    Func traced("traced");
    traced(x, y) = x + y;
    traced.trace_stores();
    Buffer<int> tb = traced.realize({2, 2});

    bool ok = out(1, 1) == 22 && hb(3) == 9 && tb(1, 1) == 2;
    printf(ok ? "Success!\n" : "FAILED\n");
    return ok ? 0 : 1;
}
