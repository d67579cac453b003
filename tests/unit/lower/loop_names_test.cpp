// The loop-naming scheme (lower/loop_names.h): building, parsing and describing loop names,
// and the names of loops shared through compute_with.
#include "lower_test_util.h"

#include "lang/call_graph.h"
#include "lower/loop_names.h"

using namespace loom;
using namespace loom::test;

TEST(LoopNames, BuildAndParse) {
    EXPECT_EQ(stage_prefix("f", 2), "f.s2.");
    EXPECT_EQ(outermost_loop_name("blur", 0), "blur.s0.__outermost");
    LoopName l = parse_loop_name("f.s1.r.x.xo");
    ASSERT_TRUE(l.valid());
    EXPECT_EQ(l.func, "f");
    EXPECT_EQ(l.stage, 1);
    EXPECT_EQ(l.var, "r.x.xo");
    // A Func name with dots: the stage component is the first ".s<digits>.".
    l = parse_loop_name("a.sb.s12.y");
    ASSERT_TRUE(l.valid());
    EXPECT_EQ(l.func, "a.sb");
    EXPECT_EQ(l.stage, 12);
    EXPECT_EQ(l.var, "y");
    EXPECT_FALSE(parse_loop_name("t42").valid());
    EXPECT_FALSE(parse_loop_name("f.s.x").valid());
}

TEST(LoopNames, DescribeForMessages) {
    EXPECT_EQ(describe_loop("f.s0.x.xi"), "x.xi of f");
    EXPECT_EQ(describe_loop("plain"), "plain");
    EXPECT_EQ(loop_level_text("g.s0.y"), "g, y");
    EXPECT_EQ(loop_level_text("g.s1.__outermost"), "g, Var::outermost()");
    EXPECT_EQ(fused_loop_name("f.s0.", "y"), "f.s0.fused.y");
    EXPECT_EQ(fused_loop_name("f.s0.", "x.xo"), "f.s0.x.fused.xo");
}

TEST(LoopNames, StageLoopNamesFollowComputeWith) {
    // g.compute_with(f, y): g's loop y and its outermost run under f's fused names; x is its
    // own loop; a stage computed with nothing keeps its plain names.
    Function out = compute_with_pair();
    CallGraph graph = build_call_graph({out});
    // dims, innermost first: x, y, __outermost.
    EXPECT_EQ(stage_loop_name(graph.fusion, graph.func("g"), 0, 0), "g.s0.x");
    EXPECT_EQ(stage_loop_name(graph.fusion, graph.func("g"), 0, 1), "g.s0.y");
    EXPECT_EQ(stage_loop_name(graph.fusion, graph.func("g"), 0, 2), "f.s0.__outermost");
    EXPECT_EQ(stage_loop_name(graph.fusion, graph.func("f"), 0, 1), "f.s0.fused.y");
    EXPECT_EQ(stage_loop_name(graph.fusion, graph.func("out"), 0, 1), "out.s0.y");
}
