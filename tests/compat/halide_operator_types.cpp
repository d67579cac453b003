// Operator result types the Python bindings' tests found (built against Loom and, as
// compat_halide_operator_types_halide, against Halide 21): a constant integer power of an
// integer stays an integer product; shifts and bitwise operators between integers of different
// widths. Each type is checked, and each value against the same arithmetic on the host.
#include "Halide.h"

#include <gtest/gtest.h>

#include <cstdint>

using namespace Halide;

namespace {

template <typename T>
Buffer<T> realize_1d(const Expr &e, int n) {
    Var x("x");
    Func f("f");
    f(x) = e;
    return f.realize({n});
}

TEST(OperatorTypes, ConstantIntegerPowerOfAnIntegerIsAProduct) {
    Var x("x");
    EXPECT_EQ(pow(x, 2).type(), Int(32));
    EXPECT_EQ(pow(cast<uint8_t>(x), 3).type(), UInt(8));
    EXPECT_EQ(pow(x, 0).type(), Int(32));
    Buffer<int32_t> sq = realize_1d<int32_t>(pow(x - 5, 3), 11);
    for (int i = 0; i < 11; i++) EXPECT_EQ(sq(i), (i - 5) * (i - 5) * (i - 5)) << i;
    Buffer<uint8_t> u = realize_1d<uint8_t>(pow(cast<uint8_t>(x), 2), 20);
    for (int i = 0; i < 20; i++) EXPECT_EQ(u(i), (uint8_t)(i * i)) << i;
    // A non-constant exponent still computes in float.
    Param<int> p("p");
    EXPECT_EQ(pow(x, p).type(), Float(32));
}

TEST(OperatorTypes, ShiftsWidenTheValueToTheAmountsWidth) {
    Var x("x");
    Expr u8 = cast<uint8_t>(x), i16 = cast<int16_t>(x);
    EXPECT_EQ((u8 << i16).type(), UInt(16));
    EXPECT_EQ((u8 >> i16).type(), UInt(16));
    EXPECT_EQ((i16 << u8).type(), Int(16));
    // 200 << 9 does not fit in 8 bits: the widened value keeps it.
    Buffer<uint16_t> b = realize_1d<uint16_t>(cast<uint8_t>(200) << cast<int16_t>(x), 12);
    for (int i = 0; i < 12; i++) EXPECT_EQ(b(i), (uint16_t)(200u << i)) << i;
}

TEST(OperatorTypes, BitwiseOperandsOfDifferentWidthsWiden) {
    Var x("x");
    Expr u8 = cast<uint8_t>(x), u16 = cast<uint16_t>(x * 300);
    EXPECT_EQ((u8 | u16).type(), UInt(16));
    Buffer<uint16_t> b = realize_1d<uint16_t>(u8 | u16, 50);
    for (int i = 0; i < 50; i++) EXPECT_EQ(b(i), (uint16_t)((uint8_t)i | (uint16_t)(i * 300))) << i;
}

} // namespace
