// bounds_of_expr_in_scope on hand-picked expressions with closed-form answers: one test per
// operator family, including the symbolic and the type-range cases.

#include "unit/analysis/analysis_test_util.h"

#include "analysis/interval_arith.h"
#include "common/expr_eval.h"
#include "ir/ir_equality.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "simplify/simplify.h"

#include <gtest/gtest.h>

#include <map>

using namespace loom;
using namespace loom::analysis_test;

namespace {

Interval bounds(const Expr &e, const Scope &s = Scope()) { return bounds_of_expr_in_scope(e, s); }

Interval ci(int64_t lo, int64_t hi, Type t = Int(32)) { return Interval(cst(t, lo), cst(t, hi)); }

#define EXPECT_INTERVAL(e, scope, lo, hi)                                                          \
    do {                                                                                           \
        Interval r_ = bounds(e, scope);                                                            \
        EXPECT_TRUE(is_interval(r_, lo, hi)) << "bounds of " << (e) << " are " << r_               \
                                             << ", expected [" << (lo) << ", " << (hi) << "]";     \
    } while (0)

/// Whether e - expected simplifies to zero (so the two are the same symbolic value).
bool same_value(const Expr &e, const Expr &expected) {
    if (Interval::is_pos_inf(e) || Interval::is_neg_inf(e)) return false;
    return is_const_zero(simplify(Sub::make(e, expected)));
}

} // namespace

TEST(Bounds, Affine) {
    Expr x = var("x"), y = var("y");
    Scope s = {{"x", ci(0, 9)}, {"y", ci(2, 5)}};
    EXPECT_INTERVAL(add(mul(x, i32(2)), i32(1)), s, 1, 19);
    EXPECT_INTERVAL(sub(x, y), s, -5, 7);
    EXPECT_INTERVAL(sub(mul(x, i32(-3)), y), s, -32, -2);
    EXPECT_INTERVAL(mul(x, y), s, 0, 45);
    EXPECT_INTERVAL(mul(sub(x, i32(4)), sub(y, i32(4))), s, -10, 8);
    EXPECT_INTERVAL(add(x, x), s, 0, 18);
    // Interval arithmetic does not see that x - x == 0 unless the simplifier removed it first.
    Interval d = bounds(sub(x, x), s);
    int64_t lo, hi;
    ASSERT_TRUE(end_value(d.min, &lo) && end_value(d.max, &hi));
    EXPECT_LE(lo, 0);
    EXPECT_GE(hi, 0);
}

TEST(Bounds, Symbolic) {
    Expr x = var("x"), a = var("a"), b = var("b"), k = var("k");
    Scope s = {{"x", Interval(a, b)}};
    Interval r = bounds(add(x, i32(1)), s);
    EXPECT_TRUE(same_value(r.min, add(a, i32(1)))) << r;
    EXPECT_TRUE(same_value(r.max, add(b, i32(1)))) << r;
    r = bounds(mul(x, i32(4)), s);
    EXPECT_TRUE(same_value(r.min, mul(a, i32(4)))) << r;
    EXPECT_TRUE(same_value(r.max, mul(b, i32(4)))) << r;
    r = bounds(mul(x, i32(-2)), s);
    EXPECT_TRUE(same_value(r.min, mul(b, i32(-2)))) << r;
    EXPECT_TRUE(same_value(r.max, mul(a, i32(-2)))) << r;
    r = bounds(div(x, i32(2)), s);
    EXPECT_TRUE(same_value(r.min, div(a, i32(2)))) << r;
    EXPECT_TRUE(same_value(r.max, div(b, i32(2)))) << r;
    r = bounds(sub(x, var("y")), s);
    EXPECT_TRUE(same_value(r.min, sub(a, var("y")))) << r;
    // Variables not in scope are their own bounds.
    r = bounds(add(var("z"), i32(3)));
    EXPECT_TRUE(r.is_single_point());
    EXPECT_TRUE(same_value(r.min, add(var("z"), i32(3)))) << r;

    // A symbolic multiplier of provable sign picks the sides without min/max.
    Scope pos = {{"x", ci(0, 10)}, {"k", Interval(max(k, i32(1)), max(k, i32(1)))}};
    r = bounds(mul(x, var("k")), pos);
    EXPECT_TRUE(same_value(r.min, i32(0))) << r;
    EXPECT_TRUE(same_value(r.max, mul(max(k, i32(1)), i32(10)))) << r;

    // A multiplier of unknown sign: the result must contain x * k for every k.
    Scope unk = {{"x", ci(-3, 10)}};
    r = bounds(mul(x, k), unk);
    ASSERT_TRUE(r.is_bounded()) << r;
    for (int kv = -4; kv <= 4; kv++) {
        test::ExprEval ev;
        ev.bind("k", test::ExprEval::scalar_int(Int(32), kv));
        int64_t lo = ev.eval(r.min).as_int(), hi = ev.eval(r.max).as_int();
        EXPECT_EQ(lo, std::min(-3 * kv, 10 * kv)) << r << " at k = " << kv;
        EXPECT_EQ(hi, std::max(-3 * kv, 10 * kv)) << r << " at k = " << kv;
    }
}

