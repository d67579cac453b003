// The public operators: Halide's coercion rules (checked type by type), the exact trees they
// build, their errors, and the values of the expanded ones (saturating_cast, clamp, mux,
// integer powers) against C++ references through a small evaluator.

#include "ir/ir.h"
#include "ir/ir_equality.h"
#include "ir/ir_printer.h"
#include "ir/ir_utils.h"

#include <loom/concise_casts.h>
#include <loom/error.h>
#include <loom/ir_operator.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

using namespace loom;
using namespace loom::internal;

namespace {

Expr var(const std::string &n, Type t = Int(32)) { return Variable::make(t, n); }

template <typename T>
std::string str(const T &x) {
    std::ostringstream s;
    s << x;
    return s.str();
}

/// Something that converts to Expr, like Var or FuncRef.
struct Convertible {
    std::string name;
    operator Expr() const { return var(name); }
};

/// Evaluates scalar expressions of types up to 32 bits (values held exactly in a double).
struct Evaluator {
    std::map<std::string, double> env;

    static double wrap(double v, Type t) {
        if (t.is_float()) return t.bits() == 32 ? (double)(float)v : v;
        if (t.is_bool()) return v != 0;
        int64_t i = (int64_t)v;
        int b = t.bits();
        uint64_t u = (uint64_t)i & ((b >= 64) ? ~0ull : ((1ull << b) - 1));
        if (t.is_int() && b < 64 && (u >> (b - 1)))
            return (double)(int64_t)(u | ~((1ull << b) - 1));
        return (double)u;
    }

    double operator()(const Expr &e) {
        if (auto *i = e.as<IntImm>()) return (double)i->value;
        if (auto *u = e.as<UIntImm>()) return (double)u->value;
        if (auto *f = e.as<FloatImm>()) return f->value;
        if (auto *v = e.as<Variable>()) return env.at(v->name);
        if (auto *c = e.as<Cast>()) {
            double x = (*this)(c->value);
            if (c->type.is_int_or_uint() && !c->type.is_bool()) x = std::trunc(x);
            return wrap(x, c->type);
        }
        if (auto *o = e.as<Add>()) return wrap((*this)(o->a) + (*this)(o->b), e.type());
        if (auto *o = e.as<Sub>()) return wrap((*this)(o->a) - (*this)(o->b), e.type());
        if (auto *o = e.as<Mul>()) return wrap((*this)(o->a) * (*this)(o->b), e.type());
        if (auto *o = e.as<Div>()) return (*this)(o->a) / (*this)(o->b); // float only here
        if (auto *o = e.as<Min>()) return std::min((*this)(o->a), (*this)(o->b));
        if (auto *o = e.as<Max>()) return std::max((*this)(o->a), (*this)(o->b));
        if (auto *o = e.as<EQ>()) return (*this)(o->a) == (*this)(o->b);
        if (auto *o = e.as<GE>()) return (*this)(o->a) >= (*this)(o->b);
        if (auto *o = e.as<LE>()) return (*this)(o->a) <= (*this)(o->b);
        if (auto *s = e.as<Select>()) {
            return (*this)(s->condition) ? (*this)(s->true_value) : (*this)(s->false_value);
        }
        ADD_FAILURE() << "evaluator can't handle " << e;
        return 0;
    }
};

#define EXPECT_IR_EQ(a, b) EXPECT_TRUE(equal(a, b)) << "got " << (a) << "\nexpected " << (b)

} // namespace

