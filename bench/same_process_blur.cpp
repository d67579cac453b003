// Loom's and Halide 21's code for the blur app (the paper's schedule, compiled ahead of time by
// bench/same_process.sh) raced in one process, on the same input and output buffers, one run of
// each in turn (the first alternates): what the two compilers generate, without what differs
// between two processes (heap layout, physical pages, the machine's load from one minute to
// the next), which moves this short, memory-bound app's time by up to 2x on a shared VM. Both
// pipelines use the one runtime linked in (its thread pool and allocator).
// Usage: same_process_blur [runs]  -> medians and minima of each, and the ratio of the medians.
#include "HalideBuffer.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

extern "C" int loom_blur(halide_buffer_t *input, halide_buffer_t *output);
extern "C" int halide_blur(halide_buffer_t *input, halide_buffer_t *output);

namespace {

double now_ms() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
    const int width = 6400, height = 4800, runs = argc > 1 ? std::atoi(argv[1]) : 40;
    Halide::Runtime::Buffer<uint16_t> input(width, height), by_loom(width, height),
        by_halide(width, height);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) input(x, y) = (uint16_t)((x * 7 + y * 13) ^ (x * y));
    if (loom_blur(input, by_loom) != 0 || halide_blur(input, by_halide) != 0) return 1;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
            if (by_loom(x, y) != by_halide(x, y)) {
                std::printf("outputs differ at (%d, %d)\n", x, y);
                return 1;
            }
    std::vector<double> loom_ms, halide_ms;
    for (int r = 0; r < runs; r++) {
        for (int k = 0; k < 2; k++) {
            bool loom = (k == 0) == (r % 2 == 0);
            double t0 = now_ms();
            // The same output buffer for both: on this VM two buffers of the same size can
            // differ in speed by 30% (where the host placed their pages).
            int err = loom ? loom_blur(input, by_loom) : halide_blur(input, by_loom);
            (loom ? loom_ms : halide_ms).push_back(now_ms() - t0);
            if (err != 0) return 1;
        }
    }
    std::printf("blur 6400x4800 uint16, %d runs each: Loom median %.2f ms (min %.2f), Halide "
                "median %.2f ms (min %.2f), Loom/Halide %.3f\n",
                runs, median(loom_ms), *std::min_element(loom_ms.begin(), loom_ms.end()),
                median(halide_ms), *std::min_element(halide_ms.begin(), halide_ms.end()),
                median(loom_ms) / median(halide_ms));
    return 0;
}
