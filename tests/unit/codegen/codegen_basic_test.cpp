// Code generation and JIT: loops, buffers, vectors, memory, assertions and the compile cache,
// each checked against naive C++.
#include "codegen_test_util.h"

#include <loom/error.h>

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <thread>

using namespace loom;
using namespace loom::internal;
using namespace loom::internal::test;

namespace {

TEST(CodegenBasic, ScalarLoopWithParamAndNonzeroMin) {
    FuncBuilder fb("scalar_loop");
    Expr p = fb.scalar("p", Int(32));
    fb.buffer("out", Int(32), 1, true);
    Expr x = var("x");
    Stmt body = loop("x", var("out.min.0"), var("out.extent.0"),
                     store("out", x * 3 + p, x - var("out.min.0")));
    LoweredFunc f = fb.finish(body);
    TestBuffer out(Int(32), {37}, {-5});
    int32_t pv = 11;
    ASSERT_EQ(run(f, {&pv, out.raw()}), 0);
    for (int i = 0; i < 37; i++) EXPECT_EQ(out.data<int32_t>()[i], (i - 5) * 3 + 11) << i;
}

TEST(CodegenBasic, Nested2DWithStridesAndMins) {
    FuncBuilder fb("nested_2d");
    fb.buffer("in", UInt(16), 2);
    fb.buffer("out", Int(32), 2, true);
    Expr x = var("x"), y = var("y");
    auto index = [&](const std::string &b) {
        return (x - var(b + ".min.0")) * var(b + ".stride.0") +
               (y - var(b + ".min.1")) * var(b + ".stride.1");
    };
    Expr value = Cast::make(Int(32), load(UInt(16), "in", index("in"))) * 2 + y;
    Stmt body =
        loop("y", var("out.min.1"), var("out.extent.1"),
             loop("x", var("out.min.0"), var("out.extent.0"), store("out", value, index("out"))));
    LoweredFunc f = fb.finish(body);
    const int W = 13, H = 7;
    TestBuffer in(UInt(16), {W + 2, H + 1}, {1, 2}); // larger than out, different mins
    TestBuffer out(Int(32), {W, H}, {2, 3});
    for (int i = 0; i < (W + 2) * (H + 1); i++) in.data<uint16_t>()[i] = (uint16_t)(i * 37 + 65000);
    ASSERT_EQ(run(f, {in.raw(), out.raw()}), 0);
    for (int yy = 3; yy < 3 + H; yy++) {
        for (int xx = 2; xx < 2 + W; xx++) {
            int in_idx = (xx - 1) + (yy - 2) * (W + 2);
            int expect = (int)in.data<uint16_t>()[in_idx] * 2 + yy;
            EXPECT_EQ(out.data<int32_t>()[(xx - 2) + (yy - 3) * W], expect) << xx << "," << yy;
        }
    }
}

TEST(CodegenBasic, ZeroExtentLoopRunsNothing) {
    FuncBuilder fb("zero_extent");
    Expr n = fb.scalar("n", Int(32));
    fb.buffer("out", Int(32), 1, true);
    Stmt body = loop("x", 5, n, store("out", 1, var("x") - 5));
    LoweredFunc f = fb.finish(body);
    TestBuffer out(Int(32), {4});
    int32_t nv = 0;
    ASSERT_EQ(run(f, {&nv, out.raw()}), 0);
    nv = -3;
    ASSERT_EQ(run(f, {&nv, out.raw()}), 0);
    for (int i = 0; i < 4; i++) EXPECT_EQ(out.data<int32_t>()[i], 0);
    nv = 2;
    ASSERT_EQ(run(f, {&nv, out.raw()}), 0);
    EXPECT_EQ(out.data<int32_t>()[0], 1);
    EXPECT_EQ(out.data<int32_t>()[1], 1);
    EXPECT_EQ(out.data<int32_t>()[2], 0);
}

TEST(CodegenBasic, DenseVectorLoadStoreRampBroadcast) {
    FuncBuilder fb("dense_vector");
    fb.buffer("in", Float(32), 1);
    fb.buffer("out", Float(32), 1, true);
    Expr x = var("x");
    Expr idx = Ramp::make(x * 8, 1, 8);
    Expr v = load(Float(32, 8), "in", idx) * Broadcast::make(2.5f, 8) +
             Broadcast::make(Cast::make(Float(32), x), 8);
    Stmt body = loop("x", 0, var("out.extent.0") / 8, store("out", v, idx));
    LoweredFunc f = fb.finish(body);
    TestBuffer in(Float(32), {64}), out(Float(32), {64});
    for (int i = 0; i < 64; i++) in.data<float>()[i] = i * 0.25f - 3;
    ASSERT_EQ(run(f, {in.raw(), out.raw()}), 0);
    for (int i = 0; i < 64; i++) {
        EXPECT_EQ(out.data<float>()[i], in.data<float>()[i] * 2.5f + (float)(i / 8)) << i;
    }
}

TEST(CodegenBasic, RampValuesIncludingVectorBase) {
    FuncBuilder fb("ramp_values");
    fb.buffer("out", Int(32), 1, true);
    // out[0..7] = ramp(3, -2, 8); out[8..15] = ramp(ramp(10, 1, 2), broadcast(100, 2), 4)
    Stmt s1 = store("out", Ramp::make(3, -2, 8), Ramp::make(0, 1, 8));
    Stmt s2 = store("out", Ramp::make(Ramp::make(10, 1, 2), Broadcast::make(100, 2), 4),
                    Ramp::make(8, 1, 8));
    LoweredFunc f = fb.finish(Block::make(s1, s2));
    TestBuffer out(Int(32), {16});
    ASSERT_EQ(run(f, {out.raw()}), 0);
    for (int i = 0; i < 8; i++) EXPECT_EQ(out.data<int32_t>()[i], 3 - 2 * i);
    int expect2[8] = {10, 11, 110, 111, 210, 211, 310, 311};
    for (int i = 0; i < 8; i++) EXPECT_EQ(out.data<int32_t>()[8 + i], expect2[i]);
}

TEST(CodegenBasic, GatherWithLoadedIndices) {
    FuncBuilder fb("gather");
    fb.buffer("in", Int(16), 1);
    fb.buffer("idx", Int(32), 1);
    fb.buffer("out", Int(16), 1, true);
    Expr x = var("x");
    Expr r = Ramp::make(x * 8, 1, 8);
    Expr v = load(Int(16, 8), "in", load(Int(32, 8), "idx", r));
    Stmt body = loop("x", 0, 4, store("out", v, r));
    LoweredFunc f = fb.finish(body);
    TestBuffer in(Int(16), {100}), idx(Int(32), {32}), out(Int(16), {32});
    for (int i = 0; i < 100; i++) in.data<int16_t>()[i] = (int16_t)(i * i - 500);
    for (int i = 0; i < 32; i++) idx.data<int32_t>()[i] = (i * 17 + 3) % 100;
    ASSERT_EQ(run(f, {in.raw(), idx.raw(), out.raw()}), 0);
    for (int i = 0; i < 32; i++) {
        EXPECT_EQ(out.data<int16_t>()[i], in.data<int16_t>()[idx.data<int32_t>()[i]]) << i;
    }
}

TEST(CodegenBasic, StridedLoadsAndScatterStores) {
    FuncBuilder fb("strided");
    fb.buffer("in", Int(32), 1);
    fb.buffer("out", Int(32), 1, true);
    Expr x = var("x");
    // Row x of out (32 wide): stride 2, stride 3, stride -1, stride 7 loads of in, each 8 lanes.
    Expr a = load(Int(32, 8), "in", Ramp::make(x * 2, 2, 8));
    Expr b = load(Int(32, 8), "in", Ramp::make(x + 1, 3, 8));
    Expr c = load(Int(32, 8), "in", Ramp::make(x + 40, -1, 8));
    Expr d = load(Int(32, 8), "in", Ramp::make(x, 7, 8));
    Expr row = x * 40;
    Stmt body = Block::make({store("out", a, Ramp::make(row, 1, 8)),
                             store("out", b, Ramp::make(row + 8, 1, 8)),
                             // stored reversed: stride -1 store
                             store("out", c, Ramp::make(row + 23, -1, 8)),
                             // scatter with stride 2 into [row + 24, row + 40)
                             store("out", d, Ramp::make(row + 24, 2, 8)),
                             store("out", d + 1000, Ramp::make(row + 25, 2, 8))});
    LoweredFunc f = fb.finish(loop("x", 0, 5, body));
    TestBuffer in(Int(32), {100}), out(Int(32), {200});
    for (int i = 0; i < 100; i++) in.data<int32_t>()[i] = i * 10 + 1;
    ASSERT_EQ(run(f, {in.raw(), out.raw()}), 0);
    const int32_t *I = in.data<int32_t>(), *O = out.data<int32_t>();
    for (int xx = 0; xx < 5; xx++) {
        const int32_t *R = O + xx * 40;
        for (int i = 0; i < 8; i++) {
            EXPECT_EQ(R[i], I[xx * 2 + 2 * i]);
            EXPECT_EQ(R[8 + i], I[xx + 1 + 3 * i]);
            EXPECT_EQ(R[23 - i], I[xx + 40 - i]);
            EXPECT_EQ(R[24 + 2 * i], I[xx + 7 * i]);
            EXPECT_EQ(R[25 + 2 * i], I[xx + 7 * i] + 1000);
        }
    }
}

TEST(CodegenBasic, ShuffleInterleaveConcatSliceExtract) {
    FuncBuilder fb("shuffles");
    fb.buffer("a", Int(32), 1);
    fb.buffer("b", Int(32), 1);
    fb.buffer("out", Int(32), 1, true);
    Expr va = load(Int(32, 8), "a", Ramp::make(0, 1, 8));
    Expr vb = load(Int(32, 8), "b", Ramp::make(0, 1, 8));
    Expr v4 = load(Int(32, 4), "b", Ramp::make(8, 1, 4));
    Expr s = load(Int(32), "a", 9);
    Stmt body =
        Block::make({store("out", Shuffle::make_interleave({va, vb}), Ramp::make(0, 1, 16)),
                     // concat of 8 + 4 + 1 lanes
                     store("out", Shuffle::make_concat({va, v4, s}), Ramp::make(16, 1, 13)),
                     // odd lanes of a, reversed pick from two vectors of different sizes
                     store("out", Shuffle::make_slice(va, 1, 2, 4), Ramp::make(29, 1, 4)),
                     store("out", Shuffle::make({v4, va}, {11, 0, 3, 4}), Ramp::make(33, 1, 4)),
                     store("out", Shuffle::make_extract_element(vb, 5), 37)});
    LoweredFunc f = fb.finish(body);
    TestBuffer a(Int(32), {16}), b(Int(32), {16}), out(Int(32), {40});
    for (int i = 0; i < 16; i++) {
        a.data<int32_t>()[i] = 100 + i;
        b.data<int32_t>()[i] = 200 + i;
    }
    ASSERT_EQ(run(f, {a.raw(), b.raw(), out.raw()}), 0);
    const int32_t *O = out.data<int32_t>();
    for (int i = 0; i < 8; i++) {
        EXPECT_EQ(O[2 * i], 100 + i);
        EXPECT_EQ(O[2 * i + 1], 200 + i);
    }
    for (int i = 0; i < 8; i++) EXPECT_EQ(O[16 + i], 100 + i);
    for (int i = 0; i < 4; i++) EXPECT_EQ(O[24 + i], 208 + i);
    EXPECT_EQ(O[28], 109);
    for (int i = 0; i < 4; i++) EXPECT_EQ(O[29 + i], 101 + 2 * i);
    // {v4, va} concatenated: lanes 0-3 are b[8..11], lanes 4-11 are a[0..7].
    EXPECT_EQ(O[33], 107);
    EXPECT_EQ(O[34], 208);
    EXPECT_EQ(O[35], 211);
    EXPECT_EQ(O[36], 100);
    EXPECT_EQ(O[37], 205);
}

TEST(CodegenBasic, VectorReduce) {
    FuncBuilder fb("vector_reduce");
    fb.buffer("in", Int(32), 1);
    fb.buffer("fin", Float(32), 1);
    fb.buffer("out", Int(32), 1, true);
    fb.buffer("fout", Float(32), 1, true);
    Expr v = load(Int(32, 16), "in", Ramp::make(0, 1, 16));
    Expr fv = load(Float(32, 8), "fin", Ramp::make(0, 1, 8));
    Stmt body = Block::make(
        {store("out", VectorReduce::make(VectorReduce::Add, v, 1), 0),
         store("out", VectorReduce::make(VectorReduce::Add, v, 4), Ramp::make(1, 1, 4)),
         store("out", VectorReduce::make(VectorReduce::Min, v, 1), 5),
         store("out", VectorReduce::make(VectorReduce::Max, v, 2), Ramp::make(6, 1, 2)),
         store(
             "out",
             VectorReduce::make(VectorReduce::Mul, load(Int(32, 4), "in", Ramp::make(0, 1, 4)), 1),
             8),
         store("out",
               Cast::make(Int(32),
                          VectorReduce::make(VectorReduce::Or, v > Broadcast::make(50, 16), 1)),
               9),
         store("out",
               Cast::make(Int(32),
                          VectorReduce::make(VectorReduce::And, v > Broadcast::make(-100, 16), 1)),
               10),
         store("fout", VectorReduce::make(VectorReduce::Add, fv, 1), 0),
         store("fout", VectorReduce::make(VectorReduce::Max, fv, 1), 1),
         store("fout", VectorReduce::make(VectorReduce::Min, fv, 2), Ramp::make(2, 1, 2))});
    LoweredFunc f = fb.finish(body);
    TestBuffer in(Int(32), {16}), fin(Float(32), {8}), out(Int(32), {11}), fout(Float(32), {4});
    int32_t vals[16] = {5, -3, 12, 7, 0, 44, -9, 8, 1, 2, 3, 60, -70, 15, 16, 17};
    float fvals[8] = {1.5f, -2.25f, 8.0f, 0.5f, 3.0f, -7.5f, 2.0f, 4.25f};
    for (int i = 0; i < 16; i++) in.data<int32_t>()[i] = vals[i];
    for (int i = 0; i < 8; i++) fin.data<float>()[i] = fvals[i];
    ASSERT_EQ(run(f, {in.raw(), fin.raw(), out.raw(), fout.raw()}), 0);
    const int32_t *O = out.data<int32_t>();
    int sum = 0, mn = vals[0], mx0 = vals[0], mx1 = vals[8];
    for (int i = 0; i < 16; i++) {
        sum += vals[i];
        mn = std::min(mn, vals[i]);
    }
    for (int i = 0; i < 8; i++) {
        mx0 = std::max(mx0, vals[i]);
        mx1 = std::max(mx1, vals[8 + i]);
    }
    EXPECT_EQ(O[0], sum);
    for (int j = 0; j < 4; j++) {
        EXPECT_EQ(O[1 + j], vals[4 * j] + vals[4 * j + 1] + vals[4 * j + 2] + vals[4 * j + 3]);
    }
    EXPECT_EQ(O[5], mn);
    EXPECT_EQ(O[6], mx0);
    EXPECT_EQ(O[7], mx1);
    EXPECT_EQ(O[8], 5 * -3 * 12 * 7);
    EXPECT_EQ(O[9], 1);
    EXPECT_EQ(O[10], 1);
    float fsum = 0;
    for (float x : fvals) fsum += x; // exact: all values are multiples of 1/4
    EXPECT_EQ(fout.data<float>()[0], fsum);
    EXPECT_EQ(fout.data<float>()[1], 8.0f);
    EXPECT_EQ(fout.data<float>()[2], -2.25f);
    EXPECT_EQ(fout.data<float>()[3], -7.5f);
}

TEST(CodegenBasic, PredicatedLoadsAndStores) {
    FuncBuilder fb("predicated");
    fb.buffer("in", Int(32), 1);
    fb.buffer("out", Int(32), 1, true);
    Expr x = var("x");
    Expr r = Ramp::make(x * 8, 1, 8);
    // Lanes past the end of `in` (10 elements) are masked off: in a real buffer they would be
    // out of bounds.
    Expr pred = LT::make(r, Broadcast::make(var("in.extent.0"), 8));
    Expr v = Load::make(Int(32, 8), "in", r, pred);
    Stmt vec = Store::make("out", v + Broadcast::make(1, 8), r, Parameter(), pred);
    // A scalar predicated store and a gather with a predicate.
    Expr g = Load::make(Int(32, 4), "in", Ramp::make(0, 3, 4),
                        LT::make(Ramp::make(0, 1, 4), Broadcast::make(2, 4)));
    Stmt gs = store("out", g, Ramp::make(20, 1, 4));
    Stmt sc = Store::make("out", 77, 24, Parameter(), var("in.extent.0") > 5);
    Stmt sc2 = Store::make("out", 88, 25, Parameter(), var("in.extent.0") > 50);
    LoweredFunc f = fb.finish(Block::make({loop("x", 0, 2, vec), gs, sc, sc2}));
    TestBuffer in(Int(32), {10}), out(Int(32), {26});
    for (int i = 0; i < 10; i++) in.data<int32_t>()[i] = i * 3;
    for (int i = 0; i < 26; i++) out.data<int32_t>()[i] = -1;
    ASSERT_EQ(run(f, {in.raw(), out.raw()}), 0);
    const int32_t *O = out.data<int32_t>();
    for (int i = 0; i < 10; i++) EXPECT_EQ(O[i], i * 3 + 1);
    for (int i = 10; i < 16; i++) EXPECT_EQ(O[i], -1) << i;
    EXPECT_EQ(O[20], 0);
    EXPECT_EQ(O[21], 9);
    EXPECT_EQ(O[22], 0); // masked lanes of a gather read as zero
    EXPECT_EQ(O[23], 0);
    EXPECT_EQ(O[24], 77);
    EXPECT_EQ(O[25], -1);
}

TEST(CodegenBasic, LetIfThenElseSelect) {
    FuncBuilder fb("control");
    Expr p = fb.scalar("p", Int(32));
    Expr flag = fb.scalar("flag", Bool());
    fb.buffer("out", Int(32), 1, true);
    Expr x = var("x");
    Expr t = var("t");
    // out[x] = let t = x * p in (x % 2 == 0 ? t : -t), with an if/else on the parameter bool.
    Expr val = Let::make("t", x * p, Select::make(EQ::make(x % 2, 0), t, 0 - t));
    Stmt body = loop("x", 0, 10, IfThenElse::make(flag, store("out", val, x), store("out", 5, x)));
    // A select with a scalar condition and vector values.
    Stmt vs = store("out", Select::make(p > 2, Broadcast::make(1, 4), Ramp::make(0, 1, 4)),
                    Ramp::make(10, 1, 4));
    LoweredFunc f = fb.finish(Block::make(body, vs));
    TestBuffer out(Int(32), {14});
    int32_t pv = 3;
    bool fl = true;
    ASSERT_EQ(run(f, {&pv, &fl, out.raw()}), 0);
    for (int i = 0; i < 10; i++) EXPECT_EQ(out.data<int32_t>()[i], i % 2 == 0 ? i * 3 : -i * 3);
    for (int i = 0; i < 4; i++) EXPECT_EQ(out.data<int32_t>()[10 + i], 1);
    fl = false;
    pv = 1;
    ASSERT_EQ(run(f, {&pv, &fl, out.raw()}), 0);
    for (int i = 0; i < 10; i++) EXPECT_EQ(out.data<int32_t>()[i], 5);
    for (int i = 0; i < 4; i++) EXPECT_EQ(out.data<int32_t>()[10 + i], i);
}

// ---- Runtime hooks for the memory and error tests ----

int mallocs = 0, frees = 0;
std::string errors;
void *counting_malloc(void *uc, size_t size) {
    mallocs++;
    return halide_default_malloc(uc, size);
}
void counting_free(void *uc, void *p) {
    frees++;
    halide_default_free(uc, p);
}
void capture_error(void *, const char *msg) { errors += msg; }

struct HookScope {
    halide_malloc_t old_malloc;
    halide_free_t old_free;
    halide_error_handler_t old_error;
    HookScope() {
        mallocs = frees = 0;
        errors.clear();
        old_malloc = halide_set_custom_malloc(counting_malloc);
        old_free = halide_set_custom_free(counting_free);
        old_error = halide_set_error_handler(capture_error);
    }
    ~HookScope() {
        halide_set_custom_malloc(old_malloc);
        halide_set_custom_free(old_free);
        halide_set_error_handler(old_error);
    }
};

TEST(CodegenBasic, HeapAllocateAndFree) {
    HookScope hooks;
    FuncBuilder fb("heap_alloc");
    Expr n = fb.scalar("n", Int(32));
    fb.buffer("out", Int(32), 1, true);
    Expr x = var("x");
    // tmp[i] = i * i over n elements (a dynamic size: heap), then out[i] = tmp[n - 1 - i].
    Stmt fill = loop("x", 0, n, store("tmp", x * x, x));
    Stmt use = loop("x", 0, n, store("out", load(Int(32), "tmp", n - 1 - x), x));
    Stmt alloc = Allocate::make("tmp", Int(32), MemoryType::Auto, {n}, const_true(),
                                Block::make({fill, use, Free::make("tmp")}));
    LoweredFunc f = fb.finish(alloc);
    const int N = 30000; // 120 KB
    TestBuffer out(Int(32), {N});
    int32_t nv = N;
    ASSERT_EQ(run(f, {&nv, out.raw()}), 0);
    for (int i = 0; i < N; i += 97) EXPECT_EQ(out.data<int32_t>()[i], (N - 1 - i) * (N - 1 - i));
    EXPECT_EQ(mallocs, 1);
    EXPECT_EQ(frees, 1); // the Free, and no second free at the end of the scope
}

TEST(CodegenBasic, HeapAllocateFreedAtEndOfScopeAndConditional) {
    HookScope hooks;
    FuncBuilder fb("heap_alloc_scope");
    Expr n = fb.scalar("n", Int(32));
    Expr c = fb.scalar("c", Bool());
    fb.buffer("out", Int(32), 1, true);
    Expr x = var("x");
    // Two extents (multiplied in 64 bits), a Heap memory type, no Free node.
    Stmt body = Block::make(loop("x", 0, n, store("tmp", x + 1, x)),
                            store("out", load(Int(32), "tmp", n - 1), 0));
    Stmt alloc =
        Allocate::make("tmp", Int(32), MemoryType::Heap, {n, 1}, c, IfThenElse::make(c, body));
    LoweredFunc f = fb.finish(alloc);
    TestBuffer out(Int(32), {1});
    int32_t nv = 10;
    bool cv = true;
    ASSERT_EQ(run(f, {&nv, &cv, out.raw()}), 0);
    EXPECT_EQ(out.data<int32_t>()[0], 10);
    EXPECT_EQ(mallocs, 1);
    EXPECT_EQ(frees, 1);
    cv = false;
    ASSERT_EQ(run(f, {&nv, &cv, out.raw()}), 0);
    EXPECT_EQ(mallocs, 1); // condition false: no allocation
    EXPECT_EQ(frees, 1);
}

TEST(CodegenBasic, StackAllocate) {
    HookScope hooks;
    FuncBuilder fb("stack_alloc");
    fb.buffer("out", Float(32), 1, true);
    Expr x = var("x"), y = var("y");
    // A 16-element scratch buffer reused by each outer iteration.
    Stmt inner = Block::make(loop("x", 0, 16, store("scratch", Cast::make(Float(32), x * y), x)),
                             store("out",
                                   load(Float(32, 8), "scratch", Ramp::make(8, 1, 8)) +
                                       load(Float(32, 8), "scratch", Ramp::make(0, 1, 8)),
                                   Ramp::make(y * 8, 1, 8)));
    Stmt alloc = Allocate::make("scratch", Float(32), MemoryType::Auto, {16}, const_true(), inner);
    LoweredFunc f = fb.finish(loop("y", 0, 4, alloc));
    TestBuffer out(Float(32), {32});
    ASSERT_EQ(run(f, {out.raw()}), 0);
    for (int yy = 0; yy < 4; yy++) {
        for (int i = 0; i < 8; i++) {
            EXPECT_EQ(out.data<float>()[yy * 8 + i], (float)((8 + i) * yy + i * yy));
        }
    }
    EXPECT_EQ(mallocs, 0);
}

TEST(CodegenBasic, AssertFailureReturnsCodeReportsMessageAndFrees) {
    HookScope hooks;
    FuncBuilder fb("assert_fail");
    Expr p = fb.scalar("p", Int(32));
    fb.buffer("out", Int(32), 1, true);
    Expr msg = extern_call(Int(32), "halide_error_param_too_small_i64",
                           {var("__user_context", Handle()), std::string("p"),
                            Cast::make(Int(64), p), Expr((int64_t)0)});
    // The assertion sits inside a heap allocation, which must be freed on the error path.
    Stmt body = Allocate::make(
        "tmp", Int(32), MemoryType::Heap, {p + 100}, const_true(),
        Block::make({store("tmp", 1, 0), AssertStmt::make(p >= 0, msg), store("out", p, 0)}));
    LoweredFunc f = fb.finish(body);
    TestBuffer out(Int(32), {1});
    int32_t pv = -4;
    EXPECT_EQ(run(f, {&pv, out.raw()}), halide_error_code_param_too_small);
    EXPECT_NE(errors.find("p"), std::string::npos) << errors;
    EXPECT_NE(errors.find("-4"), std::string::npos) << errors;
    EXPECT_EQ(out.data<int32_t>()[0], 0);
    EXPECT_EQ(mallocs, 1);
    EXPECT_EQ(frees, 1);
    pv = 6;
    errors.clear();
    EXPECT_EQ(run(f, {&pv, out.raw()}), 0);
    EXPECT_EQ(out.data<int32_t>()[0], 6);
    EXPECT_EQ(errors, "");
    EXPECT_EQ(frees, 2);
}

void *failing_big_malloc(void *uc, size_t size) {
    mallocs++;
    return size > (1 << 20) ? nullptr : halide_default_malloc(uc, size);
}

TEST(CodegenBasic, OutOfMemoryReturnsErrorAndFreesOuterAllocations) {
    HookScope hooks;
    halide_set_custom_malloc(failing_big_malloc);
    FuncBuilder fb("out_of_memory");
    Expr n = fb.scalar("n", Int(32));
    fb.buffer("out", Int(32), 1, true);
    Stmt inner =
        Allocate::make("big", Int(32), MemoryType::Auto, {n, n}, const_true(),
                       Block::make(store("big", 1, 0), store("out", load(Int(32), "big", 0), 0)));
    Stmt outer = Allocate::make("small", Int(32), MemoryType::Heap, {n}, const_true(),
                                Block::make(store("small", 2, 0), inner));
    LoweredFunc f = fb.finish(outer);
    TestBuffer out(Int(32), {1});
    int32_t nv = 4000; // 4000 * 4000 * 4 bytes: refused
    EXPECT_EQ(run(f, {&nv, out.raw()}), halide_error_code_out_of_memory);
    EXPECT_EQ(mallocs, 2);
    EXPECT_EQ(frees, 1); // the outer allocation, on the error path
    EXPECT_EQ(out.data<int32_t>()[0], 0);
    EXPECT_FALSE(errors.empty());
    nv = 100;
    EXPECT_EQ(run(f, {&nv, out.raw()}), 0);
    EXPECT_EQ(out.data<int32_t>()[0], 1);
    EXPECT_EQ(mallocs, 4);
    EXPECT_EQ(frees, 3);
}

TEST(CodegenBasic, ConcurrentCompilesOfOneFunctionCompileOnce) {
    FuncBuilder fb("concurrent");
    fb.buffer("out", Int(32), 1, true);
    LoweredFunc f = fb.finish(store("out", 987654, 0));
    int before = JITModule::compilation_count();
    std::vector<std::shared_ptr<JITModule>> got(4);
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; i++) threads.emplace_back([&, i] { got[i] = JITModule::compile(f); });
    for (auto &t : threads) t.join();
    EXPECT_EQ(JITModule::compilation_count(), before + 1);
    for (int i = 1; i < 4; i++) EXPECT_EQ(got[i].get(), got[0].get());
    TestBuffer out(Int(32), {1});
    void *user_context = nullptr;
    void *args[] = {&user_context, out.raw()};
    ASSERT_EQ(got[2]->argv_function()(args), 0);
    EXPECT_EQ(out.data<int32_t>()[0], 987654);
}

