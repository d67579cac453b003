// The runtime's thread pool under load (tests/correctness/parallel.cpp covers the basics):
// three nested levels of parallel loops, 1e5 tasks on 1, 2 and 8 threads chosen through
// LOOM_NUM_THREADS, tasks of very unequal cost, a failure in one task of a nested loop (require
// and an extern stage) followed by working realizations, and JITHandlers hooks that see every
// task of nested loops.
#include <loom/loom.h>

#include "common/expect_error.h"
#include "common/scoped_env.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <memory>
#include <vector>

using namespace loom;

namespace {

/// Sets the thread count for a test and restores the default afterwards.
struct ThreadCount {
    explicit ThreadCount(int n) { halide_set_num_threads(n); }
    ~ThreadCount() { halide_set_num_threads(0); }
};

int32_t cube_value(int x, int y, int z) { return (x * 31 + y * 17 + z * 7) ^ (x * y); }

/// The C function behind tp_uneven_work(Expr): a cost that varies by a factor of ~50 between
/// iterations; returns x * 3 + 1.
extern "C" int32_t tp_uneven_work_impl(int32_t x) {
    volatile int32_t sink = 0;
    int n = ((x * 7) % 11) * ((x * 7) % 11) * 200 + 10;
    for (int i = 0; i < n; i++) sink = sink + i;
    return x * 3 + 1 + (sink & 0); // the spin has no effect on the value
}

int tp_failing_row = -1;

/// An extern stage filling its output with x + 10 * y, failing for the row tp_failing_row.
extern "C" int tp_rows_or_fail(halide_buffer_t *out) {
    if (!out->host) return 0; // bounds query: no inputs to describe
    const halide_dimension_t &dx = out->dim[0], &dy = out->dim[1];
    if (tp_failing_row >= dy.min && tp_failing_row < dy.min + dy.extent) return -17;
    for (int y = dy.min; y < dy.min + dy.extent; y++) {
        for (int x = dx.min; x < dx.min + dx.extent; x++) {
            ((int32_t *)out->host)[(x - dx.min) * dx.stride + (y - dy.min) * dy.stride] =
                x + 10 * y;
        }
    }
    return 0;
}

} // namespace

HalideExtern_1(int32_t, tp_uneven_work, int32_t);

TEST(ThreadPool, ThreeNestedParallelLevels) {
    Var x("x"), y("y"), z("z");
    Func p("tp_nest_producer"), f("tp_nest");
    p(x, y, z) = cube_value(0, 0, 0) * 0 + ((x * 31 + y * 17 + z * 7) ^ (x * y));
    f(x, y, z) = p(x, y, z) * 2 - p(x + 1, y, z);
    // z, y and x.xo are parallel loops nested in one another; the producer is computed per
    // row inside the two outer ones, with its own parallel loop over x (a fourth level).
    Var xo("xo"), xi("xi");
    f.split(x, xo, xi, 4, TailStrategy::GuardWithIf).parallel(z).parallel(y).parallel(xo);
    p.compute_at(f, y).parallel(x);
    for (int threads : {1, 2, 8}) {
        ThreadCount tc(threads);
        SCOPED_TRACE(threads);
        Buffer<int32_t> out = f.realize({23, 9, 5});
        for (int k = 0; k < 5; k++)
            for (int j = 0; j < 9; j++)
                for (int i = 0; i < 23; i++)
                    ASSERT_EQ(out(i, j, k), cube_value(i, j, k) * 2 - cube_value(i + 1, j, k))
                        << i << ", " << j << ", " << k;
    }
}

TEST(ThreadPool, HundredThousandTasksOnOneTwoAndEightThreads) {
    Var x("x");
    Func f("tp_many");
    f(x) = (x * 7919) % 1009 + (x >> 3);
    f.parallel(x);
    static std::atomic<int> tasks;
    for (const char *threads : {"1", "2", "8"}) {
        SCOPED_TRACE(threads);
        loom_test::ScopedEnv env("LOOM_NUM_THREADS", threads);
        halide_set_num_threads(0); // re-read the environment
        EXPECT_EQ(halide_set_num_threads(0), atoi(threads));
        tasks = 0;
        JITUserContext ctx;
        ctx.handlers.custom_do_task = [](JITUserContext *uc,
                                         int (*t)(JITUserContext *, int, uint8_t *), int idx,
                                         uint8_t *closure) -> int {
            tasks++;
            return t(uc, idx, closure);
        };
        Buffer<int32_t> out = f.realize(&ctx, {100000});
        EXPECT_EQ(tasks.load(), 100000);
        for (int i = 0; i < 100000; i++) ASSERT_EQ(out(i), (i * 7919) % 1009 + (i >> 3)) << i;
    }
    halide_set_num_threads(0);
}

