// User guide, tutorial 7 (docs/tutorial/07-reductions.md): update definitions, reduction domains
// (RDom), a histogram, a scan, and the inline reductions sum / maximum / argmax. Every result is
// checked against plain C++.
#include <loom/loom.h>

#include <cstdio>

using namespace loom;

int main() {
    setvbuf(stdout, nullptr, _IONBF, 0);
    int failures = 0;
    Var x("x"), y("y");

    // An update definition changes values the pure definition gave: here, f(0), f(2) and f(4),
    // where an RDom (a reduction domain: e runs over 0, 1, 2) names the points.
    Func f("f");
    RDom e(0, 3, "e");
    f(x) = x;
    f(2 * e) = f(2 * e) * 100;
    Buffer<int> fb = f.realize({6});
    printf("f:");
    for (int i = 0; i < 6; i++) printf(" %d", fb(i));
    printf("\n");
    for (int i = 0; i < 6; i++) failures += fb(i) != (i % 2 == 0 ? i * 100 : i);

    // An RDom over an image's pixels and a computed index: a histogram of its 7 values.
    Func image("image"), histogram("histogram");
    image(x, y) = (x * 37 + y * 11) % 7;
    RDom r(0, 40, 0, 30, "r");
    histogram(x) = 0;
    histogram(image(r.x, r.y)) += 1;
    Buffer<int> h = histogram.realize({7});
    printf("histogram of a 40 x 30 image:");
    for (int i = 0; i < 7; i++) printf(" %d", h(i));
    printf("\n");
    int expected[7] = {0};
    for (int j = 0; j < 30; j++) {
        for (int i = 0; i < 40; i++) expected[(i * 37 + j * 11) % 7]++;
    }
    for (int i = 0; i < 7; i++) failures += h(i) != expected[i];

    // A scan: each value reads the one before it (the RDom runs in order).
    Func prefix("prefix");
    RDom k(1, 9, "k");
    prefix(x) = x;
    prefix(k) = prefix(k - 1) + prefix(k);
    Buffer<int> p = prefix.realize({10});
    printf("prefix sums of 0..9:");
    for (int i = 0; i < 10; i++) printf(" %d", p(i));
    printf("\n");
    for (int i = 0, s = 0; i < 10; i++) failures += p(i) != (s += i);

    // Inline reductions: an Expr that reduces over an RDom.
    Func box("box"), peak("peak"), where("where");
    RDom w(-2, 5, "w");
    box(x) = sum(image(x + w, 0));
    peak(x) = maximum(image(x + w, 0));
    where(x) = argmax(image(x + w, 0))[0];
    Buffer<int> bb = box.realize({4}), pb = peak.realize({4}), wb = where.realize({4});
    const char *labels[] = {
        "x:", "image(x, 0):", "sum over x-2..x+2:", "maximum:", "argmax (offset):"};
    for (int row = 0; row < 5; row++) {
        printf("%-18s", labels[row]);
        for (int i = 0; i < 4; i++) {
            int v[] = {i, (i * 37) % 7, bb(i), pb(i), wb(i)};
            printf(" %2d", v[row]);
        }
        printf("\n");
    }
    for (int i = 0; i < 4; i++) {
        int s = 0, m = -1, at = 0;
        for (int d = -2; d <= 2; d++) {
            int v = (((i + d) * 37) % 7 + 7) % 7;
            s += v;
            if (v > m) m = v, at = d;
        }
        failures += bb(i) != s || pb(i) != m || wb(i) != at;
    }
    printf(failures ? "FAILED\n" : "Success!\n");
    return failures ? 1 : 0;
}