TEST(Bounds, EuclideanDivMod) {
    Expr x = var("x"), y = var("y");
    Scope s = {{"x", ci(-7, 7)}};
    EXPECT_INTERVAL(div(x, i32(3)), s, -3, 2);
    EXPECT_INTERVAL(div(x, i32(-3)), s, -2, 3);
    EXPECT_INTERVAL(mod(x, i32(3)), s, 0, 2);
    EXPECT_INTERVAL(mod(x, i32(-3)), s, 0, 2);
    EXPECT_INTERVAL(div(x, i32(0)), s, 0, 0);
    EXPECT_INTERVAL(mod(x, i32(0)), s, 0, 0);
    EXPECT_INTERVAL(mod(x, i32(100)), Scope({{"x", ci(6, 8)}}), 6, 8);
    EXPECT_INTERVAL(mod(x, i32(5)), Scope({{"x", ci(6, 8)}}), 1, 3);
    EXPECT_INTERVAL(mod(x, i32(5)), Scope({{"x", ci(3, 6)}}), 0, 4);
    // Divisors in a range: x in [-7, 7], y in [2, 4] and y in [-2, 3] (zero gives zero).
    EXPECT_INTERVAL(div(x, y), Scope({{"x", ci(-7, 7)}, {"y", ci(2, 4)}}), -4, 3);
    EXPECT_INTERVAL(div(x, y), Scope({{"x", ci(-7, 7)}, {"y", ci(-2, 3)}}), -7, 7);
    EXPECT_INTERVAL(mod(x, y), Scope({{"x", ci(-7, 7)}, {"y", ci(-4, 6)}}), 0, 5);
    EXPECT_INTERVAL(mod(x, y), Scope({{"x", ci(0, 2)}, {"y", ci(1, 60)}}), 0, 2);
    // Unbounded dividend, constant divisor. (A variable not in scope would instead be its own
    // exact bound: z % 8 is [z % 8, z % 8].)
    Scope unbounded = {{"z", Interval::everything()}};
    EXPECT_INTERVAL(mod(var("z"), i32(8)), unbounded, 0, 7);
    EXPECT_INTERVAL(mod(var("z"), i32(-8)), unbounded, 0, 7);
    EXPECT_TRUE(bounds(mod(var("z"), i32(8))).is_single_point());
    // Unknown divisor, bounded: [0, max |y| - 1].
    Interval r = bounds(mod(var("z"), y), Scope({{"y", Interval(i32(-9), var("n"))}}));
    EXPECT_TRUE(same_value(r.min, i32(0))) << r;
    EXPECT_TRUE(r.has_upper_bound()) << r;
    // Symbolic dividend staying within one period: x in [4a, 4a + 2] -> x % 4 in [0, 2].
    Expr a = var("a");
    r = bounds(mod(x, i32(4)),
               Scope({{"x", Interval(mul(a, i32(4)), add(mul(a, i32(4)), i32(2)))}}));
    EXPECT_TRUE(is_interval(r, 0, 2)) << r;
}

