// Code generation of calls: math functions against libm, stringify + halide_print, the
// halide_buffer_t accessors (including a bounds query), make_struct, and plain C calls.
#include "codegen_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

using namespace loom;
using namespace loom::internal;
using namespace loom::internal::test;

namespace {

template <typename T>
struct MathCase {
    std::string fn;
    int arity;
    std::function<T(T, T)> ref;
    std::vector<T> a, b;
    bool returns_bool = false;
};

template <typename T>
std::vector<MathCase<T>> math_cases() {
    const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
    std::vector<T> gen = {0.125, 0.3, 0.5, 0.7, 0.9, 1.5, 2.5, 10.25};
    std::vector<T> sgn = {-3.5, -2.5, -0.5, 0.5, 1.5, 2.5, 3.5, -7.25};
    std::vector<T> unit = {-0.9, -0.5, -0.1, 0, 0.2, 0.5, 0.75, 0.99};
    std::vector<T> ge1 = {1, 1.5, 2, 3, 10, 100, 1.25, 7};
    std::vector<T> odd = {nan, inf, -inf, 0, -1.5, 1e30, (T)-0.0, 3};
    using F = std::function<T(T, T)>;
    auto u = [](T (*f)(T)) { return F([f](T a, T) { return f(a); }); };
    auto bin = [](T (*f)(T, T)) { return F([f](T a, T b) { return f(a, b); }); };
    return {
        {"sqrt", 1, u(std::sqrt), gen, gen},
        {"floor", 1, u(std::floor), sgn, sgn},
        {"ceil", 1, u(std::ceil), sgn, sgn},
        // round is half-to-even: nearbyint in the default rounding mode.
        {"round", 1, u(std::nearbyint), sgn, sgn},
        {"trunc", 1, u(std::trunc), sgn, sgn},
        {"exp", 1, u(std::exp), sgn, sgn},
        {"log", 1, u(std::log), gen, gen},
        {"pow", 2, bin(std::pow), gen, sgn},
        {"sin", 1, u(std::sin), sgn, sgn},
        {"cos", 1, u(std::cos), sgn, sgn},
        {"abs", 1, u(std::fabs), sgn, sgn},
        {"fabs", 1, u(std::fabs), sgn, sgn},
        {"tan", 1, u(std::tan), unit, unit},
        {"asin", 1, u(std::asin), unit, unit},
        {"acos", 1, u(std::acos), unit, unit},
        {"atan", 1, u(std::atan), sgn, sgn},
        {"atan2", 2, bin(std::atan2), sgn, gen},
        {"sinh", 1, u(std::sinh), sgn, sgn},
        {"cosh", 1, u(std::cosh), sgn, sgn},
        {"tanh", 1, u(std::tanh), sgn, sgn},
        {"asinh", 1, u(std::asinh), sgn, sgn},
        {"acosh", 1, u(std::acosh), ge1, ge1},
        {"atanh", 1, u(std::atanh), unit, unit},
        {"erf", 1, u(std::erf), sgn, sgn},
        {"hypot", 2, bin(std::hypot), sgn, gen},
        {"fast_inverse", 1, F([](T a, T) { return (T)1 / a; }), gen, gen},
        {"fast_inverse_sqrt", 1, F([](T a, T) { return (T)1 / std::sqrt(a); }), gen, gen},
        {"is_nan", 1, F([](T a, T) { return (T)std::isnan(a); }), odd, odd, true},
        {"is_inf", 1, F([](T a, T) { return (T)std::isinf(a); }), odd, odd, true},
        {"is_finite", 1, F([](T a, T) { return (T)std::isfinite(a); }), odd, odd, true},
    };
}

template <typename T>
void test_math() {
    Type t = type_of<T>();
    const std::string suffix = t.bits() == 32 ? "_f32" : "_f64";
    std::vector<MathCase<T>> cases = math_cases<T>();
    const int n = (int)cases.size();
    FuncBuilder fb("math" + suffix);
    fb.buffer("a", t, 1);
    fb.buffer("b", t, 1);
    fb.buffer("out", t, 1, true);
    Expr i = var("i");
    std::vector<Stmt> stmts;
    for (int k = 0; k < n; k++) {
        const MathCase<T> &c = cases[k];
        auto call = [&](int lanes, Expr a, Expr b) {
            std::vector<Expr> args = {a};
            if (c.arity == 2) args.push_back(b);
            Type rt = c.returns_bool ? Bool(lanes) : t.with_lanes(lanes);
            Expr e = Call::make(rt, c.fn + suffix, args, Call::PureExtern);
            return c.returns_bool ? Cast::make(t.with_lanes(lanes), e) : e;
        };
        // out[16k + i] scalar, out[16k + 8 + i] from one 8-lane call.
        stmts.push_back(loop(
            "i", 0, 8,
            store("out", call(1, load(t, "a", i + k * 8), load(t, "b", i + k * 8)), i + k * 16)));
        Expr r = Ramp::make(k * 8, 1, 8);
        stmts.push_back(store("out",
                              call(8, load(t.with_lanes(8), "a", r), load(t.with_lanes(8), "b", r)),
                              Ramp::make(k * 16 + 8, 1, 8)));
    }
    LoweredFunc f = fb.finish(Block::make(stmts));
    TestBuffer A(t, {8 * n}), B(t, {8 * n}), O(t, {16 * n});
    for (int k = 0; k < n; k++) {
        for (int j = 0; j < 8; j++) {
            A.data<T>()[k * 8 + j] = cases[k].a[j];
            B.data<T>()[k * 8 + j] = cases[k].b[j];
        }
    }
    ASSERT_EQ(run(f, {A.raw(), B.raw(), O.raw()}), 0);
    const T eps = std::numeric_limits<T>::epsilon();
    for (int k = 0; k < n; k++) {
        const MathCase<T> &c = cases[k];
        for (int j = 0; j < 8; j++) {
            T want = c.ref(c.a[j], c.b[j]);
            for (int half = 0; half < 2; half++) {
                T got = O.data<T>()[k * 16 + half * 8 + j];
                if (std::isnan(want)) {
                    EXPECT_TRUE(std::isnan(got)) << c.fn << suffix << "(" << c.a[j] << ")";
                } else {
                    EXPECT_NEAR(got, want, 4 * eps * std::max<T>(1, std::fabs(want)))
                        << c.fn << suffix << "(" << c.a[j] << ", " << c.b[j] << ")"
                        << (half ? " vector" : " scalar");
                }
            }
        }
    }
}

TEST(CodegenCalls, MathFloat32AgainstLibm) { test_math<float>(); }
TEST(CodegenCalls, MathFloat64AgainstLibm) { test_math<double>(); }

TEST(CodegenCalls, MathFloat16ComputesInFloat32) {
    FuncBuilder fb("math_f16");
    fb.buffer("out", Float(32), 1, true);
    Expr h = Cast::make(Float(16), Expr(2.0f));
    Expr s = Call::make(Float(16), "sqrt_f16", {h}, Call::PureExtern);
    LoweredFunc f = fb.finish(store("out", Cast::make(Float(32), s), 0));
    TestBuffer out(Float(32), {1});
    ASSERT_EQ(run(f, {out.raw()}), 0);
    EXPECT_NEAR(out.data<float>()[0], std::sqrt(2.0f), 1e-3);
}

std::string printed;
void capture_print(void *, const char *msg) { printed += msg; }

TEST(CodegenCalls, StringifyAndPrint) {
    FuncBuilder fb("stringify_print");
    Expr p = fb.scalar("p", Int(32));
    Expr uc = var("__user_context", Handle());
    Expr str = intrin(Handle(), Call::stringify,
                      {std::string("i="), p, std::string(" u="), Expr((uint8_t)200),
                       std::string(" f="), Expr(1.5f), std::string(" d="), Expr(-0.25),
                       std::string(" b="), const_true(), std::string(" l="),
                       Expr((int64_t)-1234567890123LL), std::string(" v="), Ramp::make(1, 2, 3),
                       std::string(" s="), Expr(std::string("str")), std::string("\n")});
    LoweredFunc f = fb.finish(Evaluate::make(extern_call(Int(32), "halide_print", {uc, str})));
    printed.clear();
    halide_print_t old = halide_set_custom_print(capture_print);
    int32_t pv = -42;
    int r = run(f, {&pv});
    halide_set_custom_print(old);
    ASSERT_EQ(r, 0);
    EXPECT_EQ(printed,
              "i=-42 u=200 f=1.500000 d=-0.250000 b=1 l=-1234567890123 v=<1, 3, 5> s=str\n");
}

TEST(CodegenCalls, BufferAccessorsAndBoundsQuery) {
    FuncBuilder fb("buffer_accessors");
    fb.buffer("in", UInt(16), 2);
    fb.buffer("q", Float(32), 3);
    fb.buffer("out", Int(32), 1, true);
    Expr in_b = var("in.buffer", Handle()), q_b = var("q.buffer", Handle());
    auto get = [&](const char *name, std::vector<Expr> args) {
        return intrin(Int(32), name, args);
    };
    auto b2i = [](Expr e) { return Cast::make(Int(32), e); };
    Stmt body = Block::make(
        {store("out", get(Call::buffer_get_dimensions, {in_b}), 0),
         store("out", get(Call::buffer_get_min, {in_b, 0}), 1),
         store("out", get(Call::buffer_get_min, {in_b, 1}), 2),
         store("out", get(Call::buffer_get_extent, {in_b, 1}), 3),
         store("out", get(Call::buffer_get_stride, {in_b, 1}), 4),
         store("out", Reinterpret::make(Int(32), intrin(UInt(32), Call::buffer_get_type, {in_b})),
               5),
         store("out", b2i(intrin(Bool(), Call::buffer_is_bounds_query, {in_b})), 6),
         store("out", b2i(intrin(Bool(), Call::buffer_is_bounds_query, {q_b})), 7),
         // Fill in the query: bounds per dimension, then dense strides.
         Evaluate::make(get(Call::buffer_set_bounds, {q_b, 0, 10, 20})),
         Evaluate::make(get(Call::buffer_set_bounds, {q_b, 1, -5, 3})),
         Evaluate::make(get(Call::buffer_set_bounds, {q_b, 2, 0, 4})),
         store("out", get(Call::buffer_init_strides, {q_b}), 8),
         // The lets bound "in.min.0" etc. at entry, from the same accessors.
         store("out", var("in.extent.0") * 100 + var("in.stride.0"), 9)});
    LoweredFunc f = fb.finish(body);
    TestBuffer in(UInt(16), {5, 7}, {3, -2});
    TestBuffer q(Float(32), {1, 1, 1});
    q.buf.host = nullptr;
    TestBuffer out(Int(32), {10});
    ASSERT_EQ(run(f, {in.raw(), q.raw(), out.raw()}), 0);
    const int32_t *o = out.data<int32_t>();
    EXPECT_EQ(o[0], 2);
    EXPECT_EQ(o[1], 3);
    EXPECT_EQ(o[2], -2);
    EXPECT_EQ(o[3], 7);
    EXPECT_EQ(o[4], 5);
    EXPECT_EQ(o[5], halide_type_uint | 16 << 8 | 1 << 16);
    EXPECT_EQ(o[6], 0);
    EXPECT_EQ(o[7], 1);
    EXPECT_EQ(o[8], 0);
    EXPECT_EQ(o[9], 501);
    EXPECT_EQ(q.dims[0], halide_dimension_t(10, 20, 1));
    EXPECT_EQ(q.dims[1], halide_dimension_t(-5, 3, 20));
    EXPECT_EQ(q.dims[2], halide_dimension_t(0, 4, 60));
}

TEST(CodegenCalls, MakeStructAndCCalls) {
    FuncBuilder fb("struct_and_c");
    fb.buffer("d", Float(64), 1);
    fb.buffer("out", Int(64), 1, true);
    Expr s = intrin(Handle(), Call::make_struct, {Expr(7), Expr(-9), Expr(11)});
    Stmt fields = Block::make({store("out", Cast::make(Int(64), load(Int(32), "st", 0)), 0),
                               store("out", Cast::make(Int(64), load(Int(32), "st", 1)), 1),
                               store("out", Cast::make(Int(64), load(Int(32), "st", 2)), 2)});
    // strlen of a string constant; ldexp on a vector (scalarized per lane); memset on a Handle.
    Expr len = Call::make(UInt(64), "strlen", {Expr(std::string("hello!"))}, Call::PureExtern);
    Expr dv = load(Float(64, 4), "d", Ramp::make(0, 1, 4));
    Expr ld = Call::make(Float(64, 4), "ldexp", {dv, Ramp::make(0, 1, 4)}, Call::PureExtern);
    Stmt body =
        Block::make({LetStmt::make("st", s, fields), store("out", Cast::make(Int(64), len), 3),
                     store("out", Cast::make(Int(64, 4), ld), Ramp::make(4, 1, 4)),
                     Evaluate::make(extern_call(
                         Handle(), "memset",
                         {Variable::make(Handle(), "out"), Expr(0x11), Expr((uint64_t)2)}))});
    LoweredFunc f = fb.finish(body);
    TestBuffer d(Float(64), {4}), out(Int(64), {8});
    for (int i = 0; i < 4; i++) d.data<double>()[i] = 1.5 + i;
    ASSERT_EQ(run(f, {d.raw(), out.raw()}), 0);
    const int64_t *o = out.data<int64_t>();
    EXPECT_EQ(o[0], 0x1111); // 7, then its low two bytes set to 0x11 by the memset
    EXPECT_EQ(o[1], -9);
    EXPECT_EQ(o[2], 11);
    EXPECT_EQ(o[3], 6);
    for (int i = 0; i < 4; i++) EXPECT_EQ(o[4 + i], (int64_t)std::ldexp(1.5 + i, i));
}

} // namespace
