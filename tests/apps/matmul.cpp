// The matrix-multiply app (apps/matmul) against its naive reference, unscheduled and with its
// CPU schedule, plus a check that the schedule shaped the loop nest as written.
#include "Halide.h"

#include "matmul/matmul.h"
#include "matmul/matmul_params.h"
#include "matmul/reference.h"

#include "common/loop_nest_text.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace Halide;

namespace {

/// Multiplies a (k x m: m rows of k columns) by b (n x k) with the pipeline as scheduled and
/// compares every entry with the reference: |got - expected| <= 1e-5 * max(1, |expected|). Both
/// add the k products in increasing k one at a time; a fused multiply-add rounds each step once
/// instead of twice, so they may differ by k half-ulps of the partial sums (here |sum| < 10,
/// k < 100: below 1e-5).
void check_against_reference(MatmulPipeline &p, int m, int k, int n) {
    Buffer<float> a(k, m), b(n, k);
    matmul_detail::fill_uniform(a.data(), (long)k * m, 7);
    matmul_detail::fill_uniform(b.data(), (long)n * k, 8);
    p.A.set(a);
    p.B.set(b);
    Buffer<float> out = p.output.realize({n, m});
    std::vector<float> expected((size_t)m * n);
    matmul_reference(a.data(), b.data(), expected.data(), m, k, n);
    double largest = 0;
    for (int y = 0; y < m; y++) {
        for (int x = 0; x < n; x++) {
            float e = expected[(size_t)y * n + x];
            float got = out(x, y);
            double err = std::fabs((double)got - e) / std::max(1.0, std::fabs((double)e));
            ASSERT_LE(err, 1e-5) << "at " << x << ", " << y << ": " << got << " vs " << e;
            largest = std::max(largest, (double)std::fabs(e));
        }
    }
    // Not vacuous: the products are far from zero somewhere.
    EXPECT_GT(largest, 1.0);
}

} // namespace

TEST(MatmulApp, UnscheduledMatchesReference) {
    MatmulPipeline p;
    p.schedule_default();
    check_against_reference(p, 23, 37, 41);
}

TEST(MatmulApp, CpuScheduleMatchesReference) {
    // A whole number of 128 x 64 tiles.
    MatmulPipeline p;
    p.schedule_cpu();
    check_against_reference(p, 128, 64, 256);
}

TEST(MatmulApp, CpuScheduleRaggedSizes) {
    // Neither dimension a multiple of the tile (the last tiles shift inwards) and an odd k.
    MatmulPipeline p;
    p.schedule_cpu();
    check_against_reference(p, 72, 45, 160);
}

TEST(MatmulApp, CpuScheduleLoopNest) {
    MatmulPipeline p;
    p.schedule_cpu();
    std::string nest = loop_nest_of(p.output);
    // Tiles in parallel; per register block, prod's zero fill and its k loop with the block
    // (rows unrolled, columns unrolled vectors) inside k; then the block's copy to the output.
    std::vector<std::string> in_order = {"produce matmul:",
                                         "parallel x.xo.tile:",
                                         "for y.yi.yb in [0, 7]:",
                                         "for x.xi.xb in [0, 3]:",
                                         "produce prod:",
                                         "unrolled y:",
                                         "unrolled x.",
                                         "vectorized x.",
                                         "for k:",
                                         "unrolled y:",
                                         "unrolled x.",
                                         "vectorized x.",
                                         "consume prod:",
                                         "unrolled y.yi.yv in [0, 7]:",
                                         "unrolled x.xi.xv.xv in [0, 1]:",
                                         "vectorized x.xi.xv."};
    ASSERT_TRUE(appears_in_order(nest, in_order));
}
