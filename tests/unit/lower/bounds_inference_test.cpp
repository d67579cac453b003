// Bounds inference on small pipelines built with the internal API: the let-bound stage and
// realization bounds evaluate to the hand-computed regions.
#include "lower_test_util.h"

#include "lang/call_graph.h"
#include "lower/bounds_inference.h"
#include "lower/schedule_functions.h"

using namespace loom;
using namespace loom::test;

namespace {

Stmt schedule_and_infer(const std::vector<Function> &outputs) {
    CallGraph graph = build_call_graph(outputs);
    return bounds_inference(schedule_functions(graph), graph);
}

} // namespace

TEST(BoundsInference, StencilOfComputeRootProducer) {
    // out(x) = f(x - 1) + f(x + 1), f compute_root; out over [0, 10) needs f over [-1, 10].
    Function f = make_func("f", {"x"}, {ivar("x") * 2});
    f.schedule().compute_level = LoopLevelSpec::root();
    Function out =
        make_func("out", {"x"}, {f.make_call({ivar("x") - 1}) + f.make_call({ivar("x") + 1})});
    Stmt s = schedule_and_infer({out});
    auto lets = let_bindings(s);
    std::map<std::string, Expr> known{{"out.min.0", Expr(0)}, {"out.extent.0", Expr(10)}};
    EXPECT_EQ(eval_let(lets, "out.s0.x.min", known), 0);
    EXPECT_EQ(eval_let(lets, "out.s0.x.max", known), 9);
    EXPECT_EQ(eval_let(lets, "f.s0.x.min", known), -1);
    EXPECT_EQ(eval_let(lets, "f.s0.x.max", known), 10);
    EXPECT_EQ(eval_let(lets, "f.x.min_realized", known), -1);
    EXPECT_EQ(eval_let(lets, "f.x.extent_realized", known), 12);
    // The realization of f sits outside the output's.
    const LetStmt *outer = s.as<LetStmt>();
    ASSERT_TRUE(outer);
    EXPECT_NE(text(s).find("realize f"), std::string::npos);
}

TEST(BoundsInference, ChainThroughTwoProducers) {
    // g(x) = f(2x) + f(2x+1), out(x) = g(x-1) + g(x+1): f needed over [2*(-1), 2*10 + 1].
    Function f = make_func("f", {"x"}, {ivar("x")});
    Function g =
        make_func("g", {"x"}, {f.make_call({ivar("x") * 2}) + f.make_call({ivar("x") * 2 + 1})});
    f.schedule().compute_level = LoopLevelSpec::root();
    g.schedule().compute_level = LoopLevelSpec::root();
    Function out =
        make_func("out", {"x"}, {g.make_call({ivar("x") - 1}) + g.make_call({ivar("x") + 1})});
    auto lets = let_bindings(schedule_and_infer({out}));
    std::map<std::string, Expr> known{{"out.min.0", Expr(0)}, {"out.extent.0", Expr(10)}};
    EXPECT_EQ(eval_let(lets, "g.s0.x.min", known), -1);
    EXPECT_EQ(eval_let(lets, "g.s0.x.max", known), 10);
    EXPECT_EQ(eval_let(lets, "f.s0.x.min", known), -2);
    EXPECT_EQ(eval_let(lets, "f.s0.x.max", known), 21);
}

TEST(BoundsInference, UpdateStageReadsAheadSoPureStageCoversMore) {
    // f(x) = x; f(x) = f(x + 1) * 2 (an update over the pure var); out(x) = f(x).
    Function f = make_func("f", {"x"}, {ivar("x")});
    f.define_update({ivar("x")}, {f.make_call({ivar("x") + 1}) * 2});
    Function out = make_func("out", {"x"}, {f.make_call({ivar("x")})});
    f.schedule().compute_level = LoopLevelSpec::root();
    auto lets = let_bindings(schedule_and_infer({out}));
    std::map<std::string, Expr> known{{"out.min.0", Expr(0)}, {"out.extent.0", Expr(10)}};
    // The update covers what the consumer needs...
    EXPECT_EQ(eval_let(lets, "f.s1.x.min", known), 0);
    EXPECT_EQ(eval_let(lets, "f.s1.x.max", known), 9);
    // ...the pure stage also what the update reads.
    EXPECT_EQ(eval_let(lets, "f.s0.x.min", known), 0);
    EXPECT_EQ(eval_let(lets, "f.s0.x.max", known), 10);
    EXPECT_EQ(eval_let(lets, "f.x.extent_realized", known), 11);
}

TEST(BoundsInference, ReductionDomainDrivesStorage) {
    // hist(x) = 0; hist(r) += 1 for r in [5, 5 + 20): storage covers what the update writes.
    Function hist = make_func("hist", {"x"}, {Expr(0)});
    ReductionDomain rdom({ReductionVariable{"r.x", Expr(5), Expr(20)}});
    Expr r = Variable::make(Int(32), "r.x", rdom);
    hist.define_update({r}, {hist.make_call({r}) + 1});
    hist.schedule().compute_level = LoopLevelSpec::root();
    Function out = make_func("out", {"x"}, {hist.make_call({ivar("x")})});
    auto lets = let_bindings(schedule_and_infer({out}));
    std::map<std::string, Expr> known{{"out.min.0", Expr(0)}, {"out.extent.0", Expr(10)}};
    // The pure stage initialises what the consumer and the update read: [0, 24].
    EXPECT_EQ(eval_let(lets, "hist.s0.x.min", known), 0);
    EXPECT_EQ(eval_let(lets, "hist.s0.x.max", known), 24);
    EXPECT_EQ(eval_let(lets, "hist.x.min_realized", known), 0);
    EXPECT_EQ(eval_let(lets, "hist.x.extent_realized", known), 25);
}

TEST(BoundsInference, UnboundedIndexIsACompileErrorNamingBothFuncs) {
    Parameter idx(Int(32), true, 1, "indices");
    Function f = make_func("producer", {"x"}, {ivar("x") * 3});
    f.schedule().compute_level = LoopLevelSpec::root();
    Expr data = Call::make(Int(32), "indices", {ivar("x")}, Call::Image, nullptr, 0, idx);
    Function out = make_func("consumer", {"x"}, {f.make_call({data})});
    try {
        schedule_and_infer({out});
        FAIL() << "expected a CompileError";
    } catch (const loom::CompileError &e) {
        std::string msg = e.what();
        EXPECT_NE(msg.find("producer"), std::string::npos) << msg;
        EXPECT_NE(msg.find("consumer"), std::string::npos) << msg;
        EXPECT_NE(msg.find("lamp"), std::string::npos) << msg; // "Clamp"
    }
}
