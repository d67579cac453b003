// Brighten an RGB image by a Param<float> factor, against naive C++; the same compiled pipeline
// is reused with a new parameter value and a new input.
#include <loom/loom.h>

#include <gtest/gtest.h>

#include <algorithm>

using namespace loom;

namespace {
uint8_t brighten_ref(uint8_t v, float factor) {
    float f = (float)v * factor;
    return (uint8_t)std::min(f, 255.0f);
}
} // namespace

TEST(Brighten, ParamFloatMatchesNaive) {
    const int W = 31, H = 17, C = 3;
    Buffer<uint8_t> in(W, H, C);
    in.for_each_element(
        [&](int x, int y, int c) { in(x, y, c) = (uint8_t)((x * 7 + y * 13 + c * 50) & 255); });
    ImageParam input(UInt(8), 3, "input");
    Param<float> factor("factor");
    Func bright("bright");
    Var x("x"), y("y"), c("c");
    bright(x, y, c) = cast<uint8_t>(min(input(x, y, c) * factor, 255.0f));

    for (float f : {1.5f, 0.25f, 3.0f}) {
        factor.set(f);
        input.set(in);
        Buffer<uint8_t> out = bright.realize({W, H, C});
        for (int cc = 0; cc < C; cc++)
            for (int yy = 0; yy < H; yy++)
                for (int xx = 0; xx < W; xx++)
                    ASSERT_EQ(out(xx, yy, cc), brighten_ref(in(xx, yy, cc), f))
                        << "factor " << f << " at " << xx << "," << yy << "," << cc;
    }
    EXPECT_EQ(factor.get(), 3.0f);
}
