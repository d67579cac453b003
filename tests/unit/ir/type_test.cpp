// loom::Type: widths, representability against closed forms, limits and names.

#include "ir/ir.h"
#include "ir/ir_utils.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>

using namespace loom;
using namespace loom::internal;

TEST(Type, NarrowWiden) {
    EXPECT_EQ(Int(32).narrow(), Int(16));
    EXPECT_EQ(UInt(16, 4).narrow(), UInt(8, 4));
    EXPECT_EQ(Int(8).narrow(), Int(8)); // not below 8 bits
    EXPECT_EQ(Bool().narrow(), Bool());
    EXPECT_EQ(Float(64).narrow(), Float(32));
    EXPECT_EQ(Int(16).widen(), Int(32));
    EXPECT_EQ(UInt(8, 8).widen(), UInt(16, 8));
    EXPECT_EQ(Bool().widen(), UInt(8));
    EXPECT_EQ(Float(32).widen(), Float(64));
}

TEST(Type, Ordering) {
    EXPECT_TRUE(Int(8) < Int(16));
    EXPECT_FALSE(Int(16) < Int(8));
    EXPECT_TRUE(Int(32, 1) < Int(32, 4));
    EXPECT_FALSE(Int(32) < Int(32));
    // A strict weak order across codes.
    EXPECT_NE(Int(32) < UInt(8), UInt(8) < Int(32));
}

TEST(Type, CanRepresentType) {
    EXPECT_TRUE(Int(32).can_represent(Int(16)));
    EXPECT_TRUE(Int(32).can_represent(UInt(16)));
    EXPECT_FALSE(Int(32).can_represent(UInt(32)));
    EXPECT_FALSE(Int(16).can_represent(Int(32)));
    EXPECT_TRUE(UInt(16).can_represent(UInt(8)));
    EXPECT_TRUE(UInt(8).can_represent(Bool()));
    EXPECT_FALSE(UInt(32).can_represent(Int(8)));
    EXPECT_TRUE(Float(32).can_represent(Int(16)));
    EXPECT_TRUE(Float(32).can_represent(UInt(16)));
    EXPECT_FALSE(Float(32).can_represent(Int(32)));
    EXPECT_TRUE(Float(64).can_represent(Int(32)));
    EXPECT_FALSE(Float(64).can_represent(Int(64)));
    EXPECT_TRUE(Float(64).can_represent(Float(32)));
    EXPECT_FALSE(Float(32).can_represent(Float(64)));
    EXPECT_TRUE(Float(16).can_represent(UInt(8)));
    EXPECT_FALSE(Float(16).can_represent(Int(16)));
    EXPECT_FALSE(Int(32, 4).can_represent(Int(16))); // lanes must match
    EXPECT_TRUE(Int(32, 4).can_represent(Int(16, 4)));
}

TEST(Type, CanRepresentIntegerAgainstRanges) {
    for (int bits : {8, 16, 32}) {
        int64_t lo = -(int64_t(1) << (bits - 1)), hi = (int64_t(1) << (bits - 1)) - 1;
        for (int64_t v : {lo - 1, lo, lo + 1, (int64_t)-1, (int64_t)0, hi - 1, hi, hi + 1}) {
            EXPECT_EQ(Int(bits).can_represent(v), v >= lo && v <= hi) << bits << " " << v;
            EXPECT_EQ(UInt(bits).can_represent(v), v >= 0 && v <= 2 * hi + 1) << bits << " " << v;
        }
    }
    EXPECT_TRUE(Int(64).can_represent(std::numeric_limits<int64_t>::min()));
    EXPECT_FALSE(Int(64).can_represent(std::numeric_limits<uint64_t>::max()));
    EXPECT_TRUE(UInt(64).can_represent(std::numeric_limits<uint64_t>::max()));
    EXPECT_TRUE(Bool().can_represent((int64_t)1));
    EXPECT_FALSE(Bool().can_represent((int64_t)2));
    // Float formats: every integer up to 2^24 in float32, then only even ones.
    EXPECT_TRUE(Float(32).can_represent((int64_t)16777216));
    EXPECT_FALSE(Float(32).can_represent((int64_t)16777217));
    EXPECT_TRUE(Float(32).can_represent((int64_t)16777218));
    EXPECT_TRUE(Float(32).can_represent(std::numeric_limits<int64_t>::min())); // -2^63
    EXPECT_TRUE(Float(16).can_represent((int64_t)2048));
    EXPECT_FALSE(Float(16).can_represent((int64_t)2049));
    EXPECT_TRUE(Float(16).can_represent((int64_t)65504));
    EXPECT_FALSE(Float(16).can_represent((int64_t)65536));
    EXPECT_FALSE(Handle().can_represent((int64_t)0));
    // Cross-check float32 against the C++ round trip for many integers.
    for (int64_t v = -(1 << 26); v <= (1 << 26); v += 997) {
        EXPECT_EQ(Float(32).can_represent(v), (int64_t)(float)v == v) << v;
    }
}

