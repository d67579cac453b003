// find_intrinsics on hand-built vector expressions: each idiom becomes its intrinsic with the
// narrow operands, and near misses (a wrong clamp, a wrapping wide type, a small shift, a
// rounding constant of 2) are left alone.
#include "lower/find_intrinsics.h"
#include "lower_test_util.h"

#include "ir/ir_equality.h"

#include <gtest/gtest.h>

using namespace loom;
using namespace loom::test;

namespace {

Expr vvar(Type t, const std::string &n) { return Variable::make(t.with_lanes(16), n); }
Expr bc(Type t, int64_t v) { return Broadcast::make(make_const(t, v), 16); }

/// The intrinsic name of e, or "" when e is not an intrinsic call.
std::string intrinsic_of(const Expr &e) {
    const Call *c = e.as<Call>();
    return c && c->call_type == Call::PureIntrinsic ? c->name : "";
}

const Type u8 = UInt(8, 16), i8 = Int(8, 16), u16 = UInt(16, 16), i16 = Int(16, 16),
           i32 = Int(32, 16);

} // namespace

TEST(FindIntrinsics, SaturatingAddAndSub) {
    Expr a = vvar(UInt(8), "a"), b = vvar(UInt(8), "b");
    Expr e = Cast::make(
        u8, Min::make(Add::make(Cast::make(u16, a), Cast::make(u16, b)), bc(UInt(16), 255)));
    Expr r = find_intrinsics(e);
    ASSERT_EQ(intrinsic_of(r), Call::saturating_add) << text(r);
    EXPECT_TRUE(equal(r.as<Call>()->args[0], a));
    EXPECT_TRUE(equal(r.as<Call>()->args[1], b));

    Expr s = Cast::make(
        u8, Max::make(Sub::make(Cast::make(i16, a), Cast::make(i16, b)), bc(Int(16), 0)));
    EXPECT_EQ(intrinsic_of(find_intrinsics(s)), Call::saturating_sub);

    Expr sa = vvar(Int(8), "sa"), sb = vvar(Int(8), "sb");
    Expr si = Cast::make(
        i8,
        Max::make(Min::make(Add::make(Cast::make(i16, sa), Cast::make(i16, sb)), bc(Int(16), 127)),
                  bc(Int(16), -128)));
    EXPECT_EQ(intrinsic_of(find_intrinsics(si)), Call::saturating_add);
}

TEST(FindIntrinsics, SaturatingNearMisses) {
    Expr a = vvar(UInt(8), "a"), b = vvar(UInt(8), "b");
    // Clamped to 254: not the type's range.
    Expr e = Cast::make(
        u8, Min::make(Add::make(Cast::make(u16, a), Cast::make(u16, b)), bc(UInt(16), 254)));
    EXPECT_EQ(intrinsic_of(find_intrinsics(e)), "");
    // Unsigned subtraction wraps in u16: max(.., 0) does nothing.
    Expr s = Cast::make(
        u8, Max::make(Sub::make(Cast::make(u16, a), Cast::make(u16, b)), bc(UInt(16), 0)));
    EXPECT_EQ(intrinsic_of(find_intrinsics(s)), "");
    // Signed sum without the lower clamp.
    Expr sa = vvar(Int(8), "sa"), sb = vvar(Int(8), "sb");
    Expr si = Cast::make(
        i8, Min::make(Add::make(Cast::make(i16, sa), Cast::make(i16, sb)), bc(Int(16), 127)));
    EXPECT_EQ(intrinsic_of(find_intrinsics(si)), "");
}

TEST(FindIntrinsics, Averages) {
    Expr a = vvar(UInt(8), "a"), b = vvar(UInt(8), "b");
    Expr sum = Add::make(Cast::make(u16, a), Cast::make(u16, b));
    Expr r = Cast::make(u8, Div::make(Add::make(sum, bc(UInt(16), 1)), bc(UInt(16), 2)));
    EXPECT_EQ(intrinsic_of(find_intrinsics(r)), Call::rounding_halving_add);
    Expr h = Cast::make(
        u8, Call::make(u16, Call::shift_right, {sum, bc(UInt(16), 1)}, Call::PureIntrinsic));
    EXPECT_EQ(intrinsic_of(find_intrinsics(h)), Call::halving_add);
    // + 2 is not a rounding average.
    Expr two = Cast::make(u8, Div::make(Add::make(sum, bc(UInt(16), 2)), bc(UInt(16), 2)));
    EXPECT_EQ(intrinsic_of(find_intrinsics(two)), "");
}

TEST(FindIntrinsics, MulShiftRight) {
    Expr a = vvar(Int(16), "a"), b = vvar(Int(16), "b");
    Expr prod = Mul::make(Cast::make(Int(32, 16), a), Cast::make(Int(32, 16), b));
    Expr e = Cast::make(i16, Call::make(Int(32, 16), Call::shift_right, {prod, bc(Int(32), 16)},
                                        Call::PureIntrinsic));
    Expr r = find_intrinsics(e);
    ASSERT_EQ(intrinsic_of(r), Call::mul_shift_right) << text(r);
    EXPECT_TRUE(is_const(r.as<Call>()->args[2], 16));
    // A shift by 15 can leave a value that does not fit: not rewritten.
    Expr small = Cast::make(i16, Call::make(Int(32, 16), Call::shift_right, {prod, bc(Int(32), 15)},
                                            Call::PureIntrinsic));
    EXPECT_EQ(intrinsic_of(find_intrinsics(small)), "");
    (void)i32;
}

