// Definition bookkeeping of Func/FuncRef/Stage: what each kind of definition records in the
// internal Function (args, values, types, predicate, default loop dims), without compiling.
#include <loom/func.h>
#include <loom/ir_operator.h>

#include "ir/ir_equality.h"
#include "ir/ir_utils.h"
#include "lang/function.h"

#include <gtest/gtest.h>

using namespace loom;
using namespace loom::internal;

namespace {

std::vector<std::string> dim_names(const Definition &d) {
    std::vector<std::string> names;
    for (const Dim &dim : d.schedule.dims) names.push_back(dim.var);
    return names;
}

std::vector<std::string> var_names(const std::vector<Expr> &args) {
    std::vector<std::string> names;
    for (const Expr &a : args) {
        const Variable *v = a.as<Variable>();
        names.push_back(v ? v->name : "<not a Variable>");
    }
    return names;
}

bool is_undef(const Expr &e) {
    const Call *c = e.as<Call>();
    return c && c->is_intrinsic(Call::undef);
}

} // namespace

TEST(FuncDefinition, PureDefinitionIsRecorded) {
    Func f("pure_f");
    Var x("x"), y("y");
    Stage s = f(x, y) = x + y * 2;
    EXPECT_EQ(s.name(), "pure_f");
    EXPECT_EQ(s.stage_index(), 0);
    EXPECT_TRUE(f.defined());
    EXPECT_EQ(f.name(), "pure_f");
    EXPECT_EQ(f.dimensions(), 2);
    ASSERT_EQ(f.args().size(), 2u);
    EXPECT_EQ(f.args()[0].name(), "x");
    EXPECT_EQ(f.args()[1].name(), "y");
    EXPECT_EQ(f.type(), Int(32));
    EXPECT_EQ(f.outputs(), 1);
    EXPECT_TRUE(equal(f.value(), x + y * 2));
    EXPECT_EQ(f.num_update_definitions(), 0);
    EXPECT_FALSE(f.has_update_definition());

    Function fn = f.function();
    const Definition &d = fn.definition();
    EXPECT_EQ(var_names(d.args), (std::vector<std::string>{"x", "y"}));
    EXPECT_EQ(fn.args(), (std::vector<std::string>{"x", "y"}));
    EXPECT_TRUE(is_const_true(d.predicate));
    EXPECT_FALSE(d.rdom.defined());
    EXPECT_EQ(dim_names(d), (std::vector<std::string>{"x", "y", "__outermost"}));
    for (const Dim &dim : d.schedule.dims) EXPECT_EQ(dim.kind, Dim::Kind::PureVar);
    EXPECT_EQ(s.dump_argument_list(), "Vars: x y __outermost\n");
}

TEST(FuncDefinition, SeveralUpdatesAreRecordedInOrder) {
    Func f("upd_f");
    Var x("x");
    f(x) = x * 3;
    Stage s0 = f(x) = f(x) + 1;
    RDom r(0, 10, "r");
    Stage s1 = f(r.x) = f(r.x) * 2;
    Stage s2 = f(3) = 7;
    EXPECT_EQ(f.num_update_definitions(), 3);
    EXPECT_EQ(s0.name(), "upd_f.update(0)");
    EXPECT_EQ(s1.name(), "upd_f.update(1)");
    EXPECT_EQ(s2.name(), "upd_f.update(2)");
    EXPECT_EQ(f.update(1).name(), "upd_f.update(1)");
    EXPECT_EQ(f.update().stage_index(), 1);

    // Update 0: pure in x, reads the function itself.
    EXPECT_EQ(var_names(f.update_args(0)), (std::vector<std::string>{"x"}));
    EXPECT_TRUE(equal(f.update_value(0), f(x) + 1));
    EXPECT_EQ(dim_names(f.function().updates()[0]), (std::vector<std::string>{"x", "__outermost"}));
    EXPECT_FALSE(f.function().updates()[0].rdom.defined());

    // Update 1: over the RDom.
    const Definition &d1 = f.function().updates()[1];
    EXPECT_EQ(var_names(d1.args), (std::vector<std::string>{"r.x"}));
    ASSERT_TRUE(d1.rdom.defined());
    EXPECT_TRUE(d1.rdom.same_as(r.domain()));
    EXPECT_TRUE(equal(d1.values[0], f(r.x) * 2));
    EXPECT_EQ(dim_names(d1), (std::vector<std::string>{"r.x", "__outermost"}));
    EXPECT_EQ(d1.schedule.dims[0].kind, Dim::Kind::PureRVar); // each r.x touches only f(r.x)
    ASSERT_EQ(d1.schedule.rvars.size(), 1u);
    EXPECT_EQ(d1.schedule.rvars[0].var, "r.x");
    EXPECT_TRUE(is_const(d1.schedule.rvars[0].extent, 10));
    ASSERT_EQ(f.rvars(1).size(), 1u);
    EXPECT_EQ(f.rvars(1)[0].name(), "r.x");
    EXPECT_TRUE(f.rvars(0).empty());

    // Update 2: a single point.
    const Definition &d2 = f.function().updates()[2];
    ASSERT_EQ(d2.args.size(), 1u);
    EXPECT_TRUE(is_const(d2.args[0], 3));
    EXPECT_TRUE(is_const(d2.values[0], 7));
    EXPECT_EQ(dim_names(d2), (std::vector<std::string>{"__outermost"}));
    EXPECT_EQ(f.update(2).dump_argument_list(), "Vars: __outermost\n");
}

