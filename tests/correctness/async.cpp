// Func::async beyond what tests/compat/halide_async.cpp checks against Halide: the producer
// really runs on another thread than its consumer; a producer that waits for its consumer
// (folded storage, a one-copy ring buffer) finishes with one thread in the pool; a failure on
// either side stops the other instead of leaving it waiting, and the next realize works; a
// Func both sides read is computed by each; the schedules async cannot express are
// CompileErrors naming the Func.
#include <loom/loom.h>

#include "common/expect_error.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>

using namespace loom;
using loom_test::expect_error;

namespace {

struct ThreadCount {
    explicit ThreadCount(int n) { halide_set_num_threads(n); }
    ~ThreadCount() { halide_set_num_threads(0); }
};

std::atomic<int> producer_calls{0}, consumer_calls{0}, same_thread{0};
std::atomic<std::thread::id> consumer_thread;

} // namespace

extern "C" int32_t async_test_consumer(int32_t v) {
    consumer_thread = std::this_thread::get_id();
    consumer_calls++;
    return v;
}
HalideExtern_1(int32_t, async_test_consumer, int32_t);

extern "C" int32_t async_test_producer(int32_t v) {
    producer_calls++;
    if (consumer_thread.load() == std::this_thread::get_id()) same_thread++;
    return v;
}
HalideExtern_1(int32_t, async_test_producer, int32_t);

namespace {

/// c(x, y) = p(x, y) + p(x, y + 1), p counting its calls and c recording its thread.
struct Counted {
    Var x{"x"}, y{"y"};
    Func p{"p"}, c{"c"};
    Counted() {
        p(x, y) = async_test_producer(x + y);
        c(x, y) = async_test_consumer(p(x, y) + p(x, y + 1));
    }
    void run_and_check(int w, int h) {
        producer_calls = consumer_calls = same_thread = 0;
        consumer_thread = std::thread::id();
        Buffer<int> r = c.realize({w, h});
        for (int j = 0; j < h; j++) {
            for (int i = 0; i < w; i++) ASSERT_EQ(r(i, j), 2 * (i + j) + 1);
        }
    }
};

} // namespace

TEST(Async, ProducerRunsOnAnotherThreadThanItsConsumer) {
    for (int threads : {1, 4}) {
        ThreadCount t(threads);
        Counted k;
        k.p.compute_at(k.c, k.y).store_root().async();
        k.run_and_check(8, 32);
        EXPECT_EQ(producer_calls, 8 * 33) << threads << " threads"; // the sliding window
        EXPECT_EQ(consumer_calls, 8 * 32);
        EXPECT_EQ(same_thread, 0) << threads << " threads";
    }
}

TEST(Async, ProducerWaitingForItsConsumerFinishesOnOneThread) {
    ThreadCount t(1);
    for (int schedule = 0; schedule < 3; schedule++) {
        Counted k;
        if (schedule == 0) k.p.compute_at(k.c, k.y).store_root().fold_storage(k.y, 2).async();
        if (schedule == 1) k.p.compute_at(k.c, k.y).hoist_storage_root().ring_buffer(1).async();
        if (schedule == 2) {
            // Stored per strip of four rows: a fork per strip, each folding its rows.
            Var yo("yo"), yi("yi");
            k.c.split(k.y, yo, yi, 4);
            k.p.compute_at(k.c, yi).store_at(k.c, yo).fold_storage(k.y, 2).async();
        }
        k.run_and_check(5, 40);
        EXPECT_EQ(consumer_calls, 5 * 40) << schedule;
    }
}

TEST(Async, FailureInTheProducerStopsTheConsumer) {
    Var x("x"), y("y");
    Param<int> last_row("last_row");
    Func p("p"), c("c");
    p(x, y) = require(y <= last_row, x + y, "async producer row", y);
    c(x, y) = p(x, y) + p(x, y + 1);
    p.compute_at(c, y).store_root().fold_storage(y, 2).async();
    last_row.set(20);
    loom_test::expect_error<RuntimeError>([&] { c.realize({4, 30}); }, {"async producer row"});
    // Nothing is left waiting: the next realizations work.
    last_row.set(100);
    for (int run = 0; run < 2; run++) {
        Buffer<int> r = c.realize({4, 30});
        for (int j = 0; j < 30; j++) {
            for (int i = 0; i < 4; i++) ASSERT_EQ(r(i, j), 2 * (i + j) + 1);
        }
    }
}

TEST(Async, FailureInTheConsumerStopsAWaitingProducer) {
    // With a two-row fold the producer waits for the consumer after two rows; the consumer
    // fails at row 5.
    Var x("x"), y("y");
    Param<int> last_row("last_row");
    Func p("p"), c("c");
    p(x, y) = x * y;
    c(x, y) = require(y <= last_row, p(x, y) + p(x, y + 1), "async consumer row", y);
    p.compute_at(c, y).store_root().fold_storage(y, 2).async();
    last_row.set(5);
    for (int threads : {1, 3}) {
        ThreadCount t(threads);
        loom_test::expect_error<RuntimeError>([&] { c.realize({4, 30}); }, {"async consumer row"});
    }
    last_row.set(100);
    Buffer<int> r = c.realize({4, 30});
    for (int j = 0; j < 30; j++) {
        for (int i = 0; i < 4; i++) ASSERT_EQ(r(i, j), i * j + i * (j + 1));
    }
}

