// Stage::atomic and Stage::allow_race_conditions (and Func's forwards): both lift the race
// checks on an update's RVar loops (loop_directives.cpp). atomic() additionally makes the
// update's stores atomic: build_provide_loop_nest wraps the Provide in an Atomic node, and
// codegen (codegen_atomic.cpp) turns the store into an atomic read-modify-write, or holds a
// lock around it when it writes several values (a Tuple).
#include <loom/func.h>

#include "analysis/associativity.h"
#include "lang/function.h"
#include "support/error.h"

namespace loom {

using namespace internal;

Stage &Stage::allow_race_conditions() {
    definition().schedule.allow_race_conditions = true;
    definition().schedule.touched = true;
    function().touch();
    return *this;
}

Stage &Stage::atomic(bool override_associativity_test) {
    Definition &def = definition();
    if (stage > 0 && !override_associativity_test) {
        AssociativeOp op = prove_associativity(function().name(), def.args, def.values);
        user_assert(op.associative)
            << "In schedule for " << name() << ": can't make the update atomic because it is "
            << "not associative (" << op.reason << "), so running its RVar loops in parallel "
            << "could change the result. atomic() needs an update of the form " << function().name()
            << "(...) = " << function().name()
            << "(...) op g with op one of +, *, min, max, &&, ||, &, |, ^; pass "
            << "override_associativity_test=true to atomic() if you know the order does not "
            << "matter.\n";
    }
    def.schedule.atomic = true;
    def.schedule.override_atomic_associativity_test = override_associativity_test;
    def.schedule.touched = true;
    function().touch();
    return *this;
}

Func &Func::allow_race_conditions() {
    Stage(function(), 0).allow_race_conditions();
    return *this;
}

Func &Func::atomic(bool override_associativity_test) {
    Stage(function(), 0).atomic(override_associativity_test);
    return *this;
}

} // namespace loom