TEST(FuncDefinition, RVarsAreInnermostThenPureVars) {
    // Halide's default loop order for an update: the RVars innermost, the pure Vars outside.
    Func f("mixed");
    Var x("x"), y("y");
    f(x, y) = 0;
    RDom r(0, 5, 0, 6, "rr");
    f(x, r.y) += x * r.x;
    const Definition &d = f.function().updates()[0];
    EXPECT_EQ(dim_names(d), (std::vector<std::string>{"rr.x", "rr.y", "x", "__outermost"}));
    // rr.x is summed into each f(x, rr.y): order-dependent. Distinct rr.y values touch
    // distinct elements: pure.
    EXPECT_EQ(d.schedule.dims[0].kind, Dim::Kind::ImpureRVar);
    EXPECT_EQ(d.schedule.dims[1].kind, Dim::Kind::PureRVar);
    EXPECT_EQ(d.schedule.dims[2].kind, Dim::Kind::PureVar);
    EXPECT_EQ(f.update(0).dump_argument_list(), "Vars: rr.x rr.y x __outermost\n");
    // default_dims is also usable directly.
    std::vector<Dim> dims = default_dims(d.args, d.rdom);
    ASSERT_EQ(dims.size(), 4u);
    EXPECT_EQ(dims[3].var, Var::outermost().name());
}

TEST(FuncDefinition, PureAndImpureRVars) {
    Var x("x");
    RDom r(1, 9, "pr");
    auto kind = [](const Func &f, int update) {
        return f.function().updates()[update].schedule.dims[0].kind;
    };
    Func scan("scan");
    scan(x) = x;
    scan(r) = scan(r - 1) + scan(r); // reads the previous iteration's element
    EXPECT_EQ(kind(scan, 0), Dim::Kind::ImpureRVar);
    Func hist("hist_kind");
    hist(x) = 0;
    hist(r % 3) += 1; // different r may hit the same bin
    EXPECT_EQ(kind(hist, 0), Dim::Kind::ImpureRVar);
    Func pointwise("pointwise");
    pointwise(x) = x;
    pointwise(r) = pointwise(r) * 2 + r;
    EXPECT_EQ(kind(pointwise, 0), Dim::Kind::PureRVar);
    Func sum("sum_kind");
    sum(x) = 0;
    sum(x) += r * x; // every r writes sum(x)
    EXPECT_EQ(kind(sum, 0), Dim::Kind::ImpureRVar);
}

TEST(FuncDefinition, RDomPredicateGoesIntoTheDefinition) {
    Func f("pred_f");
    Var x("x");
    f(x) = 0;
    RDom r(0, 20, "rp");
    r.where(r.x % 3 == 0);
    r.where(r.x < 15);
    f(r) = f(r) + 1000;
    const Definition &d = f.function().updates()[0];
    EXPECT_TRUE(equal(d.predicate, (r.x % 3 == 0) && (r.x < 15)));
    EXPECT_TRUE(r.domain().frozen());
    // Definitions without a where() have a true predicate.
    f(x) = f(x) + 1;
    EXPECT_TRUE(is_const_true(f.function().updates()[1].predicate));
}

