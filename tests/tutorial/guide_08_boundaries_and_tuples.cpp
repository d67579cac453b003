// User guide, tutorial 8 (docs/tutorial/08-boundaries-and-tuples.md): boundary conditions for
// reads outside an input, and Tuples (several values per point). Checked against plain C++.
#include <loom/loom.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using namespace loom;

int main() {
    setvbuf(stdout, nullptr, _IONBF, 0);
    int failures = 0;
    Var x("x"), y("y");

    // A 1-D input of 6 values; a 3-tap blur of it over [0, 6) reads x = -1 and x = 6.
    Buffer<int> in(std::vector<int>{6}, "in");
    for (int i = 0; i < 6; i++) in(i) = i * i;
    const char *names[] = {"repeat_edge", "constant_exterior(0)", "mirror_interior"};
    for (int b = 0; b < 3; b++) {
        Func bounded = b == 0   ? BoundaryConditions::repeat_edge(in)
                       : b == 1 ? BoundaryConditions::constant_exterior(in, 0)
                                : BoundaryConditions::mirror_interior(in);
        Func blur("blur_" + std::to_string(b));
        blur(x) = bounded(x - 1) + bounded(x) + bounded(x + 1);
        Buffer<int> out = blur.realize({6});
        printf("%-22s", names[b]);
        for (int i = 0; i < 6; i++) printf(" %3d", out(i));
        printf("\n");
        auto at = [&](int i) {
            if (i >= 0 && i < 6) return in(i);
            if (b == 0) return in(std::clamp(i, 0, 5));
            if (b == 1) return 0;
            return in(i < 0 ? -i : 10 - i);
        };
        for (int i = 0; i < 6; i++) failures += out(i) != at(i - 1) + at(i) + at(i + 1);
    }

    // A Tuple: two values per point, of different types, computed together.
    Func stats("stats");
    stats(x) = Tuple(in(x) / 2, cast<float>(in(x)) / 2);
    Realization r = stats.realize({6});
    Buffer<int> halves = r[0];
    Buffer<float> exact = r[1];
    printf("in(5) / 2: int %d, float %.1f\n", halves(5), exact(5));
    failures += halves(5) != 12 || exact(5) != 12.5f;

    // Tuple-valued updates: the running maximum and where it was seen.
    Func best("best");
    RDom r6(0, 6, "r6");
    best() = Tuple(-1, -1);
    Expr better = in(r6) > best()[0];
    best() = Tuple(select(better, in(r6), best()[0]), select(better, r6, best()[1]));
    Realization br = best.realize();
    Buffer<int> value = br[0], index = br[1];
    printf("maximum %d at %d\n", value(), index());
    failures += value() != 25 || index() != 5;
    printf(failures ? "FAILED\n" : "Success!\n");
    return failures ? 1 : 0;
}
