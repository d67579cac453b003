// Extern stages (Func::define_extern): a C function computes a Func over halide_buffer_t's,
// after saying, in a bounds-query call, which region of each input Func it needs. The extern
// functions are exported from this executable (ENABLE_EXPORTS) so the JIT finds them.
#include <loom/loom.h>

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

using namespace loom;

namespace {

/// What the extern functions saw.
struct Record {
    int queries = 0, runs = 0;
    int query_out_min = 0, query_out_extent = 0;
    int query_in_dims = -1;
    bool query_in_host_null = false;
    int run_in_min = 0, run_in_extent = 0, run_in_stride = 0;
    int run_out_min = 0, run_out_extent = 0;
};
Record record;

int32_t *at(halide_buffer_t *b, int x) {
    return (int32_t *)b->host + (x - b->dim[0].min) * b->dim[0].stride;
}

} // namespace

/// out(x) = in(x + 5) + in(x + 6) + in(x + 7) + offset: needs in over [min + 5, max + 7].
extern "C" int loomtest_window_sum(halide_buffer_t *in, int offset, halide_buffer_t *out) {
    if (in->is_bounds_query()) {
        record.queries++;
        record.query_out_min = out->dim[0].min;
        record.query_out_extent = out->dim[0].extent;
        record.query_in_dims = in->dimensions;
        record.query_in_host_null = in->host == nullptr;
        in->dim[0].min = out->dim[0].min + 5;
        in->dim[0].extent = out->dim[0].extent + 2;
        return 0;
    }
    record.runs++;
    record.run_in_min = in->dim[0].min;
    record.run_in_extent = in->dim[0].extent;
    record.run_in_stride = in->dim[0].stride;
    record.run_out_min = out->dim[0].min;
    record.run_out_extent = out->dim[0].extent;
    for (int x = out->dim[0].min; x < out->dim[0].min + out->dim[0].extent; x++) {
        *at(out, x) = *at(in, x + 5) + *at(in, x + 6) + *at(in, x + 7) + offset;
    }
    return 0;
}

/// out(x, y) = a(x, y) * w + b(x, y) * (1 - w), a a Func, b a Buffer, w a Param.
extern "C" int loomtest_blend(halide_buffer_t *a, halide_buffer_t *b, float w,
                              halide_buffer_t *out) {
    if (a->is_bounds_query()) {
        for (int d = 0; d < 2; d++) {
            a->dim[d].min = out->dim[d].min;
            a->dim[d].extent = out->dim[d].extent;
        }
        return 0;
    }
    auto elem = [](halide_buffer_t *buf, int x, int y) {
        return (float *)buf->host + (x - buf->dim[0].min) * buf->dim[0].stride +
               (y - buf->dim[1].min) * buf->dim[1].stride;
    };
    for (int y = out->dim[1].min; y < out->dim[1].min + out->dim[1].extent; y++) {
        for (int x = out->dim[0].min; x < out->dim[0].min + out->dim[0].extent; x++) {
            *elem(out, x, y) = *elem(a, x, y) * w + *elem(b, x, y) * (1 - w);
        }
    }
    return 0;
}

/// Fails the run (but answers the query).
extern "C" int loomtest_failing(halide_buffer_t *in, halide_buffer_t *out) {
    if (in->is_bounds_query()) {
        in->dim[0].min = out->dim[0].min;
        in->dim[0].extent = out->dim[0].extent;
        return 0;
    }
    return -7;
}

/// Fails the bounds query.
extern "C" int loomtest_failing_query(halide_buffer_t *in, halide_buffer_t *out) {
    return in->is_bounds_query() ? 3 : 0;
}

/// out(x) = x * 3, no inputs: a producer of an extern stage's own.
extern "C" int loomtest_iota3(halide_buffer_t *out) {
    if (out->is_bounds_query()) return 0;
    for (int x = out->dim[0].min; x < out->dim[0].min + out->dim[0].extent; x++)
        *at(out, x) = x * 3;
    return 0;
}

/// Reads an ImageParam: asks for [min - 1, max + 1] of it when it is itself a query buffer.
extern "C" int loomtest_image_reader(halide_buffer_t *in, halide_buffer_t *out) {
    if (out->is_bounds_query()) {
        if (in->is_bounds_query()) {
            in->dim[0].min = out->dim[0].min - 1;
            in->dim[0].extent = out->dim[0].extent + 2;
        }
        return 0;
    }
    for (int x = out->dim[0].min; x < out->dim[0].min + out->dim[0].extent; x++) {
        *at(out, x) = *at(in, x - 1) + *at(in, x + 1);
    }
    return 0;
}