TEST(CodegenBasic, TypedEntryPointMatchesArgv) {
    FuncBuilder fb("typed_entry");
    Expr a = fb.scalar("a", Float(64));
    Expr b = fb.scalar("b", Bool());
    Expr c = fb.scalar("c", Int(8));
    fb.buffer("out", Float(64), 1, true);
    Stmt body = store("out", Select::make(b, a, Cast::make(Float(64), c)), 0);
    LoweredFunc f = fb.finish(body);
    auto m = JITModule::compile(f);
    TestBuffer out(Float(64), {1});
    using Fn = int (*)(void *, double, bool, int8_t, halide_buffer_t *);
    Fn fn = (Fn)m->main_function();
    ASSERT_EQ(fn(nullptr, 2.5, true, -3, out.raw()), 0);
    EXPECT_EQ(out.data<double>()[0], 2.5);
    ASSERT_EQ(fn(nullptr, 2.5, false, -3, out.raw()), 0);
    EXPECT_EQ(out.data<double>()[0], -3.0);
    EXPECT_EQ(m->name(), "typed_entry");
    EXPECT_NE(m->get_symbol("typed_entry_argv"), nullptr);
    EXPECT_EQ(m->get_symbol("no_such_symbol"), nullptr);
}

TEST(CodegenBasic, CompileCacheSharesModules) {
    auto make = [](int k) {
        FuncBuilder fb("cached");
        fb.buffer("out", Int(32), 1, true);
        return fb.finish(store("out", k, 0));
    };
    auto m1 = JITModule::compile(make(12345));
    int count = JITModule::compilation_count();
    auto m2 = JITModule::compile(make(12345));
    EXPECT_EQ(JITModule::compilation_count(), count);
    EXPECT_EQ(m1.get(), m2.get());
    EXPECT_GT(m1->compile_seconds(), 0.0);
    auto m3 = JITModule::compile(make(54321));
    EXPECT_EQ(JITModule::compilation_count(), count + 1);
    EXPECT_NE(m1.get(), m3.get());
    TestBuffer out(Int(32), {1});
    void *user_context = nullptr;
    void *args[] = {&user_context, out.raw()};
    ASSERT_EQ(m3->argv_function()(args), 0);
    EXPECT_EQ(out.data<int32_t>()[0], 54321);
    ASSERT_EQ(m2->argv_function()(args), 0);
    EXPECT_EQ(out.data<int32_t>()[0], 12345);
}

