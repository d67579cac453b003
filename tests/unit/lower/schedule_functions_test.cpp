// The loop nest schedule_functions builds, checked through its compact summary and structure.
#include "lower_test_util.h"

#include "lang/call_graph.h"
#include "lower/build_provide_loop_nest.h"
#include "lower/print_loop_nest.h"
#include "lower/schedule_functions.h"

using namespace loom;
using namespace loom::test;

TEST(ScheduleFunctions, ComputeRootAndInline) {
    // blur_y(x, y) = blur_x(x, y - 1) + blur_x(x, y + 1), blur_x compute_root, in inlined.
    Function in = make_func("in", {"x", "y"}, {ivar("x") + ivar("y")});
    Function bx = make_func(
        "blur_x", {"x", "y"},
        {in.make_call({ivar("x") - 1, ivar("y")}) + in.make_call({ivar("x") + 1, ivar("y")})});
    bx.schedule().compute_level = LoopLevelSpec::root();
    Function by = make_func(
        "blur_y", {"x", "y"},
        {bx.make_call({ivar("x"), ivar("y") - 1}) + bx.make_call({ivar("x"), ivar("y") + 1})});
    EXPECT_EQ(print_loop_nest({by}), "produce blur_x:\n"
                                     "  for y:\n"
                                     "    for x:\n"
                                     "      blur_x(...) = ...\n"
                                     "consume blur_x:\n"
                                     "  produce blur_y:\n"
                                     "    for y:\n"
                                     "      for x:\n"
                                     "        blur_y(...) = ...\n");
    // `in` was inlined: no call to it is left.
    Stmt s = schedule_functions(build_call_graph({by}));
    EXPECT_EQ(text(s).find("in("), std::string::npos) << s;
}

TEST(ScheduleFunctions, ReductionComputedInsideConsumerLoop) {
    // out(x) = red(x) * 2 with red(x) = 0; red(x) += x + r over r in [0, 4).
    Function red = make_func("red", {"x"}, {Expr(0)});
    ReductionDomain rdom({ReductionVariable{"r.x", Expr(0), Expr(4)}});
    Expr r = Variable::make(Int(32), "r.x", rdom);
    red.define_update({ivar("x")}, {red.make_call({ivar("x")}) + ivar("x") + r});
    Function out = make_func("out", {"x"}, {red.make_call({ivar("x")}) * 2});
    // As Halide 21 prints it (its RVar shows as "r"): red's loops over x have one iteration
    // per x of out, so they are not shown; the RDom's constant bounds are.
    EXPECT_EQ(print_loop_nest({out}), "produce out:\n"
                                      "  for x:\n"
                                      "    produce red:\n"
                                      "      red(...) = ...\n"
                                      "      for r in [0, 3]:\n"
                                      "        red(...) = ...\n"
                                      "    consume red:\n"
                                      "      out(...) = ...\n");
}

TEST(ScheduleFunctions, StageLoopNestShape) {
    // f(x, y) = x + y: __outermost, then y, then x, with the Provide innermost.
    Function f = make_func("f", {"x", "y"}, {ivar("x") + ivar("y")});
    Stmt nest = build_provide_loop_nest(f, 0);
    const For *outermost = nest.as<For>();
    ASSERT_TRUE(outermost);
    EXPECT_EQ(outermost->name, "f.s0.__outermost");
    EXPECT_TRUE(is_const(outermost->extent, 1));
    // Through the loop-bound lets to the y loop.
    Stmt s = outermost->body;
    while (const LetStmt *l = s.as<LetStmt>()) s = l->body;
    const For *fy = s.as<For>();
    ASSERT_TRUE(fy) << nest;
    EXPECT_EQ(fy->name, "f.s0.y");
    EXPECT_IR_EQ(fy->min, ivar("f.s0.y.loop_min"));
    const For *fx = fy->body.as<For>();
    ASSERT_TRUE(fx) << nest;
    EXPECT_EQ(fx->name, "f.s0.x");
    Expr x = ivar("f.s0.x"), y = ivar("f.s0.y");
    EXPECT_IR_EQ(fx->body, Provide::make("f", {x + y}, {x, y}, const_true()));
}

TEST(ScheduleFunctions, RDomPredicateBecomesIf) {
    Function f = make_func("f", {"x"}, {Expr(0)});
    ReductionDomain rdom({ReductionVariable{"r.x", Expr(0), Expr(10)}});
    Expr r = Variable::make(Int(32), "r.x", rdom);
    rdom.set_predicate(r % 2 == 0);
    f.define_update({r}, {f.make_call({r}) + 1});
    Stmt nest = build_provide_loop_nest(f, 1);
    Expr rr = ivar("f.s1.r.x");
    std::string t = text(nest);
    EXPECT_NE(t.find("for (f.s1.r.x"), std::string::npos) << t;
    bool found_if = false;
    visit_exprs(nest, [&](const Expr &) { return true; });
    class FindIf : public IRVisitor {
    public:
        bool *found;
        Expr cond;
        using IRVisitor::visit;
        void visit(const IfThenElse *op) override {
            if (equal(op->condition, cond)) *found = true;
            IRVisitor::visit(op);
        }
    } finder;
    finder.found = &found_if;
    finder.cond = rr % 2 == 0;
    finder.dispatch(nest);
    EXPECT_TRUE(found_if) << t;
}
