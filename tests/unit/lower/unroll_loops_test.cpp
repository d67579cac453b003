// unroll_loops on hand-built loops: copies with the variable substituted, let-bound constant
// extents, guarded copies for an extent with a constant upper bound, and the error otherwise.
#include "lower/unroll_loops.h"
#include "lower_test_util.h"

#include "common/expect_error.h"

#include <gtest/gtest.h>

using namespace loom;
using namespace loom::test;

namespace {

Stmt store(const std::string &buf, Expr value, Expr index) {
    return Store::make(buf, value, index, Parameter(), const_true());
}
Stmt uloop(const std::string &name, Expr mn, Expr ext, Stmt body) {
    return For::make(name, mn, ext, ForType::Unrolled, DeviceAPI::None, body);
}

} // namespace

TEST(UnrollLoops, CopiesTheBody) {
    Expr x = ivar("x");
    Stmt s = uloop("x", 5, 3, store("out", x * 2, x));
    Stmt u = unroll_loops(s);
    Stmt expected = Block::make(
        {store("out", Expr(5) * 2, 5), store("out", Expr(6) * 2, 6), store("out", Expr(7) * 2, 7)});
    EXPECT_IR_EQ(simplify(u), simplify(expected));
}

TEST(UnrollLoops, SymbolicMinIsEvaluatedOnce) {
    Expr x = ivar("x"), m = ivar("m");
    Stmt u = unroll_loops(uloop("x", m * 4, 2, store("out", x, x)));
    Expr base = ivar("x.unrolled_min");
    Stmt expected =
        LetStmt::make("x.unrolled_min", m * 4,
                      Block::make(store("out", base, base), store("out", base + 1, base + 1)));
    EXPECT_IR_EQ(u, expected);
}

TEST(UnrollLoops, LetBoundExtentAndNestedLoops) {
    Expr x = ivar("x"), y = ivar("y");
    Stmt inner = uloop("y", 0, 2, store("out", x + y, x * 2 + y));
    Stmt s = LetStmt::make("e", 2, uloop("x", 0, ivar("e"), inner));
    Stmt u = simplify(unroll_loops(s));
    std::string t = text(u);
    EXPECT_EQ(t.find("for"), std::string::npos) << t;
    for (const char *line : {"out[0] = 0", "out[1] = 1", "out[2] = 1", "out[3] = 2"}) {
        EXPECT_NE(t.find(line), std::string::npos) << line << " in\n" << t;
    }
}

TEST(UnrollLoops, ExtentWithConstantUpperBoundIsGuarded) {
    Expr x = ivar("x"), n = ivar("n");
    Stmt u = unroll_loops(uloop("x", 0, Min::make(Max::make(n, 0), 3), store("out", x, x)));
    std::vector<Stmt> copies = flatten_blocks(u);
    ASSERT_EQ(copies.size(), 3u) << u;
    for (int i = 0; i < 3; i++) {
        const IfThenElse *g = copies[i].as<IfThenElse>();
        ASSERT_TRUE(g) << copies[i];
        EXPECT_IR_EQ(g->then_case, store("out", i, i));
    }
}

TEST(UnrollLoops, NonConstantExtentIsAnError) {
    Stmt s = uloop("g.s0.y.yi", 0, ivar("n"), store("g", 1, ivar("g.s0.y.yi")));
    loom_test::expect_error(
        [&] { unroll_loops(s); },
        {"Can only unroll a loop of constant extent", "y.yi of g", "unroll(x, factor)", "bound()"});
}
