// Illegal storage schedules are CompileErrors naming the Func and Var and saying what is legal:
// a store level not enclosing the compute level, a fold factor too small for the access
// pattern, a fold along a non-monotonic access, and bounds/folds on a Var that is not a pure
// dimension of the Func.
#include <loom/loom.h>

#include "common/expect_error.h"

#include <gtest/gtest.h>

using namespace loom;
using loom_test::expect_error;

namespace {
struct P {
    Var x{"x"}, y{"y"};
    Func f, g;
    explicit P(const std::string &p) : f(p + "_f"), g(p + "_g") {
        f(x, y) = x + y;
        g(x, y) = f(x, y - 1) + f(x, y + 1);
    }
};
} // namespace

TEST(StorageErrors, StoreInsideComputeLevel) {
    P p("se1");
    p.f.compute_at(p.g, p.y).store_at(p.g, p.x);
    expect_error(
        [&] {
            p.g.realize({8, 8});
        },
        {"Func se1_f is stored at se1_g, x", "not a loop enclosing its compute level",
         "store_root(), store_at(se1_g, Var::outermost()), store_at(se1_g, y)"});
}

TEST(StorageErrors, StoreAtWithComputeRoot) {
    P p("se2");
    p.f.store_at(p.g, p.y).compute_root();
    expect_error([&] { p.g.realize({8, 8}); }, {"se2_f", "store_root()"});
}

TEST(StorageErrors, StoreAtMissingLoop) {
    P p("se3");
    p.f.compute_at(p.g, p.y).store_at(p.g, Var("z"));
    expect_error([&] { p.g.realize({8, 8}); }, {"se3_f is stored at se3_g.z", "no loop over z"});
}

TEST(StorageErrors, StoreAtOwnLoop) {
    P p("se4");
    expect_error([&] { p.f.store_at(p.f, p.y); }, {"se4_f", "its own"});
}

TEST(StorageErrors, FoldFactorTooSmall) {
    P p("se5");
    p.f.store_root().compute_at(p.g, p.y).fold_storage(p.y, 2);
    expect_error(
        [&] {
            p.g.realize({8, 8});
        },
        {"The fold factor (2) of dimension y of se5_f is too small", "(3)"});
}

TEST(StorageErrors, FoldNonMonotonic) {
    Var x("x"), y("y");
    Func f("se6_f"), g("se6_g");
    f(x, y) = x + y;
    g(x, y) = f(x, (y * y) % 7);
    f.store_root().compute_at(g, y).fold_storage(y, 8);
    expect_error(
        [&] {
            g.realize({4, 4});
        },
        {"Can't fold storage of se6_f in dimension y", "monotonic"});
}

TEST(StorageErrors, BoundNotPureVar) {
    P p("se7");
    Var z("z");
    expect_error([&] { p.f.bound(z, 0, 10); },
                 {"Can't bound variable z of function se7_f because z is not one of the pure "
                  "variables of se7_f"});
    expect_error([&] { p.f.bound_extent(z, 10); }, {"variable z of function se7_f"});
    expect_error([&] { p.f.align_bounds(z, 4); }, {"variable z of function se7_f"});
    expect_error([&] { p.f.fold_storage(z, 4); }, {"variable z of function se7_f"});
    expect_error([&] { p.f.bound_storage(z, 4); }, {"variable z of function se7_f"});
    expect_error([&] { p.f.align_storage(z, 4); }, {"variable z of function se7_f"});
}

TEST(StorageErrors, BadFactors) {
    P p("se8");
    expect_error([&] { p.f.fold_storage(p.y, 0); }, {"se8_f", "positive"});
    expect_error([&] { p.f.align_bounds(p.x, 0); }, {"se8_f", "zero"});
}

TEST(StorageErrors, HoistInsideStoreLevel) {
    P p("se9");
    p.f.compute_at(p.g, p.x).store_at(p.g, p.y).hoist_storage(p.g, p.x);
    expect_error(
        [&] {
            p.g.realize({8, 8});
        },
        {"Func se9_f hoists its storage to se9_g, x", "hoist_storage_root()",
         "hoist_storage(se9_g, y)"});
}
