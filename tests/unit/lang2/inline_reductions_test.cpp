// Inline reductions: the anonymous Func each one builds (pure args = the free Vars, the
// identity as pure definition, the combining update, the RDom's predicate) and the call it
// returns; argmax/argmin Tuples; the errors.
#include <loom/buffer.h>
#include <loom/func.h>
#include <loom/inline_reductions.h>
#include <loom/ir_operator.h>
#include <loom/param.h>
#include <loom/rdom.h>
#include <loom/var.h>

#include "ir/ir.h"
#include "ir/ir_equality.h"
#include "lang/function.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

using namespace loom;
using namespace loom::internal;

namespace {

std::string error_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const CompileError &e) {
        return e.what();
    }
    return "<no error>";
}

/// The Function a reduction's returned call refers to, checking the call passes `call_args`.
Function reduction_of(const Expr &call, const std::vector<std::string> &call_args) {
    const Call *c = call.as<Call>();
    EXPECT_NE(c, nullptr) << call;
    if (!c) return Function();
    EXPECT_EQ(c->call_type, Call::Halide);
    EXPECT_EQ(c->args.size(), call_args.size());
    for (size_t i = 0; i < c->args.size() && i < call_args.size(); i++) {
        const Variable *v = c->args[i].as<Variable>();
        EXPECT_TRUE(v && v->name == call_args[i]) << c->args[i];
    }
    return Function(c->func);
}

/// A call to f at its own pure args (the self-reference in an update).
bool is_self_call(const Expr &e, const Function &f) {
    const Call *c = e.as<Call>();
    if (!c || c->call_type != Call::Halide || c->name != f.name()) return false;
    if (c->args.size() != f.args().size()) return false;
    for (size_t i = 0; i < c->args.size(); i++) {
        const Variable *v = c->args[i].as<Variable>();
        if (!v || v->name != f.args()[i]) return false;
    }
    return true;
}

} // namespace

TEST(InlineReductions, SumOverTheRDomInTheExpression) {
    Func g("g");
    Var x("x"), y("y");
    g(x, y) = x + y;
    RDom r(0, 10, "r");
    Expr e = g(x, r) * 2;
    Expr s = sum(e);
    EXPECT_EQ(s.type(), Int(32));
    Function f = reduction_of(s, {"x"});
    ASSERT_TRUE(f.defined());
    EXPECT_EQ(f.name().substr(0, 3), "sum");
    ASSERT_EQ(f.args().size(), 1u);
    EXPECT_EQ(f.args()[0], "x");
    // Pure definition: the identity.
    ASSERT_EQ(f.definition().values.size(), 1u);
    const IntImm *zero = f.definition().values[0].as<IntImm>();
    ASSERT_NE(zero, nullptr);
    EXPECT_EQ(zero->value, 0);
    // One update: f(x) = f(x) + e over r.
    ASSERT_EQ(f.updates().size(), 1u);
    const Definition &u = f.updates()[0];
    ASSERT_EQ(u.args.size(), 1u);
    EXPECT_EQ(u.args[0].as<Variable>()->name, "x");
    const Add *add = u.values[0].as<Add>();
    ASSERT_NE(add, nullptr);
    EXPECT_TRUE(is_self_call(add->a, f));
    EXPECT_TRUE(equal(add->b, e));
    EXPECT_TRUE(u.rdom.same_as(r.domain()));
}

TEST(InlineReductions, FreeVarsInOrderOfAppearanceAndParamsAreNotFree) {
    Func g("g3");
    Var x("x"), y("y"), z("z");
    g(x, y, z) = x + y + z;
    RDom r(0, 4, "rr");
    Param<int> p("offset");
    // z appears before x; the Param is read directly.
    Expr m = maximum(g(z, r, x) + p);
    Function f = reduction_of(m, {"z", "x"});
    ASSERT_EQ(f.args().size(), 2u);
    EXPECT_EQ(f.args()[0], "z");
    EXPECT_EQ(f.args()[1], "x");
}