TEST(FuncDefinition, PlaceholderExpandsToImplicitVars) {
    Var x("x"), y("y"), z("z");
    Func g("g2d");
    g(x, y) = x + 10 * y;

    // f(_) = g(_): both sides get _0, _1.
    Func f("ph_f");
    f(_) = g(_) * 2;
    EXPECT_EQ(f.dimensions(), 2);
    EXPECT_EQ(f.function().args(), (std::vector<std::string>{"_0", "_1"}));
    EXPECT_TRUE(equal(f.value(), g(_0, _1) * 2));

    // A call fills the dimensions not given explicitly, at the placeholder's position.
    Func h("ph_h");
    h(x, _) = g(_, x);
    EXPECT_EQ(h.function().args(), (std::vector<std::string>{"x", "_0"}));
    EXPECT_TRUE(equal(h.value(), g(_0, x)));

    Func g3("g3d");
    g3(x, y, z) = x + y + z;
    Func p("ph_p");
    p(x, _) = g3(x, _) + 1;
    EXPECT_EQ(p.function().args(), (std::vector<std::string>{"x", "_0", "_1"}));
    EXPECT_TRUE(equal(p.value(), g3(x, _0, _1) + 1));
    // Once p is defined, p(_) is p(_0, _1, _2) and p(y, _) is p(y, _0, _1).
    EXPECT_TRUE(equal(Expr(p(_)), Expr(p(_0, _1, _2))));
    EXPECT_TRUE(equal(Expr(p(y, _)), Expr(p(y, _0, _1))));

    // Without implicit Vars on the right, `_` on the left stands for nothing.
    Func c("ph_c");
    c(_) = 5;
    EXPECT_EQ(c.dimensions(), 0);

    // An update through the placeholder on a Func defined with it.
    f(_) += 1;
    EXPECT_EQ(var_names(f.update_args(0)), (std::vector<std::string>{"_0", "_1"}));

    // Func(Expr) defines f(_) = e.
    Func k(g(_) + 1);
    EXPECT_EQ(k.dimensions(), 2);
    EXPECT_TRUE(equal(k.value(), g(_0, _1) + 1));
    Func scalar(Expr(42));
    EXPECT_EQ(scalar.dimensions(), 0);
    EXPECT_TRUE(is_const(scalar.value(), 42));
}

TEST(FuncDefinition, CompoundAssignmentOnUndefinedFuncDefinesTheIdentity) {
    Var x("x");
    Func sum_f("sum_f");
    sum_f(x) += x * 2;
    ASSERT_TRUE(sum_f.defined());
    EXPECT_EQ(sum_f.function().args(), (std::vector<std::string>{"x"}));
    EXPECT_TRUE(is_const(sum_f.value(), 0));
    EXPECT_EQ(sum_f.type(), Int(32));
    ASSERT_EQ(sum_f.num_update_definitions(), 1);
    EXPECT_TRUE(equal(sum_f.update_value(0), sum_f(x) + x * 2));

    Func prod_f("prod_f");
    prod_f(x) *= 0.5f;
    EXPECT_EQ(prod_f.type(), Float(32));
    const FloatImm *one = prod_f.value().as<FloatImm>();
    ASSERT_NE(one, nullptr);
    EXPECT_EQ(one->value, 1.0);

    Func diff_f("diff_f");
    diff_f(x) -= 3;
    EXPECT_TRUE(is_const(diff_f.value(), 0));
    EXPECT_TRUE(equal(diff_f.update_value(0), diff_f(x) - 3));

    Func div_f("div_f");
    div_f(x) /= 2.0f;
    EXPECT_TRUE(equal(div_f.update_value(0), div_f(x) / 2.0f));

    // A histogram: the argument is not a Var, so the pure definition gets a fresh one.
    Func hist("hist");
    RDom r(0, 100, "hr");
    hist(r.x % 7) += 1;
    ASSERT_EQ(hist.dimensions(), 1);
    EXPECT_NE(hist.function().args()[0], "hr.x");
    EXPECT_TRUE(is_const(hist.value(), 0));
    EXPECT_TRUE(equal(hist.update_args(0)[0], r.x % 7));
    EXPECT_TRUE(equal(hist.update_value(0), hist(r.x % 7) + 1));
}

TEST(FuncDefinition, CompoundAssignmentCastsToTheFuncsType) {
    Var x("x");
    Func u("u8_f");
    u(x) = cast<uint8_t>(x);
    u(x) += 1;
    EXPECT_EQ(u.update_value(0).type(), UInt(8));
    EXPECT_TRUE(equal(u.update_value(0), u(x) + cast<uint8_t>(1)));
    Func i("int_f");
    i(x) = x;
    i(x) += 0.75f * x; // cast to int32, as Halide does for compound assignment
    EXPECT_EQ(i.update_value(0).type(), Int(32));
    EXPECT_TRUE(equal(i.update_value(0), i(x) + cast<int32_t>(0.75f * x)));
}

