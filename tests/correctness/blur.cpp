// The 2012 paper's separable 3x3 box blur (Figure 1's algorithm) on uint16 data, against naive
// C++ loops, under the default schedule and with blur_x computed at root.
#include <loom/loom.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

using namespace loom;

namespace {

Buffer<uint16_t> random_image(int w, int h, uint32_t seed) {
    Buffer<uint16_t> in(w, h);
    std::mt19937 rng(seed);
    in.for_each_value([&](uint16_t &v) { v = (uint16_t)(rng() & 0xffff); });
    return in;
}

// blur_y(x, y) over the region [0, w-2) x [0, h-2) of an input of size w x h, in uint16
// arithmetic (which wraps, as in the paper's algorithm).
uint16_t reference_blur(const Buffer<uint16_t> &in, int x, int y) {
    auto bx = [&](int xx, int yy) {
        return (uint16_t)((uint16_t)(in(xx, yy) + in(xx + 1, yy) + in(xx + 2, yy)) / 3);
    };
    return (uint16_t)((uint16_t)(bx(x, y) + bx(x, y + 1) + bx(x, y + 2)) / 3);
}

void check_blur(bool blur_x_root) {
    const int W = 67, H = 43;
    Buffer<uint16_t> in = random_image(W, H, 7);
    Func blur_x("blur_x"), blur_y("blur_y");
    Var x("x"), y("y");
    blur_x(x, y) = (in(x, y) + in(x + 1, y) + in(x + 2, y)) / 3;
    blur_y(x, y) = (blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 3;
    if (blur_x_root) blur_x.compute_root();
    Buffer<uint16_t> out = blur_y.realize({W - 2, H - 2});
    ASSERT_EQ(out.width(), W - 2);
    ASSERT_EQ(out.height(), H - 2);
    for (int y0 = 0; y0 < H - 2; y0++) {
        for (int x0 = 0; x0 < W - 2; x0++) {
            ASSERT_EQ(out(x0, y0), reference_blur(in, x0, y0)) << "at " << x0 << ", " << y0;
        }
    }
}

} // namespace

TEST(Blur, DefaultScheduleMatchesNaive) { check_blur(false); }

TEST(Blur, BlurXComputeRootMatchesNaive) { check_blur(true); }

TEST(Blur, ImageParamInputAndShiftedOutput) {
    const int W = 40, H = 30;
    Buffer<uint16_t> in = random_image(W, H, 11);
    ImageParam input(UInt(16), 2, "input");
    Func blur_x("blur_x"), blur_y("blur_y");
    Var x("x"), y("y");
    blur_x(x, y) = (input(x - 1, y) + input(x, y) + input(x + 1, y)) / 3;
    blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
    blur_x.compute_root();
    input.set(in);
    // The output covers [1, W-1) x [1, H-1) so every read stays inside the input.
    Buffer<uint16_t> out(W - 2, H - 2);
    out.set_min(1, 1);
    blur_y.realize(out);
    for (int y0 = 1; y0 < H - 1; y0++) {
        for (int x0 = 1; x0 < W - 1; x0++) {
            ASSERT_EQ(out(x0, y0), reference_blur(in, x0 - 1, y0 - 1)) << x0 << ", " << y0;
        }
    }
}
