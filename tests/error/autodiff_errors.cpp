// propagate_adjoints on what it cannot differentiate: each is a CompileError naming the Func and
// saying what to do (Halide 21 drops an extern's gradient with only a warning).
#include <loom/loom.h>

#include "common/expect_error.h"

#include <gtest/gtest.h>

using namespace loom;
using loom_test::expect_error;

namespace {
Var x("x");
}

TEST(AutodiffErrors, ExternFuncHasNoDerivative) {
    ImageParam in(Float(32), 1, "in");
    Func ext("ext_stage");
    ext.define_extern("loomtest_no_such_stage", {in}, Float(32), 1);
    Func f("f");
    f(x) = ext(x) * 2.0f;
    expect_error([&] { propagate_adjoints(f, Buffer<float>(4)); },
                 {"ext_stage", "extern Func", "no derivative"});
}

TEST(AutodiffErrors, TupleArgminOverAnRDom) {
    // The elements combine over the RDom by a select (not by adding): Halide 21 refuses it too.
    ImageParam in(Float(32), 1, "in");
    RDom r(0, 8, "r");
    Func m("arg_min");
    m() = Tuple(Expr(1e9f), Expr(0.0f));
    Expr better = in(r) < m()[0];
    m() = Tuple(select(better, in(r), m()[0]), select(better, in(r)*3.0f, m()[1]));
    Func f("f");
    f() = m()[1];
    expect_error([&] { propagate_adjoints(f); },
                 {"Tuple-valued Func \"arg_min\"", "not supported yet"});
}

TEST(AutodiffErrors, IntegerOutput) {
    Func f("int_out");
    f(x) = x * 2;
    expect_error([&] { propagate_adjoints(f, Buffer<float>(4)); },
                 {"int_out", "int32", "floating-point"});
}

TEST(AutodiffErrors, WrongNumberOfBounds) {
    Func f("f2d"), a("a");
    Var y("y");
    f(x, y) = cast<float>(x + y);
    a(x, y) = 1.0f;
    expect_error([&] { propagate_adjoints(f, a, {{0, 4}}); }, {"f2d", "1 bounds", "2 dimensions"});
}

TEST(AutodiffErrors, ScanOverAPureVar) {
    ImageParam in(Float(32), 1, "in");
    Func s("pure_scan");
    s(x) = in(x);
    s(x) = s(x - 1) * 0.5f + s(x);
    expect_error([&] { propagate_adjoints(s, Buffer<float>(4)); },
                 {"pure_scan", "another point along the pure dimension", "RVar"});
}

TEST(AutodiffErrors, RepeatedOverwrite) {
    ImageParam in(Float(32), 2, "in");
    RDom r(0, 3, "r");
    Func f("overwritten");
    f(x) = 0.0f;
    f(x) = in(x, r);
    expect_error([&] { propagate_adjoints(f, Buffer<float>(4)); },
                 {"overwritten", "several times", "not supported yet"});
}
