// The demo's pipelines on a real photograph from ../shared/images, against naive C++: the image
// loader, the blur with a boundary condition and histogram equalization together.
#include "Halide.h"
#include "halide_image_io.h"

#include "blur/blur.h"
#include "hist_eq/hist_eq.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

using namespace Halide;

namespace {

std::string image_path(const char *name) {
    const char *dir = std::getenv("LOOM_SHARED_IMAGES");
    return std::string(dir ? dir : "../shared/images") + "/" + name;
}

} // namespace

TEST(Photograph, BlurWithRepeatEdgeMatchesNaive) {
    Buffer<uint8_t> gray = Tools::load_image(image_path("gray_small.png"));
    ASSERT_EQ(gray.dimensions(), 2);
    const int W = gray.width(), H = gray.height();
    Buffer<uint16_t> in(W, H);
    in.for_each_element([&](int x, int y) { in(x, y) = (uint16_t)(gray(x, y) << 6); });

    BlurPipeline blur;
    blur.input.set(in);
    Buffer<uint16_t> out = blur.blur_y.realize({W, H});

    auto at = [&](int x, int y) {
        return in(std::min(std::max(x, 0), W - 1), std::min(std::max(y, 0), H - 1));
    };
    auto bx = [&](int x, int y) {
        return (uint16_t)((uint16_t)(at(x - 1, y) + at(x, y) + at(x + 1, y)) / 3);
    };
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            uint16_t expected = (uint16_t)((uint16_t)(bx(x, y - 1) + bx(x, y) + bx(x, y + 1)) / 3);
            ASSERT_EQ(out(x, y), expected) << x << ", " << y;
        }
    }
}

TEST(Photograph, HistogramEqualizationMatchesNaive) {
    Buffer<uint8_t> gray = Tools::load_image(image_path("gray_small.png"));
    const int W = gray.width(), H = gray.height();
    HistEqPipeline eq;
    eq.schedule_default();
    eq.input.set(gray);
    Buffer<uint8_t> out = eq.output.realize({W, H});

    std::vector<int64_t> cdf(256, 0);
    gray.for_each_value([&](uint8_t v) { cdf[v]++; });
    for (int i = 1; i < 256; i++) cdf[i] += cdf[i - 1];
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            int64_t v = cdf[gray(x, y)] * 255 / ((int64_t)W * H);
            ASSERT_EQ(out(x, y), (uint8_t)std::min<int64_t>(255, v)) << x << ", " << y;
        }
    }
}
