// The function graph (lang/call_graph.h, lang/fusion.h): realization order, callers and
// callees, default placements, value bounds and the compute_with relation, built once.
#include "unit/lower/lower_test_util.h"

#include "lang/call_graph.h"

#include <algorithm>

using namespace loom;
using namespace loom::test;

TEST(RealizationOrder, ProducersBeforeConsumers) {
    Function f = make_func("f", {"x"}, {ivar("x")});
    Function g = make_func("g", {"x"}, {f.make_call({ivar("x")})});
    Function out = make_func("out", {"x"}, {g.make_call({ivar("x")}) + f.make_call({ivar("x")})});
    auto env = find_transitive_calls({out});
    std::vector<std::string> order = realization_order({out}, env);
    ASSERT_EQ(order.size(), 3u);
    EXPECT_EQ(order, (std::vector<std::string>{"f", "g", "out"}));
}

TEST(RealizationOrder, SelfCallInUpdateIsFine) {
    Function f = make_func("f", {"x"}, {ivar("x")});
    f.define_update({ivar("x")}, {f.make_call({ivar("x")}) + 1});
    auto env = find_transitive_calls({f});
    EXPECT_EQ(realization_order({f}, env), std::vector<std::string>{"f"});
}

TEST(DefaultSchedule, OutputsRootPureInlineReductionsInnermost) {
    Function pure = make_func("pure", {"x"}, {ivar("x")});
    Function red = make_func("red", {"x"}, {Expr(0)});
    red.define_update({ivar("x")}, {red.make_call({ivar("x")}) + pure.make_call({ivar("x")})});
    Function root = make_func("root", {"x"}, {ivar("x") + 1});
    root.schedule().compute_level = LoopLevelSpec::root();
    Function out =
        make_func("out", {"x"}, {red.make_call({ivar("x")}) + root.make_call({ivar("x")})});
    auto env = find_transitive_calls({out});
    auto p = default_schedule({out}, env);
    EXPECT_EQ(p.at("out").kind, ComputePlacement::Root);
    EXPECT_EQ(p.at("pure").kind, ComputePlacement::Inline);
    EXPECT_EQ(p.at("red").kind, ComputePlacement::Innermost);
    EXPECT_EQ(p.at("root").kind, ComputePlacement::Root);
    // The user's Functions are not modified.
    EXPECT_TRUE(out.schedule().compute_level.is_inlined());
}

TEST(CallGraph, CalleesCallersAndOrder) {
    Function f = make_func("f", {"x"}, {ivar("x")});
    Function g = make_func("g", {"x"}, {f.make_call({ivar("x")}) * 2});
    Function out = make_func("out", {"x"}, {g.make_call({ivar("x")}) + f.make_call({ivar("x")})});
    CallGraph graph = build_call_graph({out});
    EXPECT_EQ(graph.order, (std::vector<std::string>{"f", "g", "out"}));
    EXPECT_EQ(graph.fused_order, graph.order);
    EXPECT_EQ(graph.callees.at("out"), (std::vector<std::string>{"g", "f"}));
    EXPECT_EQ(graph.callers("f"), (std::vector<std::string>{"g", "out"}));
    EXPECT_TRUE(graph.callers("out").empty());
    EXPECT_EQ(graph.func("g").name(), "g");
    EXPECT_TRUE(graph.fusion.stages.empty());
    EXPECT_EQ(graph.placements.at("out").kind, ComputePlacement::Root);
    EXPECT_EQ(graph.placements.at("f").kind, ComputePlacement::Inline);
}

TEST(CallGraph, ValueBoundsOfPureFuncsOnly) {
    // idx(x) = clamp(x * 3, 0, 10); twice(x) = idx(x) * 2 is bounded through it; acc has an
    // update, so it may hold anything.
    Function idx = make_func("idx", {"x"}, {clamp(ivar("x") * 3, 0, 10)});
    Function twice = make_func("twice", {"x"}, {idx.make_call({ivar("x")}) * 2});
    Function acc = make_func("acc", {"x"}, {Expr(0)});
    acc.define_update({ivar("x")}, {acc.make_call({ivar("x")}) + 1});
    Function out =
        make_func("out", {"x"}, {twice.make_call({ivar("x")}) + acc.make_call({ivar("x")})});
    CallGraph graph = build_call_graph({out});
    const Interval &i = graph.value_bounds.at({"idx", 0});
    EXPECT_TRUE(is_const(i.min, 0) && is_const(i.max, 10)) << i.min << " " << i.max;
    const Interval &t = graph.value_bounds.at({"twice", 0});
    EXPECT_TRUE(is_const(simplify(t.min), 0) && is_const(simplify(t.max), 20))
        << t.min << " " << t.max;
    EXPECT_FALSE(graph.value_bounds.count({"acc", 0}));
}

TEST(CallGraph, ComputeWithRelationAndGroups) {
    // g.compute_with(f, y), both compute_root, read by out: one group {f, g}, g's stage a
    // child of f's sharing the loop y (and the outermost), one unit.
    Function out = compute_with_pair();
    CallGraph graph = build_call_graph({out});
    const Fusion &fu = graph.fusion;
    ASSERT_EQ(fu.stages.size(), 2u);
    int gs = fu.find("g", 0), fs = fu.find("f", 0);
    ASSERT_GE(gs, 0);
    ASSERT_GE(fs, 0);
    EXPECT_EQ(fu.stages[gs].parent, fs);
    EXPECT_EQ(fu.stages[gs].depth, 1);
    EXPECT_EQ(fu.stages[fs].shared, 1);
    EXPECT_EQ(fu.root(gs), fs);
    ASSERT_EQ(fu.groups.size(), 1u);
    const FusedGroup *group = fu.group_of("g");
    ASSERT_NE(group, nullptr);
    EXPECT_EQ(group, fu.group_of("f"));
    EXPECT_EQ(fu.group_of("out"), nullptr);
    ASSERT_EQ(group->funcs.size(), 2u);
    EXPECT_EQ(group->funcs[0].name(), "f");
    ASSERT_EQ(group->units.size(), 1u);
    EXPECT_EQ(group->units[0].root, fs);
}

TEST(CallGraph, ComputeWithOfAnInlinedFuncIsAnError) {
    Function f = make_func("f", {"x"}, {ivar("x")});
    Function g = make_func("g", {"x"}, {ivar("x") * 2});
    g.schedule().compute_level = LoopLevelSpec::root();
    g.definition().schedule.fuse_level = loop_level("f", "x");
    Function out = make_func("out", {"x"}, {f.make_call({ivar("x")}) + g.make_call({ivar("x")})});
    try {
        build_call_graph({out});
        FAIL() << "expected a CompileError";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("f is inlined"), std::string::npos) << e.what();
    }
}