TEST(IROperator, BuildsExactlyTheNode) {
    Expr x = var("x"), y = var("y");
    EXPECT_IR_EQ(x + 1, Add::make(x, 1));
    EXPECT_IR_EQ(1 + x, Add::make(1, x));
    EXPECT_IR_EQ(x - y, Sub::make(x, y));
    EXPECT_IR_EQ(x * 2, Mul::make(x, 2));
    EXPECT_IR_EQ(x / 2, Div::make(x, 2));
    EXPECT_IR_EQ(x % 3, Mod::make(x, 3));
    EXPECT_IR_EQ(x < y, LT::make(x, y));
    EXPECT_IR_EQ(x <= 1, LE::make(x, 1));
    EXPECT_IR_EQ(x > 1, GT::make(x, 1));
    EXPECT_IR_EQ(1 >= x, GE::make(1, x));
    EXPECT_IR_EQ(x == y, EQ::make(x, y));
    EXPECT_IR_EQ(x != 0, NE::make(x, 0));
    EXPECT_IR_EQ(min(x, y), Min::make(x, y));
    EXPECT_IR_EQ(max(x, 0), Max::make(x, 0));
    EXPECT_IR_EQ(min(x, y, 3), Min::make(Min::make(x, y), 3));
    EXPECT_IR_EQ(max(x, y, x, 1), Max::make(Max::make(Max::make(x, y), x), 1));
    // Two constants are not folded.
    EXPECT_IR_EQ(Expr(2) + 3, Add::make(2, 3));
    // Unary minus: 0 - x, but a constant is negated.
    EXPECT_IR_EQ(-x, Sub::make(0, x));
    EXPECT_IR_EQ(-Expr(3), Expr(-3));
    EXPECT_IR_EQ(-Expr(1.5f), Expr(-1.5f));
    // Logic and its folding with C++ bools.
    Expr p = x < 1, q = y < 1;
    EXPECT_IR_EQ(p && q, And::make(p, q));
    EXPECT_IR_EQ(p || q, Or::make(p, q));
    EXPECT_IR_EQ(!p, Not::make(p));
    EXPECT_TRUE((p && true).same_as(p));
    EXPECT_TRUE(is_const_false(p && false));
    EXPECT_TRUE(is_const_true(true || p));
    EXPECT_TRUE((false || p).same_as(p));
    // Compound assignment casts the right side to the left side's type.
    Expr a = var("a", UInt(8));
    Expr b = a;
    b += 1;
    EXPECT_IR_EQ(b, Add::make(a, Expr((uint8_t)1)));
    b = a;
    b *= var("w", Int(32));
    EXPECT_IR_EQ(b, Mul::make(a, Cast::make(UInt(8), var("w", Int(32)))));
    Expr c = x;
    c -= 2;
    c /= 3;
    EXPECT_IR_EQ(c, Div::make(Sub::make(x, 2), 3));
}

TEST(IROperator, WorksThroughConversions) {
    Convertible v{"v"};
    EXPECT_IR_EQ(v + 1, Add::make(var("v"), 1));
    EXPECT_IR_EQ(v * v, Mul::make(var("v"), var("v")));
    EXPECT_IR_EQ(2.0f * v, Mul::make(Expr(2.0f), Cast::make(Float(32), var("v"))));
    EXPECT_IR_EQ(min(v, 1), Min::make(var("v"), 1));
    EXPECT_IR_EQ(select(v > 0, v, 0), Select::make(GT::make(var("v"), 0), var("v"), 0));
}

TEST(IROperator, IntLiteralTakesTheOtherType) {
    Expr a = var("a", UInt(8)), s = var("s", Int(16)), f = var("f", Float(32));
    EXPECT_IR_EQ(a + 1, Add::make(a, Expr((uint8_t)1)));
    EXPECT_EQ((a + 255).type(), UInt(8));
    EXPECT_EQ((s * -3).type(), Int(16));
    EXPECT_IR_EQ(f * 2, Mul::make(f, Expr(2.0f)));
    EXPECT_EQ((var("d", Float(64)) + 1).type(), Float(64));
    EXPECT_EQ((a < 3).type(), Bool());
    EXPECT_IR_EQ(a == 3, EQ::make(a, Expr((uint8_t)3)));
    // Not representable: an error, not a silent wrap.
    EXPECT_THROW(a + 300, CompileError);
    EXPECT_THROW(a + (-1), CompileError);
    EXPECT_THROW(300 - a, CompileError);
    EXPECT_THROW(s < 40000, CompileError);
    EXPECT_THROW(f + 16777217, CompileError);
    try {
        (void)(a + 300);
    } catch (const CompileError &e) {
        std::string m = e.what();
        EXPECT_NE(m.find("300"), std::string::npos) << m;
        EXPECT_NE(m.find("uint8"), std::string::npos) << m;
        EXPECT_NE(m.find("44"), std::string::npos) << m;
    }
    // Vectors get a broadcast literal.
    Expr v = var("v", UInt(16, 8));
    EXPECT_IR_EQ(v + 1, Add::make(v, Broadcast::make(Expr((uint16_t)1), 8)));
}