TEST(FuncDefinition, TupleDefinitionsAndElementUpdates) {
    Var x("x");
    Func t("tup");
    Stage s = t(x) = {x, cast<float>(x) * 0.5f};
    EXPECT_EQ(s.name(), "tup");
    EXPECT_EQ(t.outputs(), 2);
    EXPECT_EQ(t.types(), (std::vector<Type>{Int(32), Float(32)}));
    Tuple vals = t.values();
    ASSERT_EQ(vals.size(), 2u);
    EXPECT_TRUE(equal(vals[0], Expr(x)));
    EXPECT_TRUE(equal(vals[1], cast<float>(x) * 0.5f));

    // A full Tuple update.
    t(x) = Tuple(t(x)[0] + 1, t(x)[1] * 2.0f);
    Tuple u0 = t.update_values(0);
    EXPECT_TRUE(equal(u0[0], Expr(t(x)[0]) + 1));
    EXPECT_TRUE(equal(u0[1], Expr(t(x)[1]) * 2.0f));
    // The element reads are calls with the right value index.
    Expr elem = t(x)[1];
    const Call *c = elem.as<Call>();
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->value_index, 1);
    EXPECT_EQ(c->type, Float(32));
    EXPECT_EQ(c->call_type, Call::Halide);

    // Element updates leave the other element undefined (unchanged).
    t(x)[1] = t(x)[1] + 3.0f;
    Tuple u1 = t.update_values(1);
    EXPECT_TRUE(is_undef(u1[0]));
    EXPECT_EQ(u1[0].type(), Int(32));
    EXPECT_TRUE(equal(u1[1], Expr(t(x)[1]) + 3.0f));
    t(x)[0] += 5;
    Tuple u2 = t.update_values(2);
    EXPECT_TRUE(equal(u2[0], Expr(t(x)[0]) + 5));
    EXPECT_TRUE(is_undef(u2[1]));
    EXPECT_EQ(t.num_update_definitions(), 3);

    // Tuple(FuncRef) and FuncRef = FuncRef copy all elements.
    Tuple all(t(x));
    ASSERT_EQ(all.size(), 2u);
    Func copy("tup_copy");
    copy(x) = t(x);
    EXPECT_EQ(copy.outputs(), 2);
    EXPECT_TRUE(equal(copy.values()[1], Expr(t(x)[1])));
    // A Tuple from a vector and +=/*= on Tuples.
    Func acc("tup_acc");
    acc(x) += Tuple(std::vector<Expr>{x, cast<float>(x)});
    EXPECT_TRUE(is_const(acc.values()[0], 0));
    EXPECT_EQ(acc.types()[1], Float(32));
    EXPECT_TRUE(equal(acc.update_values(0)[1], Expr(acc(x)[1]) + cast<float>(x)));
}

TEST(FuncDefinition, FuncRefAssignmentFromAnotherFunc) {
    Var x("x"), y("y");
    Func a("ref_a"), b("ref_b");
    a(x, y) = x * y;
    b(x, y) = a(y, x);
    EXPECT_TRUE(equal(b.value(), Expr(a(y, x))));
    const Call *c = b.value().as<Call>();
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->name, "ref_a");
    EXPECT_TRUE(Function(c->func).same_as(a.function()));
}

TEST(FuncDefinition, DeclaredTypesAllowCallsBeforeDefinition) {
    Var x("x");
    Func d(Int(16), 1, "declared");
    EXPECT_FALSE(d.defined());
    EXPECT_EQ(d.dimensions(), 1);
    EXPECT_EQ(d.type(), Int(16));
    Expr call = d(x);
    EXPECT_EQ(call.type(), Int(16));
    d(x) = cast<int16_t>(x);
    EXPECT_TRUE(d.defined());
    Func two(std::vector<Type>{Int(32), Float(32)}, 2, "declared2");
    EXPECT_EQ(two.outputs(), 2);
    EXPECT_EQ(Expr(two(x, x)[1]).type(), Float(32));
}

