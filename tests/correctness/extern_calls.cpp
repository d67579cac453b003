// C functions called from expressions: HalideExtern_N / HalidePureExtern_N declare them, the JIT
// resolves them among the executable's exported symbols (ENABLE_EXPORTS), and
// Pipeline::set_jit_externs supplies functions that are not exported at all.
#include <loom/loom.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

using namespace loom;

namespace {
int impure_calls = 0;
}

extern "C" float loomtest_weighted(float a, int32_t b) { return a * 0.5f + (float)b * 2.0f; }

extern "C" int32_t loomtest_counter(int32_t x) {
    impure_calls++;
    return x + 1000;
}

extern "C" double loomtest_hyp3(double a, double b, double c) {
    return std::sqrt(a * a + b * b + c * c);
}

extern "C" uint8_t loomtest_mix5(uint8_t a, uint8_t b, uint8_t c, uint8_t d, uint8_t e) {
    return (uint8_t)(a + 2 * b + 3 * c + 4 * d + 5 * e);
}

/// The string's length, plus 1000 when it is not 32-byte aligned.
extern "C" int32_t loomtest_string_check(const char *s) {
    return (int32_t)strlen(s) + ((uintptr_t)s % 32 != 0 ? 1000 : 0);
}

HalideExtern_2(float, loomtest_weighted, float, int32_t);
HalidePureExtern_1(int32_t, loomtest_string_check, const char *);
HalideExtern_1(int32_t, loomtest_counter, int32_t);
HalidePureExtern_3(double, loomtest_hyp3, double, double, double);
HalidePureExtern_5(uint8_t, loomtest_mix5, uint8_t, uint8_t, uint8_t, uint8_t, uint8_t);

namespace {

// Not exported (internal linkage): only set_jit_externs can make the JIT find it.
int32_t hidden_affine(int32_t x, int32_t y) { return 7 * x - y; }

} // namespace

HalidePureExtern_2(int32_t, loomtest_hidden_affine, int32_t, int32_t);

TEST(ExternCalls, ImpureFloatFunctionOfTwoArguments) {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = loomtest_weighted(cast<float>(x) * 1.5f, y - 3);
    Buffer<float> out = f.realize({7, 5});
    for (int j = 0; j < 5; j++) {
        for (int i = 0; i < 7; i++) {
            EXPECT_FLOAT_EQ(out(i, j), loomtest_weighted((float)i * 1.5f, j - 3)) << i << "," << j;
        }
    }
}

TEST(ExternCalls, ImpureFunctionIsCalledOncePerPoint) {
    impure_calls = 0;
    Var x("x");
    Func f("f");
    f(x) = loomtest_counter(x) * 2;
    Buffer<int32_t> out = f.realize({12});
    for (int i = 0; i < 12; i++) EXPECT_EQ(out(i), 2 * (i + 1000));
    EXPECT_EQ(impure_calls, 12);
}

TEST(ExternCalls, PureFunctionsOfThreeAndFiveArguments) {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = loomtest_hyp3(cast<double>(x), cast<double>(y), cast<double>(Expr(2)));
    g(x) = loomtest_mix5(cast<uint8_t>(x), cast<uint8_t>(x + 1), cast<uint8_t>(2), cast<uint8_t>(x),
                         cast<uint8_t>(3));
    Buffer<double> fo = f.realize({6, 4});
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 6; i++) EXPECT_DOUBLE_EQ(fo(i, j), loomtest_hyp3(i, j, 2.0));
    }
    Buffer<uint8_t> go = g.realize({50});
    for (int i = 0; i < 50; i++) {
        EXPECT_EQ(go(i), loomtest_mix5((uint8_t)i, (uint8_t)(i + 1), 2, (uint8_t)i, 3)) << i;
    }
}

TEST(ExternCalls, StringConstantsAreAlignedHandles) {
    // As in Halide, a string constant is 32-byte aligned, so an extern may read it as wider
    // data.
    Var x("x");
    Func f("strings");
    f(x) = loomtest_string_check(Expr("hello")) + 10 * loomtest_string_check(Expr("ab"));
    Buffer<int32_t> out = f.realize({2});
    EXPECT_EQ(out(0), 5 + 10 * 2);
}

TEST(ExternCalls, ArgumentTypeIsChecked) {
    Var x("x");
    try {
        Expr e = loomtest_weighted(x, x); // the first argument must be a float
        ADD_FAILURE() << "no error";
    } catch (const CompileError &e) {
        std::string msg = e.what();
        EXPECT_NE(msg.find("loomtest_weighted"), std::string::npos) << msg;
    }
}

TEST(ExternCalls, SetJitExternsWithAStaticFunction) {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = loomtest_hidden_affine(x, y) + 1;
    Pipeline p(f);
    std::map<std::string, JITExtern> externs;
    externs.emplace("loomtest_hidden_affine", JITExtern(hidden_affine));
    p.set_jit_externs(externs);
    EXPECT_EQ(p.get_jit_externs().size(), 1u);
    Buffer<int32_t> out = p.realize({5, 6});
    for (int j = 0; j < 6; j++) {
        for (int i = 0; i < 5; i++) EXPECT_EQ(out(i, j), 7 * i - j + 1) << i << "," << j;
    }
}
