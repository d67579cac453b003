// Var, RVar, RDom and Tuple: names, domains, conversions, printing, and their errors.
#include <loom/buffer.h>
#include <loom/func.h>
#include <loom/image_param.h>
#include <loom/ir_operator.h>

#include "ir/ir.h"
#include "ir/ir_equality.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "lang/function.h"

#include "common/expect_error.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace loom;
using loom_test::expect_error;
using namespace loom::internal;

namespace {

std::string to_string(const RDom &r) {
    std::ostringstream os;
    os << r;
    return os.str();
}

} // namespace

TEST(Var, NamesAndConversion) {
    Var x("x"), x2("x"), anon1, anon2;
    EXPECT_EQ(x.name(), "x");
    EXPECT_TRUE(x.same_as(x2));
    EXPECT_NE(anon1.name(), anon2.name());
    EXPECT_EQ(anon1.name()[0], 'v');
    Expr e = x;
    const Variable *v = e.as<Variable>();
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->name, "x");
    EXPECT_EQ(e.type(), Int(32));
    EXPECT_FALSE(v->reduction_domain.defined());
    EXPECT_TRUE(equal(x + 1, Add::make(e, Expr(1))));
}

TEST(Var, ImplicitAndSpecialVars) {
    EXPECT_EQ(_.name(), "_");
    EXPECT_TRUE(_.is_placeholder());
    EXPECT_FALSE(_.is_implicit());
    EXPECT_EQ(_0.name(), "_0");
    EXPECT_EQ(_9.name(), "_9");
    EXPECT_TRUE(_3.is_implicit());
    EXPECT_EQ(_3.implicit_index(), 3);
    EXPECT_EQ(Var::implicit(12).name(), "_12");
    EXPECT_EQ(Var::implicit_index("_12"), 12);
    EXPECT_EQ(Var::implicit_index("_x"), -1);
    EXPECT_EQ(Var::implicit_index("x0"), -1);
    EXPECT_FALSE(Var("x").is_implicit());
    EXPECT_EQ(Var::outermost().name(), "__outermost");
}

TEST(RDom, NamesBoundsAndDimensions) {
    RDom r(0, 10, 5, 20, "box");
    EXPECT_TRUE(r.defined());
    EXPECT_EQ(r.dimensions(), 2);
    EXPECT_EQ(r.x.name(), "box.x");
    EXPECT_EQ(r.y.name(), "box.y");
    EXPECT_EQ(r[1].name(), "box.y");
    EXPECT_TRUE(is_const(r.x.min(), 0));
    EXPECT_TRUE(is_const(r.x.extent(), 10));
    EXPECT_TRUE(is_const(r.y.min(), 5));
    EXPECT_TRUE(is_const(r.y.extent(), 20));
    // The RVars beyond the domain are named but have no bounds.
    EXPECT_EQ(r.z.name(), "box.z");
    EXPECT_FALSE(r.z.min().defined());
    // The RVar's Expr carries its domain.
    Expr ex = r.y;
    const Variable *v = ex.as<Variable>();
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->name, "box.y");
    EXPECT_EQ(ex.type(), Int(32));
    EXPECT_TRUE(v->reduction_domain.same_as(r.domain()));
    EXPECT_TRUE(r.x.domain().same_as(r.domain()));
    ASSERT_EQ(r.domain().domain().size(), 2u);
    EXPECT_EQ(r.domain().domain()[1].var, "box.y");

    RDom five(Region{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}}, "five");
    EXPECT_EQ(five.dimensions(), 5);
    EXPECT_EQ(five.w.name(), "five.w");
    EXPECT_EQ(five[4].name(), "five.4");
    EXPECT_TRUE(is_const(five[4].extent(), 5));

    RDom anon(0, 3);
    EXPECT_EQ(anon.x.name().substr(0, 1), "r");
    EXPECT_EQ(anon.x.name().substr(anon.x.name().size() - 2), ".x");
    RDom anon2(0, 3);
    EXPECT_NE(anon.x.name(), anon2.x.name());
    EXPECT_FALSE(anon.same_as(anon2));
    RDom copy = anon;
    EXPECT_TRUE(copy.same_as(anon));
}

