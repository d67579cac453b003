// Misuses of in() and clone_in() are CompileErrors naming the Func.
#include <loom/loom.h>

#include "common/expect_error.h"

#include <gtest/gtest.h>

using namespace loom;
using loom_test::expect_error;

TEST(WrapperErrors, WrapInItself) {
    Var x("x");
    Func f("we_self"), g("we_caller");
    f(x) = x;
    g(x) = f(x);
    expect_error([&] { f.in(f); }, {"we_self", "itself"});
    expect_error([&] { f.in({g, f}); }, {"we_self", "itself"});
    expect_error([&] { f.clone_in(f); }, {"we_self", "itself"});
}

TEST(WrapperErrors, UndefinedFunc) {
    Func u("we_undefined"), g("we_g");
    expect_error([&] { u.in(g); }, {"we_undefined", "not defined"});
    expect_error([&] { u.in(); }, {"we_undefined", "not defined"});
    expect_error([&] { u.clone_in(g); }, {"we_undefined", "not defined"});
}

TEST(WrapperErrors, EmptyList) {
    Var x("x");
    Func f("we_list");
    f(x) = x;
    expect_error([&] { f.in(std::vector<Func>{}); }, {"we_list", "empty"});
    expect_error([&] { f.clone_in(std::vector<Func>{}); }, {"we_list", "empty"});
}
