// The max filter app (apps/max_filter) against its naive reference, unscheduled and with its CPU
// schedule, plus a check that the schedule shaped the loop nest as written. Maxima are exact, so
// the comparison is bit-exact.
#include "Halide.h"

#include "max_filter/max_filter.h"
#include "max_filter/reference.h"

#include "common/loop_nest_text.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace Halide;

namespace {

/// Deterministic hash noise in [0, 1) with a few bright isolated pixels (whose squares the
/// filter must paint exactly).
Buffer<float> make_input(int w, int h, int channels) {
    Buffer<float> in(w, h, channels);
    uint32_t state = 4242;
    for (int c = 0; c < channels; c++) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                state = state * 1664525u + 1013904223u;
                in(x, y, c) = 0.5f * (float)(state >> 8) / (float)(1u << 24);
            }
        }
        in((11 + 7 * c) % w, (5 + 3 * c) % h, c) = 0.9f + 0.01f * c;
        in((w - 9 - c) % w, (h - 4) % h, c) = 0.8f;
    }
    return in;
}

void check_against_reference(MaxFilterPipeline &p, const Buffer<float> &in) {
    const int w = in.width(), h = in.height(), ch = in.channels();
    p.input.set(in);
    Buffer<float> out = p.output.realize({w, h, ch});
    std::vector<float> expected((size_t)w * h * ch);
    max_filter_reference(in.data(), expected.data(), w, h, ch, p.radius);
    int different_from_input = 0;
    for (int c = 0; c < ch; c++) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                ASSERT_EQ(out(x, y, c), expected[(size_t)c * w * h + (size_t)y * w + x])
                    << "at " << x << ", " << y << ", " << c;
                different_from_input += out(x, y, c) != in(x, y, c);
            }
        }
    }
    // Not vacuous: most pixels took a larger neighbour's value.
    EXPECT_GT(different_from_input, w * h * ch / 2);
}

} // namespace

TEST(MaxFilterApp, UnscheduledMatchesReference) {
    MaxFilterPipeline p(5);
    p.schedule_default();
    check_against_reference(p, make_input(40, 30, 3));
}

TEST(MaxFilterApp, CpuScheduleMatchesReferenceRadius26) {
    // The paper's radius on a 64 x 48 image: windows wider than half the image, so the repeated
    // edges matter almost everywhere.
    MaxFilterPipeline p(26);
    p.schedule_cpu();
    check_against_reference(p, make_input(64, 48, 3));
}

TEST(MaxFilterApp, CpuScheduleOddSizeSmallRadius) {
    MaxFilterPipeline p(3);
    p.schedule_cpu();
    check_against_reference(p, make_input(67, 45, 3));
}

TEST(MaxFilterApp, CpuScheduleLoopNest) {
    MaxFilterPipeline p(26);
    p.schedule_cpu();
    std::string nest = loop_nest_of(p.output);
    // Strips in parallel, channels inside; the vertical maximum per strip and channel (its
    // update's 52-row reduction inside the vector loop), the horizontal one per row.
    std::vector<std::string> in_order = {
        "produce max_filter:",          "  parallel y.yo:",        "    for c:",
        "      produce vmax:",          "vectorized x.",           "for dv in [-25, 26]:",
        "        for y.yi in [0, 31]:", "          produce hmax:", "vectorized x.",
        "for dh in [-25, 26]:",         "          consume hmax:", "vectorized x."};
    ASSERT_TRUE(appears_in_order(nest, in_order));
}
