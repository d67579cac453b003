// End-to-end: small pipelines lowered, JIT-compiled and run, against naive C++ loops.
#include <loom/loom.h>

#include "driver/jit.h"

#include "common/unique_names.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

using namespace loom;

TEST(Realize, SumOfCoordinates) {
    Func f("f");
    Var x("x"), y("y");
    f(x, y) = x + y;
    Buffer<int32_t> out = f.realize({7, 5});
    ASSERT_EQ(out.width(), 7);
    ASSERT_EQ(out.height(), 5);
    for (int j = 0; j < 5; j++)
        for (int i = 0; i < 7; i++) EXPECT_EQ(out(i, j), i + j);
}

TEST(Realize, BlurWithComputeRootAndInline) {
    const int W = 20, H = 14;
    Buffer<uint16_t> in(W + 2, H + 2);
    for (int j = 0; j < H + 2; j++)
        for (int i = 0; i < W + 2; i++) in(i, j) = (uint16_t)((i * 37 + j * 101) % 1000);
    Func input("input"), blur_x("blur_x"), blur_y("blur_y");
    Var x("x"), y("y");
    input(x, y) = in(x, y); // inlined
    blur_x(x, y) = (input(x, y) + input(x + 1, y) + input(x + 2, y)) / 3;
    blur_y(x, y) = (blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 3;
    blur_x.compute_root();
    Buffer<uint16_t> out = blur_y.realize({W, H});
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            auto bx = [&](int a, int b) { return (in(a, b) + in(a + 1, b) + in(a + 2, b)) / 3; };
            int e = (bx(i, j) + bx(i, j + 1) + bx(i, j + 2)) / 3;
            ASSERT_EQ(out(i, j), e) << i << ", " << j;
        }
}

TEST(Realize, HistogramUpdateWithRDom) {
    Buffer<uint8_t> in(33, 17);
    for (int j = 0; j < 17; j++)
        for (int i = 0; i < 33; i++) in(i, j) = (uint8_t)((i * i + 7 * j) % 256);
    Func hist("hist");
    Var x("x");
    RDom r(0, 33, 0, 17);
    hist(x) = 0;
    hist(in(r.x, r.y)) += 1;
    Buffer<int32_t> out = hist.realize({256});
    std::vector<int> e(256, 0);
    for (int j = 0; j < 17; j++)
        for (int i = 0; i < 33; i++) e[in(i, j)]++;
    for (int v = 0; v < 256; v++) EXPECT_EQ(out(v), e[v]) << v;
}

TEST(Realize, InlineSumIsARegisterAccumulator) {
    Buffer<float> in(10, 6);
    for (int j = 0; j < 6; j++)
        for (int i = 0; i < 10; i++) in(i, j) = i * 0.5f - j;
    Func rowsum("rowsum");
    Var y("y");
    RDom r(0, 10);
    rowsum(y) = sum(in(r, y)) * 2.0f;
    Buffer<float> out = rowsum.realize({6});
    for (int j = 0; j < 6; j++) {
        float e = 0;
        for (int i = 0; i < 10; i++) e += in(i, j);
        EXPECT_FLOAT_EQ(out(j), e * 2.0f);
    }
}

TEST(Realize, TupleOutputs) {
    Func f("f");
    Var x("x");
    f(x) = Tuple(x * 3, cast<float>(x) / 2.0f);
    Realization r = f.realize({9});
    ASSERT_EQ(r.size(), 2u);
    Buffer<int32_t> a = r[0];
    Buffer<float> b = r[1];
    for (int i = 0; i < 9; i++) {
        EXPECT_EQ(a(i), i * 3);
        EXPECT_FLOAT_EQ(b(i), i / 2.0f);
    }
}

TEST(Realize, FloatParam) {
    Param<float> scale("scale");
    Func f("f");
    Var x("x");
    f(x) = cast<float>(x) * scale;
    scale.set(1.5f);
    Buffer<float> a = f.realize({5});
    scale.set(-2.0f);
    Buffer<float> b = f.realize({5});
    for (int i = 0; i < 5; i++) {
        EXPECT_FLOAT_EQ(a(i), i * 1.5f);
        EXPECT_FLOAT_EQ(b(i), i * -2.0f);
    }
}

