// Every class of user mistake in an algorithm raises a CompileError whose message names the
// Func or Var involved (DESIGN.md §5).
#include <loom/loom.h>

#include "common/expect_error.h"

#include <gtest/gtest.h>

#include <string>

using namespace loom;
using loom_test::expect_error;

TEST(CompileErrors, CallingAnUndefinedFunc) {
    expect_error(
        [] {
            Func undefined_thing("undefined_thing"), g("g");
            Var x("x");
            g(x) = undefined_thing(x) + 1;
        },
        {"undefined_thing"});
}

TEST(CompileErrors, WrongNumberOfArgumentsInCall) {
    expect_error(
        [] {
            Func two_d("two_d"), g("g");
            Var x("x"), y("y");
            two_d(x, y) = x + y;
            g(x) = two_d(x);
        },
        {"two_d", "2", "1"});
}

TEST(CompileErrors, WrongNumberOfArgumentsInUpdate) {
    expect_error(
        [] {
            Func f("f");
            Var x("x"), y("y");
            f(x, y) = x + y;
            f(x) = 3;
        },
        {"f"});
}

TEST(CompileErrors, UpdateOfADifferentType) {
    expect_error(
        [] {
            Func typed("typed");
            Var x("x");
            typed(x) = x;
            typed(x) = cast<float>(x) * 0.5f;
        },
        {"typed", "int32", "float32"});
}

TEST(CompileErrors, PureArgumentsNotDistinctVars) {
    expect_error(
        [] {
            Func dup("dup");
            Var x("x");
            dup(x, x) = x;
        },
        {"dup", "x"});
}

TEST(CompileErrors, RDomInPureDefinition) {
    expect_error(
        [] {
            Func pure_with_rvar("pure_with_rvar");
            Var x("x");
            RDom r(0, 10, "myrdom");
            pure_with_rvar(x) = x + r;
        },
        {"pure_with_rvar", "myrdom"});
}

TEST(CompileErrors, UnboundedIndexIntoAnInput) {
    expect_error(
        [] {
            ImageParam lut(Int(32), 1, "lut");
            ImageParam idx(Int(32), 1, "idx");
            Func lookup("lookup");
            Var x("x");
            // idx's values are arbitrary int32s: nothing bounds the region of lut that is read.
            lookup(x) = lut(idx(x));
            Buffer<int32_t> b(10), i(10);
            lut.set(b);
            idx.set(i);
            lookup.realize({10});
        },
        {"lut", "lookup", "clamp"});
}

TEST(CompileErrors, RealizingWithTheWrongDimensionality) {
    expect_error(
        [] {
            Func three("three");
            Var x("x"), y("y"), c("c");
            three(x, y, c) = x + y + c;
            three.realize({10, 10});
        },
        {"three", "3", "2"});
}

TEST(CompileErrors, RealizingAnUndefinedFunc) {
    expect_error(
        [] {
            Func nothing("nothing");
            nothing.realize({10});
        },
        {"nothing"});
}

TEST(CompileErrors, UnboundImageParam) {
    expect_error(
        [] {
            ImageParam unbound_input(UInt(8), 2, "unbound_input");
            Func f("f");
            Var x("x"), y("y");
            f(x, y) = unbound_input(x, y);
            f.realize({4, 4});
        },
        {"unbound_input"});
}

TEST(CompileErrors, MisusedScatterAndGather) {
    Var x("x");
    Func pure("sg_pure");
    expect_error([&] { pure(x) = gather(x, x + 1); }, {"sg_pure", "update definitions"});
    Func sizes("sg_sizes");
    sizes(x) = 0;
    expect_error([&] { sizes(scatter(1, 2)) = gather(1, 2, 3); },
                 {"sg_sizes", "same number of elements"});
    expect_error([&] { scatter(std::vector<Expr>{}); }, {"scatter", "at least one"});
    expect_error([&] { gather(Expr(1.5f), Expr(x)); }, {"gather", "one type"});
}
