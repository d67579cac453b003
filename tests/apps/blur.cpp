// The 2012 paper's 3x3 blur (apps/blur) against its naive reference under every schedule the
// header offers, plus a check that the paper's Figure 1 schedule shaped the loop nest. Integer
// arithmetic: the comparison is bit-exact.
#include "Halide.h"

#include "blur/blur.h"
#include "blur/reference.h"

#include "common/loop_nest_text.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace Halide;

namespace {

/// Hash noise over the whole uint16 range, so the 16-bit sums of three samples wrap as often as
/// not (the reference wraps them the same way), with a smooth ramp in the left half.
Buffer<uint16_t> make_input(int w, int h) {
    Buffer<uint16_t> in(w, h);
    uint32_t state = 777;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            state = state * 1664525u + 1013904223u;
            in(x, y) = x < w / 2 ? (uint16_t)(x * 97 + y * 31) : (uint16_t)(state >> 16);
        }
    }
    return in;
}

void check_against_reference(BlurPipeline &p, const Buffer<uint16_t> &in) {
    const int w = in.width(), h = in.height();
    p.input.set(in);
    Buffer<uint16_t> out = p.blur_y.realize({w, h});
    std::vector<uint16_t> expected((size_t)w * h);
    blur_reference(in.data(), expected.data(), w, h);
    int changed = 0;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            uint16_t e = expected[(size_t)y * w + x];
            ASSERT_EQ(out(x, y), e) << "at " << x << ", " << y;
            changed += out(x, y) != in(x, y);
        }
    }
    // Not vacuous: the blur changed most pixels.
    EXPECT_GT(changed, w * h / 2);
}

// 300 x 70: larger than one 256 x 32 tile, and a multiple of neither tile dimension nor of the
// vector width, so the shifted last tiles and vectors are exercised.
const int kW = 300, kH = 70;

} // namespace

TEST(BlurApp, UnscheduledMatchesReference) {
    BlurPipeline p;
    p.schedule_default();
    check_against_reference(p, make_input(kW, kH));
}

TEST(BlurApp, PaperScheduleMatchesReference) {
    BlurPipeline p;
    p.schedule_paper();
    check_against_reference(p, make_input(kW, kH));
}

TEST(BlurApp, OtherSchedulesMatchReference) {
    Buffer<uint16_t> in = make_input(kW, kH);
    {
        BlurPipeline p;
        p.schedule_blur_x_root();
        check_against_reference(p, in);
    }
    {
        BlurPipeline p;
        p.schedule_vectorized_only();
        check_against_reference(p, in);
    }
    {
        BlurPipeline p;
        p.schedule_parallel_only();
        check_against_reference(p, in);
    }
    {
        BlurPipeline p;
        if (p.schedule_sliding_window()) check_against_reference(p, in);
    }
}

TEST(BlurApp, ReferenceMatchesFigure1aClean) {
    // The two C++ versions (point by point; the paper's two passes) agree.
    Buffer<uint16_t> in = make_input(kW, kH);
    std::vector<uint16_t> a((size_t)kW * kH), b((size_t)kW * kH), tmp((size_t)kW * kH);
    blur_reference(in.data(), a.data(), kW, kH);
    blur_clean_cpp(in.data(), b.data(), tmp.data(), kW, kH);
    EXPECT_EQ(a, b);
}

TEST(BlurApp, PaperScheduleLoopNest) {
    BlurPipeline p;
    p.schedule_paper();
    std::string nest = loop_nest_of(p.blur_y);
    // Rows of tiles in parallel, the tiles of a row serially; blur_x computed per tile
    // (vectorized), then the tile's 32 rows of blur_y, vectorized.
    std::vector<std::string> in_order = {
        "produce blur_y:",      "parallel y",     "for x",
        "produce blur_x:",      "vectorized x.",  "consume blur_x:",
        "for y.yi in [0, 31]:", "vectorized x.xi"};
    ASSERT_TRUE(appears_in_order(nest, in_order));
}
