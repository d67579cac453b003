// Skip stages: a producer whose consumer uses it only under a condition is computed only when
// the condition holds (built against Loom and, as compat_halide_skip_stages_halide, against
// Halide 21, so the call counts are Halide's). Counting extern calls show which stages ran;
// every output is checked against naive C++ whatever was skipped.
#include "Halide.h"

#include <gtest/gtest.h>

#include <atomic>

using namespace Halide;

namespace {

std::atomic<int> calls[4];

void reset_counts() {
    for (auto &c : calls) c = 0;
}

} // namespace

// Counts each evaluation, per counter id, and returns x.
extern "C" HALIDE_EXPORT_SYMBOL int32_t loomtest_skip_count(int32_t id, int32_t x) {
    calls[id]++;
    return x;
}
HalideExtern_2(int32_t, loomtest_skip_count, int32_t, int32_t);

TEST(SkipStages, RootProducersOfASelectOnAParam) {
    Var x("x"), y("y");
    Param<bool> p("p");
    Func a("a"), b("b"), out("out");
    a(x, y) = loomtest_skip_count(0, x + y);
    b(x, y) = loomtest_skip_count(1, x * y);
    out(x, y) = select(p, a(x, y), b(x, y));
    a.compute_root();
    b.compute_root();
    for (bool value : {true, false}) {
        p.set(value);
        reset_counts();
        Buffer<int> r = out.realize({10, 8});
        EXPECT_EQ(calls[0], value ? 80 : 0);
        EXPECT_EQ(calls[1], value ? 0 : 80);
        for (int j = 0; j < 8; j++) {
            for (int i = 0; i < 10; i++) ASSERT_EQ(r(i, j), value ? i + j : i * j);
        }
    }
}

TEST(SkipStages, PerRowProducersOfASelectOnTheRow) {
    Var x("x"), y("y");
    Func c("c"), d("d"), out("out");
    c(x, y) = loomtest_skip_count(0, x + y);
    d(x, y) = loomtest_skip_count(1, x - y);
    out(x, y) = select(y < 5, c(x, y), d(x, y));
    c.compute_at(out, y);
    d.compute_at(out, y);
    reset_counts();
    Buffer<int> r = out.realize({10, 10});
    EXPECT_EQ(calls[0], 50);
    EXPECT_EQ(calls[1], 50);
    for (int j = 0; j < 10; j++) {
        for (int i = 0; i < 10; i++) ASSERT_EQ(r(i, j), j < 5 ? i + j : i - j);
    }
}

TEST(SkipStages, PerRowProducerWithHoistedStorage) {
    // hoist_storage moves only the allocation: each row still computes c only where it is used.
    Var x("x"), y("y");
    Func c("c"), d("d"), out("out");
    c(x, y) = loomtest_skip_count(0, x + y);
    d(x, y) = x - y;
    out(x, y) = select(y < 5, c(x, y), d(x, y));
    c.compute_at(out, y).hoist_storage_root();
    d.compute_at(out, y);
    reset_counts();
    Buffer<int> r = out.realize({10, 10});
    EXPECT_EQ(calls[0], 50);
    for (int j = 0; j < 10; j++) {
        for (int i = 0; i < 10; i++) ASSERT_EQ(r(i, j), j < 5 ? i + j : i - j);
    }
}

TEST(SkipStages, ConditionOnAnInnerLoopHoldsForSomeIteration) {
    // c is needed in row y when x < 3 - y for some x in [0, 9], i.e. when y < 3, and then only
    // for x < 3 - y (bounds inference narrows each branch's region by its condition), as in
    // Halide: 3 + 2 + 1 values of c, and 7 + 8 + 9 + 3 * 10 of d.
    Var x("x"), y("y");
    Func c("c"), d("d"), out("out");
    c(x, y) = loomtest_skip_count(0, 2 * x);
    d(x, y) = loomtest_skip_count(1, 3 * y);
    out(x, y) = select(x < 3 - y, c(x, y), d(x, y));
    c.compute_at(out, y);
    d.compute_at(out, y);
    reset_counts();
    Buffer<int> r = out.realize({10, 6});
    EXPECT_EQ(calls[0], 6);
    EXPECT_EQ(calls[1], 54);
    for (int j = 0; j < 6; j++) {
        for (int i = 0; i < 10; i++) ASSERT_EQ(r(i, j), i + j < 3 ? 2 * i : 3 * j);
    }
}

