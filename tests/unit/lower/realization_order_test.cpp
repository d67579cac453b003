// Realization order and default placements.
#include "lower_test_util.h"

#include "lower/default_schedule.h"
#include "lower/realization_order.h"

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
