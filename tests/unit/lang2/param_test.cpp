// Param<T>: names, types, the Expr it converts to, value round trips for every type, range
// constraints and the errors for values that do not fit.
#include <loom/argument.h>
#include <loom/param.h>

#include "ir/ir.h"
#include "ir/parameter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace loom;
using namespace loom::internal;

namespace {

template <typename T>
void check_round_trip(T a, T b) {
    Param<T> p("rt");
    EXPECT_EQ(p.type(), type_of<T>());
    p.set(a);
    EXPECT_EQ(p.get(), a);
    // The value lives in the Parameter, where compiled code reads it.
    EXPECT_EQ(p.parameter().template scalar<T>(), a);
    p.set(b);
    EXPECT_EQ(p.get(), b);
    EXPECT_EQ(p.parameter().template scalar<T>(), b);
    Param<T> q("q", a);
    EXPECT_EQ(q.get(), a);
    Param<T> r(b);
    EXPECT_EQ(r.get(), b);
}

std::string error_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const CompileError &e) {
        return e.what();
    }
    return "<no error>";
}

} // namespace

TEST(Param, RoundTripsEveryType) {
    check_round_trip<bool>(true, false);
    check_round_trip<int8_t>(-128, 127);
    check_round_trip<int16_t>(-32768, 1234);
    check_round_trip<int32_t>(std::numeric_limits<int32_t>::min(), 77);
    check_round_trip<int64_t>(std::numeric_limits<int64_t>::min(), (int64_t)1 << 40);
    check_round_trip<uint8_t>(255, 0);
    check_round_trip<uint16_t>(65535, 3);
    check_round_trip<uint32_t>(4000000000u, 9);
    check_round_trip<uint64_t>(std::numeric_limits<uint64_t>::max(), 12);
    check_round_trip<float>(-2.5f, 1e30f);
    check_round_trip<double>(3.25, -1e300);
    int x = 0, y = 0;
    check_round_trip<int *>(&x, &y);
}

TEST(Param, ConvertsToAVariableWithTheParameterAttached) {
    Param<uint16_t> p("gain");
    Expr e = p;
    const Variable *v = e.as<Variable>();
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->name, "gain");
    EXPECT_EQ(v->type, UInt(16));
    EXPECT_TRUE(v->param.defined());
    EXPECT_TRUE(v->param.same_as(p.parameter()));
    EXPECT_FALSE(v->param.is_buffer());
    EXPECT_EQ(p.name(), "gain");
    // Copies share the parameter: setting one is seen by the other.
    Param<uint16_t> copy = p;
    copy.set(500);
    EXPECT_EQ(p.get(), 500);
    EXPECT_TRUE(copy.parameter().same_as(p.parameter()));
}

TEST(Param, UnnamedParamsGetDistinctNamesStartingWithP) {
    Param<float> a, b;
    EXPECT_EQ(a.name()[0], 'p');
    EXPECT_EQ(b.name()[0], 'p');
    EXPECT_NE(a.name(), b.name());
    Param<bool> c("flag"); // a string literal must name the Param, not set a bool value
    EXPECT_EQ(c.name(), "flag");
    EXPECT_EQ(c.type(), Bool());
}

TEST(Param, RangeConstraintsAreCastToTheParameterType) {
    Param<uint8_t> p("p", 7, 1, 200);
    EXPECT_EQ(p.get(), 7);
    Expr mn = p.min_value(), mx = p.max_value();
    ASSERT_TRUE(mn.defined() && mx.defined());
    EXPECT_EQ(mn.type(), UInt(8));
    EXPECT_EQ(mx.type(), UInt(8));
    // The parameter itself records the same constraints.
    EXPECT_TRUE(p.parameter().min_value().same_as(mn));
    EXPECT_TRUE(p.parameter().max_value().same_as(mx));

    Param<float> f("f");
    f.set_range(0, 1);
    EXPECT_EQ(f.min_value().type(), Float(32));
    f.set_min_value(Expr());
    EXPECT_FALSE(f.min_value().defined());
    EXPECT_TRUE(f.max_value().defined());
    f.set_max_value(Expr(2.5f));
    const FloatImm *m = f.max_value().as<FloatImm>();
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->value, 2.5);
}