TEST(ThreadPool, EnvironmentChoosesTheThreadCount) {
    {
        loom_test::ScopedEnv hl("HL_NUM_THREADS", "5");
        halide_set_num_threads(0);
        EXPECT_EQ(halide_set_num_threads(0), 5);
        // LOOM_NUM_THREADS wins over HL_NUM_THREADS.
        loom_test::ScopedEnv loom_env("LOOM_NUM_THREADS", "3");
        halide_set_num_threads(0);
        EXPECT_EQ(halide_set_num_threads(0), 3);
    }
    halide_set_num_threads(0);
}

TEST(ThreadPool, TasksOfUnequalCostAllComplete) {
    ThreadCount tc(4);
    Var x("x");
    Func f("tp_uneven");
    f(x) = tp_uneven_work(x);
    f.parallel(x);
    f.pipeline().set_jit_externs({{"tp_uneven_work", JITExtern(&tp_uneven_work_impl)}});
    static std::vector<std::atomic<int>> *runs;
    std::vector<std::atomic<int>> counts(3000);
    runs = &counts;
    JITUserContext ctx;
    ctx.handlers.custom_do_task = [](JITUserContext *uc, int (*t)(JITUserContext *, int, uint8_t *),
                                     int idx, uint8_t *closure) -> int {
        (*runs)[idx]++;
        return t(uc, idx, closure);
    };
    Buffer<int32_t> out = f.realize(&ctx, {3000});
    for (int i = 0; i < 3000; i++) {
        ASSERT_EQ(counts[i].load(), 1) << "task " << i;
        ASSERT_EQ(out(i), i * 3 + 1) << i;
    }
}

TEST(ThreadPool, RequireFailingInOneTaskOfANestedLoop) {
    Var x("x"), y("y");
    Param<int> bad_x("bad_x"), bad_y("bad_y");
    Func f("tp_require");
    f(x, y) = require(x != bad_x || y != bad_y, x * 1000 + y, "task", x, y, "failed on purpose");
    Var xo("xo"), xi("xi");
    f.split(x, xo, xi, 8, TailStrategy::GuardWithIf).parallel(y).parallel(xo);
    for (int threads : {1, 3, 8}) {
        ThreadCount tc(threads);
        SCOPED_TRACE(threads);
        bad_x.set(37);
        bad_y.set(50);
        loom_test::expect_error<RuntimeError>(
            [&] {
                f.realize({64, 64});
            },
            {"Requirement Failed", "37 50 failed on purpose"});
        // The pool and the compiled pipeline still work afterwards.
        bad_x.set(-1);
        Buffer<int32_t> ok = f.realize({64, 64});
        for (int j = 0; j < 64; j++)
            for (int i = 0; i < 64; i++) ASSERT_EQ(ok(i, j), i * 1000 + j);
    }
}

TEST(ThreadPool, ExternStageFailingInOneTask) {
    ThreadCount tc(4);
    Var x("x"), y("y");
    Func e("tp_extern_rows"), g("tp_extern_consumer");
    e.define_extern("tp_rows_or_fail", {}, Int(32), 2);
    g(x, y) = e(x, y) + 1;
    e.compute_at(g, y);
    g.parallel(y);
    g.pipeline().set_jit_externs({{"tp_rows_or_fail", JITExtern(&tp_rows_or_fail)}});
    tp_failing_row = 21;
    loom_test::expect_error<RuntimeError>([&] { g.realize({16, 40}); }, {});
    tp_failing_row = -1;
    Buffer<int32_t> ok = g.realize({16, 40});
    for (int j = 0; j < 40; j++)
        for (int i = 0; i < 16; i++) ASSERT_EQ(ok(i, j), i + 10 * j + 1);
}

TEST(ThreadPool, JITHandlersSeeEveryTaskOfNestedLoops) {
    Var x("x"), y("y");
    Func f("tp_hooks");
    f(x, y) = x * 3 + y;
    f.parallel(y).parallel(x);
    static std::atomic<int> loops, tasks;
    static std::map<int, int> *per_index; // inner-loop iterations by index (hook is serial)
    std::map<int, int> seen;
    per_index = &seen;
    loops = tasks = 0;
    f.jit_handlers().custom_do_par_for = [](JITUserContext *uc,
                                            int (*t)(JITUserContext *, int, uint8_t *), int min,
                                            int size, uint8_t *closure) -> int {
        loops++;
        for (int i = min; i < min + size; i++) {
            tasks++;
            if (size == 13) (*per_index)[i]++;
            if (int r = t(uc, i, closure)) return r;
        }
        return 0;
    };
    Buffer<int32_t> out = f.realize({13, 7});
    f.jit_handlers().custom_do_par_for = nullptr;
    for (int j = 0; j < 7; j++)
        for (int i = 0; i < 13; i++) ASSERT_EQ(out(i, j), i * 3 + j);
    // One outer loop of 7 tasks, each running an inner loop of 13.
    EXPECT_EQ(loops.load(), 1 + 7);
    EXPECT_EQ(tasks.load(), 7 + 7 * 13);
    ASSERT_EQ(seen.size(), 13u);
    for (auto &kv : seen) EXPECT_EQ(kv.second, 7) << kv.first;
}