TEST(Bounds, MinMaxClampSelect) {
    Expr x = var("x"), y = var("y");
    Scope s = {{"x", ci(0, 20)}, {"y", ci(-5, 5)}};
    EXPECT_INTERVAL(min(x, i32(10)), s, 0, 10);
    EXPECT_INTERVAL(max(x, y), s, 0, 20);
    EXPECT_INTERVAL(min(x, y), s, -5, 5);
    EXPECT_INTERVAL(clamp(var("z"), i32(0), i32(99)), Scope({{"z", Interval::everything()}}), 0,
                    99);
    EXPECT_INTERVAL(clamp(x, i32(3), i32(7)), s, 3, 7);
    EXPECT_INTERVAL(select(lt(y, i32(0)), y, x), s, -5, 20);
    EXPECT_INTERVAL(select(lt(y, i32(0)), x, y), s, 0, 20);
    // The condition narrows the variable it tests in each branch.
    EXPECT_INTERVAL(select(lt(x, i32(10)), x, i32(10)), s, 0, 10);
    EXPECT_INTERVAL(select(gt(x, i32(5)), sub(x, i32(5)), i32(0)), s, 0, 15);
    EXPECT_INTERVAL(select(ge(i32(12), x), x, i32(0)), s, 0, 12);
    EXPECT_INTERVAL(select(And::make(ge(x, i32(2)), le(x, i32(4))), x, i32(3)), s, 2, 4);
    // A decided condition picks one branch.
    EXPECT_INTERVAL(select(lt(x, i32(100)), x, i32(1000)), s, 0, 20);
    // if_then_else behaves like select.
    EXPECT_INTERVAL(intrin(Int(32), Call::if_then_else, {lt(x, i32(4)), x, i32(4)}), s, 0, 4);
}

TEST(Bounds, Casts) {
    Expr x = var("x");
    EXPECT_INTERVAL(cast(UInt(8), x), Scope({{"x", ci(0, 200)}}), 0, 200);
    EXPECT_INTERVAL(cast(UInt(8), x), Scope({{"x", ci(0, 300)}}), 0, 255);
    EXPECT_INTERVAL(cast(UInt(8), x), Scope({{"x", ci(-1, 3)}}), 0, 255);
    EXPECT_INTERVAL(cast(Int(8), x), Scope({{"x", ci(-100, 100)}}), -100, 100);
    // A variable not in scope stays a single point through a cast; data gets its type's range.
    EXPECT_TRUE(bounds(cast(Int(16), var("u", UInt(8)))).is_single_point());
    EXPECT_INTERVAL(cast(Int(16), image("in", UInt(8), {x})), Scope(), 0, 255);
    EXPECT_INTERVAL(cast(Int(32), image("in", Int(8), {x})), Scope(), -128, 127);
    Expr f = var("f", Float(32));
    Interval r = bounds(cast(Int(32), f), Scope({{"f", Interval(f32(-1.5), f32(2.7))}}));
    EXPECT_TRUE(is_interval(r, -1, 2)) << r;
    r = bounds(cast(Float(32), x), Scope({{"x", ci(-3, 4)}}));
    EXPECT_TRUE(equal(r.min, f32(-3)) && equal(r.max, f32(4))) << r;
    // Bool casts test for nonzero.
    EXPECT_INTERVAL(cast(Bool(), x), Scope({{"x", ci(1, 4)}}), 1, 1);
    EXPECT_INTERVAL(cast(Bool(), x), Scope({{"x", ci(0, 4)}}), 0, 1);
    EXPECT_INTERVAL(cast(Int(32), lt(x, i32(3))), Scope({{"x", ci(0, 9)}}), 0, 1);
    // Symbolic narrowing that provably fits.
    Expr a = var("a");
    r = bounds(cast(UInt(8), x), Scope({{"x", Interval(clamp(a, i32(0), i32(10)), i32(20))}}));
    EXPECT_TRUE(r.is_bounded());
    EXPECT_TRUE(is_interval(Interval(r.max, r.max), 20, 20)) << r;
}