TEST(Param, Estimate) {
    Param<int32_t> p("p");
    EXPECT_FALSE(p.estimate().defined());
    p.set_estimate(640);
    ASSERT_TRUE(p.estimate().defined());
    EXPECT_EQ(p.estimate().type(), Int(32));
    EXPECT_TRUE(p.parameter().estimate().defined());
    Param<double> d("d");
    d.set_estimate(0.5);
    EXPECT_EQ(d.estimate().type(), Float(64));
}

TEST(Param, ValuesThatDoNotFitAreCompileErrors) {
    Param<uint8_t> p("small");
    p.set(250); // an int that fits
    EXPECT_EQ(p.get(), 250);
    std::string msg = error_of([&] { p.set(300); });
    EXPECT_NE(msg.find("300"), std::string::npos) << msg;
    EXPECT_NE(msg.find("uint8"), std::string::npos) << msg;
    EXPECT_NE(msg.find("small"), std::string::npos) << msg;
    EXPECT_EQ(p.get(), 250); // unchanged
    EXPECT_THROW(p.set(-1), CompileError);
    EXPECT_THROW(p.set(1.5), CompileError);
    p.set(3.0); // an integral double is fine
    EXPECT_EQ(p.get(), 3);

    Param<int32_t> i("i");
    EXPECT_THROW(i.set(4000000000u), CompileError);
    EXPECT_THROW(i.set(std::nan("")), CompileError);
    EXPECT_THROW(i.set(3e9), CompileError);
    Param<uint32_t> u("u");
    EXPECT_THROW(u.set(-5), CompileError);
    Param<bool> b("b");
    EXPECT_THROW(b.set(2), CompileError);
    b.set(1);
    EXPECT_TRUE(b.get());

    // Floating-point parameters take any number, rounded as in C.
    Param<float> f("f");
    f.set(0.1);
    EXPECT_EQ(f.get(), 0.1f);
    f.set(16777217); // not representable: rounds
    EXPECT_EQ(f.get(), 16777216.0f);
}

TEST(Param, VoidParamsChooseTheirTypeAtRunTime) {
    Param<void> p(Int(16), "v");
    EXPECT_EQ(p.type(), Int(16));
    EXPECT_EQ(p.name(), "v");
    p.set(-300);
    EXPECT_EQ(p.get<int16_t>(), -300);
    EXPECT_EQ(p.get<int>(), -300);
    EXPECT_EQ(p.parameter().scalar<int16_t>(), -300);
    EXPECT_THROW(p.set(40000), CompileError);

    Param<void> f(Float(32), "fv");
    f.set(2.5);
    EXPECT_EQ(f.get<float>(), 2.5f);
    EXPECT_EQ(f.get<double>(), 2.5);
    Expr e = f;
    EXPECT_EQ(e.type(), Float(32));

    Param<void> u(UInt(8));
    EXPECT_EQ(u.name()[0], 'p');
    u.set(200);
    EXPECT_EQ(u.get<int>(), 200);
    EXPECT_THROW(u.set(256), CompileError);
}

TEST(Param, ScalarExprOfTheParameterIsTheValue) {
    Param<int8_t> p("p");
    p.set(-5);
    Expr v = p.parameter().scalar_expr();
    const IntImm *imm = v.as<IntImm>();
    ASSERT_NE(imm, nullptr);
    EXPECT_EQ(imm->value, -5);
    EXPECT_EQ(v.type(), Int(8));
}

TEST(Param, ConvertsToAScalarArgument) {
    Param<float> p("scale");
    Argument a = p;
    EXPECT_EQ(a.name, "scale");
    EXPECT_EQ(a.kind, Argument::InputScalar);
    EXPECT_EQ(a.type, Float(32));
    EXPECT_EQ(a.dimensions, 0);
    std::vector<Argument> args = {p};
    EXPECT_EQ(args[0].name, "scale");
}

TEST(Param, ReservedAndVectorNamesAreRejected) {
    EXPECT_THROW(Param<void>(Int(32, 4), "vec"), CompileError);
    EXPECT_THROW(Param<int *>("__user_context"), CompileError);
}