TEST(Type, CanRepresentDouble) {
    EXPECT_TRUE(Int(8).can_represent(127.0));
    EXPECT_FALSE(Int(8).can_represent(128.0));
    EXPECT_TRUE(Int(8).can_represent(-128.0));
    EXPECT_FALSE(Int(32).can_represent(2.5));
    EXPECT_FALSE(UInt(8).can_represent(-1.0));
    EXPECT_TRUE(UInt(8).can_represent(255.0));
    EXPECT_FALSE(Int(32).can_represent(std::nan("")));
    EXPECT_TRUE(Float(32).can_represent(0.5));
    EXPECT_FALSE(Float(32).can_represent(0.1));
    EXPECT_TRUE(Float(32).can_represent((double)0.1f));
    EXPECT_TRUE(Float(32).can_represent(std::numeric_limits<double>::infinity()));
    EXPECT_FALSE(Float(32).can_represent(1e39));
    EXPECT_TRUE(Float(32).can_represent((double)std::numeric_limits<float>::denorm_min()));
    EXPECT_FALSE(Float(32).can_represent((double)std::numeric_limits<float>::denorm_min() / 2));
    EXPECT_TRUE(Float(64).can_represent(0.1));
    EXPECT_TRUE(Float(16).can_represent(65504.0));
    EXPECT_FALSE(Float(16).can_represent(65505.0));
    EXPECT_TRUE(Float(16).can_represent(std::ldexp(1.0, -24))); // smallest subnormal
    EXPECT_FALSE(Float(16).can_represent(std::ldexp(1.0, -25)));
    EXPECT_TRUE(BFloat(16).can_represent(1.0 + 1.0 / 128));
    EXPECT_FALSE(BFloat(16).can_represent(1.0 + 1.0 / 256));
    EXPECT_TRUE(BFloat(16).can_represent(std::ldexp(1.0, 120))); // beyond float16 range
    EXPECT_FALSE(BFloat(16).can_represent(1e38)); // needs more than 8 significant bits
    // Cross-check float32 against the C++ round trip.
    for (double v = -3; v < 3; v += 0.0371) {
        EXPECT_EQ(Float(32).can_represent(v), (double)(float)v == v) << v;
    }
}

TEST(Type, IsMaxIsMin) {
    EXPECT_TRUE(Int(8).is_max((int64_t)127));
    EXPECT_FALSE(Int(8).is_max((int64_t)126));
    EXPECT_TRUE(UInt(8).is_max((uint64_t)255));
    EXPECT_TRUE(UInt(64).is_max(std::numeric_limits<uint64_t>::max()));
    EXPECT_TRUE(Int(64).is_max((int64_t)std::numeric_limits<int64_t>::max()));
    EXPECT_TRUE(Int(16).is_min((int64_t)-32768));
    EXPECT_FALSE(Int(16).is_min((int64_t)-32767));
    EXPECT_TRUE(UInt(16).is_min((int64_t)0));
    EXPECT_TRUE(UInt(16).is_min((uint64_t)0));
    EXPECT_FALSE(Float(32).is_max((int64_t)1));
}