TEST(IROperator, FloatLiterals) {
    Expr i = var("i"), a = var("a", UInt(8)), d = var("d", Float(64)), f = var("f", Float(32));
    EXPECT_IR_EQ(i * 0.5f, Mul::make(Cast::make(Float(32), i), Expr(0.5f)));
    EXPECT_IR_EQ(a + 1.5f, Add::make(Cast::make(Float(32), a), Expr(1.5f)));
    EXPECT_IR_EQ(f - 0.25f, Sub::make(f, Expr(0.25f)));
    // Next to float64 the literal keeps its value (0.1f widened, 0.1 as written).
    EXPECT_IR_EQ(d + 0.1f, Add::make(d, Expr((double)0.1f)));
    EXPECT_IR_EQ(d + 0.1, Add::make(d, Expr(0.1)));
    // A double literal with an int or float32 operand is a float32 literal.
    EXPECT_IR_EQ(i * 0.5, Mul::make(Cast::make(Float(32), i), Expr(0.5f)));
    EXPECT_IR_EQ(0.5 * f, Mul::make(Expr(0.5f), f));
    EXPECT_EQ(max(i, 2.5f).type(), Float(32));
    EXPECT_EQ((i < 2.5f).type(), Bool());
}

TEST(IROperator, MatchTypesTable) {
    auto result = [](Type ta, Type tb) { return (var("a", ta) + var("b", tb)).type(); };
    EXPECT_EQ(result(Int(16), Int(32)), Int(32));
    EXPECT_EQ(result(Int(32), Int(16)), Int(32));
    EXPECT_EQ(result(UInt(8), UInt(16)), UInt(16));
    EXPECT_EQ(result(UInt(8), Int(8)), Int(8));
    EXPECT_EQ(result(Int(8), UInt(8)), Int(8));
    EXPECT_EQ(result(UInt(32), Int(16)), Int(32));
    EXPECT_EQ(result(UInt(8), Int(32)), Int(32));
    EXPECT_EQ(result(Bool(), Int(32)), Int(32));
    EXPECT_EQ(result(Bool(), UInt(8)), UInt(8));
    EXPECT_EQ(result(Float(32), Int(32)), Float(32));
    EXPECT_EQ(result(UInt(16), Float(32)), Float(32));
    EXPECT_EQ(result(Float(32), Float(64)), Float(64));
    EXPECT_EQ(result(Int(64), Float(32)), Float(32));
    EXPECT_EQ(result(Int(32), Int(32, 4)), Int(32, 4));
    EXPECT_EQ(result(UInt(8, 4), Int(16)), Int(16, 4));
    // The exact tree: u8 + i8 casts both to int8; i16 + i32 casts only the narrower.
    Expr a = var("a", UInt(8)), b = var("b", Int(8)), s = var("s", Int(16)), x = var("x");
    EXPECT_IR_EQ(a + b, Add::make(Cast::make(Int(8), a), b));
    EXPECT_IR_EQ(s + x, Add::make(Cast::make(Int(32), s), x));
    EXPECT_IR_EQ(x + var("v", Int(32, 4)), Add::make(Broadcast::make(x, 4), var("v", Int(32, 4))));
    // Comparisons and min/max use the same rules.
    EXPECT_IR_EQ(a < x, LT::make(Cast::make(Int(32), a), x));
    EXPECT_IR_EQ(min(s, x), Min::make(Cast::make(Int(32), s), x));
}

TEST(IROperator, Errors) {
    Expr h = var("h", Handle()), x = var("x");
    EXPECT_THROW(h + 1, CompileError);
    EXPECT_THROW(x + h, CompileError);
    EXPECT_THROW(x + Expr(), CompileError);
    EXPECT_THROW(var("v", Int(32, 4)) + var("w", Int(32, 8)), CompileError);
    EXPECT_THROW(x && (x < 1), CompileError);
    EXPECT_THROW(!x, CompileError);
    EXPECT_THROW(-(x < 1), CompileError);
    EXPECT_THROW(var("f", Float(32)) & 1, CompileError);
    EXPECT_THROW(~var("f", Float(32)), CompileError);
    EXPECT_THROW(cast(Int(32), h), CompileError);
    EXPECT_THROW(cast(Handle(), x), CompileError);
    EXPECT_THROW(reinterpret(Int(16), x), CompileError);
    EXPECT_THROW(select(x, x, x), CompileError);
    EXPECT_THROW(select(x < 1, x, var("a", UInt(8))), CompileError);
    EXPECT_THROW(clamp(var("a", UInt(8)), 0, 300), CompileError);
    EXPECT_THROW(clamp(x, 0, var("l", Int(64))), CompileError);
    EXPECT_THROW(is_nan(x), CompileError);
    EXPECT_THROW(fast_exp(var("d", Float(64))), CompileError);
    EXPECT_THROW(lerp(x, x, x), CompileError);
    EXPECT_THROW(random_float(var("u", UInt(32))), CompileError);
    EXPECT_THROW(mux(x, std::vector<Expr>{}), CompileError);
}