TEST(InlineReductions, IdentitiesAndCombiners) {
    Func g("gi");
    Var x("x");
    g(x) = x;
    RDom r(0, 5);

    Function p = reduction_of(product(g(r)), {});
    EXPECT_EQ(p.dimensions(), 0);
    EXPECT_EQ(p.definition().values[0].as<IntImm>()->value, 1);
    EXPECT_TRUE(p.updates()[0].values[0].as<Mul>() != nullptr);

    Function mx = reduction_of(maximum(g(r)), {});
    EXPECT_EQ(mx.definition().values[0].as<IntImm>()->value, std::numeric_limits<int32_t>::min());
    const Max *max_node = mx.updates()[0].values[0].as<Max>();
    ASSERT_NE(max_node, nullptr);
    EXPECT_TRUE(is_self_call(max_node->a, mx));

    Function mn = reduction_of(minimum(cast<uint8_t>(g(r))), {});
    EXPECT_EQ(mn.output_types()[0], UInt(8));
    EXPECT_EQ(mn.definition().values[0].as<UIntImm>()->value, 255u);
    EXPECT_TRUE(mn.updates()[0].values[0].as<Min>() != nullptr);

    // Floats start from -inf / +inf.
    Function fmax = reduction_of(maximum(cast<float>(g(r))), {});
    double lo = fmax.definition().values[0].as<FloatImm>()->value;
    EXPECT_TRUE(std::isinf(lo) && lo < 0);
    Function fmin = reduction_of(minimum(cast<double>(g(r))), {});
    double hi = fmin.definition().values[0].as<FloatImm>()->value;
    EXPECT_TRUE(std::isinf(hi) && hi > 0);
    EXPECT_EQ(fmin.output_types()[0], Float(64));

    // Sums stay in the expression's type (narrow types wrap, as in Halide).
    Function s8 = reduction_of(sum(cast<uint8_t>(g(r))), {});
    EXPECT_EQ(s8.output_types()[0], UInt(8));
    EXPECT_EQ(s8.definition().values[0].as<UIntImm>()->value, 0u);
}

TEST(InlineReductions, NamesAreUniqueAndUserNamesAreKept) {
    Func g("gn");
    Var x("x");
    g(x) = x;
    RDom r(0, 5);
    Function a = reduction_of(sum(g(r), "total"), {});
    Function b = reduction_of(sum(g(r), "total"), {});
    EXPECT_EQ(a.name().substr(0, 5), "total");
    EXPECT_NE(a.name(), b.name());
    Function c = reduction_of(sum(g(r)), {});
    Function d = reduction_of(sum(g(r)), {});
    EXPECT_NE(c.name(), d.name());
}

TEST(InlineReductions, WherePredicateGoesIntoTheUpdate) {
    Func g("gw");
    Var x("x");
    g(x) = x;
    RDom r(0, 10, "rw");
    r.where(r.x % 2 == 0);
    Function f = reduction_of(sum(g(r)), {});
    ASSERT_EQ(f.updates().size(), 1u);
    const Definition &u = f.updates()[0];
    ASSERT_TRUE(u.predicate.defined());
    EXPECT_TRUE(equal(u.predicate, r.domain().predicate()));
}

TEST(InlineReductions, ExplicitRDomMakesOtherRVarsFree) {
    Buffer<int32_t> b(std::vector<int>{8, 8}, "grid");
    RDom outer(0, 8, "outer"), inner(0, 8, "inner");
    // Reduce over `inner` only: `outer` varies outside, so it is passed in by the call.
    Expr s = sum(inner, b(inner, outer) + b(outer, inner));
    const Call *c = s.as<Call>();
    ASSERT_NE(c, nullptr);
    Function f(c->func);
    ASSERT_EQ(f.args().size(), 1u);
    ASSERT_EQ(c->args.size(), 1u);
    const Variable *passed = c->args[0].as<Variable>();
    ASSERT_NE(passed, nullptr);
    EXPECT_EQ(passed->name, outer.x.name());
    EXPECT_TRUE(passed->reduction_domain.same_as(outer.domain()));
    // Inside, the foreign RVar became the pure arg (both uses renamed to the same Var).
    EXPECT_NE(f.args()[0], outer.x.name());
    EXPECT_TRUE(f.updates()[0].rdom.same_as(inner.domain()));
    // An explicit RDom that the expression does not use would not be looped over (the update
    // finds its domain through the RVars it uses): a CompileError rather than a wrong count.
    std::string msg = error_of([&] { sum(inner, Expr(1), "count"); });
    EXPECT_NE(msg.find("count"), std::string::npos) << msg;
    EXPECT_NE(msg.find("does not use the RDom"), std::string::npos) << msg;
}