/// Two outputs: out0(x) = in(x) + 1, out1(x) = in(x) * 0.5 (in needs the same region).
extern "C" int loomtest_two_outputs(halide_buffer_t *in, halide_buffer_t *out0,
                                    halide_buffer_t *out1) {
    if (in->is_bounds_query()) {
        in->dim[0].min = out0->dim[0].min;
        in->dim[0].extent = out0->dim[0].extent;
        return 0;
    }
    for (int x = out0->dim[0].min; x < out0->dim[0].min + out0->dim[0].extent; x++) {
        *at(out0, x) = *at(in, x) + 1;
        ((float *)out1->host)[(x - out1->dim[0].min) * out1->dim[0].stride] = *at(in, x) * 0.5f;
    }
    return 0;
}

/// out(x) = x + offset, no inputs.
extern "C" int loomtest_hidden_iota(int offset, halide_buffer_t *out) {
    if (out->is_bounds_query()) return 0;
    for (int x = out->dim[0].min; x < out->dim[0].min + out->dim[0].extent; x++)
        *at(out, x) = x + offset;
    return 0;
}

TEST(ExternStages, BoundsQueryDecidesTheInputRegion) {
    record = Record();
    Var x("x");
    Func g("g"), f("f"), h("h");
    g(x) = x * x;
    g.compute_root();
    f.define_extern("loomtest_window_sum", {g, 100}, Int(32), 1);
    f.compute_root();
    h(x) = f(x) * 2;
    Buffer<int32_t> out = h.realize({10});
    for (int i = 0; i < 10; i++) {
        int ref = (i + 5) * (i + 5) + (i + 6) * (i + 6) + (i + 7) * (i + 7) + 100;
        EXPECT_EQ(out(i), 2 * ref) << i;
    }
    // The query described the output region and a bounds-query input of g's shape.
    EXPECT_GE(record.queries, 1);
    EXPECT_EQ(record.query_out_min, 0);
    EXPECT_EQ(record.query_out_extent, 10);
    EXPECT_EQ(record.query_in_dims, 1);
    EXPECT_TRUE(record.query_in_host_null);
    // g was computed over exactly the region the query asked for, not f's region.
    EXPECT_EQ(record.runs, 1);
    EXPECT_EQ(record.run_in_min, 5);
    EXPECT_EQ(record.run_in_extent, 12);
    EXPECT_EQ(record.run_in_stride, 1);
    EXPECT_EQ(record.run_out_min, 0);
    EXPECT_EQ(record.run_out_extent, 10);
}

TEST(ExternStages, ExternComputedInsideALoop) {
    // f at h's tiles: one call per tile over the tile's region, its input g computed at the
    // root or per tile over what the query asked for (the union of the tiles' regions).
    for (bool g_per_tile : {false, true}) {
        record = Record();
        Var x("x"), xo("xo"), xi("xi");
        Func g("g_tiles"), f("f_tiles"), h("h_tiles");
        g(x) = x * 3;
        f.define_extern("loomtest_window_sum", {g, 1}, Int(32), 1);
        h(x) = f(x) - 1;
        h.split(x, xo, xi, 4);
        f.compute_at(h, xo);
        if (g_per_tile) {
            g.compute_at(h, xo);
        } else {
            g.compute_root();
        }
        Buffer<int32_t> out = h.realize({12});
        for (int i = 0; i < 12; i++) {
            EXPECT_EQ(out(i), 3 * (i + 5) + 3 * (i + 6) + 3 * (i + 7) + 1 - 1) << i;
        }
        EXPECT_EQ(record.runs, 3);
        EXPECT_EQ(record.run_out_extent, 4);
        EXPECT_EQ(record.run_out_min, 8);
        EXPECT_LE(record.run_in_min, 13);
        EXPECT_GE(record.run_in_min + record.run_in_extent, 19);
    }
}