TEST(CodegenBasic, NodesThatMustNotReachCodegenAreInternalErrors) {
    FuncBuilder fb("bad_provide");
    fb.buffer("out", Int(32), 1, true);
    LoweredFunc f = fb.finish(Provide::make("g", {Expr(1)}, {Expr(0)}, const_true()));
    EXPECT_THROW(JITModule::compile(f), InternalError);
    FuncBuilder fb2("bad_undef");
    fb2.buffer("out", Int(32), 1, true);
    LoweredFunc f2 = fb2.finish(store("out", intrin(Int(32), Call::undef, {}), 0));
    EXPECT_THROW(JITModule::compile(f2), InternalError);
    FuncBuilder fb3("bad_symbol");
    fb3.buffer("out", Int(32), 1, true);
    LoweredFunc f3 = fb3.finish(store("out", var("nowhere"), 0));
    EXPECT_THROW(JITModule::compile(f3), InternalError);
    // A failed compile is not cached: compiling again throws again.
    EXPECT_THROW(JITModule::compile(f3), InternalError);
}

extern "C" int32_t codegen_test_mad(int32_t a, int32_t b, bool negate) {
    return negate ? -(a * b + 1) : a * b + 1;
}
extern "C" bool codegen_test_is_even(int32_t a) { return a % 2 == 0; }

