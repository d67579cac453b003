// Misuses of specialize, specialize_fail and unscheduled are CompileErrors naming the stage and
// saying what is legal.
#include <loom/loom.h>

#include "common/expect_error.h"

#include <gtest/gtest.h>

using namespace loom;
using loom_test::expect_error;

TEST(SpecializeErrors, ConditionMustBeBool) {
    Var x("x");
    Param<int> n("se_n");
    Func f("se_f");
    f(x) = x;
    expect_error([&] { f.specialize(n); }, {"se_f", "bool", "int32"});
}

TEST(SpecializeErrors, ConditionMayNotUseVars) {
    Var x("se_x");
    Func f("se_g");
    f(x) = x;
    expect_error([&] { f.specialize(x > 0); }, {"se_g", "se_x", "Vars or RVars"});
    Func h("se_h");
    RDom r(0, 4, "se_r");
    h(x) = x;
    h(x) += r;
    expect_error([&] { h.update(0).specialize(r.x > 2); }, {"se_h.update(0)", "se_r"});
}

TEST(SpecializeErrors, NothingAfterSpecializeFail) {
    Var x("x");
    Param<bool> p("se_p");
    Func f("se_fail");
    f(x) = x;
    f.specialize_fail("first");
    expect_error([&] { f.specialize(p); }, {"se_fail", "after specialize_fail"});
    expect_error([&] { f.specialize_fail("second"); }, {"se_fail", "only one specialize_fail"});
    Func g("se_empty");
    g(x) = x;
    expect_error([&] { g.specialize_fail(""); }, {"se_empty", "must not be empty"});
}

TEST(SpecializeErrors, UnscheduledAfterScheduling) {
    Var x("x");
    Func f("se_sched");
    f(x) = x;
    f(x) += 1;
    f.update(0).vectorize(x, 4);
    expect_error([&] { f.update(0).unscheduled(); },
                 {"se_sched.update(0)", "already been scheduled"});
    Func g("se_twice");
    g(x) = x;
    g.unscheduled();
    expect_error([&] { g.unscheduled(); }, {"se_twice", "already been scheduled"});
}
