// Every CompileError of the front end core, with its message: each names the Func, Var or
// RDom involved (and the counts or types that disagree).
#include <loom/func.h>
#include <loom/ir_operator.h>

#include "lang/function.h"

#include "common/expect_error.h"

#include <gtest/gtest.h>

#include <string>

using namespace loom;
using loom_test::expect_error;

TEST(FuncErrors, CallingAnUndefinedFunc) {
    expect_error(
        [] {
            Func undefined_thing("undefined_thing"), g("g");
            Var x("x");
            g(x) = undefined_thing(x) + 1;
        },
        {"Can't call Func \"undefined_thing\" because it has not yet been defined."});
    // Also through a Tuple element and Tuple(FuncRef).
    expect_error(
        [] {
            Func u("undef_tuple");
            Var x("x");
            Expr e = u(x)[0];
        },
        {"undef_tuple", "not yet been defined"});
    expect_error(
        [] {
            Func u("undef_tuple2");
            Var x("x");
            Tuple t(u(x));
        },
        {"undef_tuple2", "not yet been defined"});
}

TEST(FuncErrors, WrongNumberOfArgumentsInACall) {
    expect_error(
        [] {
            Func two_d("two_d"), g("g");
            Var x("x"), y("y");
            two_d(x, y) = x + y;
            g(x) = two_d(x);
        },
        {"\"two_d\"", "2 dimension(s)", "1 argument(s)"});
    expect_error(
        [] {
            Func one_d("one_d");
            Var x("x");
            one_d(x) = x;
            Expr e = one_d(x, x, x);
        },
        {"\"one_d\"", "1 dimension(s)", "3 argument(s)"});
    // The declared dimensionality counts before the definition.
    expect_error(
        [] {
            Func decl(Int(32), 2, "decl_2d");
            Var x("x");
            Expr e = decl(x);
        },
        {"\"decl_2d\"", "2 dimension(s)", "1 argument(s)"});
}

TEST(FuncErrors, WrongNumberOfArgumentsInAnUpdate) {
    expect_error(
        [] {
            Func f("arity_f");
            Var x("x"), y("y");
            f(x, y) = x + y;
            f(x) = 3;
        },
        {"\"arity_f\"", "2 dimension(s)", "1 argument(s)"});
    // Through the internal interface, define_update checks the count itself.
    expect_error(
        [] {
            Func f("arity_g");
            Var x("x"), y("y");
            f(x, y) = x + y;
            f.function().define_update({Expr(1), Expr(2), Expr(3)}, {Expr(0)});
        },
        {"update definition 0", "\"arity_g\"", "3 argument(s)", "2 dimension(s)"});
}

TEST(FuncErrors, UpdateOfADifferentType) {
    expect_error(
        [] {
            Func typed("typed");
            Var x("x");
            typed(x) = x;
            typed(x) = cast<float>(x) * 0.5f;
        },
        {"update definition 0", "\"typed\"", "float32", "int32"});
    expect_error(
        [] {
            Func tt("typed_tuple");
            Var x("x");
            tt(x) = {x, x};
            tt(x) = {x, cast<uint8_t>(x)};
        },
        {"\"typed_tuple\"", "Tuple element 1", "uint8", "int32"});
}

TEST(FuncErrors, UpdateWithTheWrongNumberOfTupleValues) {
    expect_error(
        [] {
            Func tv("tuple_count");
            Var x("x");
            tv(x) = {x, x + 1};
            tv(x) = x;
        },
        {"\"tuple_count\"", "1 value(s)", "has 2"});
}

TEST(FuncErrors, PureArgumentsMustBeDistinctVars) {
    expect_error(
        [] {
            Func dup("dup");
            Var x("x");
            dup(x, x) = x;
        },
        {"\"dup\"", "\"x\"", "more than once"});
}

TEST(FuncErrors, FirstDefinitionMustBeOverVars) {
    expect_error(
        [] {
            Func f("not_var");
            Var x("x");
            f(x, 0) = x;
        },
        {"\"not_var\"", "argument 2", "is not a Var"});
    expect_error(
        [] {
            Func f("rvar_arg");
            RDom r(0, 10, "ra");
            f(r.x) = 1;
        },
        {"\"rvar_arg\"", "ra.x", "is not a Var"});
}

TEST(FuncErrors, RVarInPureDefinition) {
    expect_error(
        [] {
            Func pure_with_rvar("pure_with_rvar");
            Var x("x");
            RDom r(0, 10, "myrdom");
            pure_with_rvar(x) = x + r;
        },
        {"RVar myrdom.x in pure definition of pure_with_rvar"});
}