TEST(IROperator, Casts) {
    Expr x = var("x");
    EXPECT_IR_EQ(cast<uint8_t>(x), Cast::make(UInt(8), x));
    EXPECT_TRUE(cast(Int(32), x).same_as(x));
    // Constants convert directly.
    EXPECT_IR_EQ(cast<uint8_t>(Expr(300)), Expr((uint8_t)44));
    EXPECT_IR_EQ(cast<int8_t>(Expr(200)), Expr((int8_t)-56));
    EXPECT_IR_EQ(cast<float>(Expr(3)), Expr(3.0f));
    EXPECT_IR_EQ(cast<int>(Expr(2.7f)), Expr(2));
    EXPECT_IR_EQ(cast<int>(Expr(-2.7f)), Expr(-2));
    EXPECT_IR_EQ(cast<bool>(Expr(5)), const_true());
    EXPECT_IR_EQ(cast<bool>(Expr(0.0f)), const_false());
    EXPECT_IR_EQ(cast<float>(Expr(0.1)), Expr(0.1f));
    EXPECT_IR_EQ(cast<uint32_t>(Expr(-1)), Expr((uint32_t)0xffffffffu));
    // Out-of-range float to int is left to run time.
    EXPECT_NE(cast<int>(Expr(1e10f)).as<Cast>(), nullptr);
    // Vectors: scalars broadcast, broadcasts cast their value, a scalar type adopts lanes.
    EXPECT_IR_EQ(cast(Int(16, 4), x), Broadcast::make(Cast::make(Int(16), x), 4));
    EXPECT_IR_EQ(cast(Float(32, 4), Broadcast::make(x, 4)),
                 Broadcast::make(Cast::make(Float(32), x), 4));
    Expr v = var("v", Int(32, 8));
    EXPECT_EQ(cast<uint8_t>(v).type(), UInt(8, 8));
    // Reinterpret.
    EXPECT_IR_EQ(reinterpret<float>(x), Reinterpret::make(Float(32), x));
    EXPECT_IR_EQ(reinterpret(UInt(32), x), Reinterpret::make(UInt(32), x));
    EXPECT_EQ(reinterpret(UInt(16, 2), x).type(), UInt(16, 2));
}

TEST(IROperator, SaturatingCastValues) {
    Evaluator ev;
    struct Case {
        Type from, to;
        double lo, hi;
    };
    for (Case c : {Case{Int(32), UInt(8), 0, 255}, Case{Int(32), Int(8), -128, 127},
                   Case{Int(16), UInt(16), 0, 65535}, Case{UInt(16), Int(8), -128, 127},
                   Case{UInt(32), Int(32), -2147483648.0, 2147483647.0},
                   Case{Int(32), UInt(32), 0, 4294967295.0}, Case{Float(32), UInt(8), 0, 255},
                   Case{Float(32), Int(16), -32768, 32767},
                   Case{Float(32), Int(32), -2147483648.0, 2147483647.0}}) {
        Expr x = var("x", c.from);
        Expr e = saturating_cast(c.to, x);
        EXPECT_EQ(e.type(), c.to);
        std::vector<double> inputs = {
            0,   1,    -1,    100,    127,          128,           255,
            256, -129, 40000, -40000, 2147483647.0, -2147483648.0, 4294967295.0,
            3e9, -3e9, 1e12,  2.5,    -2.5,         254.9};
        for (double in : inputs) {
            // Only inputs the source type holds.
            if (Evaluator::wrap(in, c.from) != in) continue;
            ev.env["x"] = in;
            double expected = std::trunc(std::min(std::max(in, c.lo), c.hi));
            EXPECT_EQ(ev(e), expected) << c.from << " -> " << c.to << " of " << in << ": " << e;
        }
    }
    // Conversions that cannot overflow are plain casts.
    Expr a = var("a", UInt(8));
    EXPECT_IR_EQ(saturating_cast<int16_t>(a), Cast::make(Int(16), a));
    EXPECT_IR_EQ(saturating_cast<float>(a), Cast::make(Float(32), a));
    EXPECT_TRUE(saturating_cast<uint8_t>(a).same_as(a));
}