TEST(RDom, BoundsAreInt32AndMayBeSymbolic) {
    Var n("n");
    RDom r(Expr((int16_t)2), n * 2, "sym");
    EXPECT_EQ(r.x.min().type(), Int(32));
    EXPECT_TRUE(is_const(r.x.min(), 2));
    EXPECT_TRUE(equal(r.x.extent(), n * 2));
    RDom u(cast<uint8_t>(n), Expr((uint8_t)7), "u");
    EXPECT_EQ(u.x.min().type(), Int(32));
    EXPECT_EQ(u.x.extent().type(), Int(32));
}

TEST(RDom, OneDimensionalConvertsToExprAndRVar) {
    RDom r(3, 4, "one");
    Expr e = r;
    EXPECT_EQ(e.as<Variable>()->name, "one.x");
    RVar v = r;
    EXPECT_EQ(v.name(), "one.x");
    EXPECT_TRUE(equal(r + 1, Expr(r.x) + 1));
    expect_error(
        [] {
            RDom r2(0, 2, 0, 3, "two");
            Expr e = r2;
        },
        {"2 dimensions", "Expr"});
    expect_error(
        [] {
            RDom r2(0, 2, 0, 3, "two");
            RVar v = r2;
        },
        {"2 dimensions", "RVar"});
}

TEST(RDom, FromBufferAndImageParam) {
    Buffer<int32_t> b(std::vector<int>{10, 20}, "bufdom");
    b.set_min(3, -2);
    RDom r(b);
    EXPECT_EQ(r.dimensions(), 2);
    EXPECT_EQ(r.x.name(), "bufdom.x");
    EXPECT_TRUE(is_const(r.x.min(), 3));
    EXPECT_TRUE(is_const(r.x.extent(), 10));
    EXPECT_TRUE(is_const(r.y.min(), -2));
    EXPECT_TRUE(is_const(r.y.extent(), 20));

    ImageParam im(UInt(8), 3, "imdom");
    RDom p(im);
    EXPECT_EQ(p.dimensions(), 3);
    EXPECT_EQ(p.z.name(), "imdom.z");
    EXPECT_TRUE(equal(p.y.min(), im.dim(1).min()));
    EXPECT_TRUE(equal(p.z.extent(), im.dim(2).extent()));
    const Variable *m = p.x.min().as<Variable>();
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->name, "imdom.min.0");
}

TEST(RDom, WhereAccumulatesAndFreezes) {
    RDom r(0, 10, 0, 10, "wr");
    EXPECT_FALSE(r.domain().predicate().defined());
    r.where(r.x < r.y);
    EXPECT_TRUE(equal(r.domain().predicate(), r.x < r.y));
    r.where(r.x != 3);
    EXPECT_TRUE(equal(r.domain().predicate(), (r.x < r.y) && (r.x != 3)));
    Func f("where_f");
    Var x("x");
    f(x) = 0;
    f(r.x) += r.y;
    expect_error([&] { r.where(r.y > 1); }, {"wr", "cannot be given a new predicate"});
    expect_error(
        [] {
            RDom q(0, 4, "nonbool");
            q.where(q.x + 1);
        },
        {"boolean", "int32"});
    expect_error([] { RDom().where(Expr(true)); }, {"undefined RDom"});
    expect_error(
        [] {
            RDom a(0, 4, "own"), b(0, 4, "other");
            a.where(a.x < b.x);
        },
        {"other.x", "another RDom"});
    // The stored predicate names the RVars without holding the domain (no reference cycle).
    RDom c(0, 4, "plain");
    c.where(c.x > 1);
    const GT *gt = c.domain().predicate().as<GT>();
    ASSERT_NE(gt, nullptr);
    const Variable *pv = gt->a.as<Variable>();
    ASSERT_NE(pv, nullptr);
    EXPECT_EQ(pv->name, "plain.x");
    EXPECT_FALSE(pv->reduction_domain.defined());
}

