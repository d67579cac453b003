// Bounds inference cases real programs hit (built against Loom and, as
// compat_halide_bounds_halide, against Halide 21): an index divided by a Param of either sign
// needs the region between the quotients of its ends, known only at run time; an index read
// from a Func is bounded by the values the Func computes; an input read under a vectorized select
// must hold what every lane loads.
#include "Halide.h"

#include <gtest/gtest.h>

#include <string>

using namespace Halide;

namespace {

int floor_div(int a, int b) {
    int q = a / b, r = a % b;
    return r < 0 ? (b > 0 ? q - 1 : q + 1) : q;
}

} // namespace

TEST(HalideBounds, IndexDividedByAParam) {
    ImageParam in(Int(32), 1, "divided_input");
    Param<int> k("divisor");
    Var x("x");
    Func f("divided");
    f(x) = in(x / k) * 2;
    for (int divisor : {3, 1, -2, 7}) {
        k.set(divisor);
        // Exactly the region [min(0 / k, 59 / k), max(0 / k, 59 / k)] is provided.
        int lo = std::min(floor_div(0, divisor), floor_div(59, divisor));
        int hi = std::max(floor_div(0, divisor), floor_div(59, divisor));
        Buffer<int> input(hi - lo + 1);
        input.set_min(lo);
        for (int i = lo; i <= hi; i++) input(i) = i * 10 + 1;
        in.set(input);
        Buffer<int> out = f.realize({60});
        for (int i = 0; i < 60; i++) {
            ASSERT_EQ(out(i), (floor_div(i, divisor) * 10 + 1) * 2) << i << " / " << divisor;
        }
    }
}

// An index read from a Func is bounded by the values that Func's definition can take (Halide's
// function value bounds), through chains of such Funcs; a Func with an update is not bounded
// by its pure definition, so reading through it is refused.
TEST(HalideBounds, IndicesReadFromBoundedFuncs) {
    ImageParam in(Int(32), 1, "gathered_input");
    Var x("x");
    Func idx("clamped_index"), idx2("derived_index"), out("gathered");
    idx(x) = clamp(x * 3, 0, 10);
    idx2(x) = idx(x) / 2 + 3; // [3, 8]
    out(x) = in(idx(x)) + 100 * in(idx2(x));
    idx.compute_root();
    idx2.compute_root();
    out.infer_input_bounds({20});
    Buffer<int> inferred = in.get();
    EXPECT_EQ(inferred.min(0), 0);
    EXPECT_EQ(inferred.extent(0), 11);

    Buffer<int> input(11);
    for (int i = 0; i < 11; i++) input(i) = i * i;
    in.set(input);
    Buffer<int> result = out.realize({20});
    for (int i = 0; i < 20; i++) {
        int a = std::min(std::max(i * 3, 0), 10), b = a / 2 + 3;
        ASSERT_EQ(result(i), a * a + 100 * b * b) << i;
    }

    ImageParam in2(Int(32), 1, "updated_index_input");
    Func updated("updated_index"), through("read_through_update");
    updated(x) = clamp(x, 0, 5);
    updated(x) += 1;
    updated.compute_root();
    through(x) = in2(updated(x));
    bool refused = false;
    try {
        through.infer_input_bounds({20});
    } catch (const CompileError &) {
        refused = true;
    }
    EXPECT_TRUE(refused);
}

TEST(HalideBounds, VectorSelectLoadsOfAnInputAreRequired) {
    // Both sides of a Select are evaluated, and a vector select loads every lane: an input's
    // required region covers what the discarded lanes load (up to 63 * 100000), so a buffer
    // holding only what the condition lets through is refused before any read (Loom read past
    // it before; tests/correctness/bounds_regressions.cpp has the same for a Func's storage).
    Var x("x");
    ImageParam im(Float(32), 1, "im");
    Func f("f");
    f(x) = select(x < 5, im(x * 100000), 0.0f);
    f.vectorize(x, 16);
    Buffer<float> small(400001);
    small.fill(1.0f);
    im.set(small);
    try {
        f.realize({64});
        ADD_FAILURE() << "realize read im beyond the buffer";
    } catch (const Halide::RuntimeError &e) {
        EXPECT_NE(std::string(e.what()).find(
                      "Input buffer im is accessed at 6300000, which is beyond the max (400000)"),
                  std::string::npos)
            << e.what();
    }
    Buffer<float> whole(6300001);
    for (int i = 0; i < 6300001; i++) whole(i) = (float)i;
    im.set(whole);
    Buffer<float> out = f.realize({64});
    for (int i = 0; i < 64; i++) ASSERT_EQ(out(i), i < 5 ? (float)(i * 100000) : 0.0f) << i;
}

TEST(HalideBounds, VectorSelectLoadsOfARootFuncStayInsideItsStorage) {
    // The same for a Func computed at the root: it is computed where the condition lets the
    // select read it, and stored wherever the lanes load (Loom read megabytes past it before).
    Var x("x");
    Func g("g"), f("f");
    g(x) = cast<float>(x);
    f(x) = select(x < 5, g(x * 200000), 0.0f);
    g.compute_root();
    f.vectorize(x, 16);
    Buffer<float> out = f.realize({64});
    for (int i = 0; i < 64; i++) ASSERT_EQ(out(i), i < 5 ? (float)(i * 200000) : 0.0f) << i;
}
