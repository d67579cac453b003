// Calls the pipeline loom_add_aot_library compiled at build time (no JIT, no libloom) and checks
// it against naive loops. Prints "aot_consumer: ok" and returns 0 when every value matches.
#include "HalideBuffer.h"
#include "brighten.h"

#include <cstdio>

int main() {
    const int w = 29, h = 7;
    Halide::Runtime::Buffer<int32_t> in(w, h), out(w, h);
    in.for_each_element([&](int x, int y) { in(x, y) = x * 10 - y; });
    int rc = brighten(in.raw_buffer(), out.raw_buffer());
    int bad = 0;
    out.for_each_element([&](int x, int y) { bad += out(x, y) != in(x, y) * 3 + 1; });
    std::printf("aot_consumer: %s (rc %d, %d of %d values differ)\n", rc || bad ? "FAILED" : "ok",
                rc, bad, w * h);
    return rc || bad ? 1 : 0;
}