TEST(FindIntrinsics, Absd) {
    Expr a = vvar(UInt(8), "a"), b = vvar(UInt(8), "b");
    Expr diff = Sub::make(Cast::make(i16, a), Cast::make(i16, b));
    Expr e = Cast::make(u8, Call::make(u16, Call::abs, {diff}, Call::PureIntrinsic));
    Expr r = find_intrinsics(e);
    EXPECT_EQ(intrinsic_of(r), Call::absd) << text(r);
    EXPECT_EQ(r.type(), u8);

    Expr sel = Select::make(LT::make(a, b), Sub::make(b, a), Sub::make(a, b));
    EXPECT_EQ(intrinsic_of(find_intrinsics(sel)), Call::absd);
    // Branches that do not match the comparison.
    Expr wrong = Select::make(LT::make(a, b), Sub::make(a, b), Sub::make(b, a));
    EXPECT_EQ(intrinsic_of(find_intrinsics(wrong)), "");
}

namespace {

/// i16((i32(a) * i32(b) + c) >> q), optionally clamped to [lo, hi] before the cast.
Expr rounding_product(int64_t c, int q, bool clamped, int64_t lo = -32768, int64_t hi = 32767) {
    Expr a = vvar(Int(16), "a"), b = vvar(Int(16), "b");
    Expr prod = Mul::make(Cast::make(i32, a), Cast::make(i32, b));
    Expr v = Call::make(i32, Call::shift_right, {Add::make(prod, bc(Int(32), c)), bc(Int(32), q)},
                        Call::PureIntrinsic);
    if (clamped) v = Max::make(Min::make(v, bc(Int(32), hi)), bc(Int(32), lo));
    return Cast::make(i16, v);
}

} // namespace

TEST(FindIntrinsics, RoundingMulShiftRight) {
    // q = 16: the rounded product always fits int16.
    Expr r = find_intrinsics(rounding_product(32768, 16, false));
    ASSERT_EQ(intrinsic_of(r), "rounding_mul_shift_right") << text(r);
    EXPECT_TRUE(is_const(r.as<Call>()->args[2], 16));
    // q = 15 (Q15): -32768 * -32768 rounds to 32768, which wraps in a plain cast but saturates
    // in the intrinsic: only the clamped form is rewritten.
    EXPECT_EQ(intrinsic_of(find_intrinsics(rounding_product(16384, 15, false))), "");
    Expr sat = find_intrinsics(rounding_product(16384, 15, true));
    ASSERT_EQ(intrinsic_of(sat), "rounding_mul_shift_right") << text(sat);
    EXPECT_TRUE(is_const(sat.as<Call>()->args[2], 15));
    // The smallest result is -32767 (for -32768 * 32767), so a clamp at -32767 is the same
    // saturation; one at -32766 or 32766 is not. Nor is a rounding term that is not half the
    // divisor.
    EXPECT_EQ(intrinsic_of(find_intrinsics(rounding_product(16384, 15, true, -32767))),
              "rounding_mul_shift_right");
    EXPECT_EQ(intrinsic_of(find_intrinsics(rounding_product(16384, 15, true, -32766))), "");
    EXPECT_EQ(intrinsic_of(find_intrinsics(rounding_product(16384, 15, true, -32768, 32766))), "");
    EXPECT_EQ(intrinsic_of(find_intrinsics(rounding_product(16383, 15, true))), "");
    // The plain multiply-high under a clamp that never acts is still mul_shift_right.
    Expr plain = find_intrinsics(rounding_product(0, 16, true));
    EXPECT_EQ(intrinsic_of(plain), Call::mul_shift_right) << text(plain);
}

TEST(FindIntrinsics, HalvingAddUnderAClampThatCutsIsLeftAlone) {
    Expr a = vvar(UInt(8), "a"), b = vvar(UInt(8), "b");
    Expr sum = Add::make(Cast::make(u16, a), Cast::make(u16, b));
    Expr avg = Div::make(Add::make(sum, bc(UInt(16), 1)), bc(UInt(16), 2));
    // min(avg, 200) changes values the average can take.
    Expr cut = Cast::make(u8, Min::make(avg, bc(UInt(16), 200)));
    EXPECT_EQ(intrinsic_of(find_intrinsics(cut)), "");
    // min(avg, 255) never acts.
    Expr noop = Cast::make(u8, Min::make(avg, bc(UInt(16), 255)));
    EXPECT_EQ(intrinsic_of(find_intrinsics(noop)), Call::rounding_halving_add);
}

TEST(FindIntrinsics, ScalarsToo) {
    Expr a = Variable::make(UInt(8), "a"), b = Variable::make(UInt(8), "b");
    Expr e =
        Cast::make(UInt(8), Min::make(Add::make(Cast::make(UInt(16), a), Cast::make(UInt(16), b)),
                                      make_const(UInt(16), 255)));
    Expr r = find_intrinsics(e);
    EXPECT_EQ(intrinsic_of(r), Call::saturating_add) << text(r);
    EXPECT_EQ(r.type(), UInt(8));
}
