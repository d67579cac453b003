// The cost of running a tiny pipeline from C++: a Callable call, realize into a given Buffer and
// realize allocating its output, in ns per call (median of batches). bench/python.sh times the
// same calls from Python (python_overhead.py) to give the Python bindings' overhead.
#include <loom/loom.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using namespace loom;

template <typename Fn>
double ns_per_call(Fn &&fn, int calls) {
    std::vector<double> batches;
    for (int b = 0; b < 7; b++) {
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < calls; i++) fn();
        auto t1 = std::chrono::steady_clock::now();
        batches.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / calls);
    }
    std::sort(batches.begin(), batches.end());
    return batches[batches.size() / 2];
}

int main() {
    ImageParam in(Float(32), 1, "in");
    Param<float> scale("scale");
    Var x("x");
    Func f("f");
    f(x) = in(x)*scale + 1.0f;
    Buffer<float> input(64), out(64);
    input.fill(1.0f);
    Callable c = f.compile_to_callable({in, scale});
    in.set(input);
    scale.set(2.0f);
    f.compile_jit();
    const int calls = 20000;
    double callable_ns = ns_per_call([&] { c(input, 2.0f, out); }, calls);
    double realize_into_ns = ns_per_call([&] { f.realize(out); }, calls);
    double realize_ns = ns_per_call([&] { Buffer<float> r = f.realize({64}); }, calls);
    if (out(5) != 3.0f) return 1;
    printf("callable_ns %.1f\nrealize_into_ns %.1f\nrealize_ns %.1f\n", callable_ns,
           realize_into_ns, realize_ns);
    return 0;
}
