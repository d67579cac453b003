// Constant queries, variable uses (with shadowing), purity and lossless casts.

#include "ir/ir.h"
#include "ir/ir_equality.h"
#include "ir/ir_printer.h"
#include "ir/ir_utils.h"

#include <gtest/gtest.h>

using namespace loom;
using namespace loom::internal;

namespace {
Expr var(const std::string &n, Type t = Int(32)) { return Variable::make(t, n); }
} // namespace

TEST(IRUtils, UsesVar) {
    Expr x = var("x"), y = var("y");
    EXPECT_TRUE(expr_uses_var(Add::make(x, 1), "x"));
    EXPECT_FALSE(expr_uses_var(Add::make(x, 1), "y"));
    EXPECT_FALSE(expr_uses_var(var("x.min"), "x"));
    // Let: the value is outside the binding, the body inside.
    EXPECT_TRUE(expr_uses_var(Let::make("x", x, Expr(1)), "x"));
    EXPECT_FALSE(expr_uses_var(Let::make("x", Expr(1), x), "x"));
    EXPECT_TRUE(expr_uses_var(Let::make("t", Expr(1), x), "x"));
    // Statements.
    Stmt loop = For::make("x", y, 10, ForType::Serial, DeviceAPI::None, Evaluate::make(x));
    EXPECT_FALSE(stmt_uses_var(loop, "x"));
    EXPECT_TRUE(stmt_uses_var(loop, "y"));
    Stmt let = LetStmt::make("y", 3, Evaluate::make(y));
    EXPECT_FALSE(stmt_uses_var(let, "y"));
    EXPECT_TRUE(stmt_uses_var(Block::make(let, Evaluate::make(y)), "y"));
    EXPECT_TRUE(stmt_uses_var(Store::make("f", 1, x, Parameter(), const_true()), "x"));
    EXPECT_FALSE(stmt_uses_var(Store::make("x", 1, 0, Parameter(), const_true()), "x"));
    // Sets.
    EXPECT_TRUE(expr_uses_vars(Add::make(x, y), {"y", "z"}));
    EXPECT_FALSE(expr_uses_vars(Add::make(x, y), {"z"}));
    EXPECT_FALSE(expr_uses_vars(Add::make(x, y), {}));
    EXPECT_TRUE(stmt_uses_vars(loop, {"x", "y"}));
    EXPECT_FALSE(stmt_uses_vars(loop, {"x"}));
}

