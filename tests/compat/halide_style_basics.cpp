// A program written as a Halide user writes it: `#include "Halide.h"`, `using namespace
// Halide;`, Halide's names only. It must build against include/compat unchanged.
#include "Halide.h"

#include <gtest/gtest.h>

using namespace Halide;

TEST(HalideStyle, GradientLikeTutorialLessonOne) {
    Func gradient;
    Var x, y;
    Expr e = x + y;
    gradient(x, y) = e;
    Buffer<int32_t> output = gradient.realize({800, 600});
    for (int j = 0; j < output.height(); j++) {
        for (int i = 0; i < output.width(); i++) {
            ASSERT_EQ(output(i, j), i + j) << i << ", " << j;
        }
    }
}

TEST(HalideStyle, TuplesLikeTutorialLessonThirteen) {
    Func multi_valued;
    Var x, y;
    multi_valued(x, y) = Tuple(x + y, sin(x * y));
    Realization r = multi_valued.realize({80, 60});
    ASSERT_EQ(r.size(), (size_t)2);
    Buffer<int> im0 = r[0];
    Buffer<float> im1 = r[1];
    EXPECT_EQ(im0(30, 40), 30 + 40);
    EXPECT_NEAR(im1(30, 40), sinf(30 * 40), 1e-5f);

    // A Tuple-valued reduction: argmax over a 1-D input.
    Func input_func;
    input_func(x) = sin(x);
    Func arg_max;
    arg_max() = Tuple(0, input_func(0));
    RDom r2(1, 99);
    Expr old_index = arg_max()[0];
    Expr old_max = arg_max()[1];
    Expr new_index = select(old_max < input_func(r2), r2, old_index);
    Expr new_max = max(input_func(r2), old_max);
    arg_max() = Tuple(new_index, new_max);
    int best_index = 0;
    float best_value = sinf(0);
    for (int i = 1; i < 100; i++) {
        if (sinf(i) > best_value) {
            best_value = sinf(i);
            best_index = i;
        }
    }
    Realization am = arg_max.realize();
    Buffer<int> idx = am[0];
    Buffer<float> val = am[1];
    EXPECT_EQ(idx(), best_index);
    EXPECT_NEAR(val(), best_value, 1e-6f);
}

TEST(HalideStyle, TypesLikeTutorialLessonFourteen) {
    Var x;
    // Halide's type rules.
    EXPECT_TRUE(Expr(cast<uint8_t>(x)).type() == UInt(8));
    EXPECT_TRUE((cast<uint8_t>(x) + 1).type() == UInt(8));
    EXPECT_TRUE((cast<uint8_t>(x) + cast<int16_t>(x)).type() == Int(16));
    EXPECT_TRUE((cast<float>(x) + 1).type() == Float(32));
    EXPECT_TRUE((x + 1.5f).type() == Float(32));
    EXPECT_TRUE((cast<double>(x) + 1.5f).type() == Float(64));
    EXPECT_TRUE((cast<int8_t>(x) + cast<uint8_t>(x)).type() == Int(8) ||
                (cast<int8_t>(x) + cast<uint8_t>(x)).type() == UInt(8));
    Type t = UInt(8);
    EXPECT_EQ(t.bits(), 8);
    EXPECT_TRUE(t.is_uint());
    EXPECT_TRUE(t.with_bits(16) == UInt(16));
    EXPECT_TRUE(Int(32).max().type() == Int(32));

    // uint8 arithmetic wraps, as in C.
    Func f;
    f(x) = cast<uint8_t>(x) * cast<uint8_t>(3);
    Buffer<uint8_t> out = f.realize({256});
    for (int i = 0; i < 256; i++) EXPECT_EQ(out(i), (uint8_t)(i * 3));
}

TEST(HalideStyle, ImageParamAndParam) {
    ImageParam input(type_of<uint8_t>(), 2);
    Param<uint8_t> offset;
    Func brighter;
    Var x, y;
    brighter(x, y) = input(x, y) + offset;
    Buffer<uint8_t> in(16, 8);
    in.for_each_element([&](int i, int j) { in(i, j) = (uint8_t)(i * 16 + j); });
    input.set(in);
    offset.set(250);
    Buffer<uint8_t> out = brighter.realize({16, 8});
    for (int j = 0; j < 8; j++)
        for (int i = 0; i < 16; i++) EXPECT_EQ(out(i, j), (uint8_t)(i * 16 + j + 250));
}

TEST(HalideStyle, EvaluateAndLambda) {
    EXPECT_EQ(evaluate<int>(Expr(3) * 7 + 1), 22);
    Var x, y;
    Func l = lambda(x, y, x * y + 1);
    Buffer<int> out = l.realize({4, 5});
    EXPECT_EQ(out(3, 4), 13);
}

TEST(HalideStyle, BufferMinsFromAList) {
    // Halide code writes b.set_min(x_min, y_min) (Halide::Buffer does not take a braced list,
    // Loom's does too); the realization then covers the shifted box.
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + 100 * y;
    Buffer<int> out(4, 3);
    out.set_min(9, -6);
    EXPECT_EQ(out.dim(0).min(), 9);
    EXPECT_EQ(out.dim(1).min(), -6);
    f.realize(out);
    for (int j = -6; j < -3; j++) {
        for (int i = 9; i < 13; i++) EXPECT_EQ(out(i, j), i + 100 * j);
    }
}