TEST(SkipStages, ProducerOfASkippedProducerIsSkipped) {
    Var x("x");
    Param<int> mode("mode");
    Func a("a"), b("b"), out("out");
    a(x) = loomtest_skip_count(0, x);
    b(x) = a(x) * 2 + loomtest_skip_count(1, x) - x + 1;
    out(x) = select(mode == 1, b(x), -x);
    a.compute_root();
    b.compute_root();
    for (int m : {0, 1}) {
        mode.set(m);
        reset_counts();
        Buffer<int> r = out.realize({16});
        EXPECT_EQ(calls[0], m == 1 ? 16 : 0);
        EXPECT_EQ(calls[1], m == 1 ? 16 : 0);
        for (int i = 0; i < 16; i++) ASSERT_EQ(r(i), m == 1 ? 2 * i + 1 : -i);
    }
}

TEST(SkipStages, ConditionThatReadsAFuncComputesAlways) {
    // Whether a is used depends on g's values, unknown where a is produced.
    Var x("x");
    Func a("a"), g("g"), out("out");
    a(x) = loomtest_skip_count(0, x * 5);
    g(x) = x % 3;
    out(x) = select(g(x) == 0, a(x), 7);
    a.compute_root();
    g.compute_root();
    reset_counts();
    Buffer<int> r = out.realize({12});
    EXPECT_EQ(calls[0], 12);
    for (int i = 0; i < 12; i++) ASSERT_EQ(r(i), i % 3 == 0 ? i * 5 : 7);
}

TEST(SkipStages, SlidingAndMemoizedProducersStayCorrect) {
    // Skipping a sliding window's iteration would lose rows later iterations reuse, and a
    // memoized Func's cache must hold computed values: neither is skipped, both stay right.
    Var x("x"), y("y");
    Func slide("slide"), out("out");
    slide(x, y) = loomtest_skip_count(0, x + 10 * y);
    out(x, y) = select(y % 2 == 0, slide(x, y - 1) + slide(x, y + 1), 0);
    slide.store_root().compute_at(out, y);
    reset_counts();
    Buffer<int> r = out.realize({4, 9});
    EXPECT_EQ(calls[0], 4 * 11); // rows -1 to 9, each once
    for (int j = 0; j < 9; j++) {
        for (int i = 0; i < 4; i++) {
            ASSERT_EQ(r(i, j), j % 2 == 0 ? 2 * i + 10 * (j - 1) + 10 * (j + 1) : 0);
        }
    }

    Param<bool> p("p");
    Func m("m"), out2("out2");
    m(x) = loomtest_skip_count(1, x * x);
    out2(x) = select(p, m(x), 1);
    m.compute_root().memoize();
    for (bool value : {false, true, true}) {
        p.set(value);
        Buffer<int> r2 = out2.realize({8});
        for (int i = 0; i < 8; i++) ASSERT_EQ(r2(i), value ? i * i : 1);
    }
}

TEST(SkipStages, ProducerReadByAnUpdateUnderACondition) {
    Var x("x");
    RDom r(0, 10, "r");
    Param<int> k("k");
    Func a("a"), sum("sum");
    a(x) = loomtest_skip_count(0, x + 1);
    sum(x) = 0;
    sum(x) += select(k > 0, a(r), 0) + x;
    a.compute_root();
    for (int kv : {0, 3}) {
        k.set(kv);
        reset_counts();
        Buffer<int> out = sum.realize({3});
        EXPECT_EQ(calls[0], kv > 0 ? 10 : 0);
        for (int i = 0; i < 3; i++) ASSERT_EQ(out(i), (kv > 0 ? 55 : 0) + 10 * i);
    }
}

TEST(SkipStages, PerElementConditionOfAScatterUpdate) {
    // The select's condition differs between the two stores: a is computed (once per point).
    Var x("x");
    Func a("a"), g("g");
    a(x) = loomtest_skip_count(0, x * 10);
    a.compute_root();
    g(x) = x;
    g(scatter(1, 2)) = select(gather(1, 2) > 1, a(gather(3, 4)), 0);
    reset_counts();
    Buffer<int> r = g.realize({5});
    EXPECT_EQ(calls[0], 2);
    for (int i = 0; i < 5; i++) EXPECT_EQ(r(i), i == 1 ? 0 : i == 2 ? 40 : i) << i;
}
