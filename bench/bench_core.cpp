// Benchmark of the core pipelines (blur under three schedules, histogram equalization).
// The same source is compiled against Loom (include/compat/Halide.h) and against Halide 21; each
// binary prints one line per pipeline: name, JIT compile ms, median run ms.
#include "Halide.h"

#include "blur/blur.h"
#include "common/timing.h"
#include "hist_eq/hist_eq.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace Halide;

namespace {

const int kRuns = 7;

template <typename P>
void bench(const char *name, P &pipeline, Func out, Buffer<> result) {
    double compile = once_ms([&] { out.compile_jit(); });
    double run = median_ms([&] { out.realize(result); }, kRuns);
    std::printf("%s %.2f %.3f\n", name, compile, run);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv) {
    // The paper's blur size; histogram equalization on a photograph-sized image.
    const int BW = 6400, BH = 4800, HW = 1536, HH = 2560;
    Buffer<uint16_t> blur_in(BW, BH);
    blur_in.for_each_element(
        [&](int x, int y) { blur_in(x, y) = (uint16_t)(x * 131 + y * 71 + (x * y) % 97); });
    Buffer<uint8_t> eq_in(HW, HH);
    eq_in.for_each_element(
        [&](int x, int y) { eq_in(x, y) = (uint8_t)(((x / 7) * (y / 11) + x) % 200); });

    {
        BlurPipeline p;
        p.schedule_default();
        p.input.set(blur_in);
        bench("blur_default", p, p.blur_y, Buffer<uint16_t>(BW, BH));
    }
    {
        BlurPipeline p;
        p.schedule_blur_x_root();
        p.input.set(blur_in);
        bench("blur_x_root", p, p.blur_y, Buffer<uint16_t>(BW, BH));
    }
    {
        BlurPipeline p;
        p.schedule_paper();
        p.input.set(blur_in);
        bench("blur_paper", p, p.blur_y, Buffer<uint16_t>(BW, BH));
    }
    {
        HistEqPipeline p;
        p.schedule_default();
        p.input.set(eq_in);
        bench("hist_eq", p, p.output, Buffer<uint8_t>(HW, HH));
    }
    return 0;
}
