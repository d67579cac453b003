// Func::async and Func::ring_buffer (built against Loom and, as compat_halide_async_halide,
// against Halide 21): an async producer runs in a task of its own, concurrently with its
// consumers, and every schedule computes what naive C++ loops compute. The schedules cover a
// producer at the root, sliding windows (the producer runs ahead of the consumer), folded
// storage (it must also wait for the consumer), ring buffers, forks inside parallel loops,
// chains of async Funcs, update definitions and Tuples.
#include "Halide.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

using namespace Halide;

namespace {

const int W = 67, H = 45;

int p_value(int x, int y) { return x * 3 + y * 5 + (x ^ y); }

/// c(x, y) = p(x - 1, y - 1) + 2 p(x + 1, y + 1) + p(x, y), computed naively.
int c_value(int x, int y) {
    return p_value(x - 1, y - 1) + p_value(x + 1, y + 1) * 2 + p_value(x, y);
}

void expect_c(const Buffer<int> &out, const std::string &what) {
    for (int y = 0; y < out.height(); y++) {
        for (int x = 0; x < out.width(); x++) {
            ASSERT_EQ(out(x, y), c_value(x, y)) << what << " at " << x << ", " << y;
        }
    }
}

struct Stencil {
    Var x{"x"}, y{"y"};
    Func p{"p"}, c{"c"};
    Stencil() {
        p(x, y) = x * 3 + y * 5 + (x ^ y);
        c(x, y) = p(x - 1, y - 1) + p(x + 1, y + 1) * 2 + p(x, y);
    }
};

/// Realizes the stencil with `schedule` applied, twice (the second run reuses the compiled
/// pipeline and its semaphores start afresh).
void check_schedule(const std::string &what, const std::function<void(Stencil &)> &schedule) {
    Stencil s;
    schedule(s);
    for (int run = 0; run < 2; run++) expect_c(s.c.realize({W, H}), what);
}

} // namespace

TEST(Async, ProducerAtTheRoot) {
    check_schedule("root", [](Stencil &s) { s.p.compute_root().async(); });
}

TEST(Async, SlidingWindowRunsAhead) {
    check_schedule("sliding", [](Stencil &s) { s.p.compute_at(s.c, s.y).store_root().async(); });
}

TEST(Async, FoldedStorageWaitsForTheConsumer) {
    check_schedule("explicit fold", [](Stencil &s) {
        s.p.compute_at(s.c, s.y).store_root().fold_storage(s.y, 4).async();
    });
    check_schedule("smallest fold", [](Stencil &s) {
        s.p.compute_at(s.c, s.y).store_root().fold_storage(s.y, 3).async();
    });
}

TEST(Async, RingBuffers) {
    // (A one-copy async ring buffer is in tests/correctness/async.cpp: Halide 21 computes wrong
    // values with it, its producer overwriting the copy the consumer still reads.)
    for (int extent : {1, 2, 3}) {
        if (extent > 1) {
            check_schedule("ring " + std::to_string(extent), [&](Stencil &s) {
                s.p.compute_at(s.c, s.y).hoist_storage_root().ring_buffer(extent).async();
            });
        }
        check_schedule("ring without async " + std::to_string(extent), [&](Stencil &s) {
            s.p.compute_at(s.c, s.y).hoist_storage_root().ring_buffer(extent);
        });
    }
    check_schedule("ring over tiles", [](Stencil &s) {
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        s.c.tile(s.x, s.y, xo, yo, xi, yi, 16, 8);
        s.p.compute_at(s.c, xo).hoist_storage(s.c, yo).ring_buffer(2).async();
    });
}

TEST(Async, ForkInsideAParallelLoop) {
    check_schedule("per parallel row", [](Stencil &s) {
        s.c.parallel(s.y);
        s.p.compute_at(s.c, s.y).async();
    });
    check_schedule("sliding inside parallel strips", [](Stencil &s) {
        Var yo("yo"), yi("yi");
        s.c.split(s.y, yo, yi, 8).parallel(yo);
        s.p.compute_at(s.c, yi).store_at(s.c, yo).async();
    });
    check_schedule("parallel producer", [](Stencil &s) {
        s.p.compute_root().parallel(s.y).vectorize(s.x, 8).async();
        s.c.parallel(s.y);
    });
}

