// memoize(): a compute_root Func's values are cached across realizations. A counting extern
// call proves that a second realize with the same Param values and region does not recompute,
// that a changed Param, a larger region or an eviction does; the results always equal the
// direct computation. The lowered statement shows the cache lookup around the production.
#include <loom/loom.h>

#include "common/expect_error.h"
#include "common/lowered_text.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace loom;

namespace {
std::atomic<int> calls{0};
} // namespace

// Not exported: the pipelines get it through set_jit_externs.
extern "C" int32_t loomtest_memo_count(int32_t x) {
    calls++;
    return x * 3;
}

HalideExtern_1(int32_t, loomtest_memo_count, int32_t);

namespace {

/// A pipeline for `out` that finds loomtest_memo_count.
Pipeline pipeline(Func out) {
    Pipeline p(out);
    std::map<std::string, JITExtern> externs;
    externs.emplace("loomtest_memo_count", JITExtern((int32_t(*)(int32_t))loomtest_memo_count));
    p.set_jit_externs(externs);
    return p;
}

} // namespace

TEST(Memoize, SecondRealizeHitsTheCache) {
    halide_memoization_cache_cleanup();
    Param<int32_t> k("memo_k");
    Var x("x");
    Func expensive("memo_expensive"), out("memo_out");
    expensive(x) = loomtest_memo_count(x) + k;
    out(x) = expensive(x) * 2;
    expensive.compute_root().memoize();
    Pipeline p = pipeline(out);

    k.set(5);
    calls = 0;
    Buffer<int32_t> a = p.realize({10});
    EXPECT_EQ(calls, 10);
    for (int i = 0; i < 10; i++) EXPECT_EQ(a(i), (i * 3 + 5) * 2) << i;

    calls = 0;
    Buffer<int32_t> b = p.realize({10});
    EXPECT_EQ(calls, 0) << "same Param, same region: served from the cache";
    for (int i = 0; i < 10; i++) EXPECT_EQ(b(i), (i * 3 + 5) * 2) << i;

    k.set(7);
    calls = 0;
    Buffer<int32_t> c = p.realize({10});
    EXPECT_EQ(calls, 10) << "a changed Param recomputes";
    for (int i = 0; i < 10; i++) EXPECT_EQ(c(i), (i * 3 + 7) * 2) << i;

    k.set(5);
    calls = 0;
    p.realize({10});
    EXPECT_EQ(calls, 0) << "the entry for k = 5 is still there";

    calls = 0;
    Buffer<int32_t> d = p.realize({12});
    EXPECT_EQ(calls, 12) << "another region is another key";
    for (int i = 0; i < 12; i++) EXPECT_EQ(d(i), (i * 3 + 5) * 2) << i;

    halide_memoization_cache_cleanup();
    calls = 0;
    p.realize({10});
    EXPECT_EQ(calls, 10) << "cleanup empties the cache";

    std::string s = lowered(out, {k});
    EXPECT_NE(s.find("halide_memoization_cache_lookup"), std::string::npos) << s;
    EXPECT_NE(s.find("halide_memoization_cache_store"), std::string::npos) << s;
}

TEST(Memoize, TupleAndEvictionKey) {
    halide_memoization_cache_cleanup();
    Var x("x"), y("y");
    Func t("memo_tuple"), out("memo_tuple_out");
    t(x, y) = Tuple(loomtest_memo_count(x + y), cast<float>(x) * 0.5f);
    out(x, y) = t(x, y)[0] + cast<int>(t(x, y)[1]);
    t.compute_root().memoize(EvictionKey(Expr(42)));
    Pipeline p = pipeline(out);
    calls = 0;
    Buffer<int32_t> a = p.realize({6, 4});
    EXPECT_EQ(calls, 24);
    calls = 0;
    Buffer<int32_t> b = p.realize({6, 4});
    EXPECT_EQ(calls, 0);
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 6; i++) EXPECT_EQ(b(i, j), (i + j) * 3 + i / 2) << i << "," << j;
    }
    halide_memoization_cache_evict(nullptr, 41);
    calls = 0;
    p.realize({6, 4});
    EXPECT_EQ(calls, 0) << "another eviction key leaves the entry";
    halide_memoization_cache_evict(nullptr, 42);
    calls = 0;
    p.realize({6, 4});
    EXPECT_EQ(calls, 24) << "evicted";
}

TEST(Memoize, SmallCacheStillCorrect) {
    halide_memoization_cache_cleanup();
    halide_memoization_cache_set_size(64); // smaller than one entry: nothing stays
    Var x("x");
    Func e("memo_small"), out("memo_small_out");
    e(x) = loomtest_memo_count(x);
    out(x) = e(x) + 1;
    e.compute_root().memoize();
    Pipeline p = pipeline(out);
    for (int rep = 0; rep < 2; rep++) {
        calls = 0;
        Buffer<int32_t> r = p.realize({100});
        EXPECT_EQ(calls, 100);
        for (int i = 0; i < 100; i++) EXPECT_EQ(r(i), i * 3 + 1);
    }
    halide_memoization_cache_set_size(0); // back to the default
    halide_memoization_cache_cleanup();
}

TEST(Memoize, Errors) {
    Var x("x");
    Func e("memo_inline"), out("memo_inline_out");
    e(x) = x;
    out(x) = e(x);
    e.memoize();
    loom_test::expect_error([&] { out.realize({4}); },
                            {"memo_inline", "not computed at the root", "compute_root"});
    Func o("memo_output");
    o(x) = x;
    o.memoize();
    loom_test::expect_error([&] { o.realize({4}); }, {"memo_output", "output"});
}