TEST(CodegenBasic, RegisteredExternsWithBoolArgumentsAndResults) {
    FuncBuilder fb("registered_externs");
    fb.buffer("out", Int(32), 1, true);
    Expr x = var("x");
    Expr even = extern_call(Bool(), "codegen_test_is_even", {x});
    Expr v = extern_call(Int(32), "codegen_test_mad", {x, Expr(10), even});
    // An 8-lane call is scalarized per lane.
    Expr r = Ramp::make(16, 1, 8);
    Expr vv =
        extern_call(Int(32, 8), "codegen_test_mad",
                    {r, Broadcast::make(3, 8), extern_call(Bool(8), "codegen_test_is_even", {r})});
    LoweredFunc f =
        fb.finish(Block::make(loop("x", 0, 16, store("out", v, x)), store("out", vv, r)));
    std::map<std::string, void *> externs = {
        {"codegen_test_mad", (void *)&codegen_test_mad},
        {"codegen_test_is_even", (void *)&codegen_test_is_even}};
    auto m = JITModule::compile(f, externs);
    TestBuffer out(Int(32), {24});
    void *user_context = nullptr;
    void *args[] = {&user_context, out.raw()};
    ASSERT_EQ(m->argv_function()(args), 0);
    for (int i = 0; i < 16; i++)
        EXPECT_EQ(out.data<int32_t>()[i], codegen_test_mad(i, 10, i % 2 == 0));
    for (int i = 16; i < 24; i++)
        EXPECT_EQ(out.data<int32_t>()[i], codegen_test_mad(i, 3, i % 2 == 0));
    // Without the externs, the symbols are not exported by the test executable.
    EXPECT_THROW(JITModule::compile(f), CompileError);
}

TEST(CodegenBasic, MissingExternFunctionIsACompileError) {
    FuncBuilder fb("missing_extern");
    fb.buffer("out", Int(32), 1, true);
    LoweredFunc f = fb.finish(
        store("out", extern_call(Int(32), "loom_no_such_function_anywhere", {Expr(1)}), 0));
    int before = JITModule::compilation_count();
    try {
        JITModule::compile(f);
        FAIL() << "expected a CompileError";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("loom_no_such_function_anywhere"), std::string::npos)
            << e.what();
    }
    EXPECT_EQ(JITModule::compilation_count(), before);
}

} // namespace
