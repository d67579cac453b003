// Errors of rfactor(): a non-associative update (the message names the Func and says why), an
// RVar that is not a loop of the stage, a Var already a dimension of the Func, the pure
// definition, fused RVars; each says what would be legal.
#include <loom/loom.h>

#include "common/expect_error.h"
#include "lang/function.h"

#include <gtest/gtest.h>

using namespace loom;
using loom_test::expect_error;

TEST(RfactorErrors, NotAssociative) {
    Func f("nonassoc");
    Var x("x"), u("u");
    RDom r(0, 10, "r");
    f(x) = 0;
    f(x) = f(x) * 2 - r;
    expect_error([&] { f.update().rfactor(r, u); },
                 {"nonassoc", "not associative", "op g", "+, *, min, max"});
}

TEST(RfactorErrors, OverwriteIsNotAssociative) {
    Func f("overwrite");
    Var x("x"), u("u");
    RDom r(0, 10, "r");
    f(x) = 0;
    f(x) = r * x;
    expect_error([&] { f.update().rfactor(r, u); },
                 {"overwrite", "not associative", "does not depend on the old value"});
}

TEST(RfactorErrors, ReadsElsewhere) {
    Func f("scan");
    Var x("x"), u("u");
    RDom r(1, 10, "r");
    f(x) = x;
    f(r) = f(r - 1) + f(r);
    expect_error([&] { f.update().rfactor(r, u); },
                 {"scan", "not associative", "at a point other than the one it updates"});
}

TEST(RfactorErrors, RVarNotInStage) {
    Func f("sumr");
    Var x("x"), u("u");
    RDom r(0, 10, "r"), s(0, 4, "s");
    f(x) = 0;
    f(x) += r;
    expect_error([&] { f.update().rfactor(s, u); },
                 {"sumr.update(0)", "RVar s", "not a reduction loop", "r"});
}

TEST(RfactorErrors, VarAlreadyADimension) {
    Func f("hasx");
    Var x("x");
    RDom r(0, 10, "r");
    f(x) = 0;
    f(x) += r;
    expect_error([&] { f.update().rfactor(r, x); },
                 {"hasx", "Var x is already a dimension", "new Var"});
}

TEST(RfactorErrors, PureDefinition) {
    Func f("pure");
    Var x("x"), u("u");
    RDom r(0, 10, "r");
    f(x) = x;
    expect_error([&] { Stage(f.function(), 0).rfactor(r, u); },
                 {"pure", "update definitions only"});
}

TEST(RfactorErrors, FusedRVars) {
    Func f("fusedr");
    Var u("u");
    RDom r(0, 10, 0, 10, "r");
    RVar rf("rf");
    f() = 0;
    f() += r.x * r.y;
    f.update().fuse(r.x, r.y, rf);
    expect_error([&] { f.update().rfactor(rf, u); }, {"fusedr", "fused", "before fuse"});
}
