// internal::Parameter: scalar round trips of every type through the raw storage, and the buffer
// fields.

#include "ir/ir.h"
#include "ir/parameter.h"

#include <loom/buffer.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace loom;
using namespace loom::internal;

namespace {

template <typename T>
void check_round_trip(Type t, T value) {
    Parameter p(t, false, 0, "p");
    p.set_scalar<T>(value);
    EXPECT_EQ(p.scalar<T>(), value);
    Expr e = p.scalar_expr();
    ASSERT_TRUE(e.defined());
    EXPECT_EQ(e.type(), t);
    // Back through set_scalar_expr: the raw bits must be the same.
    Parameter q(t, false, 0, "q");
    q.set_scalar_expr(e);
    EXPECT_EQ(std::memcmp(q.scalar_address(), p.scalar_address(), sizeof(T)), 0) << value;
    if (t.is_int()) {
        const IntImm *imm = e.as<IntImm>();
        ASSERT_NE(imm, nullptr);
        EXPECT_EQ(imm->value, (int64_t)value);
    } else if (t.is_uint()) {
        const UIntImm *imm = e.as<UIntImm>();
        ASSERT_NE(imm, nullptr);
        EXPECT_EQ(imm->value, (uint64_t)value);
    } else {
        const FloatImm *imm = e.as<FloatImm>();
        ASSERT_NE(imm, nullptr);
        EXPECT_EQ(imm->value, (double)value);
    }
}

TEST(Parameter, ScalarRoundTripsOfEveryType) {
    for (int8_t v : {(int8_t)-128, (int8_t)-1, (int8_t)0, (int8_t)127}) check_round_trip(Int(8), v);
    for (int16_t v : {(int16_t)-32768, (int16_t)-300, (int16_t)32767}) {
        check_round_trip(Int(16), v);
    }
    for (int32_t v : {INT32_MIN, -5, 0, 123456, INT32_MAX}) check_round_trip(Int(32), v);
    for (int64_t v : {INT64_MIN, (int64_t)-1, (int64_t)1 << 40, INT64_MAX}) {
        check_round_trip(Int(64), v);
    }
    for (uint8_t v : {(uint8_t)0, (uint8_t)200, (uint8_t)255}) check_round_trip(UInt(8), v);
    for (uint16_t v : {(uint16_t)0, (uint16_t)65535}) check_round_trip(UInt(16), v);
    for (uint32_t v : {0u, 4000000000u, UINT32_MAX}) check_round_trip(UInt(32), v);
    for (uint64_t v : {(uint64_t)0, UINT64_MAX, (uint64_t)1 << 63}) check_round_trip(UInt(64), v);
    for (float v : {0.0f, -1.5f, 3.25e10f, std::numeric_limits<float>::denorm_min(),
                    std::numeric_limits<float>::max()}) {
        check_round_trip(Float(32), v);
    }
    for (double v : {0.0, -2.75, 1e300, std::numeric_limits<double>::min()}) {
        check_round_trip(Float(64), v);
    }
}

TEST(Parameter, BoolAndHalfFloats) {
    Parameter b(Bool(), false, 0, "b");
    b.set_scalar<bool>(true);
    Expr be = b.scalar_expr();
    const UIntImm *imm = be.as<UIntImm>();
    ASSERT_NE(imm, nullptr);
    EXPECT_EQ(imm->value, 1u);
    EXPECT_EQ(b.scalar_expr().type(), Bool());
    b.set_scalar_expr(make_const(Bool(), (int64_t)0));
    EXPECT_FALSE(b.scalar<bool>());

    // float16: 1.5 is 0x3e00; the smallest subnormal is 0x0001 = 2^-24; 65504 is 0x7bff.
    Parameter h(Float(16), false, 0, "h");
    h.set_scalar<uint16_t>(0x3e00);
    EXPECT_EQ(h.scalar_expr().as<FloatImm>()->value, 1.5);
    h.set_scalar<uint16_t>(0x0001);
    EXPECT_EQ(h.scalar_expr().as<FloatImm>()->value, std::ldexp(1.0, -24));
    h.set_scalar<uint16_t>(0xfbff);
    EXPECT_EQ(h.scalar_expr().as<FloatImm>()->value, -65504.0);
    h.set_scalar_expr(make_const(Float(64), 0.1));
    EXPECT_EQ(h.scalar<uint16_t>(), 0x2e66); // 0.1 rounded to nearest half
    h.set_scalar_expr(make_const(Float(64), 1e6));
    EXPECT_EQ(h.scalar<uint16_t>(), 0x7c00); // overflow to +inf

    // bfloat16: the top half of a float32.
    Parameter bf(BFloat(16), false, 0, "bf");
    bf.set_scalar<uint16_t>(0x3fc0);
    EXPECT_EQ(bf.scalar_expr().as<FloatImm>()->value, 1.5);
    bf.set_scalar_expr(make_const(Float(64), -2.0));
    EXPECT_EQ(bf.scalar<uint16_t>(), 0xc000);
}

TEST(Parameter, ConversionOnSet) {
    // set_scalar_expr converts to the parameter's type, wrapping integers like a C cast.
    Parameter p(UInt(8), false, 0, "p");
    p.set_scalar_expr(Expr(300));
    EXPECT_EQ(p.scalar<uint8_t>(), 44);
    Parameter f(Float(32), false, 0, "f");
    f.set_scalar_expr(Expr(7));
    EXPECT_EQ(f.scalar<float>(), 7.0f);
    Parameter i(Int(32), false, 0, "i");
    i.set_scalar_expr(Expr(-2.75f));
    EXPECT_EQ(i.scalar<int32_t>(), -2);
    EXPECT_THROW(i.set_scalar_expr(Variable::make(Int(32), "x")), CompileError);
}

TEST(Parameter, ScalarMetadata) {
    Parameter p(Int(32), false, 0, "p");
    EXPECT_EQ(p.name(), "p");
    EXPECT_EQ(p.type(), Int(32));
    EXPECT_EQ(p.dimensions(), 0);
    EXPECT_FALSE(p.is_buffer());
    EXPECT_FALSE(p.is_bound_buffer());
    EXPECT_FALSE(p.min_value().defined());
    p.set_min_value(Expr(1));
    p.set_max_value(Expr(9));
    p.set_estimate(Expr(4));
    EXPECT_EQ(p.min_value().as<IntImm>()->value, 1);
    EXPECT_EQ(p.max_value().as<IntImm>()->value, 9);
    EXPECT_EQ(p.estimate().as<IntImm>()->value, 4);
    EXPECT_EQ((uintptr_t)p.scalar_address() % 8, 0u);
    // Buffer-only fields of a scalar parameter are internal errors.
    EXPECT_THROW(p.buffer(), InternalError);
    EXPECT_THROW(p.min_constraint(0), InternalError);
    EXPECT_THROW(p.host_alignment(), InternalError);
    Parameter copy = p;
    EXPECT_TRUE(copy.same_as(p));
    EXPECT_FALSE(Parameter(Int(32), false, 0, "p").same_as(p));
}

TEST(Parameter, BufferFields) {
    Parameter p(UInt(8), true, 3, "in");
    EXPECT_TRUE(p.is_buffer());
    EXPECT_EQ(p.dimensions(), 3);
    EXPECT_EQ(p.host_alignment(), 1); // the element size by default
    p.set_host_alignment(32);
    EXPECT_EQ(p.host_alignment(), 32);
    EXPECT_THROW(p.set_host_alignment(24), CompileError);
    for (int d = 0; d < 3; d++) {
        EXPECT_FALSE(p.min_constraint(d).defined());
        EXPECT_FALSE(p.extent_constraint(d).defined());
        EXPECT_EQ(p.stride_constraint(d).defined(), d == 0); // dense innermost, as in Halide
        EXPECT_FALSE(p.min_constraint_estimate(d).defined());
        EXPECT_FALSE(p.extent_constraint_estimate(d).defined());
    }
    p.set_min_constraint(0, Expr(0));
    p.set_extent_constraint(1, Expr(480));
    p.set_stride_constraint(2, Expr(1));
    p.set_min_constraint_estimate(1, Expr(2));
    p.set_extent_constraint_estimate(2, Expr(3));
    EXPECT_EQ(p.min_constraint(0).as<IntImm>()->value, 0);
    EXPECT_EQ(p.extent_constraint(1).as<IntImm>()->value, 480);
    EXPECT_EQ(p.stride_constraint(2).as<IntImm>()->value, 1);
    EXPECT_EQ(p.min_constraint_estimate(1).as<IntImm>()->value, 2);
    EXPECT_EQ(p.extent_constraint_estimate(2).as<IntImm>()->value, 3);
    EXPECT_FALSE(p.min_constraint(1).defined());
    EXPECT_THROW(p.min_constraint(3), InternalError);
    EXPECT_THROW(p.scalar_expr(), InternalError);
    EXPECT_THROW(p.scalar_address(), InternalError);

    EXPECT_FALSE(p.buffer().defined());
    Buffer<uint8_t> b(4, 4, 3);
    p.set_buffer(b);
    EXPECT_TRUE(p.buffer().same_as(b));
    EXPECT_THROW(p.set_buffer(Buffer<float>(2, 2)), CompileError);
    p.set_buffer(Buffer<>());
    EXPECT_FALSE(p.buffer().defined());
    EXPECT_FALSE(p.is_bound_buffer());
    p.set_is_bound_buffer(true);
    EXPECT_TRUE(p.is_bound_buffer());
    Parameter f(Float(32), true, 2, "f");
    EXPECT_EQ(f.host_alignment(), 4);
}

} // namespace
