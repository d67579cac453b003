// Errors around atomic() and the race checks it lifts: atomic() on a non-associative update
// (naming the Func, saying why and offering the override); parallelizing or vectorizing a
// dependent RVar without atomic() or allow_race_conditions() (suggesting rfactor or atomic).
#include <loom/loom.h>

#include "common/expect_error.h"

#include <gtest/gtest.h>

using namespace loom;
using loom_test::expect_error;

TEST(AtomicErrors, NotAssociative) {
    Func f("atom_na");
    Var x("x");
    RDom r(0, 10, "r");
    f(x) = 0;
    f(x) = f(x) - r;
    expect_error([&] { f.update().atomic(); },
                 {"atom_na.update(0)", "not associative", "override_associativity_test"});
}

TEST(AtomicErrors, ParallelRVarNeedsAtomic) {
    Func f("atom_race");
    Var x("x");
    RDom r(0, 10, "r");
    f(x) = 0;
    f(r % 3) += 1;
    expect_error([&] { f.update().parallel(r); },
                 {"atom_race.update(0)", "parallelize RVar r", "rfactor", "atomic"});
    // atomic() makes it legal.
    f.update().atomic().parallel(r);
}

TEST(AtomicErrors, VectorizeRVarNeedsAtomicOrRaceConditions) {
    Func f("atom_vec");
    Var x("x");
    RDom r(0, 16, "r");
    f(x) = 0;
    f(r % 3) = r;
    expect_error([&] { f.update().vectorize(r); },
                 {"atom_vec.update(0)", "vectorize RVar r", "rfactor", "atomic"});
    f.update().allow_race_conditions().vectorize(r);
}