TEST(Realize, IntoExistingBufferWithShiftedOrigin) {
    Func f("f");
    Var x("x"), y("y");
    f(x, y) = x * 10 + y;
    Buffer<int32_t> out(4, 3);
    out.set_min(-2, 5);
    f.realize(out);
    for (int j = 5; j < 8; j++)
        for (int i = -2; i < 2; i++) EXPECT_EQ(out(i, j), i * 10 + j);
}

TEST(Realize, MultiOutputPipeline) {
    Func a("a"), b("b");
    Var x("x");
    a(x) = x + 1;
    b(x) = a(x) * 2;
    Pipeline p({a, b});
    Realization r = p.realize({6});
    ASSERT_EQ(r.size(), 2u);
    Buffer<int32_t> ra = r[0], rb = r[1];
    for (int i = 0; i < 6; i++) {
        EXPECT_EQ(ra(i), i + 1);
        EXPECT_EQ(rb(i), (i + 1) * 2);
    }
}

TEST(Realize, ZeroDimensionalFunc) {
    Func f("f");
    f() = 42;
    Buffer<int32_t> out = f.realize();
    EXPECT_EQ(out(), 42);
}

TEST(Realize, ImageParamInput) {
    ImageParam im(Int(32), 2, "im");
    Func f("f");
    Var x("x"), y("y");
    f(x, y) = im(x, y) * 2 + im(x + 1, y);
    Buffer<int32_t> in(9, 4);
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 9; i++) in(i, j) = i - 3 * j;
    im.set(in);
    Buffer<int32_t> out = f.realize({8, 4});
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 8; i++) EXPECT_EQ(out(i, j), in(i, j) * 2 + in(i + 1, j));
}

TEST(Realize, RandomIsDeterministicPerPoint) {
    Func f("f");
    Var x("x");
    f(x) = random_float();
    Buffer<float> a = f.realize({100});
    Buffer<float> b = f.realize({100});
    double mean = 0;
    for (int i = 0; i < 100; i++) {
        EXPECT_EQ(a(i), b(i));
        EXPECT_GE(a(i), 0.0f);
        EXPECT_LT(a(i), 1.0f);
        mean += a(i);
    }
    EXPECT_NEAR(mean / 100, 0.5, 0.15);
    EXPECT_NE(a(0), a(1));
}

TEST(Errors, InputTooSmallNamesBufferDimensionAndRegion) {
    ImageParam im(UInt(8), 1, "tiny");
    Func f("f");
    Var x("x");
    f(x) = im(x + 2);
    Buffer<uint8_t> in(10);
    im.set(in);
    try {
        f.realize({10});
        FAIL() << "expected a RuntimeError";
    } catch (const RuntimeError &e) {
        std::string msg = e.what();
        EXPECT_NE(msg.find("tiny"), std::string::npos) << msg;
        EXPECT_NE(msg.find("11"), std::string::npos) << msg; // the max touched
        EXPECT_NE(msg.find("9"), std::string::npos) << msg;  // the max valid
        EXPECT_NE(msg.find("0"), std::string::npos) << msg;  // dimension 0
    }
}

TEST(Errors, WrongNumberOfRealizeDimensions) {
    Func f("twod");
    Var x("x"), y("y");
    f(x, y) = x;
    try {
        f.realize({10});
        FAIL() << "expected a CompileError";
    } catch (const CompileError &e) {
        std::string msg = e.what();
        EXPECT_NE(msg.find("twod"), std::string::npos) << msg;
        EXPECT_NE(msg.find("2"), std::string::npos) << msg;
        EXPECT_NE(msg.find("1"), std::string::npos) << msg;
    }
}

