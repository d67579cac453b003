// Func::async: a costly producer computed per row of its consumer (a sliding window, stored at
// the root) and a costly consumer, each serial. Synchronously one thread does both; with
// p.async() the producer runs ahead on another core. Prints one line per variant: its name and
// the median of 7 timed runs in ms. Built against Loom and Halide 21 by bench/async_overlap.sh.
#include "Halide.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using namespace Halide;

namespace {

double median_ms(Func out, Buffer<float> &b) {
    out.realize(b); // compile and warm up
    std::vector<double> t;
    for (int i = 0; i < 7; i++) {
        auto start = std::chrono::steady_clock::now();
        out.realize(b);
        t.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

} // namespace

int main() {
    Buffer<float> out(2048, 1024);
    for (bool async : {false, true}) {
        Var x("x"), y("y");
        Func p("p"), c("c");
        // A chain of 40 square roots per value in each stage (no transcendental functions,
        // whose implementations differ between the two libraries).
        Expr v = cast<float>(x + y);
        for (int k = 0; k < 40; k++) v = sqrt(abs(v) * 1.001f + 0.5f) * 1.5f - 0.25f;
        p(x, y) = v;
        Expr w = p(x, y - 1) + p(x, y) + p(x, y + 1);
        for (int k = 0; k < 40; k++) w = sqrt(abs(w) * 0.999f + 0.25f) * 1.25f + 0.5f;
        c(x, y) = w;
        c.vectorize(x, 8);
        p.compute_at(c, y).store_root().vectorize(x, 8);
        if (async) p.async();
        printf("%s %.3f\n", async ? "async" : "sync", median_ms(c, out));
    }
    return 0;
}