TEST(Async, AtAnInnerLoop) {
    check_schedule("per tile", [](Stencil &s) {
        Var xo("xo"), xi("xi");
        s.c.split(s.x, xo, xi, 8);
        s.p.compute_at(s.c, xo).async();
    });
}

TEST(Async, IgnoredForOutputsAndInlinedFuncs) {
    check_schedule("inlined", [](Stencil &s) { s.p.async(); });
    check_schedule("output", [](Stencil &s) { s.c.async(); });
}

TEST(Async, ChainOfAsyncProducers) {
    Var x("x"), y("y");
    Func a("a"), b("b"), o("o");
    a(x, y) = x + y * 2;
    b(x, y) = a(x, y - 1) + a(x, y + 1);
    o(x, y) = b(x, y - 1) * b(x, y + 1);
    a.compute_at(o, y).store_root().async();
    b.compute_at(o, y).store_root().async();
    auto av = [](int i, int j) { return i + j * 2; };
    auto bv = [&](int i, int j) { return av(i, j - 1) + av(i, j + 1); };
    for (int run = 0; run < 2; run++) {
        Buffer<int> r = o.realize({W, H});
        for (int j = 0; j < H; j++) {
            for (int i = 0; i < W; i++) ASSERT_EQ(r(i, j), bv(i, j - 1) * bv(i, j + 1));
        }
    }
}

TEST(Async, AsyncFuncReadByAnotherAsyncFuncAndItsConsumer) {
    // h is computed beside f, inside f's storage but stored outside it, and read by both f and
    // o: legal because h is async too (f's consumer side waits for h on a semaphore of its own).
    Var x("x"), y("y");
    Func h("h"), f("f"), o("o");
    h(x, y) = x * y + 1;
    f(x, y) = h(x, y) + h(x + 1, y);
    o(x, y) = f(x, y - 1) + f(x, y + 1) + h(x, y);
    h.compute_at(o, y).store_root().async();
    f.compute_at(o, y).store_root().async();
    auto hv = [](int i, int j) { return i * j + 1; };
    auto fv = [&](int i, int j) { return hv(i, j) + hv(i + 1, j); };
    for (int run = 0; run < 2; run++) {
        Buffer<int> r = o.realize({W, H});
        for (int j = 0; j < H; j++) {
            for (int i = 0; i < W; i++) {
                ASSERT_EQ(r(i, j), fv(i, j - 1) + fv(i, j + 1) + hv(i, j)) << i << ", " << j;
            }
        }
    }
}

TEST(Async, UpdateDefinitionsAndTuples) {
    Var x("x"), y("y");
    RDom r(0, 4, "r");
    Func f("f"), g("g"), o("o");
    f(x, y) = x;
    f(x, y) += r * y;
    g(x, y) = Tuple(x + y, x - y);
    o(x, y) = f(x, y) + f(x + 2, y) + g(x, y)[0] * g(x, y + 1)[1];
    f.compute_at(o, y).async();
    g.compute_at(o, y).store_root().async();
    for (int run = 0; run < 2; run++) {
        Buffer<int> out = o.realize({W, H});
        for (int j = 0; j < H; j++) {
            for (int i = 0; i < W; i++) {
                int expected = (i + 6 * j) + (i + 2 + 6 * j) + (i + j) * (i - (j + 1));
                ASSERT_EQ(out(i, j), expected) << i << ", " << j;
            }
        }
    }
}

TEST(Async, TwoProducersAtTheRoot) {
    Var x("x"), y("y");
    Func a("a"), b("b"), o("o");
    a(x, y) = x * 2 + y;
    b(x, y) = x - y * 3;
    o(x, y) = a(x, y) * b(x + 1, y);
    a.compute_root().async();
    b.compute_root().async();
    Buffer<int> r = o.realize({W, H});
    for (int j = 0; j < H; j++) {
        for (int i = 0; i < W; i++) ASSERT_EQ(r(i, j), (i * 2 + j) * (i + 1 - j * 3));
    }
}