TEST(Errors, UndefinedFuncAndUnboundImageParam) {
    Func undefined("nothing");
    EXPECT_THROW(undefined.realize({4}), CompileError);
    ImageParam im(Float(32), 1, "unbound_input");
    Func f("f");
    Var x("x");
    f(x) = im(x);
    try {
        f.realize({4});
        FAIL() << "expected a CompileError";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("unbound_input"), std::string::npos) << e.what();
    }
}

TEST(Errors, RequirementFails) {
    Param<int> p("p");
    Func f("f");
    Var x("x");
    f(x) = x + p;
    Pipeline pipe(f);
    pipe.add_requirement(p > 0, "p must be positive, got ", p);
    p.set(3);
    Realization ok = pipe.realize({3});
    EXPECT_EQ(Buffer<int32_t>(ok)(2), 5);
    p.set(-1);
    try {
        pipe.realize({3});
        FAIL() << "expected a RuntimeError";
    } catch (const RuntimeError &e) {
        EXPECT_NE(std::string(e.what()).find("positive"), std::string::npos) << e.what();
    }
}

TEST(JITCache, SecondRealizeDoesNotRecompile) {
    Func f("cached");
    Var x("x");
    f(x) = x * 7;
    Buffer<int32_t> a = f.realize({10});
    int count = internal::JITModule::compilation_count();
    Buffer<int32_t> b = f.realize({20});
    EXPECT_EQ(internal::JITModule::compilation_count(), count);
    EXPECT_EQ(b(19), 133);
}

TEST(JITCache, ChangedDefinitionRecompiles) {
    Func f("changing");
    Var x("x");
    f(x) = x;
    f.realize({4});
    int count = internal::JITModule::compilation_count();
    f(x) = f(x) + 5; // an update: the Function's version changes
    Buffer<int32_t> out = f.realize({4});
    EXPECT_EQ(out(3), 8);
    EXPECT_GT(internal::JITModule::compilation_count(), count);
}

TEST(InferInputBounds, AllocatesTheRequiredRegion) {
    ImageParam im(Int(16), 2, "img");
    Func f("f");
    Var x("x"), y("y");
    f(x, y) = im(x - 1, y) + im(x + 2, y * 2);
    f.infer_input_bounds({10, 5});
    Buffer<void> b = im.get();
    ASSERT_TRUE(b.defined());
    EXPECT_EQ(b.dimensions(), 2);
    EXPECT_EQ(b.min(0), -1);
    EXPECT_EQ(b.extent(0), 13);
    EXPECT_EQ(b.min(1), 0);
    EXPECT_EQ(b.extent(1), 9);
    // It runs with the inferred input.
    Buffer<int16_t> in = b;
    in.fill(1);
    Buffer<int16_t> out = f.realize({10, 5});
    EXPECT_EQ(out(3, 3), 2);
}

TEST(Introspection, InferArgumentsOrderAndLoopNest) {
    ImageParam b_in(UInt(8), 1, "b_in"), a_in(UInt(8), 1, "a_in");
    Param<int> zp("zp"), ap("ap");
    Func f("f");
    Var x("x");
    f(x) = b_in(x) + a_in(x) + cast<uint8_t>(zp + ap);
    std::vector<Argument> args = f.infer_arguments();
    ASSERT_EQ(args.size(), 4u);
    // Halide's order: buffers first, then scalars, each by name.
    EXPECT_EQ(args[0].name, "a_in");
    EXPECT_EQ(args[1].name, "b_in");
    EXPECT_EQ(args[2].name, "ap");
    EXPECT_EQ(args[3].name, "zp");
    EXPECT_TRUE(args[0].is_buffer());
    EXPECT_FALSE(args[3].is_buffer());

    testing::internal::CaptureStderr();
    f.print_loop_nest();
    std::string nest = without_unique_suffixes(testing::internal::GetCapturedStderr());
    EXPECT_EQ(nest, "produce f:\n  for x:\n    f(...) = ...\n");
}