TEST(Bounds, TypesAndData) {
    Expr x = var("x");
    // Unknown values: their type's range for narrow and unsigned types, nothing for int32.
    EXPECT_INTERVAL(image("in", UInt(8), {x}), Scope(), 0, 255);
    EXPECT_INTERVAL(image("in", UInt(16), {x}), Scope(), 0, 65535);
    EXPECT_INTERVAL(image("in", Int(16), {x}), Scope(), -32768, 32767);
    EXPECT_TRUE(bounds(image("in", Int(32), {x})).is_everything());
    EXPECT_TRUE(bounds(image("in", Float(32), {x})).is_everything());
    EXPECT_INTERVAL(Load::make(UInt(8), "buf", x, const_true()), Scope(), 0, 255);
    EXPECT_TRUE(bounds(Load::make(Int(32), "buf", x, const_true())).is_everything());
    // uint8 arithmetic wraps, so a sum of data is only known to be a uint8.
    Expr u = image("in", UInt(8), {x});
    EXPECT_INTERVAL(add(u, u), Scope(), 0, 255);
    // Widened first, it does not wrap.
    Expr w = cast(Int(32), u);
    EXPECT_INTERVAL(add(w, w), Scope(), 0, 510);
    EXPECT_INTERVAL(sub(mul(w, i32(2)), w), Scope(), -255, 510);
    EXPECT_INTERVAL(div(add(w, w), i32(2)), Scope(), 0, 255);
    // Wrap-around of constant ranges is detected.
    Expr v = var("v", UInt(8));
    EXPECT_INTERVAL(sub(v, cst(UInt(8), 5)), Scope({{"v", ci(10, 20, UInt(8))}}), 5, 15);
    EXPECT_INTERVAL(sub(v, cst(UInt(8), 5)), Scope({{"v", ci(0, 20, UInt(8))}}), 0, 255);
    EXPECT_INTERVAL(mul(v, cst(UInt(8), 2)), Scope({{"v", ci(0, 100, UInt(8))}}), 0, 200);
    EXPECT_INTERVAL(mul(v, cst(UInt(8), 3)), Scope({{"v", ci(0, 100, UInt(8))}}), 0, 255);
    Expr s8 = var("s", Int(8));
    EXPECT_INTERVAL(add(s8, cst(Int(8), 100)), Scope({{"s", ci(0, 27, Int(8))}}), 100, 127);
    EXPECT_INTERVAL(add(s8, cst(Int(8), 100)), Scope({{"s", ci(0, 28, Int(8))}}), -128, 127);
    // A uint8 variable not in scope is its own (exact) bound, even through wrapping math.
    Interval r = bounds(add(v, cst(UInt(8), 1)));
    EXPECT_TRUE(r.is_single_point()) << r;
}

TEST(Bounds, ClampedDataDependentIndex) {
    Expr x = var("x");
    Expr g = image("g", Int(32), {x});
    EXPECT_INTERVAL(clamp(g, i32(0), i32(99)), Scope({{"x", ci(0, 9)}}), 0, 99);
    EXPECT_INTERVAL(add(clamp(g, i32(0), i32(99)), i32(1)), Scope(), 1, 100);
    EXPECT_INTERVAL(intrin(Int(32), Call::promise_clamped, {g, i32(0), i32(99)}), Scope(), 0, 99);
    EXPECT_INTERVAL(intrin(Int(32), Call::unsafe_promise_clamped, {g, i32(-1), i32(5)}), Scope(),
                    -1, 5);
    EXPECT_INTERVAL(intrin(Int(32), Call::likely, {clamp(g, i32(0), i32(9))}), Scope(), 0, 9);
    // A data-dependent index through a uint8 lookup needs no clamp.
    EXPECT_INTERVAL(cast(Int(32), image("lut", UInt(8), {g})), Scope(), 0, 255);
    // An unclamped int32 value is unbounded.
    EXPECT_TRUE(bounds(add(g, i32(1))).is_everything());
    EXPECT_TRUE(bounds(min(g, i32(5))).has_upper_bound());
    EXPECT_FALSE(bounds(min(g, i32(5))).has_lower_bound());
}