TEST(FuncDefinition, DefinitionsMayUseTheUserContextAndLets) {
    // print() passes the pipeline's user context; Let-bound names are in scope in their body.
    Var x("x");
    Func f("with_print");
    f(x) = print(x * 2, "<- doubled");
    EXPECT_TRUE(f.defined());
    Func g("with_let");
    g(x) = Let::make("t", x + 1, Variable::make(Int(32), "t") * 3);
    EXPECT_TRUE(g.defined());
}

TEST(FuncDefinition, ArgumentsOfOtherIntegerTypesAreCast) {
    Var x("x");
    Func f("cast_args");
    f(x) = x;
    Expr e = f(cast<uint8_t>(x));
    const Call *c = e.as<Call>();
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->args[0].type(), Int(32));
    Expr lit = f(3);
    EXPECT_TRUE(is_const(lit.as<Call>()->args[0], 3));
}

TEST(FuncDefinition, AnonymousFuncsHaveUniqueNames) {
    Func a, b;
    EXPECT_NE(a.name(), b.name());
    EXPECT_EQ(a.name()[0], 'f');
    // A reused name gets a suffix, as in Halide 21 (checked against it): two Funcs of one name,
    // say made by a helper called twice, stay distinct in a pipeline.
    Func named("name_used_twice");
    Func other("name_used_twice");
    EXPECT_EQ(named.name(), "name_used_twice");
    EXPECT_EQ(other.name(), "name_used_twice$1");
    EXPECT_FALSE(named.function().same_as(other.function()));
}

TEST(FuncDefinition, ComputeRootAndInlineRecordTheScheduleAndTouch) {
    Var x("x");
    Func f("sched_f");
    f(x) = x;
    uint64_t v0 = f.function().version();
    Func &ret = f.compute_root();
    EXPECT_EQ(&ret, &f);
    const FuncSchedule &s = f.function().schedule();
    EXPECT_TRUE(s.compute_level.is_root());
    EXPECT_TRUE(s.store_level.is_root());
    EXPECT_TRUE(s.touched);
    EXPECT_GT(f.function().version(), v0);
    uint64_t v1 = f.function().version();
    f.compute_inline();
    EXPECT_TRUE(f.function().schedule().compute_level.is_inlined());
    EXPECT_TRUE(f.function().schedule().store_level.is_inlined());
    EXPECT_GT(f.function().version(), v1);
    // Every definition touches too.
    uint64_t v2 = f.function().version();
    f(x) += 1;
    EXPECT_GT(f.function().version(), v2);
}

TEST(FuncDefinition, StageOfThePureDefinition) {
    Var x("x");
    Func f("stage_f");
    f(x) = x;
    Stage s = f;
    EXPECT_EQ(s.name(), "stage_f");
    EXPECT_EQ(&s.definition(), &f.function().definition());
}

TEST(FuncDefinition, FindTransitiveCalls) {
    Var x("x");
    Func a("tc_a"), b("tc_b"), c("tc_c"), unrelated("tc_unrelated");
    a(x) = x;
    unrelated(x) = x;
    RDom r(0, a(0), "tcr"); // a Func used only in an RDom bound
    b(x) = 0;
    b(x) += r.x;
    c(x) = b(x) + b(x + 1);
    c(x) = c(x) * 2; // a self-reference
    auto env = find_transitive_calls({c.function()});
    ASSERT_EQ(env.size(), 3u);
    EXPECT_TRUE(env.at("tc_a").same_as(a.function()));
    EXPECT_TRUE(env.at("tc_b").same_as(b.function()));
    EXPECT_TRUE(env.at("tc_c").same_as(c.function()));
    EXPECT_EQ(env.count("tc_unrelated"), 0u);
}

TEST(FuncDefinition, SelfReferencesDoNotKeepTheFunctionAlive) {
    // A recursive update must not make the Function own itself (a leak).
    IntrusivePtr<RefCounted> stub;
    {
        Func f("self_ref");
        Var x("x");
        f(x) = x;
        f(x) = f(x) + 1;
        Expr value = f.update_value(0);
        const Call *c = value.as<Add>()->a.as<Call>();
        ASSERT_NE(c, nullptr);
        stub = c->func;
        // Function(call->func) resolves the self-call to the function itself.
        EXPECT_TRUE(Function(c->func).same_as(f.function()));
        EXPECT_NE(dynamic_cast<WeakFunctionRef *>(stub.get()), nullptr);
    }
    auto *w = dynamic_cast<WeakFunctionRef *>(stub.get());
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->target, nullptr); // the FunctionContents was destroyed
}