TEST(Introspection, CompileToLoweredStmt) {
    Func f("stmt_out");
    Var x("x");
    f(x) = x * 2;
    std::string path = testing::TempDir() + "/loom_lowered_stmt.txt";
    f.compile_to_lowered_stmt(path, {});
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string t = ss.str();
    EXPECT_NE(t.find("for (stmt_out.s0.x"), std::string::npos) << t;
    EXPECT_NE(t.find("stmt_out["), std::string::npos) << t;
    std::remove(path.c_str());
}

TEST(Errors, ParamOutOfRange) {
    Param<int> p("bounded_p", 5, 0, 10);
    Func f("f");
    Var x("x");
    f(x) = x * p;
    Buffer<int32_t> ok = f.realize({4});
    EXPECT_EQ(ok(3), 15);
    p.set(11);
    try {
        f.realize({4});
        FAIL() << "expected a RuntimeError";
    } catch (const RuntimeError &e) {
        EXPECT_NE(std::string(e.what()).find("bounded_p"), std::string::npos) << e.what();
    }
}

TEST(Constraints, OutputBufferConstraintsAreChecked) {
    Func f("constrained_out");
    Var x("x"), y("y");
    f(x, y) = x + y;
    f.output_buffer().dim(0).set_min(0).dim(1).set_extent(3);
    Buffer<int32_t> good(5, 3);
    f.realize(good);
    EXPECT_EQ(good(4, 2), 6);
    Buffer<int32_t> bad(5, 4);
    EXPECT_THROW(f.realize(bad), RuntimeError);
    Buffer<int32_t> shifted(5, 3);
    shifted.set_min(1, 0);
    EXPECT_THROW(f.realize(shifted), RuntimeError);
}

TEST(Constraints, OutputsAreDenseByDefault) {
    Func f("dense_out");
    Var x("x"), y("y");
    f(x, y) = x * 10 + y;
    // A transposed view has a non-unit innermost stride: refused, as in Halide...
    Buffer<int32_t> base(4, 6);
    Buffer<int32_t> t = base.transposed(0, 1);
    EXPECT_THROW(f.realize(t), RuntimeError);
    // ...unless the output buffer's stride constraint is lifted.
    f.output_buffer().dim(0).set_stride(Expr());
    f.realize(t);
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 6; i++) EXPECT_EQ(t(i, j), i * 10 + j);
}

TEST(Realize, BoolOutput) {
    Func f("flags");
    Var x("x");
    f(x) = (x % 3) == 0;
    Buffer<bool> out = f.realize({7});
    for (int i = 0; i < 7; i++) EXPECT_EQ(out(i), i % 3 == 0) << i;
}

TEST(BoundsQuery, OutputQueryGetsItsRegionAndInputsTheirs) {
    // A raw bounds query through realize: the compiled code fills the shapes, runs nothing.
    ImageParam im(Float(32), 1, "q_in");
    Func f("q_out");
    Var x("x");
    f(x) = im(x * 2) + im(x * 2 + 1);
    Buffer<float> in(20);
    in.fill(1.0f);
    im.set(in);
    halide_dimension_t dim(3, 5, 1);
    halide_buffer_t query{};
    query.type = halide_type_t(halide_type_float, 32);
    query.dimensions = 1;
    query.dim = &dim;
    f.realize(&query);
    EXPECT_EQ(query.host, nullptr);
    EXPECT_EQ(dim.min, 3);
    EXPECT_EQ(dim.extent, 5);
}

TEST(InferInputBounds, HonoursMinConstraints) {
    ImageParam im(Int(32), 1, "cmin");
    im.dim(0).set_min(0);
    Func f("f");
    Var x("x");
    f(x) = im(x + 3);
    f.infer_input_bounds({5});
    Buffer<void> b = im.get();
    ASSERT_TRUE(b.defined());
    EXPECT_EQ(b.min(0), 0);
    EXPECT_EQ(b.extent(0), 8);
    Buffer<int32_t> in = b;
    for (int i = 0; i < 8; i++) in(i) = i * i;
    Buffer<int32_t> out = f.realize({5});
    EXPECT_EQ(out(4), 49);
}