TEST(Bounds, FuncValueBoundsBoundCallsToFuncs) {
    Expr x = var("x");
    FuncValueBounds fb = {{{"idx", 0}, ci(0, 10)}, {{"pair", 1}, ci(-2, 2)}};
    Interval r = bounds_of_expr_in_scope(add(call("idx", {x}), i32(1)), Scope(), &fb);
    EXPECT_TRUE(is_interval(r, 1, 11)) << r;
    // The other element of a Tuple, and other Funcs, are bounded by their type only.
    EXPECT_TRUE(bounds_of_expr_in_scope(
                    Call::make(Int(32), "pair", {x}, Call::Halide, dummy_func(), 0), Scope(), &fb)
                    .is_everything());
    r = bounds_of_expr_in_scope(Call::make(Int(32), "pair", {x}, Call::Halide, dummy_func(), 1),
                                Scope(), &fb);
    EXPECT_TRUE(is_interval(r, -2, 2)) << r;
    // Bounds wider than the type's are cut to the type's.
    FuncValueBounds wide = {{{"narrow", 0}, ci(-1000, 1000)}};
    r = bounds_of_expr_in_scope(call("narrow", {x}, UInt(8)), Scope(), &wide);
    EXPECT_TRUE(is_interval(r, 0, 255)) << r;
    // A box read through a bounded Func.
    Box box = boxes_required(call("in", {call("idx", {x})}), Scope(), &fb)["in"];
    ASSERT_EQ(box.size(), 1u);
    EXPECT_TRUE(is_interval(box[0], 0, 10)) << box[0];
}

TEST(Bounds, LongLetChainsStaySmall) {
    // t_k = select(t_{k-1} > 0, t_{k-1}, 0 - t_{k-1}) + 1, 40 deep, over a symbolic range:
    // each end uses the previous one twice, so copying them doubles the size per let. Named,
    // the bounds grow linearly, and with the range known they are still exact enough.
    Expr lo = var("lo"), hi = var("hi");
    const int depth = 40;
    Expr body = var("t" + std::to_string(depth));
    for (int k = depth; k >= 1; k--) {
        Expr prev = var("t" + std::to_string(k - 1));
        body = Let::make("t" + std::to_string(k),
                         add(select(gt(prev, i32(0)), prev, sub(i32(0), prev)), i32(1)), body);
    }
    Expr e = Let::make("t0", var("x"), body);
    Interval r = bounds(e, Scope({{"x", Interval(lo, hi)}}));
    int nodes = 0;
    visit_exprs(r.min, [&](const Expr &) { return ++nodes < 100000; });
    visit_exprs(r.max, [&](const Expr &) { return ++nodes < 100000; });
    EXPECT_LT(nodes, 20000);
    // With x in [-5, 5], t_k lies in [k, k + 5] for k >= 1: the bounds include that.
    std::map<std::string, Expr> range = {{"lo", i32(-5)}, {"hi", i32(5)}};
    Expr mn = simplify(substitute(range, r.min)), mx = simplify(substitute(range, r.max));
    int64_t a = 0, b = 0;
    ASSERT_TRUE(end_value(mn, &a) && end_value(mx, &b)) << mn << ", " << mx;
    EXPECT_LE(a, depth);
    EXPECT_GE(b, depth + 5);
}