TEST(Async, ManyForksAtOnce) {
    // A fork per row of a parallel loop, each a fold that makes the producer wait: every fork
    // needs its own thread for the producer while the pool's threads run consumers.
    Var x("x"), y("y"), z("z");
    Func p("p"), c("c");
    p(x, y, z) = x + y * 3 + z * 7;
    c(x, y, z) = p(x, y, z) + p(x, y + 1, z);
    c.parallel(z);
    p.compute_at(c, y).store_at(c, z).fold_storage(y, 2).async();
    Buffer<int> r = c.realize({6, 20, 32});
    for (int k = 0; k < 32; k++) {
        for (int j = 0; j < 20; j++) {
            for (int i = 0; i < 6; i++) ASSERT_EQ(r(i, j, k), 2 * (i + j * 3 + k * 7) + 3);
        }
    }
}

TEST(Async, ProducerReadsAFuncComputedBesideIt) {
    // h is computed at o's rows, like f, and both f and o read it: the producer's task and the
    // consumer's each compute their own h. (A Loom extension: Halide 21 refuses a Func read by
    // an async Func and computed between its store and compute levels unless it is async too.)
    Var x("x"), y("y");
    Func h("h"), f("f"), o("o");
    h(x, y) = x * y + 1;
    f(x, y) = h(x, y) + h(x + 1, y);
    o(x, y) = f(x, y - 1) + f(x, y + 1) + h(x, y);
    h.compute_at(o, y);
    f.compute_at(o, y).store_root().async();
    auto hv = [](int i, int j) { return i * j + 1; };
    auto fv = [&](int i, int j) { return hv(i, j) + hv(i + 1, j); };
    const int W = 67, H = 45;
    Buffer<int> r = o.realize({W, H});
    for (int j = 0; j < H; j++) {
        for (int i = 0; i < W; i++) ASSERT_EQ(r(i, j), fv(i, j - 1) + fv(i, j + 1) + hv(i, j));
    }
}

TEST(Async, RingBufferExtentFromAParam) {
    // A run-time extent: any positive one gives the unscheduled values, zero is refused.
    Var x("x"), y("y");
    Param<int> copies("copies");
    Func p("p"), c("c");
    p(x, y) = x * 3 + y;
    c(x, y) = p(x, y) + p(x, y + 1);
    p.compute_at(c, y).hoist_storage_root().ring_buffer(copies).async();
    for (int n : {1, 3}) {
        copies.set(n);
        Buffer<int> r = c.realize({5, 12});
        for (int j = 0; j < 12; j++) {
            for (int i = 0; i < 5; i++) ASSERT_EQ(r(i, j), 6 * i + 2 * j + 1) << n;
        }
    }
    copies.set(0);
    loom_test::expect_error<RuntimeError>([&] { c.realize({5, 12}); }, {"p", "ring_buffer"});
}

TEST(AsyncErrors, RingBufferNeedsAPositiveExtent) {
    expect_error(
        [] {
            Func f("f");
            Var x("x");
            f(x) = x;
            f.ring_buffer(0);
        },
        {"f", "ring_buffer(0)", "positive"});
}

TEST(AsyncErrors, RingBufferNeedsHoistedStorage) {
    expect_error(
        [] {
            Func f("f"), g("g");
            Var x("x"), y("y");
            f(x, y) = x + y;
            g(x, y) = f(x, y);
            f.compute_at(g, y).ring_buffer(2).async();
            g.realize({4, 4});
        },
        {"f", "ring_buffer()", "hoist_storage"});
}

TEST(AsyncErrors, StoredOutsideAParallelLoopItIsComputedIn) {
    expect_error(
        [] {
            Func f("f"), g("g");
            Var x("x"), y("y");
            f(x, y) = x + y;
            g(x, y) = f(x, y) + f(x, y + 1);
            g.parallel(y);
            f.compute_at(g, y).store_root().async();
            g.realize({4, 4});
        },
        {"f", "async", "parallel", "store_at"});
}

TEST(AsyncErrors, ProducerInputStoredOutsideItsStorageAndReadByBothSides) {
    expect_error(
        [] {
            Func h("h"), f("f"), o("o");
            Var x("x"), y("y");
            h(x, y) = x * y;
            f(x, y) = h(x, y) + 1;
            o(x, y) = f(x, y) + h(x, y - 1);
            h.compute_at(o, y).store_root();
            f.compute_at(o, y).store_root().async();
            o.realize({4, 4});
        },
        {"h", "async Func f", "same storage"});
}
