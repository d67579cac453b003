// lerp with the weight types Halide 21 accepts (built against Loom and, as
// compat_halide_lerp_halide, against Halide): integer values with a wider unsigned weight
// (narrowed by 2^16-1 / 2^8-1 = 257, truncating, before the exactly rounded lerp) and float
// values with an unsigned weight read as a fraction of its maximum. Checked against closed forms.
#include "Halide.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

using namespace Halide;

TEST(HalideLerp, Uint8ValuesWithAUint16Weight) {
    Var x("x");
    Func f("f");
    f(x) = lerp(cast<uint8_t>(x * 7 % 256), cast<uint8_t>(255 - x % 256),
                cast<uint16_t>(x * 997 % 65536));
    f.vectorize(x, 16);
    Buffer<uint8_t> out = f.realize({256});
    for (int i = 0; i < 256; i++) {
        int zero = i * 7 % 256, one = 255 - i, w = (i * 997 % 65536) / 257;
        // round((zero * (255 - w) + one * w) / 255), exactly.
        int want = (2 * (zero * (255 - w) + one * w) + 255) / 510;
        EXPECT_EQ(out(i), want) << i;
    }
}

TEST(HalideLerp, FloatValuesWithUnsignedWeights) {
    Var x("x");
    Func f("f"), g("g");
    f(x) = lerp(cast<float>(x), cast<float>(x * 2 + 10), cast<uint8_t>(x * 13 % 256));
    g(x) = lerp(-1.0f, 3.0f, cast<uint16_t>(x * 4099 % 65536));
    Buffer<float> a = f.realize({32});
    Buffer<float> b = g.realize({32});
    for (int i = 0; i < 32; i++) {
        float w = (float)(i * 13 % 256) / 255.0f;
        EXPECT_NEAR(a(i), i * (1 - w) + (i * 2 + 10) * w, 1e-4f) << i;
        float v = (float)(i * 4099 % 65536) / 65535.0f;
        EXPECT_NEAR(b(i), -1.0f * (1 - v) + 3.0f * v, 1e-5f) << i;
    }
}