TEST(Bounds, Intrinsics) {
    Expr x = var("x"), y = var("y");
    Scope s = {{"x", ci(-5, 3)}, {"y", ci(2, 6)}};
    EXPECT_INTERVAL(abs_(x), s, 0, 5);
    EXPECT_INTERVAL(abs_(y), s, 2, 6);
    EXPECT_INTERVAL(abs_(sub(x, i32(4))), s, 1, 9);
    EXPECT_INTERVAL(abs_(image("in", Int(8), {x})), Scope(), 0, 128);
    EXPECT_EQ(bounds(abs_(x), s).max.type(), UInt(32));
    EXPECT_INTERVAL(intrin(UInt(32), Call::absd, {x, y}), s, 0, 11);
    EXPECT_INTERVAL(intrin(UInt(32), Call::absd, {y, add(x, i32(10))}), s, 0, 11);
    EXPECT_INTERVAL(intrin(UInt(32), Call::absd, {y, add(x, i32(20))}), s, 9, 21);
    // A bitwise and with a non-negative mask is within [0, mask].
    Expr g = image("g", Int(32), {x});
    EXPECT_INTERVAL(intrin(Int(32), Call::bitwise_and, {g, i32(15)}), Scope(), 0, 15);
    EXPECT_INTERVAL(intrin(Int(32), Call::bitwise_and, {x, y}),
                    Scope({{"x", ci(0, 9)}, {"y", ci(4, 6)}}), 0, 6);
    EXPECT_INTERVAL(intrin(Int(32), Call::bitwise_or, {x, y}),
                    Scope({{"x", ci(0, 9)}, {"y", ci(4, 6)}}), 4, 15);
    EXPECT_INTERVAL(intrin(Int(32), Call::bitwise_xor, {x, y}),
                    Scope({{"x", ci(0, 9)}, {"y", ci(4, 6)}}), 0, 15);
    EXPECT_INTERVAL(intrin(Int(32), Call::bitwise_not, {x}), s, -4, 4);
    EXPECT_INTERVAL(intrin(UInt(8), Call::bitwise_not, {var("u", UInt(8))}),
                    Scope({{"u", ci(10, 20, UInt(8))}}), 235, 245);
    // Shifts by constants scale; a negative amount shifts the other way.
    EXPECT_INTERVAL(intrin(Int(32), Call::shift_left, {x, i32(2)}), s, -20, 12);
    EXPECT_INTERVAL(intrin(Int(32), Call::shift_right, {x, i32(1)}), s, -3, 1);
    EXPECT_INTERVAL(intrin(Int(32), Call::shift_right, {x, i32(-1)}), s, -10, 6);
    EXPECT_INTERVAL(intrin(Int(32), Call::shift_right, {add(x, i32(5)), y}), s, 0, 2);
    EXPECT_INTERVAL(
        intrin(UInt(8), Call::shift_right, {image("in", UInt(8), {x}), cst(UInt(8), 4)}), Scope(),
        0, 15);
    EXPECT_INTERVAL(intrin(Int(32), Call::count_leading_zeros, {g}), Scope(), 0, 32);
    EXPECT_INTERVAL(intrin(Int(32), Call::popcount, {g}), Scope(), 0, 32);
    // Transparent and clamp-like intrinsics.
    EXPECT_INTERVAL(intrin(Int(32), Call::likely, {x}), s, -5, 3);
    EXPECT_INTERVAL(intrin(Int(32), Call::likely_if_innermost, {x}), s, -5, 3);
    EXPECT_INTERVAL(intrin(Int(32), Call::return_second, {g, y}), s, 2, 6);
    EXPECT_INTERVAL(intrin(UInt(8), Call::saturating_cast, {x}), s, 0, 3);
    EXPECT_INTERVAL(intrin(Int(8), Call::saturating_cast, {mul(x, i32(100))}), s, -128, 127);
    EXPECT_INTERVAL(intrin(Int(8), Call::saturating_cast, {mul(y, i32(20))}), s, 40, 120);
    Expr u = image("in", UInt(8), {x});
    EXPECT_INTERVAL(intrin(UInt(16), Call::widening_mul, {u, u}), Scope(), 0, 65025);
    EXPECT_INTERVAL(intrin(UInt(16), Call::widening_add, {u, u}), Scope(), 0, 510);
    EXPECT_INTERVAL(intrin(UInt(8), Call::saturating_add, {u, cst(UInt(8), 10)}), Scope(), 10, 255);
    EXPECT_INTERVAL(intrin(UInt(8), Call::halving_add, {u, cst(UInt(8), 10)}), Scope(), 5, 132);
}

TEST(Bounds, Floats) {
    Expr f = var("f", Float(32)), g = var("g", Float(32));
    Scope s = {{"f", Interval(f32(0), f32(10))}, {"g", Interval(f32(-2), f32(4))}};
    auto expect_f = [&](const Expr &e, double lo, double hi) {
        Interval r = bounds(e, s);
        const double *a = as_const_float(r.min), *b = as_const_float(r.max);
        ASSERT_TRUE(a && b) << e << " has bounds " << r;
        EXPECT_EQ(*a, lo) << e << " has bounds " << r;
        EXPECT_EQ(*b, hi) << e << " has bounds " << r;
    };
    expect_f(add(mul(f, f32(0.5)), f32(1)), 1, 6);
    expect_f(sub(f, g), -4, 12);
    expect_f(mul(f, g), -20, 40);
    expect_f(div(f, f32(-2)), -5, 0);
    expect_f(div(g, add(f, f32(1))), -2, 4);
    expect_f(min(f, g), -2, 4);
    expect_f(abs_(g), 0, 4);
    expect_f(mod(g, f32(3)), 0, 3);
    expect_f(Call::make(Float(32), "floor_f32", {mul(g, f32(0.75))}, Call::PureExtern), -2, 3);
    expect_f(Call::make(Float(32), "sqrt_f32", {mul(f, f32(0.4))}, Call::PureExtern), 0, 2);
    expect_f(Call::make(Float(32), "sin_f32", {f}, Call::PureExtern), -1, 1);
    // Division by a range containing zero is unbounded.
    EXPECT_TRUE(bounds(div(f, g), s).is_everything());
    EXPECT_TRUE(
        bounds(Call::make(Float(32), "sqrt_f32", {g}, Call::PureExtern), s).is_everything());
    EXPECT_TRUE(bounds(image("in", Float(32), {var("x")})).is_everything());
}

