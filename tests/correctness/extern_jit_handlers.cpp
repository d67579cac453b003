// Run-time hooks of JIT-compiled pipelines: JITHandlers set on a Func or Pipeline, or per call
// through a JITUserContext (which a handler can cast back to the caller's derived struct).
#include <loom/loom.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <string>
#include <vector>

using namespace loom;

namespace {

int mallocs = 0, frees = 0;
std::vector<std::string> printed;

void *counting_malloc(JITUserContext *, size_t size) {
    mallocs++;
    // 128-byte aligned, with slack after the end, like the default allocator.
    void *p = nullptr;
    if (posix_memalign(&p, 128, size + 128) != 0) return nullptr;
    return p;
}

void counting_free(JITUserContext *, void *p) {
    frees++;
    free(p);
}

void capture_print(JITUserContext *, const char *msg) { printed.push_back(msg); }

/// A caller's own context: the handlers find their state through it.
struct CountingContext : JITUserContext {
    int prints = 0;
    int errors = 0;
    std::string last_error;
};

void context_print(JITUserContext *ctx, const char *) {
    static_cast<CountingContext *>(ctx)->prints++;
}

void context_error(JITUserContext *ctx, const char *msg) {
    auto *c = static_cast<CountingContext *>(ctx);
    c->errors++;
    c->last_error = msg;
}

} // namespace

TEST(JITHandlers, CustomMallocAndFreeArePaired) {
    mallocs = frees = 0;
    Var x("x"), y("y");
    Func g("g"), f("f");
    g(x, y) = x * 3 + y;
    g.compute_root();
    f(x, y) = g(x, y) + g(x + 1, y);
    f.jit_handlers().custom_malloc = counting_malloc;
    f.jit_handlers().custom_free = counting_free;
    Buffer<int32_t> out = f.realize({40, 30});
    for (int j = 0; j < 30; j++) {
        for (int i = 0; i < 40; i++) EXPECT_EQ(out(i, j), (i * 3 + j) + ((i + 1) * 3 + j));
    }
    EXPECT_GT(mallocs, 0);
    EXPECT_EQ(mallocs, frees);
    int after_first = mallocs;
    f.realize({40, 30});
    EXPECT_EQ(mallocs, 2 * after_first);
    EXPECT_EQ(frees, mallocs);
}

TEST(JITHandlers, CustomPrintCapturesPrint) {
    printed.clear();
    Var x("x");
    Func f("f");
    f(x) = print(x * 10, "loomtest");
    f.jit_handlers().custom_print = capture_print;
    Buffer<int32_t> out = f.realize({4});
    for (int i = 0; i < 4; i++) EXPECT_EQ(out(i), i * 10);
    ASSERT_EQ(printed.size(), 4u);
    std::vector<std::string> sorted = printed;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted[0], "0 loomtest\n");
    EXPECT_EQ(sorted[3], "30 loomtest\n");
}

TEST(JITHandlers, PerCallContextOverridesPipelineHandlers) {
    printed.clear();
    Var x("x");
    Func f("f");
    f(x) = print(x);
    Pipeline p(f);
    p.jit_handlers().custom_print = capture_print;

    // The context's handler wins, and receives the caller's derived context.
    CountingContext ctx;
    ctx.handlers.custom_print = context_print;
    p.realize(&ctx, {5});
    EXPECT_EQ(ctx.prints, 5);
    EXPECT_TRUE(printed.empty());

    // A context without that handler falls back to the pipeline's.
    CountingContext plain;
    p.realize(&plain, {3});
    EXPECT_EQ(plain.prints, 0);
    EXPECT_EQ(printed.size(), 3u);

    // No context at all: the pipeline's handler.
    printed.clear();
    p.realize({2});
    EXPECT_EQ(printed.size(), 2u);
}

TEST(JITHandlers, CustomErrorInContextSuppressesTheException) {
    ImageParam in(Int(32), 1, "loomtest_in");
    Var x("x");
    Func f("f");
    f(x) = in(x + 2);
    Buffer<int32_t> small(3);
    in.set(small);

    // Default handling: a RuntimeError naming the input.
    try {
        f.realize({4});
        ADD_FAILURE() << "no exception";
    } catch (const RuntimeError &e) {
        EXPECT_NE(std::string(e.what()).find("loomtest_in"), std::string::npos) << e.what();
    }

    // With a custom error handler in the context, realize returns and the handler saw it.
    CountingContext ctx;
    ctx.handlers.custom_error = context_error;
    EXPECT_NO_THROW(f.realize(&ctx, {4}));
    EXPECT_EQ(ctx.errors, 1);
    EXPECT_NE(ctx.last_error.find("loomtest_in"), std::string::npos) << ctx.last_error;

    // The same through Func::jit_handlers.
    f.jit_handlers().custom_error = context_error;
    CountingContext ctx2;
    EXPECT_NO_THROW(f.realize(&ctx2, {4}));
    EXPECT_EQ(ctx2.errors, 1);
}

namespace {

int par_for_calls = 0;
std::atomic<int> tasks_run{0};

/// A serial parallel-for: runs every index in order on the calling thread.
int serial_par_for(JITUserContext *ctx, int (*f)(JITUserContext *, int, uint8_t *), int min,
                   int extent, uint8_t *closure) {
    par_for_calls++;
    for (int i = min; i < min + extent; i++) {
        if (int r = f(ctx, i, closure)) return r;
    }
    return 0;
}

int counting_task(JITUserContext *ctx, int (*f)(JITUserContext *, int, uint8_t *), int idx,
                  uint8_t *closure) {
    tasks_run++;
    return f(ctx, idx, closure);
}

} // namespace

TEST(JITHandlers, CustomParallelForAndTask) {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x * 100 + y;
    f.parallel(y);

    // A custom parallel-for sees the loop once and runs its tasks itself.
    par_for_calls = 0;
    f.jit_handlers().custom_do_par_for = serial_par_for;
    Buffer<int32_t> out = f.realize({8, 6});
    EXPECT_EQ(par_for_calls, 1);
    for (int j = 0; j < 6; j++) {
        for (int i = 0; i < 8; i++) EXPECT_EQ(out(i, j), i * 100 + j);
    }

    // With the default parallel-for, each task goes through custom_do_task.
    f.jit_handlers().custom_do_par_for = nullptr;
    f.jit_handlers().custom_do_task = counting_task;
    tasks_run = 0;
    out = f.realize({8, 6});
    EXPECT_EQ(tasks_run.load(), 6);
    EXPECT_EQ(out(7, 5), 705);
}