TEST(IROperator, ConciseCasts) {
    using namespace ConciseCasts;
    Expr x = var("x");
    EXPECT_EQ(u8(x).type(), UInt(8));
    EXPECT_EQ(i16(x).type(), Int(16));
    EXPECT_EQ(f64(x).type(), Float(64));
    EXPECT_EQ(u64(x).type(), UInt(64));
    EXPECT_IR_EQ(f32(x), Cast::make(Float(32), x));
    EXPECT_EQ(u8_sat(x).type(), UInt(8));
    EXPECT_EQ(i8_sat(x).type(), Int(8));
    Evaluator ev;
    for (int v : {-300, -5, 0, 77, 255, 256, 1000}) {
        ev.env["x"] = v;
        EXPECT_EQ(ev(u8_sat(x)), std::min(std::max(v, 0), 255));
        EXPECT_EQ(ev(i8_sat(x)), std::min(std::max(v, -128), 127));
        EXPECT_EQ(ev(u8(x)), (double)(uint8_t)v);
    }
}

TEST(IROperator, Select) {
    Expr x = var("x"), c = x > 0, a = var("a", UInt(8));
    EXPECT_IR_EQ(select(c, x, 1), Select::make(c, x, 1));
    EXPECT_IR_EQ(select(c, a, 0), Select::make(c, a, Expr((uint8_t)0)));
    EXPECT_IR_EQ(select(c, 255, a), Select::make(c, Expr((uint8_t)255), a));
    EXPECT_THROW(select(c, a, 256), CompileError);
    EXPECT_IR_EQ(select(c, var("d", Float(64)), 1.5f),
                 Select::make(c, var("d", Float(64)), Expr(1.5)));
    // Chained form.
    Expr c2 = x > 10;
    EXPECT_IR_EQ(select(c, 1, c2, 2, 3), Select::make(c, 1, Select::make(c2, 2, 3)));
    EXPECT_IR_EQ(select(c, x, c2, x + 1, x < -5, x - 1, 0),
                 Select::make(c, x, Select::make(c2, x + 1, Select::make(x < -5, x - 1, 0))));
    // A vector condition broadcasts scalar values.
    Expr vc = var("vc", Bool(4));
    EXPECT_IR_EQ(select(vc, x, 0),
                 Select::make(vc, Broadcast::make(x, 4), Broadcast::make(Expr(0), 4)));
}

TEST(IROperator, MuxAndClamp) {
    Expr i = var("i"), x = var("x");
    Expr m = mux(i, {x, x + 1, 7});
    EXPECT_IR_EQ(m, Select::make(i == 0, x, Select::make(i == 1, x + 1, 7)));
    Evaluator ev;
    ev.env["x"] = 10;
    for (int k = -1; k < 4; k++) {
        ev.env["i"] = k;
        EXPECT_EQ(ev(m), k == 0 ? 10 : k == 1 ? 11 : 7) << k;
    }
    EXPECT_TRUE(mux(i, {x}).same_as(x));

    Expr a = var("a", UInt(8));
    EXPECT_IR_EQ(clamp(a, 10, 200), Max::make(Min::make(a, Expr((uint8_t)200)), Expr((uint8_t)10)));
    EXPECT_IR_EQ(clamp(x, 0, var("w") - 1), Max::make(Min::make(x, var("w") - 1), 0));
    Expr f = var("f", Float(32));
    EXPECT_IR_EQ(clamp(f, 0, 1), Max::make(Min::make(f, Expr(1.0f)), Expr(0.0f)));
    for (int v : {-5, 0, 3, 9, 100}) {
        ev.env["x"] = v;
        EXPECT_EQ(ev(clamp(x, 0, 9)), std::min(std::max(v, 0), 9));
    }
    EXPECT_EQ(clamp(var("v", Int(16, 8)), 0, 100).type(), Int(16, 8));
}