TEST(Bounds, LetsVectorsAndBools) {
    Expr x = var("x"), t = var("t");
    Scope s = {{"x", ci(0, 5)}};
    EXPECT_INTERVAL(Let::make("t", mul(x, i32(2)), add(t, t)), s, 0, 20);
    EXPECT_INTERVAL(Let::make("t", mul(x, i32(2)), Let::make("t", add(t, i32(1)), t)), s, 1, 11);
    // Ramps and broadcasts fold their lanes.
    EXPECT_INTERVAL(Ramp::make(x, i32(2), 4), s, 0, 11);
    EXPECT_INTERVAL(Ramp::make(x, i32(-3), 4), s, -9, 5);
    EXPECT_INTERVAL(add(Ramp::make(x, i32(1), 8), Broadcast::make(i32(10), 8)), s, 10, 22);
    EXPECT_INTERVAL(Broadcast::make(mul(x, i32(3)), 4), s, 0, 15);
    // A sum of 4 lanes each in [0, 12] (conservative: the lanes' correlation is not tracked).
    EXPECT_INTERVAL(VectorReduce::make(VectorReduce::Add, Ramp::make(x, i32(1), 8), 2), s, 0, 48);
    EXPECT_INTERVAL(VectorReduce::make(VectorReduce::Max, Ramp::make(x, i32(1), 8), 1), s, 0, 12);
    EXPECT_INTERVAL(Let::make("t", Ramp::make(x, i32(1), 4), add(t, t)), s, 0, 16);
    // Comparisons give Bool intervals, decided where the ranges allow.
    EXPECT_INTERVAL(lt(x, i32(10)), s, 1, 1);
    EXPECT_INTERVAL(lt(x, i32(3)), s, 0, 1);
    EXPECT_INTERVAL(gt(x, i32(5)), s, 0, 0);
    EXPECT_INTERVAL(ge(x, i32(5)), s, 0, 1);
    EXPECT_INTERVAL(eq(x, i32(7)), s, 0, 0);
    EXPECT_INTERVAL(ne(x, i32(7)), s, 1, 1);
    EXPECT_INTERVAL(And::make(lt(x, i32(6)), ge(x, i32(0))), s, 1, 1);
    EXPECT_INTERVAL(Or::make(lt(x, i32(2)), gt(x, i32(9))), s, 0, 1);
    EXPECT_INTERVAL(Not::make(lt(x, i32(6))), s, 0, 0);
    EXPECT_EQ(bounds(lt(x, i32(6)), s).min.type(), Bool());
}

TEST(Bounds, Unbounded) {
    Expr x = var("x");
    Scope s = {{"x", Interval(i32(0), Interval::pos_inf())}};
    Interval r = bounds(mul(x, i32(2)), s);
    EXPECT_TRUE(is_interval(Interval(r.min, r.min), 0, 0) && Interval::is_pos_inf(r.max)) << r;
    r = bounds(sub(i32(0), x), s);
    EXPECT_TRUE(Interval::is_neg_inf(r.min) && is_interval(Interval(r.max, r.max), 0, 0)) << r;
    r = bounds(mul(x, i32(-1)), s);
    EXPECT_TRUE(Interval::is_neg_inf(r.min) && is_interval(Interval(r.max, r.max), 0, 0)) << r;
    r = bounds(div(x, i32(4)), s);
    EXPECT_TRUE(is_interval(Interval(r.min, r.min), 0, 0) && Interval::is_pos_inf(r.max)) << r;
    EXPECT_INTERVAL(min(x, i32(10)), s, 0, 10);
    EXPECT_INTERVAL(mod(x, i32(10)), s, 0, 9);
    EXPECT_INTERVAL(cast(UInt(8), x), s, 0, 255);
    EXPECT_INTERVAL(div(i32(100), add(x, i32(1))), s, 0, 100);
    EXPECT_TRUE(bounds(mul(x, var("y")), s).is_everything());
    // The interval of an unbounded int32 stays unbounded through arithmetic.
    EXPECT_TRUE(bounds(add(x, var("y")), Scope({{"x", Interval::everything()}})).is_everything());
}

