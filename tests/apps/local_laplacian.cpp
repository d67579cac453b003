// The local Laplacian filter app (apps/local_laplacian) against its naive reference, with every
// level at root (the breadth-first schedule; inlining everything is out of reach, see
// schedule_root) and with its CPU schedule, plus a check that the schedule shaped the loop nest.
#include "Halide.h"

#include "local_laplacian/local_laplacian.h"
#include "local_laplacian/reference.h"

#include "common/loop_nest_text.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace Halide;
using namespace local_laplacian_detail;

namespace {

/// Pyramid levels in the tests: 4 instead of the paper's 8 (the level loop is the same code;
/// the JIT compilation of 8 levels takes Loom half a minute, see the README).
constexpr int kTestLevels = 4;

/// A deterministic 16-bit RGB test image: colour ramps, fine texture (what alpha amplifies),
/// a strong edge and a dark corner (where the colour ratio's floor matters).
Buffer<uint16_t> make_input(int w, int h) {
    Buffer<uint16_t> in(w, h, 3);
    uint32_t state = 31337;
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                state = state * 1664525u + 1013904223u;
                float noise = (float)(state >> 8) / (float)(1u << 24);
                float v = 0.2f + 0.4f * x / w + 0.1f * c + 0.08f * noise +
                          ((x / 3 + y / 3) % 2 ? 0.05f : 0.0f);
                if (x > 2 * w / 3) v -= 0.3f;
                if (x < 5 && y < 5) v = 0.0f;
                in(x, y, c) = (uint16_t)(65535.0f * std::min(std::max(v, 0.0f), 1.0f));
            }
    return in;
}

/// Runs the (already scheduled) pipeline and compares with the reference. Both do the same
/// float operations in the same order (the remapping table is shared), so only a compiler's
/// contraction of a multiply-add could separate them, by an ulp that the pyramid carries to the
/// output: at most 2 of 65535 (3e-5) is allowed, far below what a wrong tap, level or weight
/// causes (hundreds).
void check_against_reference(LocalLaplacianPipeline &p, int w, int h, float alpha, float beta) {
    std::cout << "levels " << kTestLevels << "\n";
    Buffer<uint16_t> in = make_input(w, h);
    p.input.set(in);
    p.set_alpha(alpha);
    p.beta.set(beta);
    Buffer<uint16_t> out = p.output.realize({w, h, 3});
    std::vector<uint16_t> expected((size_t)w * h * 3);
    local_laplacian_reference(in.data(), expected.data(), w, h, alpha, beta, kTestLevels);
    int worst = 0, changed = 0;
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int e = expected[((size_t)c * h + y) * w + x];
                int d = std::abs((int)out(x, y, c) - e);
                worst = std::max(worst, d);
                ASSERT_LE(d, 2) << "at " << x << ", " << y << ", " << c << ": " << out(x, y, c)
                                << " vs " << e;
                changed = std::max(changed, std::abs((int)out(x, y, c) - (int)in(x, y, c)));
            }
    // Not vacuous: the filter changed the image visibly.
    EXPECT_GT(changed, 1000);
    std::cout << "largest difference " << worst << " of 65535\n";
}

} // namespace

TEST(LocalLaplacianApp, RootScheduleMatchesReference) {
    LocalLaplacianPipeline p(kTestLevels);
    p.schedule_root();
    check_against_reference(p, 64, 48, kAlpha, kBeta);
}

TEST(LocalLaplacianApp, CpuSchedule) {
    LocalLaplacianPipeline p(kTestLevels);
    p.schedule_cpu();
    std::string nest = loop_nest_of(p.output);
    std::vector<std::string> in_order = {"produce gray:",
                                         "parallel y.yo",
                                         "vectorized x",
                                         "produce g_pyr_1:",
                                         "parallel k",
                                         "vectorized x",
                                         "produce g_pyr_3:",
                                         "parallel k",
                                         "produce out_g_pyr_0:",
                                         "parallel y.yo",
                                         "produce local_laplacian:",
                                         "parallel y.yo",
                                         "for c",
                                         "vectorized x"};
    ASSERT_TRUE(appears_in_order(nest, in_order));
    for (const char *inlined :
         {"produce g_pyr_0", "produce l_pyr", "produce out_l_pyr", "produce remapped"})
        EXPECT_EQ(nest.find(inlined), std::string::npos) << inlined << " in:\n" << nest;

    check_against_reference(p, 64, 48, kAlpha, kBeta);
    // 67 x 45, neither a multiple of the vector width nor of the strips; more detail, less
    // large-scale contrast.
    check_against_reference(p, 67, 45, 2.0f, 0.6f);
}