TEST(ExternStages, OutputExternStageWithShiftedOutput) {
    record = Record();
    Var x("x");
    Func g("g"), f("f");
    g(x) = x + 1;
    g.compute_root();
    f.define_extern("loomtest_window_sum", {g, 0}, Int(32), 1);
    Buffer<int32_t> out(6);
    out.set_min(-3);
    f.realize(out);
    for (int i = -3; i < 3; i++) EXPECT_EQ(out(i), (i + 6) + (i + 7) + (i + 8)) << i;
    EXPECT_EQ(record.query_out_min, -3);
    EXPECT_EQ(record.query_out_extent, 6);
    EXPECT_EQ(record.run_in_min, 2);
    EXPECT_EQ(record.run_in_extent, 8);
}

TEST(ExternStages, FuncBufferAndParamArguments) {
    Var x("x"), y("y");
    const int W = 9, H = 7;
    Buffer<float> b(W, H);
    for (int j = 0; j < H; j++) {
        for (int i = 0; i < W; i++) b(i, j) = (float)(i * 10 + j);
    }
    Param<float> w("w");
    w.set(0.25f);
    Func a("a"), f("f"), h("h");
    a(x, y) = cast<float>(x - y);
    a.compute_root();
    f.define_extern("loomtest_blend", {a, b, w}, Float(32), {x, y});
    f.compute_root();
    h(x, y) = f(x, y) + 1.0f;
    Buffer<float> out = h.realize({W, H});
    for (int j = 0; j < H; j++) {
        for (int i = 0; i < W; i++) {
            float ref = (float)(i - j) * 0.25f + (float)(i * 10 + j) * 0.75f + 1.0f;
            EXPECT_FLOAT_EQ(out(i, j), ref) << i << "," << j;
        }
    }
    // A new Param value reaches the extern without recompiling.
    w.set(1.0f);
    out = h.realize({W, H});
    EXPECT_FLOAT_EQ(out(3, 2), 2.0f);
}

TEST(ExternStages, UnscheduledExternStageAndChain) {
    // An extern stage consuming another extern stage; f is not scheduled: Loom computes it at
    // the root (Halide computes it inside its consumer's loop; the values are the same).
    record = Record();
    Var x("x");
    Func src("src"), f("f"), h("h");
    src.define_extern("loomtest_iota3", {}, Int(32), 1);
    src.compute_root();
    f.define_extern("loomtest_window_sum", {src, 1}, Int(32), 1);
    h(x) = f(x) - 1;
    Buffer<int32_t> out = h.realize({5});
    for (int i = 0; i < 5; i++) EXPECT_EQ(out(i), 3 * ((i + 5) + (i + 6) + (i + 7))) << i;
    EXPECT_EQ(record.run_in_min, 5);
    EXPECT_EQ(record.run_in_extent, 7);
}

TEST(ExternStages, ImageParamInputAndInferInputBounds) {
    Var x("x");
    ImageParam in(Int(32), 1, "in");
    Func f("f");
    f.define_extern("loomtest_image_reader", {in}, Int(32), 1);
    // The extern answers the query for the unbound ImageParam.
    f.infer_input_bounds({8});
    Buffer<int32_t> bound = in.get();
    ASSERT_TRUE(bound.defined());
    EXPECT_EQ(bound.dim(0).min(), -1);
    EXPECT_EQ(bound.dim(0).extent(), 10);
    for (int i = -1; i < 9; i++) bound(i) = i * i;
    Buffer<int32_t> out = f.realize({8});
    for (int i = 0; i < 8; i++) EXPECT_EQ(out(i), (i - 1) * (i - 1) + (i + 1) * (i + 1)) << i;
}

TEST(ExternStages, InferInputBoundsThroughAnExternQuery) {
    // The region of `in` the pipeline needs comes from the extern's answer for g.
    Var x("x");
    ImageParam in(Int(32), 1, "in");
    Func g("g"), f("f");
    g(x) = in(x)*2;
    g.compute_root();
    f.define_extern("loomtest_window_sum", {g, 0}, Int(32), 1);
    f.infer_input_bounds({10});
    Buffer<int32_t> bound = in.get();
    ASSERT_TRUE(bound.defined());
    EXPECT_EQ(bound.dim(0).min(), 5);
    EXPECT_EQ(bound.dim(0).extent(), 12);
    for (int i = 5; i < 17; i++) bound(i) = i;
    Buffer<int32_t> out = f.realize({10});
    for (int i = 0; i < 10; i++) EXPECT_EQ(out(i), 2 * ((i + 5) + (i + 6) + (i + 7))) << i;
}