TEST(Bounds, TypeRanges) {
    EXPECT_TRUE(is_interval(bounds_of_type(UInt(8)), 0, 255));
    EXPECT_TRUE(is_interval(bounds_of_type(Int(16, 4)), -32768, 32767));
    EXPECT_TRUE(is_interval(bounds_of_type(Bool()), 0, 1));
    EXPECT_TRUE(is_interval(bounds_of_type(UInt(32)), 0, 4294967295LL));
    EXPECT_TRUE(bounds_of_type(Int(32)).is_everything());
    EXPECT_TRUE(bounds_of_type(Int(64)).is_everything());
    EXPECT_TRUE(bounds_of_type(Float(32)).is_everything());
    EXPECT_TRUE(bounds_of_type(Handle()).is_everything());
    Interval r = bounds_of_type(UInt(64));
    EXPECT_TRUE(r.is_bounded());
    EXPECT_EQ(*as_const_uint(r.max), UINT64_MAX);
}

TEST(Bounds, ScopeWithCondition) {
    Expr x = var("x"), y = var("y");
    Scope s = {{"x", ci(0, 99)}, {"y", ci(0, 9)}};
    EXPECT_TRUE(is_interval(scope_with_condition(s, lt(x, i32(10)), true)["x"], 0, 9));
    EXPECT_TRUE(is_interval(scope_with_condition(s, lt(x, i32(10)), false)["x"], 10, 99));
    EXPECT_TRUE(is_interval(scope_with_condition(s, le(i32(50), x), true)["x"], 50, 99));
    EXPECT_TRUE(is_interval(scope_with_condition(s, lt(x, y), true)["x"], 0, 8));
    EXPECT_TRUE(is_interval(scope_with_condition(s, lt(x, y), true)["y"], 1, 9));
    EXPECT_TRUE(is_interval(scope_with_condition(s, eq(x, add(y, i32(3))), true)["x"], 3, 12));
    Scope both = scope_with_condition(s, And::make(gt(x, i32(4)), lt(x, i32(8))), true);
    EXPECT_TRUE(is_interval(both["x"], 5, 7));
    Scope neither = scope_with_condition(s, Or::make(lt(x, i32(4)), gt(x, i32(8))), false);
    EXPECT_TRUE(is_interval(neither["x"], 4, 8));
    Scope unlikely =
        scope_with_condition(s, intrin(Bool(), Call::likely, {Not::make(ge(x, i32(20)))}), true);
    EXPECT_TRUE(is_interval(unlikely["x"], 0, 19));
    // Under a likely() test (a GuardWithIf split's) a symbolic bound that may or may not win
    // is tagged as the likely side, for partition_loops; a bound known to win is not.
    Expr n = var("n"), m = var("m");
    Scope symbolic = {{"x", Interval(i32(0), n)}};
    Scope guarded = scope_with_condition(symbolic, intrin(Bool(), Call::likely, {le(x, m)}), true);
    EXPECT_TRUE(equal(guarded["x"].max, Min::make(intrin(Int(32), Call::likely, {n}), m)))
        << guarded["x"].max;
    Scope known =
        scope_with_condition(symbolic, intrin(Bool(), Call::likely, {le(x, add(n, i32(1)))}), true);
    EXPECT_TRUE(equal(known["x"].max, n)) << known["x"].max;
    // Conditions on expressions other than a variable leave the scope alone.
    EXPECT_TRUE(is_interval(scope_with_condition(s, lt(add(x, y), i32(3)), true)["x"], 0, 99));
}