TEST(FuncErrors, UndefinedVariableInDefinition) {
    expect_error(
        [] {
            Func f("free_var");
            Var x("x"), y("y");
            f(x) = x + y;
        },
        {"Undefined variable \"y\"", "\"free_var\""});
    // A pure Var of the update must be at its position in the pure definition.
    expect_error(
        [] {
            Func f("swapped");
            Var x("x"), y("y");
            f(x, y) = x + y;
            f(y, x) = 0;
        },
        {"Undefined variable", "\"swapped\""});
}

TEST(FuncErrors, TwoReductionDomainsInOneDefinition) {
    expect_error(
        [] {
            Func f("two_rdoms");
            Var x("x");
            RDom a(0, 4, "ra"), b(0, 5, "rb");
            f(x) = 0;
            f(a) += b;
        },
        {"\"two_rdoms\"", "ra.x", "rb.x", "different RDoms"});
}

TEST(FuncErrors, RedefiningAPureDefinition) {
    expect_error(
        [] {
            Func f("redefined");
            Var x("x");
            f(x) = x;
            f.function().define({"x"}, {Expr(1)});
        },
        {"\"redefined\"", "cannot be given a new pure definition"});
}

TEST(FuncErrors, UpdateBeforePureDefinition) {
    expect_error(
        [] {
            Func f("no_pure");
            Var x("x");
            f.function().define_update({Expr(x)}, {Expr(1)});
        },
        {"\"no_pure\"", "no pure definition"});
}

TEST(FuncErrors, DeclaredTypeOrDimensionsNotMatched) {
    expect_error(
        [] {
            Func f(Int(32), 1, "decl_type");
            Var x("x");
            f(x) = 1.5f;
        },
        {"\"decl_type\"", "int32", "float32"});
    expect_error(
        [] {
            Func f(Int(32), 2, "decl_dims");
            Var x("x");
            f(x) = 1;
        },
        {"\"decl_dims\"", "2 dimension(s)", "1 argument(s)"});
}

TEST(FuncErrors, TupleValuedFuncUsedAsExpr) {
    expect_error(
        [] {
            Func t("tuple_expr");
            Var x("x");
            t(x) = {x, x};
            Expr e = t(x);
        },
        {"\"tuple_expr\"", "returns a Tuple"});
    expect_error(
        [] {
            Func t("tuple_value");
            Var x("x");
            t(x) = {x, x};
            t.value();
        },
        {"\"tuple_value\"", "Tuple"});
    expect_error(
        [] {
            Func t("tuple_type");
            Var x("x");
            t(x) = {x, x};
            t.type();
        },
        {"\"tuple_type\"", "Tuple"});
}

TEST(FuncErrors, IndexingANonTupleOrOutOfRange) {
    expect_error(
        [] {
            Func s("single");
            Var x("x");
            s(x) = x;
            Expr e = s(x)[0];
        },
        {"\"single\"", "does not return a Tuple"});
    expect_error(
        [] {
            Func t("tuple3");
            Var x("x");
            t(x) = {x, x, x};
            Expr e = t(x)[3];
        },
        {"\"tuple3\"", "index 3"});
}

TEST(FuncErrors, ImplicitVarsWithoutPlaceholder) {
    expect_error(
        [] {
            Func g("g_impl"), h("h_impl");
            Var x("x"), y("y");
            g(x, y) = x + y;
            h(x) = g(_);
        },
        {"\"h_impl\"", "_0", "placeholder"});
}

TEST(FuncErrors, TwoPlaceholders) {
    expect_error(
        [] {
            Func f("two_ph");
            Var x("x");
            f(_, _) = 1;
        },
        {"\"two_ph\"", "more than once"});
}

TEST(FuncErrors, NonIntegerCoordinates) {
    expect_error(
        [] {
            Func f("float_coord");
            Var x("x");
            f(x) = x;
            Expr e = f(cast<float>(x));
        },
        {"\"float_coord\"", "float32", "explicit cast"});
    expect_error(
        [] {
            Func f("wide_coord");
            Var x("x");
            f(x) = x;
            Expr e = f(cast<int64_t>(x));
        },
        {"\"wide_coord\"", "int64"});
}

TEST(FuncErrors, QueriesOnUndefinedFuncs) {
    expect_error([] { Func("undef_type").type(); }, {"\"undef_type\"", "undefined"});
    expect_error([] { Func("undef_value").value(); }, {"\"undef_value\"", "undefined"});
    expect_error([] { Func("undef_values").values(); }, {"\"undef_values\"", "undefined"});
    expect_error(
        [] {
            Func f("few_updates");
            Var x("x");
            f(x) = x;
            f(x) += 1;
            f.update(1);
        },
        {"\"few_updates\"", "1 update definition(s)", "update 1 does not exist"});
}

TEST(FuncErrors, UndefinedValueInADefinition) {
    expect_error(
        [] {
            Func f("undef_rhs");
            Var x("x");
            f(x) = Expr();
        },
        {"\"undef_rhs\"", "undefined"});
}
