// Stage::specialize, specialize_fail and unscheduled (and Func's forwards). They only record
// decisions in the Definition: a specialization is a copy of the definition with its own
// schedule, kept in Definition::specializations; build_provide_loop_nest turns them into
// if/else branches around the stage's loops.
#include <loom/func.h>
#include <loom/ir_operator.h>

#include "ir/ir_equality.h"
#include "ir/ir_visitor.h"
#include "lang/function.h"
#include "support/error.h"

#include <set>

namespace loom {

using namespace internal;

namespace {

/// The Vars and RVars (Variables not bound to a Param, nor by a Let inside `e`) in `e`.
std::string first_loop_variable(const Expr &e) {
    std::string found;
    std::set<std::string> let_bound;
    visit_exprs(e, [&](const Expr &x) {
        if (const Let *l = x.as<Let>()) let_bound.insert(l->name);
        const Variable *v = x.as<Variable>();
        if (v && found.empty() && !v->param.defined() && !let_bound.count(v->name)) {
            found = v->name;
        }
        return found.empty();
    });
    return found;
}

bool has_failure(const Definition &d) {
    return !d.specializations.empty() && !d.specializations.back().failure_message.empty();
}

} // namespace

Stage Stage::specialize(const Expr &condition) {
    const std::string where = "In schedule for " + name() + ": ";
    user_assert(condition.defined()) << where << "the condition passed to specialize() is "
                                     << "undefined.\n";
    user_assert(condition.type().is_bool() && condition.type().is_scalar())
        << where << "the condition passed to specialize() must be a scalar bool, but " << condition
        << " has type " << condition.type() << ".\n";
    std::string v = first_loop_variable(condition);
    user_assert(v.empty()) << "Specialization condition (" << condition << ") for " << name()
                           << " depends on Var or RVar " << v
                           << ". Specialization conditions may not depend on any Vars or RVars: "
                           << "use Params, buffer sizes (im.width()) and constants.\n";
    Definition &def = definition();
    user_assert(!has_failure(def))
        << where << "can't add a specialization after specialize_fail(): the failure must be "
        << "the last case. Call specialize(" << condition << ") before specialize_fail().\n";

    std::vector<int> path = spec_path;
    for (size_t i = 0; i < def.specializations.size(); i++) {
        if (equal(def.specializations[i].condition, condition)) {
            path.push_back((int)i);
            return Stage(function(), stage, path);
        }
    }
    // The copy inherits everything, including the schedule so far, except the
    // specializations themselves (as in Halide).
    Specialization sp;
    sp.condition = condition;
    sp.definition.args = def.args;
    sp.definition.values = def.values;
    sp.definition.rdom = def.rdom;
    sp.definition.predicate = def.predicate;
    sp.definition.schedule = def.schedule;
    def.specializations.push_back(std::move(sp));
    function().touch();
    path.push_back((int)def.specializations.size() - 1);
    return Stage(function(), stage, path);
}

void Stage::specialize_fail(const std::string &message) {
    user_assert(!message.empty()) << "In schedule for " << name()
                                  << ": the message passed to specialize_fail() must not be "
                                     "empty.\n";
    Definition &def = definition();
    user_assert(!has_failure(def))
        << "In schedule for " << name() << ": only one specialize_fail() may be given per stage "
        << "(it already fails with \"" << def.specializations.back().failure_message << "\").\n";
    Specialization sp;
    sp.condition = const_true();
    sp.failure_message = message;
    def.specializations.push_back(std::move(sp));
    function().touch();
}

void Stage::unscheduled() {
    StageSchedule &s = definition().schedule;
    user_assert(!s.touched) << "Stage " << name() << " can't be marked unscheduled(): it has "
                            << "already been scheduled. unscheduled() says a stage is meant to "
                            << "keep the default schedule; remove one of the two.\n";
    s.touched = true;
    function().touch();
}

Stage Func::specialize(const Expr &condition) { return Stage(*this).specialize(condition); }

void Func::specialize_fail(const std::string &message) { Stage(*this).specialize_fail(message); }

Func &Func::unscheduled() {
    Stage(*this).unscheduled();
    return *this;
}

} // namespace loom
