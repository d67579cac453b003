// Pipeline::compile_to_callable and Callable (built against Loom and, as
// compat_halide_callable_halide, against Halide 21): arguments in the listed order then the
// outputs, with or without a JITUserContext; std::function wrappers; wrong arguments and
// failing input checks throw, or reach a custom error handler and return a nonzero code.
#include "Halide.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <thread>
#include <vector>

using namespace Halide;

namespace {

std::string handled;
void record_error(JITUserContext *, const char *msg) { handled += msg; }

struct Scaled {
    ImageParam in{Int(32), 1, "callable_in"};
    Param<int> k{"callable_k"};
    Param<float> offset{"callable_offset"};
    Var x{"x"};
    Func f{"callable_scaled"};
    Scaled() { f(x) = cast<int>(in(x)*k + offset); }
};

Buffer<int> ramp(int n) {
    Buffer<int> b(n);
    for (int i = 0; i < n; i++) b(i) = i;
    return b;
}

} // namespace

TEST(HalideCallable, ArgumentsInTheListedOrder) {
    Scaled p;
    // The listed order, not the order of use.
    Callable c = p.f.compile_to_callable({p.offset, p.in, p.k});
    EXPECT_TRUE(c.defined());
    EXPECT_FALSE(Callable().defined());
    Buffer<int> in = ramp(10), out(10);
    EXPECT_EQ(c(0.5f, in, 3, out), 0);
    for (int i = 0; i < 10; i++) EXPECT_EQ(out(i), 3 * i) << i;
    // The Params' own values play no part; each call takes its own.
    EXPECT_EQ(c(10.25f, in, -2, out), 0);
    for (int i = 0; i < 10; i++) EXPECT_EQ(out(i), (int)(-2 * i + 10.25f)) << i;
    // With a context first, and with raw halide_buffer_t pointers.
    JITUserContext ctx;
    EXPECT_EQ(c(&ctx, 0.0f, in.raw_buffer(), 7, out.raw_buffer()), 0);
    EXPECT_EQ(out(9), 63);
}

TEST(HalideCallable, StdFunctionsAndSeveralOutputs) {
    Scaled p;
    Callable c = p.f.compile_to_callable({p.in, p.k, p.offset});
    auto fn = c.make_std_function<Buffer<int>, int, float, Buffer<int>>();
    Buffer<int> in = ramp(8), out(8);
    EXPECT_EQ(fn(in, 4, 0.0f, out), 0);
    EXPECT_EQ(out(7), 28);
    auto with_context =
        c.make_std_function<JITUserContext *, Buffer<int>, int, float, Buffer<int>>();
    JITUserContext ctx;
    EXPECT_EQ(with_context(&ctx, in, 5, 0.0f, out), 0);
    EXPECT_EQ(out(7), 35);

    // Two outputs (a Tuple): one buffer each, after the inputs.
    Var x("x");
    Func pair("callable_pair");
    pair(x) = Tuple(p.in(x) + 1, cast<float>(p.in(x)) * 0.5f);
    Callable c2 = pair.compile_to_callable({p.in});
    Buffer<int> first(8);
    Buffer<float> second(8);
    EXPECT_EQ(c2(in, first, second), 0);
    for (int i = 0; i < 8; i++) {
        EXPECT_EQ(first(i), i + 1);
        EXPECT_EQ(second(i), i * 0.5f);
    }
}

TEST(HalideCallable, ErrorsThrowOrReachTheHandler) {
    Scaled p;
    Callable c = p.f.compile_to_callable({p.in, p.k, p.offset});
    Buffer<int> small = ramp(5), in = ramp(10), out(10);
    auto throws = [](const std::function<int()> &call) {
        try {
            call();
        } catch (const RuntimeError &) {
            return true;
        }
        return false;
    };
    // An input smaller than the region the output needs.
    EXPECT_TRUE(throws([&] { return c(small, 1, 0.0f, out); }));
    // A float where an int Param is expected.
    EXPECT_TRUE(throws([&] { return c(in, 1.5f, 0.0f, out); }));
#ifdef LOOM_COMPAT_HALIDE_H
    // A missing argument, a buffer of the wrong type, a std::function of the wrong signature:
    // Halide 21 throws these from a function that may not throw, which ends the program.
    EXPECT_TRUE(throws([&] { return c(in, 1, out); }));
    Buffer<float> floats(10);
    EXPECT_TRUE(throws([&] { return c(floats, 1, 0.0f, out); }));
    auto wrong = c.make_std_function<Buffer<int>, float, float, Buffer<int>>();
    EXPECT_TRUE(throws([&] { return wrong(in, 1.0f, 0.0f, out); }));
#endif

    JITUserContext ctx;
    ctx.handlers.custom_error = record_error;
    handled.clear();
    EXPECT_NE(c(&ctx, small, 1, 0.0f, out), 0);
    EXPECT_NE(handled.find("callable_in"), std::string::npos) << handled;
    handled.clear();
    EXPECT_NE(c(&ctx, in, 2.0f, 0.0f, out), 0);
    EXPECT_FALSE(handled.empty());
}

TEST(HalideCallable, ParamsMissingFromTheListAreRefused) {
    Scaled p;
    bool refused = false;
    try {
        p.f.compile_to_callable({p.in, p.k});
    } catch (const CompileError &) {
        refused = true;
    }
    EXPECT_TRUE(refused);
}

TEST(HalideCallable, BuffersInTheAlgorithmNeedNotBeListed) {
    Buffer<int> lut(16);
    for (int i = 0; i < 16; i++) lut(i) = i * i;
    Param<int> k("callable_lut_k");
    Var x("x");
    Func f("callable_lut");
    f(x) = lut(x) + k;
    Callable c = f.compile_to_callable({k});
    Buffer<int> out(16);
    EXPECT_EQ(c(100, out), 0);
    for (int i = 0; i < 16; i++) EXPECT_EQ(out(i), i * i + 100) << i;
    // Several threads may call one Callable at once.
    // (Copies of a Buffer share its memory: one Buffer each.)
    std::vector<Buffer<int>> outs;
    for (int t = 0; t < 4; t++) outs.emplace_back(16);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; t++) {
        threads.emplace_back([&, t] { c(t, outs[t]); });
    }
    for (std::thread &t : threads) t.join();
    for (int t = 0; t < 4; t++) EXPECT_EQ(outs[t](3), 9 + t) << t;
}
