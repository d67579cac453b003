// Heap buffers are freed after their last use (inject_early_frees), so a chain of root stages
// holds two intermediate buffers at a time, not all of them. Checked through the pipeline's
// custom allocator (the live bytes at their peak) and against a naive reference.
#include <loom/loom.h>

#include "common/heap_tracking.h"
#include "common/lowered_text.h"

#include <gtest/gtest.h>

#include <cstdint>

using namespace loom;

TEST(EarlyFrees, ChainOfRootStagesHoldsTwoBuffersAtATime) {
    const int n = 6, w = 256, h = 128;
    Var x("x"), y("y");
    std::vector<Func> stages;
    Func first("stage0");
    first(x, y) = x + 3 * y;
    stages.push_back(first);
    for (int k = 1; k <= n; k++) {
        Func f("stage" + std::to_string(k));
        f(x, y) = stages.back()(x, y) * 2 + k;
        stages.push_back(f);
    }
    for (int k = 0; k < n; k++) stages[k].compute_root();
    Func out = stages.back();
    std::string text = lowered(out);
    EXPECT_NE(text.find("free stage0"), std::string::npos) << text;

    HeapTracking::install(out);
    Buffer<int32_t> result = out.realize({w, h});
    EXPECT_EQ(HeapTracking::live, 0u);
    // Each intermediate is w x h int32; at most a producer and its consumer are live.
    const size_t one = (size_t)w * h * sizeof(int32_t);
    EXPECT_GE(HeapTracking::peak, 2 * one);
    EXPECT_LT(HeapTracking::peak, 3 * one)
        << "peak " << HeapTracking::peak << " bytes, one stage " << one;
    for (int yy = 0; yy < h; yy++)
        for (int xx = 0; xx < w; xx++) {
            int64_t v = xx + 3 * yy;
            for (int k = 1; k <= n; k++) v = v * 2 + k;
            ASSERT_EQ(result(xx, yy), (int32_t)v) << "at " << xx << ", " << yy;
        }
}

TEST(EarlyFrees, BufferReadByTwoLaterStagesLivesUntilTheLast) {
    // a is read by b and by c (after b): it must survive b.
    Var x("x");
    Func a("a"), b("b"), c("c");
    a(x) = x * 7;
    b(x) = a(x) + 1;
    c(x) = b(x) + a(x + 1);
    a.compute_root();
    b.compute_root();
    Buffer<int32_t> r = c.realize({1000});
    for (int i = 0; i < 1000; i++) ASSERT_EQ(r(i), i * 7 + 1 + (i + 1) * 7);
}