TEST(RDom, RfactorIntermediatePredicateHoldsNoDomain) {
    // rfactor gives its intermediate a new RDom carrying the where() condition; its RVars must
    // not hold that domain either (the cycle leaked every rfactor'd predicated reduction).
    RDom r(0, 8, 0, 8, "rfw");
    r.where(r.x < r.y);
    Func f("rfw_f");
    Var u("u");
    f() = 0;
    f() += r.x + r.y;
    Func intm = f.update(0).rfactor(r.y, u);
    ASSERT_EQ(intm.function().updates().size(), 1u);
    const ReductionDomain &d = intm.function().updates()[0].rdom;
    ASSERT_TRUE(d.defined());
    ASSERT_TRUE(d.predicate().defined());
    int rvars_seen = 0;
    visit_exprs(d.predicate(), [&](const Expr &e) {
        if (const Variable *v = e.as<Variable>()) {
            EXPECT_FALSE(v->reduction_domain.defined()) << v->name;
            rvars_seen += v->name == "rfw.x";
        }
        return true;
    });
    EXPECT_EQ(rvars_seen, 1);
}

TEST(RDom, PrintsLikeHalide) {
    EXPECT_EQ(to_string(RDom()), "RDom()");
    RDom r(0, 10, 2, 5, "pr");
    EXPECT_EQ(to_string(r), "RDom(\n  pr.x(0, 10)\n  pr.y(2, 5)\n)");
    std::ostringstream os;
    os << r.y;
    EXPECT_EQ(os.str(), "pr.y(2, 5)");
}

TEST(RDom, UndefinedAndOutOfRange) {
    RDom none;
    EXPECT_FALSE(none.defined());
    EXPECT_EQ(none.dimensions(), 0);
    expect_error(
        [] {
            RDom r(0, 4, "oor");
            r[1];
        },
        {"Index 1", "1 dimension(s)"});
    expect_error(
        [] {
            RDom r(0, 4, "undim");
            Expr e = r.y;
        },
        {"undefined RDom dimension", "undim.y"});
    // An RVar with a domain built from an existing ReductionDomain.
    RDom r(0, 4, 0, 6, "rebuilt");
    RDom again(r.domain());
    EXPECT_TRUE(again.same_as(r));
    EXPECT_EQ(again.y.name(), "rebuilt.y");
    EXPECT_EQ(again.z.name(), "rebuilt.z");
}

TEST(FuncFromBuffer, ReadsTheBufferOverImplicitVars) {
    Buffer<uint8_t> b(std::vector<int>{4, 5}, "src_buf");
    Func f(b);
    EXPECT_TRUE(f.defined());
    EXPECT_EQ(f.dimensions(), 2);
    EXPECT_EQ(f.type(), UInt(8));
    EXPECT_EQ(f.function().args(), (std::vector<std::string>{"_0", "_1"}));
    Expr v = f.value();
    const Call *c = v.as<Call>();
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->call_type, Call::Image);
    EXPECT_EQ(c->name, "src_buf");
    ASSERT_EQ(c->args.size(), 2u);
    EXPECT_EQ(c->args[0].as<Variable>()->name, "_0");
    EXPECT_EQ(c->args[1].as<Variable>()->name, "_1");
    EXPECT_TRUE(c->param.defined());
}

TEST(Tuple, ConstructionAndAccess) {
    Var x("x");
    Tuple t(x, x + 1, 2.5f);
    ASSERT_EQ(t.size(), 3u);
    EXPECT_TRUE(equal(t[1], x + 1));
    EXPECT_EQ(t[2].type(), Float(32));
    t[0] = x * 2;
    EXPECT_TRUE(equal(t.as_vector()[0], x * 2));
    Tuple one(Expr(5));
    EXPECT_EQ(one.size(), 1u);
    Tuple v(std::vector<Expr>{x, x});
    EXPECT_EQ(v.size(), 2u);
    expect_error([] { Tuple empty(std::vector<Expr>{}); }, {"at least one"});
    expect_error(
        [] {
            Tuple t2(Expr(1), Expr(2));
            const Tuple &c = t2;
            c[2];
        },
        {"index 2", "2 element(s)"});
}
