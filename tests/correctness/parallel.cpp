// Parallel loops on the runtime's thread pool: results equal the serial pipeline for any thread
// count, nested parallel loops, many more tasks than threads, iterations really running on
// several threads at once, a failing task, and the replaceable do_par_for/do_task handlers.
#include <loom/loom.h>

#include "common/expect_error.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

using namespace loom;

namespace {

int32_t reference(int x, int y) {
    int32_t p0 = (x * 5 + y * 11) ^ (x >> 1), p1 = ((x + 1) * 5 + y * 11) ^ ((x + 1) >> 1);
    return p0 * 3 + p1 - y;
}

/// A stencil over a compute_root producer (so the tasks use an allocation of the caller), with
/// `schedule` applied to the consumer.
Buffer<int32_t> run(void (*schedule)(Func &, Var &, Var &), int w, int h) {
    Var x("x"), y("y");
    Func p("par_producer"), c("par_consumer");
    p(x, y) = (x * 5 + y * 11) ^ (x >> 1);
    p.compute_root().parallel(y);
    c(x, y) = p(x, y) * 3 + p(x + 1, y) - y;
    schedule(c, x, y);
    return c.realize({w, h});
}

void check(const Buffer<int32_t> &out) {
    for (int y = 0; y < out.height(); y++) {
        for (int x = 0; x < out.width(); x++) {
            ASSERT_EQ(out(x, y), reference(x, y)) << x << ", " << y;
        }
    }
}

/// Restores the default thread count after a test changes it.
struct ThreadCount {
    explicit ThreadCount(int n) { halide_set_num_threads(n); }
    ~ThreadCount() { halide_set_num_threads(0); }
};

} // namespace

TEST(Parallel, SameResultForEveryThreadCount) {
    for (int threads : {1, 2, 3, 8}) {
        ThreadCount tc(threads);
        SCOPED_TRACE(threads);
        check(run([](Func &c, Var &, Var &y) { c.parallel(y); }, 37, 29));
        check(run([](Func &c, Var &, Var &y) { c.parallel(y, 4); }, 37, 29));
    }
}

TEST(Parallel, NestedParallelLoops) {
    ThreadCount tc(4);
    check(run([](Func &c, Var &x,
                 Var &y) { c.split(x, Var("xo"), Var("xi"), 8).parallel(Var("xo")).parallel(y); },
              61, 23));
}

TEST(Parallel, ManyMoreTasksThanThreads) {
    ThreadCount tc(3);
    check(run([](Func &c, Var &, Var &y) { c.parallel(y); }, 3, 5000));
}

TEST(Parallel, TasksRunOnSeveralThreadsAtOnce) {
    // The first task waits (up to 10 s) until a task runs on another thread: this passes only if
    // two threads run iterations of the same loop concurrently.
    ThreadCount tc(4);
    static std::mutex mutex;
    static std::set<std::thread::id> threads;
    static std::atomic<bool> other_started{false};
    static std::thread::id first;
    threads.clear();
    other_started = false;
    first = std::thread::id();
    halide_do_task_t old =
        halide_set_custom_do_task([](void *uc, halide_task_t f, int idx, uint8_t *closure) -> int {
            bool is_first;
            {
                std::lock_guard<std::mutex> lock(mutex);
                is_first = threads.empty();
                if (is_first) first = std::this_thread::get_id();
                if (!is_first && std::this_thread::get_id() != first) other_started = true;
                threads.insert(std::this_thread::get_id());
            }
            if (is_first) {
                auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
                while (!other_started && std::chrono::steady_clock::now() < deadline) {
                    std::this_thread::yield();
                }
            }
            return halide_default_do_task(uc, f, idx, closure);
        });
    Buffer<int32_t> out = run([](Func &c, Var &, Var &y) { c.parallel(y); }, 16, 64);
    halide_set_custom_do_task(old);
    check(out);
    EXPECT_TRUE(other_started.load());
    EXPECT_GE(threads.size(), 2u);
}

TEST(Parallel, AFailingTaskFailsThePipeline) {
    ThreadCount tc(4);
    Var x("x"), y("y");
    Func f("par_fail");
    // Rows 40 and above fail their requirement, in several tasks at once.
    f(x, y) = require(y < 40, x + y, "row", y, "is out of range");
    f.parallel(y);
    loom_test::expect_error<RuntimeError>(
        [&] {
            f.realize({8, 64});
        },
        {"Requirement Failed", "is out of range"});
    // The pool still works afterwards.
    Buffer<int32_t> ok = f.realize({8, 40});
    for (int j = 0; j < 40; j++)
        for (int i = 0; i < 8; i++) ASSERT_EQ(ok(i, j), i + j);
}

TEST(Parallel, CustomDoParFor) {
    static int calls;
    static int iterations;
    calls = iterations = 0;
    halide_do_par_for_t old = halide_set_custom_do_par_for(
        [](void *uc, halide_task_t f, int min, int size, uint8_t *closure) -> int {
            calls++;
            for (int i = min; i < min + size; i++) {
                iterations++;
                if (int r = f(uc, i, closure)) return r;
            }
            return 0;
        });
    Buffer<int32_t> out = run([](Func &c, Var &, Var &y) { c.parallel(y); }, 10, 12);
    halide_set_custom_do_par_for(old);
    check(out);
    // The producer's parallel loop and the consumer's: 12 rows each.
    EXPECT_EQ(calls, 2);
    EXPECT_EQ(iterations, 24);
}