TEST(IRUtils, Constants) {
    EXPECT_TRUE(is_const(Expr(3)));
    EXPECT_TRUE(is_const(Expr(std::string("s"))));
    EXPECT_TRUE(is_const(Broadcast::make(Expr(1.5f), 4)));
    EXPECT_FALSE(is_const(var("x")));
    EXPECT_FALSE(is_const(Expr()));
    EXPECT_FALSE(is_const(Ramp::make(0, 1, 4)));
    EXPECT_TRUE(is_const(Expr(3), 3));
    EXPECT_TRUE(is_const(Expr((uint8_t)3), 3));
    EXPECT_FALSE(is_const(Expr((uint8_t)3), -3));
    EXPECT_TRUE(is_const(Expr(3.0f), 3));
    EXPECT_TRUE(is_const(Broadcast::make(Expr(-2), 8), -2));

    const Expr minus5(-5), bcast7 = Broadcast::make(Expr(7), 4), u8_1((uint8_t)1), x = var("x");
    const Expr u16_9((uint16_t)9), i9(9), yes = const_true(), half(0.5), one(1);
    ASSERT_NE(as_const_int(minus5), nullptr);
    EXPECT_EQ(*as_const_int(minus5), -5);
    EXPECT_EQ(*as_const_int(bcast7), 7);
    EXPECT_EQ(as_const_int(u8_1), nullptr);
    EXPECT_EQ(as_const_int(x), nullptr);
    EXPECT_EQ(*as_const_uint(u16_9), 9u);
    EXPECT_EQ(as_const_uint(i9), nullptr);
    EXPECT_EQ(*as_const_uint(yes), 1u);
    EXPECT_EQ(*as_const_float(half), 0.5);
    EXPECT_EQ(as_const_float(one), nullptr);

    EXPECT_TRUE(is_const_zero(Expr(0)));
    EXPECT_TRUE(is_const_zero(Expr(0.0f)));
    EXPECT_TRUE(is_const_zero(const_false()));
    EXPECT_FALSE(is_const_zero(Expr(1)));
    EXPECT_TRUE(is_const_one(Expr((uint8_t)1)));
    EXPECT_TRUE(is_const_one(Broadcast::make(Expr(1), 4)));
    EXPECT_TRUE(is_const_true(const_true(4)));
    EXPECT_FALSE(is_const_true(Expr(1)));
    EXPECT_TRUE(is_const_false(const_false()));
    EXPECT_FALSE(is_const_false(const_true()));

    EXPECT_TRUE(is_positive_const(Expr(3)));
    EXPECT_TRUE(is_positive_const(Expr(0.5f)));
    EXPECT_FALSE(is_positive_const(Expr(0)));
    EXPECT_TRUE(is_negative_const(Expr(-1)));
    EXPECT_FALSE(is_negative_const(Expr((uint8_t)0)));
    EXPECT_FALSE(is_positive_const(var("x")));

    int bits = -1;
    EXPECT_TRUE(is_const_power_of_two_integer(Expr(64), &bits));
    EXPECT_EQ(bits, 6);
    EXPECT_TRUE(is_const_power_of_two_integer(Expr(1), &bits));
    EXPECT_EQ(bits, 0);
    EXPECT_TRUE(is_const_power_of_two_integer(Expr((uint32_t)0x80000000u), &bits));
    EXPECT_EQ(bits, 31);
    EXPECT_FALSE(is_const_power_of_two_integer(Expr(12), &bits));
    EXPECT_FALSE(is_const_power_of_two_integer(Expr(0), &bits));
    EXPECT_FALSE(is_const_power_of_two_integer(Expr(-4), &bits));
    EXPECT_FALSE(is_const_power_of_two_integer(Expr(4.0f), &bits));
}

TEST(IRUtils, Purity) {
    Expr x = var("x");
    EXPECT_TRUE(is_pure(Add::make(x, 1)));
    EXPECT_TRUE(is_pure(Call::make(Float(32), "sqrt_f32", {Expr(1.0f)}, Call::PureExtern)));
    EXPECT_FALSE(is_pure(Add::make(Call::make(Int(32), "rand", {}, Call::Extern), 1)));
    EXPECT_FALSE(is_pure(Load::make(Int(32), "tmp", x, const_true())));
    Parameter p(Int(32), true, 1, "input");
    EXPECT_TRUE(is_pure(Load::make(Int(32), "input", x, const_true(), p)));
}

TEST(IRUtils, LosslessCast) {
    Expr x8 = var("x", UInt(8)), x32 = var("y", Int(32));
    EXPECT_TRUE(equal(lossless_cast(Int(32), Expr(5)), Expr(5)));
    EXPECT_TRUE(equal(lossless_cast(UInt(8), Expr(255)), Expr((uint8_t)255)));
    EXPECT_FALSE(lossless_cast(UInt(8), Expr(256)).defined());
    EXPECT_FALSE(lossless_cast(UInt(8), Expr(-1)).defined());
    EXPECT_TRUE(equal(lossless_cast(Float(32), Expr(3)), Expr(3.0f)));
    EXPECT_FALSE(lossless_cast(Int(32), Expr(2.5f)).defined());
    EXPECT_TRUE(equal(lossless_cast(Int(32), Expr(2.0f)), Expr(2)));
    EXPECT_TRUE(equal(lossless_cast(Int(16), x8), Cast::make(Int(16), x8)));
    EXPECT_FALSE(lossless_cast(UInt(8), x32).defined());
    EXPECT_FALSE(lossless_cast(Int(8), x8).defined());
    // A widening cast is looked through.
    EXPECT_TRUE(equal(lossless_cast(UInt(8), Cast::make(Int(32), x8)), x8));
    EXPECT_TRUE(equal(lossless_cast(Int(16, 4), Broadcast::make(Expr(3), 4)),
                      Broadcast::make(Expr((int16_t)3), 4)));
    EXPECT_FALSE(lossless_cast(Int(16, 4), Expr(3)).defined());
}