// The constant values of Exprs built in place (as_const_* refuses temporaries).
int64_t int_value(const Expr &e) { return *as_const_int(e); }
uint64_t uint_value(const Expr &e) { return *as_const_uint(e); }
double float_value(const Expr &e) { return *as_const_float(e); }

TEST(Type, Limits) {
    EXPECT_EQ(int_value(Int(8).max()), 127);
    EXPECT_EQ(int_value(Int(8).min()), -128);
    EXPECT_EQ(int_value(Int(32).max()), 2147483647);
    EXPECT_EQ(int_value(Int(64).min()), std::numeric_limits<int64_t>::min());
    EXPECT_EQ(uint_value(UInt(16).max()), 65535u);
    EXPECT_EQ(uint_value(UInt(64).max()), std::numeric_limits<uint64_t>::max());
    EXPECT_EQ(uint_value(UInt(16).min()), 0u);
    EXPECT_EQ(uint_value(Bool().max()), 1u);
    EXPECT_EQ(UInt(16).max().type(), UInt(16));
    EXPECT_TRUE(std::isinf(float_value(Float(32).max())));
    EXPECT_LT(float_value(Float(64).min()), 0);
    // Vector types give broadcasts of the scalar limit.
    Expr v = Int(16, 8).max();
    EXPECT_EQ(v.type(), Int(16, 8));
    ASSERT_NE(v.as<Broadcast>(), nullptr);
    EXPECT_EQ(*as_const_int(v), 32767);
}

TEST(Type, Names) {
    EXPECT_EQ(type_to_string(Int(32)), "int32");
    EXPECT_EQ(type_to_string(UInt(8)), "uint8");
    EXPECT_EQ(type_to_string(Float(32)), "float32");
    EXPECT_EQ(type_to_string(Float(64)), "float64");
    EXPECT_EQ(type_to_string(BFloat(16)), "bfloat16");
    EXPECT_EQ(type_to_string(Bool()), "bool");
    EXPECT_EQ(type_to_string(Handle()), "handle");
    EXPECT_EQ(type_to_string(Int(32, 8)), "int32x8");
    EXPECT_EQ(type_to_string(Bool(4)), "boolx4");
    std::ostringstream s;
    s << UInt(16, 4);
    EXPECT_EQ(s.str(), "uint16x4");
    EXPECT_EQ(type_of<uint8_t>(), UInt(8));
    EXPECT_EQ(type_of<float *>(), Handle());
}

TEST(Type, NarrowFloatConstantsAreRounded) {
    // FloatImm holds the value rounded to its type's precision (ties to even).
    EXPECT_EQ(float_value(make_const(Float(16), 1.0 + 1.0 / 4096)), 1.0);
    EXPECT_EQ(float_value(make_const(Float(16), 1.0 + 3.0 / 2048)), 1.0 + 2.0 / 1024);
    EXPECT_EQ(float_value(make_const(Float(16), 70000.0)), INFINITY);
    EXPECT_EQ(float_value(make_const(Float(16), 65504.0)), 65504.0);
    EXPECT_EQ(float_value(make_const(Float(16), std::ldexp(1.0, -26))), 0.0);
    EXPECT_EQ(float_value(make_const(BFloat(16), 1.0 + 1.0 / 256)), 1.0);
    EXPECT_EQ(float_value(make_const(BFloat(16), 3.0 + 1.0 / 64)), 3.0 + 1.0 / 64);
    EXPECT_EQ(float_value(make_const(Float(32), 0.1)), (double)0.1f);
    for (double v = -5; v < 5; v += 0.01) {
        double r = float_value(make_const(Float(16), v));
        EXPECT_TRUE(Float(16).can_represent(r)) << v;
        EXPECT_LE(std::fabs(r - v), std::ldexp(std::fabs(v), -11) + 1e-12) << v;
    }
}