TEST(IROperator, Bitwise) {
    Expr x = var("x"), a = var("a", UInt(8)), s = var("s", Int(16));
    auto intrinsic = [](const Expr &e) -> std::string {
        const Call *c = e.as<Call>();
        return c && c->call_type == Call::PureIntrinsic ? c->name : "";
    };
    Expr e = x & 3;
    EXPECT_EQ(intrinsic(e), Call::bitwise_and);
    EXPECT_IR_EQ(e, Call::make(Int(32), Call::bitwise_and, {x, 3}, Call::PureIntrinsic));
    EXPECT_EQ(intrinsic(x | var("y")), Call::bitwise_or);
    EXPECT_EQ(intrinsic(x ^ 1), Call::bitwise_xor);
    EXPECT_EQ(intrinsic(~x), Call::bitwise_not);
    EXPECT_EQ((a & 0xf0).type(), UInt(8));
    EXPECT_THROW(a & 0x100, CompileError);
    // Narrower widens; mixed signedness is an error (Halide 21, checked against the wheel).
    Expr u16 = var("u", UInt(16));
    EXPECT_IR_EQ(a | u16, Call::make(UInt(16), Call::bitwise_or, {Cast::make(UInt(16), a), u16},
                                     Call::PureIntrinsic));
    EXPECT_THROW(a | s, CompileError);
    EXPECT_THROW(a ^ var("b", Int(8)), CompileError);
    EXPECT_EQ(((x < 1) & (x > -1)).type(), Bool());
    // Shifts keep the value's type.
    EXPECT_IR_EQ(x << 2, Call::make(Int(32), Call::shift_left, {x, 2}, Call::PureIntrinsic));
    EXPECT_EQ((a >> 1).type(), UInt(8));
    EXPECT_EQ((a << x).type(), UInt(32));
    EXPECT_EQ((a << s).type(), UInt(16)); // a value narrower than the amount widens to it
    Expr shifted = a >> var("n", Int(8));
    const Call *sh = shifted.as<Call>();
    ASSERT_NE(sh, nullptr);
    EXPECT_EQ(sh->args[1].type(), Int(8)); // amount: value's width, its own signedness
    Expr back = a >> -1;
    EXPECT_EQ(back.as<Call>()->args[1].type(), Int(8));
    EXPECT_EQ((1 << x).type(), Int(32));
}

TEST(IROperator, OtherArithmetic) {
    Expr x = var("x"), s = var("s", Int(16)), a = var("a", UInt(8)), f = var("f", Float(32));
    Expr ax = abs(x);
    EXPECT_EQ(ax.type(), UInt(32));
    EXPECT_IR_EQ(ax, Call::make(UInt(32), Call::abs, {x}, Call::PureIntrinsic));
    EXPECT_TRUE(abs(a).same_as(a));
    EXPECT_EQ(abs(f).type(), Float(32));
    EXPECT_EQ(absd(s, s).type(), UInt(16));
    // As in Halide, these take Exprs: an int literal is an int32 and widens the other side.
    EXPECT_EQ(absd(a, 3).type(), UInt(32));
    EXPECT_EQ(absd(a, Expr((uint8_t)3)).type(), UInt(8));
    EXPECT_IR_EQ(absd(f, 1.0f), abs(f - 1.0f));
    Expr w = var("w", UInt(8));
    EXPECT_IR_EQ(lerp(a, 200, w),
                 Call::make(UInt(8), Call::lerp, {a, Expr((uint8_t)200), w}, Call::PureIntrinsic));
    EXPECT_IR_EQ(
        lerp(f, 1.0f, 0.25f),
        Call::make(Float(32), Call::lerp, {f, Expr(1.0f), Expr(0.25f)}, Call::PureIntrinsic));
    EXPECT_EQ(lerp(f, f, 1).type(), Float(32));
    EXPECT_THROW(lerp(a, a, 1.5f), CompileError);
    EXPECT_EQ(popcount(a).type(), UInt(8));
    EXPECT_EQ(count_leading_zeros(x).type(), Int(32));
    EXPECT_EQ(count_trailing_zeros(s).type(), Int(16));
    EXPECT_THROW(popcount(f), CompileError);
    EXPECT_EQ(widening_mul(a, a).type(), UInt(16));
    EXPECT_EQ(widening_add(s, s).type(), Int(32));
    EXPECT_EQ(saturating_add(a, a).type(), UInt(8));
    EXPECT_EQ(saturating_sub(a, 1).type(), Int(32));
    EXPECT_EQ(div_round_to_zero(x, 3).type(), Int(32));
    EXPECT_EQ(mul_shift_right(s, s, 15).type(), Int(16));
    for (const char *n : {Call::likely, Call::likely_if_innermost, Call::strict_float}) {
        Expr e = std::string(n) == Call::likely         ? likely(x)
                 : std::string(n) == Call::strict_float ? strict_float(x)
                                                        : likely_if_innermost(x);
        EXPECT_IR_EQ(e, Call::make(Int(32), n, {x}, Call::PureIntrinsic));
    }
    EXPECT_IR_EQ(unsafe_promise_clamped(x, 0, 10), Call::make(Int(32), Call::unsafe_promise_clamped,
                                                              {x, 0, 10}, Call::PureIntrinsic));
    EXPECT_IR_EQ(unsafe_promise_clamped(a, Expr(), 10),
                 Call::make(UInt(8), Call::unsafe_promise_clamped,
                            {a, Expr((uint8_t)0), Expr((uint8_t)10)}, Call::PureIntrinsic));
    Expr u = undef<uint16_t>();
    ASSERT_NE(u.as<Call>(), nullptr);
    EXPECT_EQ(u.type(), UInt(16));
    EXPECT_TRUE(u.as<Call>()->is_intrinsic(Call::undef));
}

