// A root Func read by a Func computed per strip of the output is allocated over the union of
// the strips' regions. Bounds inference bounded the strip loop's min and extent apart over the
// strips, which added the whole range of the min to the extent: interpolate's finer levels
// (read through a per-strip upsampling) were allocated almost twice as tall as they are read,
// and its peak memory was 1.5x Halide's. Checked through the pipeline's custom allocator (the
// largest allocation and the live bytes at their peak) and against naive loops.
#include <loom/loom.h>

#include "common/heap_tracking.h"

#include <gtest/gtest.h>

#include <cstdint>

using namespace loom;

TEST(StripProducerBounds, RootProducerOfAPerStripStageIsAsTallAsItsStrips) {
    // A 2x vertical upsampling, as in interpolate: `coarse` at root, its horizontal pass `up`
    // per 32-row strip of the output, which reads rows (y - 1) / 2 and (y + 1) / 2 of it.
    const int w = 64, h = 256;
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func coarse("coarse"), up("up"), out("out");
    coarse(x, y) = x * 3 + y * 5;
    up(x, y) = coarse(x, y) * 2 + coarse(x + 1, y);
    out(x, y) = up(x, (y - 1) / 2) + up(x, (y + 1) / 2);
    coarse.compute_root();
    out.split(y, yo, yi, 32).parallel(yo);
    up.compute_at(out, yo);

    HeapTracking::install(out);
    Buffer<int32_t> result = out.realize({w, h});
    EXPECT_EQ(HeapTracking::live, 0u);
    // coarse is read over rows -1 .. h / 2 and columns 0 .. w: (w + 1) x (h / 2 + 2) int32.
    // (It was allocated over about h rows.) Each strip's `up` is 17 or 18 rows.
    const size_t coarse_bytes = (size_t)(w + 1) * (h / 2 + 2) * sizeof(int32_t);
    EXPECT_LE(HeapTracking::largest, coarse_bytes + 64)
        << "largest allocation " << HeapTracking::largest;
    EXPECT_LE(HeapTracking::peak, coarse_bytes + 2 * (size_t)w * 18 * sizeof(int32_t) + 256)
        << "peak " << HeapTracking::peak;

    auto c = [](int xx, int yy) { return xx * 3 + yy * 5; };
    auto u = [&](int xx, int yy) { return c(xx, yy) * 2 + c(xx + 1, yy); };
    // Halide's division rounds to negative infinity.
    auto div2 = [](int v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); };
    for (int yy = 0; yy < h; yy++) {
        for (int xx = 0; xx < w; xx++) {
            ASSERT_EQ(result(xx, yy), u(xx, div2(yy - 1)) + u(xx, div2(yy + 1)))
                << "at " << xx << ", " << yy;
        }
    }
}