TEST(InlineReductions, ArgmaxAndArgmin) {
    Buffer<float> b(std::vector<int>{5, 4}, "field");
    RDom r(0, 5, 0, 4, "ar");
    Tuple t = argmax(b(r.x, r.y));
    ASSERT_EQ(t.size(), 3u);
    const Call *c0 = t[0].as<Call>();
    ASSERT_NE(c0, nullptr);
    Function f(c0->func);
    EXPECT_EQ(f.name().substr(0, 6), "argmax");
    for (int i = 0; i < 3; i++) {
        const Call *ci = t[i].as<Call>();
        ASSERT_NE(ci, nullptr);
        EXPECT_TRUE(Function(ci->func).same_as(f));
        EXPECT_EQ(ci->value_index, i);
    }
    ASSERT_EQ(f.output_types().size(), 3u);
    EXPECT_EQ(f.output_types()[0], Int(32));
    EXPECT_EQ(f.output_types()[1], Int(32));
    EXPECT_EQ(f.output_types()[2], Float(32));
    const Definition &init = f.definition();
    EXPECT_EQ(init.values[0].as<IntImm>()->value, 0);
    EXPECT_EQ(init.values[1].as<IntImm>()->value, 0);
    double lo = init.values[2].as<FloatImm>()->value;
    EXPECT_TRUE(std::isinf(lo) && lo < 0);
    // Update: each element = select(e > old value, candidate, old); strict, so ties keep the
    // first point.
    ASSERT_EQ(f.updates().size(), 1u);
    const Definition &u = f.updates()[0];
    ASSERT_EQ(u.values.size(), 3u);
    for (int i = 0; i < 3; i++) {
        const Select *s = u.values[i].as<Select>();
        ASSERT_NE(s, nullptr);
        const GT *gt = s->condition.as<GT>();
        ASSERT_NE(gt, nullptr);
        const Call *old = gt->b.as<Call>();
        ASSERT_NE(old, nullptr);
        EXPECT_EQ(old->value_index, 2);
        const Call *keep = s->false_value.as<Call>();
        ASSERT_NE(keep, nullptr);
        EXPECT_EQ(keep->value_index, i);
    }
    EXPECT_EQ(u.values[0].as<Select>()->true_value.as<Variable>()->name, r.x.name());
    EXPECT_EQ(u.values[1].as<Select>()->true_value.as<Variable>()->name, r.y.name());

    Tuple m = argmin(r, b(r.x, r.y) * 2.0f);
    Function g(m[0].as<Call>()->func);
    double hi = g.definition().values[2].as<FloatImm>()->value;
    EXPECT_TRUE(std::isinf(hi) && hi > 0);
    EXPECT_TRUE(g.updates()[0].values[0].as<Select>()->condition.as<LT>() != nullptr);
}

TEST(InlineReductions, WithoutAnRDomIsACompileError) {
    Var x("x");
    std::string msg = error_of([&] { sum(x * 2, "no_rdom_sum"); });
    EXPECT_NE(msg.find("no_rdom_sum"), std::string::npos) << msg;
    EXPECT_NE(msg.find("RDom"), std::string::npos) << msg;
    EXPECT_THROW(product(Expr(3)), CompileError);
    EXPECT_THROW(maximum(x), CompileError);
    EXPECT_THROW(minimum(x), CompileError);
    EXPECT_THROW(argmax(x), CompileError);
    EXPECT_THROW(argmin(x), CompileError);
    EXPECT_THROW(sum(Expr()), CompileError);
}

TEST(InlineReductions, TwoRDomsWithoutAnExplicitOneIsACompileError) {
    RDom a(0, 3, "ra"), b(0, 3, "rb");
    std::string msg = error_of([&] { sum(a + b, "mixed"); });
    EXPECT_NE(msg.find("mixed"), std::string::npos) << msg;
    EXPECT_NE(msg.find("multiple reduction domains"), std::string::npos) << msg;
    // With an explicit RDom it is fine.
    EXPECT_NO_THROW(sum(a, a + b));
}