TEST(IROperator, Math) {
    Expr x = var("x"), f = var("f", Float(32)), d = var("d", Float(64));
    EXPECT_IR_EQ(sqrt(f), Call::make(Float(32), "sqrt_f32", {f}, Call::PureExtern));
    EXPECT_IR_EQ(sqrt(x),
                 Call::make(Float(32), "sqrt_f32", {Cast::make(Float(32), x)}, Call::PureExtern));
    EXPECT_IR_EQ(exp(d), Call::make(Float(64), "exp_f64", {d}, Call::PureExtern));
    EXPECT_IR_EQ(atan2(f, d), Call::make(Float(64), "atan2_f64", {Cast::make(Float(64), f), d},
                                         Call::PureExtern));
    EXPECT_IR_EQ(pow(f, var("y", Float(32))),
                 Call::make(Float(32), "pow_f32", {f, var("y", Float(32))}, Call::PureExtern));
    struct Fn {
        Expr (*f)(Expr);
        const char *name;
    };
    for (Fn fn : {Fn{loom::log, "log"},
                  Fn{loom::sin, "sin"},
                  Fn{loom::cos, "cos"},
                  Fn{loom::tan, "tan"},
                  Fn{loom::asin, "asin"},
                  Fn{loom::acos, "acos"},
                  Fn{loom::atan, "atan"},
                  Fn{loom::sinh, "sinh"},
                  Fn{loom::cosh, "cosh"},
                  Fn{loom::tanh, "tanh"},
                  Fn{loom::asinh, "asinh"},
                  Fn{loom::acosh, "acosh"},
                  Fn{loom::atanh, "atanh"},
                  Fn{loom::erf, "erf"},
                  Fn{loom::floor, "floor"},
                  Fn{loom::ceil, "ceil"},
                  Fn{loom::round, "round"},
                  Fn{loom::trunc, "trunc"},
                  Fn{loom::fast_inverse, "fast_inverse"},
                  Fn{loom::fast_inverse_sqrt, "fast_inverse_sqrt"},
                  Fn{loom::fast_exp, "fast_exp"},
                  Fn{loom::fast_log, "fast_log"},
                  Fn{loom::fast_sin, "fast_sin"},
                  Fn{loom::fast_cos, "fast_cos"}}) {
        Expr e = fn.f(f);
        const Call *c = e.as<Call>();
        ASSERT_NE(c, nullptr) << fn.name;
        EXPECT_EQ(c->name, std::string(fn.name) + "_f32");
        EXPECT_EQ(c->call_type, Call::PureExtern);
        EXPECT_EQ(e.type(), Float(32));
    }
    EXPECT_EQ(hypot(f, f).as<Call>()->name, "hypot_f32");
    EXPECT_EQ(fast_pow(f, f).as<Call>()->name, "fast_pow_f32");
    // Rounding an integer is just a conversion.
    EXPECT_IR_EQ(floor(x), Cast::make(Float(32), x));
    EXPECT_IR_EQ(round(d), Call::make(Float(64), "round_f64", {d}, Call::PureExtern));
    // Classification returns bools.
    EXPECT_IR_EQ(is_nan(f), Call::make(Bool(), "is_nan_f32", {f}, Call::PureExtern));
    EXPECT_EQ(is_inf(d).as<Call>()->name, "is_inf_f64");
    EXPECT_EQ(is_finite(var("v", Float(32, 4))).type(), Bool(4));
    // Vector lanes carry through.
    EXPECT_EQ(sqrt(var("v", Int(16, 8))).type(), Float(32, 8));
    // float16 computes in float32 and converts back.
    Expr h = var("h", Float(16));
    EXPECT_IR_EQ(sqrt(h),
                 Cast::make(Float(16), Call::make(Float(32), "sqrt_f32", {Cast::make(Float(32), h)},
                                                  Call::PureExtern)));
}