TEST(ExternStages, FailingExternThrowsNamingIt) {
    Var x("x");
    Func g("g"), f("f");
    g(x) = x;
    g.compute_root();
    f.define_extern("loomtest_failing", {g}, Int(32), 1);
    try {
        f.realize({4});
        ADD_FAILURE() << "no exception";
    } catch (const RuntimeError &e) {
        std::string msg = e.what();
        EXPECT_NE(msg.find("loomtest_failing"), std::string::npos) << msg;
        EXPECT_NE(msg.find("-7"), std::string::npos) << msg;
    }
}

TEST(ExternStages, FailingBoundsQueryThrowsNamingIt) {
    Var x("x");
    Func g("g"), f("f");
    g(x) = x;
    g.compute_root();
    f.define_extern("loomtest_failing_query", {g}, Int(32), 1);
    try {
        f.realize({4});
        ADD_FAILURE() << "no exception";
    } catch (const RuntimeError &e) {
        std::string msg = e.what();
        EXPECT_NE(msg.find("Bounds inference call to external stage loomtest_failing_query"),
                  std::string::npos)
            << msg;
    }
}

namespace {
std::string captured_error;
int error_calls = 0;
} // namespace

TEST(ExternStages, FailingExternWithCustomErrorHandlerDoesNotThrow) {
    captured_error.clear();
    error_calls = 0;
    Var x("x");
    Func g("g"), f("f");
    g(x) = x;
    g.compute_root();
    f.define_extern("loomtest_failing", {g}, Int(32), 1);
    f.jit_handlers().custom_error = [](JITUserContext *, const char *msg) {
        error_calls++;
        captured_error = msg;
    };
    EXPECT_NO_THROW(f.realize({4}));
    EXPECT_EQ(error_calls, 1);
    EXPECT_NE(
        captured_error.find("Call to external stage loomtest_failing returned non-zero value"),
        std::string::npos)
        << captured_error;
}

TEST(ExternStages, TupleOutputs) {
    Var x("x");
    Func g("g"), f("f"), h("h");
    g(x) = x * 4;
    g.compute_root();
    f.define_extern("loomtest_two_outputs", {g}, {Int(32), Float(32)}, 1);
    f.compute_root();
    h(x) = cast<float>(f(x)[0]) + f(x)[1];
    Buffer<float> out = h.realize({6});
    for (int i = 0; i < 6; i++) EXPECT_FLOAT_EQ(out(i), (float)(i * 4 + 1) + i * 2.0f) << i;
    // As a pipeline output: one buffer per element.
    Realization r = f.realize({5});
    Buffer<int32_t> r0 = r[0];
    Buffer<float> r1 = r[1];
    for (int i = 0; i < 5; i++) {
        EXPECT_EQ(r0(i), i * 4 + 1);
        EXPECT_FLOAT_EQ(r1(i), i * 2.0f);
    }
}

namespace {
// Not exported: reached only through set_jit_externs.
int hidden_stage(int offset, halide_buffer_t *out) { return loomtest_hidden_iota(offset, out); }
} // namespace

TEST(ExternStages, JitExternsResolveExternStages) {
    Var x("x");
    Func f("f"), h("h");
    f.define_extern("loomtest_not_exported_stage", {Expr(7)}, Int(32), 1);
    h(x) = f(x) * 3;
    Pipeline p(h);
    std::map<std::string, JITExtern> externs;
    externs.emplace("loomtest_not_exported_stage", JITExtern(hidden_stage));
    p.set_jit_externs(externs);
    Buffer<int32_t> out = p.realize({4});
    for (int i = 0; i < 4; i++) EXPECT_EQ(out(i), (i + 7) * 3) << i;
}

TEST(ExternStages, IsExternAndArguments) {
    Var x("x");
    Func g("g"), f("f");
    g(x) = x;
    f.define_extern("loomtest_window_sum", {g, 3}, Int(32), 1);
    EXPECT_TRUE(f.is_extern());
    EXPECT_FALSE(g.is_extern());
    EXPECT_EQ(f.dimensions(), 1);
    EXPECT_EQ(f.type(), Int(32));
    EXPECT_EQ(f.outputs(), 1);
    ExternFuncArgument a = g, b = Expr(3), c = 2.5f;
    EXPECT_TRUE(a.is_func());
    EXPECT_TRUE(b.is_expr());
    EXPECT_TRUE(c.is_expr());
    EXPECT_FALSE(ExternFuncArgument().defined());
}