TEST(IROperator, IntegerPowers) {
    Expr f = var("f", Float(32));
    EXPECT_IR_EQ(pow(f, 2), Mul::make(f, f));
    EXPECT_IR_EQ(pow(f, 0), Expr(1.0f));
    EXPECT_IR_EQ(pow(var("x"), 1), var("x")); // an integer power of an integer stays one
    EXPECT_IR_EQ(pow(var("x"), 2), Mul::make(var("x"), var("x")));
    Evaluator ev;
    for (double base : {1.5, -2.0, 0.75}) {
        ev.env["f"] = base;
        for (int p = -5; p <= 13; p++) {
            double expected = (double)std::pow((float)base, (float)p);
            EXPECT_NEAR(ev(pow(f, p)), expected, std::fabs(expected) * 1e-6) << base << "^" << p;
        }
    }
}

TEST(IROperator, PrintRequireRandom) {
    Expr x = var("x");
    Expr p = print(x, "is", 3, 2.5f, std::string("s"));
    const Call *rs = p.as<Call>();
    ASSERT_NE(rs, nullptr);
    EXPECT_TRUE(rs->is_intrinsic(Call::return_second));
    EXPECT_EQ(p.type(), Int(32));
    EXPECT_TRUE(equal(rs->args[1], x));
    const Call *hp = rs->args[0].as<Call>();
    ASSERT_NE(hp, nullptr);
    EXPECT_EQ(hp->name, "halide_print");
    EXPECT_EQ(hp->call_type, Call::Extern);
    EXPECT_EQ(str(hp->args[0]), "__user_context");
    EXPECT_EQ(str(hp->args[1]),
              "stringify(x, \" \", \"is\", \" \", 3, \" \", 2.5f, \" \", \"s\", \"\\n\")");
    Expr pw = print_when(x > 0, x, "positive");
    ASSERT_NE(pw.as<Call>(), nullptr);
    EXPECT_TRUE(pw.as<Call>()->is_intrinsic(Call::if_then_else));
    EXPECT_TRUE(equal(pw.as<Call>()->args[0], x > 0));

    Expr r = require(x > 0, x * 2, "x must be positive, got", x);
    const Call *rc = r.as<Call>();
    ASSERT_NE(rc, nullptr);
    EXPECT_TRUE(rc->is_intrinsic(Call::require));
    EXPECT_EQ(r.type(), Int(32));
    EXPECT_TRUE(equal(rc->args[0], likely(x > 0)));
    EXPECT_TRUE(equal(rc->args[1], x * 2));
    const Call *err = rc->args[2].as<Call>();
    ASSERT_NE(err, nullptr);
    EXPECT_EQ(err->name, "halide_error_requirement_failed");
    EXPECT_EQ(str(err->args[1]), "\"(x > 0)\"");
    EXPECT_EQ(str(err->args[2]), "stringify(\"x must be positive, got\", \" \", x, \"\\n\")");

    Expr r1 = random_float(), r2 = random_float();
    EXPECT_EQ(r1.type(), Float(32));
    EXPECT_TRUE(r1.as<Call>()->is_intrinsic(Call::random));
    EXPECT_FALSE(equal(r1, r2)); // independent streams
    Expr seeded = random_uint(x);
    EXPECT_EQ(seeded.type(), UInt(32));
    EXPECT_TRUE(equal(seeded.as<Call>()->args[0], x));
    EXPECT_EQ(random_int().type(), Int(32));
}
