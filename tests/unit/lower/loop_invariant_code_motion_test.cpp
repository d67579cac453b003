// loop_invariant_code_motion: invariant lets move in front of their loop, loop-dependent ones
// stay (an unrolled body's repeated identical lets move once), loads are hoisted only from
// buffers the loop does not write, and an invariant if around a loop body becomes an if around
// the loop.
#include "lower/loop_invariant_code_motion.h"

#include "lower_test_util.h"

namespace loom {
namespace test {
namespace {

Stmt store(const std::string &buf, const Expr &value, const Expr &index) {
    return Store::make(buf, value, index, Parameter(), const_true());
}

Stmt serial(const std::string &n, const Expr &mn, const Expr &ext, const Stmt &body) {
    return For::make(n, mn, ext, ForType::Serial, DeviceAPI::Host, body);
}

TEST(LICM, InvariantLetMovesOut) {
    Expr x = ivar("x"), n = ivar("n"), a = ivar("a"), b = ivar("b");
    // for (x) { let a = n * 3; let b = x + a; f[x] = b }
    Stmt s =
        serial("x", 0, 10, LetStmt::make("a", n * 3, LetStmt::make("b", x + a, store("f", b, x))));
    Stmt r = loop_invariant_code_motion(s);
    Stmt expected =
        LetStmt::make("a", n * 3, serial("x", 0, 10, LetStmt::make("b", x + a, store("f", b, x))));
    EXPECT_IR_EQ(r, expected);
}

TEST(LICM, LetsThroughBlocksAndDependentChains) {
    Expr x = ivar("x"), n = ivar("n"), a = ivar("a"), c = ivar("c");
    // for (x) { g[x] = 1; let a = n + 1; let c = a * 2; f[x] = c }: both lets are invariant
    // (c through a), and f is not read.
    Stmt s =
        serial("x", 0, 10,
               Block::make(store("g", 1, x),
                           LetStmt::make("a", n + 1, LetStmt::make("c", a * 2, store("f", c, x)))));
    Stmt r = loop_invariant_code_motion(s);
    const LetStmt *l1 = r.as<LetStmt>();
    ASSERT_NE(l1, nullptr) << r;
    EXPECT_EQ(l1->name, "a");
    const LetStmt *l2 = l1->body.as<LetStmt>();
    ASSERT_NE(l2, nullptr) << r;
    EXPECT_EQ(l2->name, "c");
    EXPECT_NE(l2->body.as<For>(), nullptr) << r;
}

TEST(LICM, RepeatedIdenticalLetsMoveOutOnce) {
    Expr x = ivar("x"), n = ivar("n"), t = ivar("t");
    // An unrolled body repeats its lets: for (x) { let t = n / 7; f[x] = t; let t = n / 7;
    // g[x] = t }. Both bind what one let in front of the loop binds.
    Stmt s = serial("x", 0, 10,
                    Block::make(LetStmt::make("t", n / 7, store("f", t, x)),
                                LetStmt::make("t", n / 7, store("g", t, x))));
    Stmt expected = LetStmt::make(
        "t", n / 7, serial("x", 0, 10, Block::make(store("f", t, x), store("g", t, x))));
    EXPECT_IR_EQ(loop_invariant_code_motion(s), expected);
    // Bound to different values, the two lets of t stay in the loop (their values, invariant,
    // may move out under other names).
    Stmt d = serial("x", 0, 10,
                    Block::make(LetStmt::make("t", n / 7, store("f", t, x)),
                                LetStmt::make("t", n / 5, store("g", t, x))));
    Stmt r = loop_invariant_code_motion(d);
    while (const LetStmt *l = r.as<LetStmt>()) {
        EXPECT_NE(l->name, "t") << r;
        r = l->body;
    }
    const For *loop = r.as<For>();
    ASSERT_NE(loop, nullptr) << r;
    const Block *body = loop->body.as<Block>();
    ASSERT_NE(body, nullptr) << r;
    const LetStmt *first = body->first.as<LetStmt>(), *second = body->rest.as<LetStmt>();
    ASSERT_TRUE(first && second) << r;
    EXPECT_EQ(first->name, "t");
    EXPECT_EQ(second->name, "t");
}

TEST(LICM, LoadsOfStoredBuffersStay) {
    Expr x = ivar("x"), v = ivar("v");
    Expr load_f = Load::make(Int(32), "f", 0, const_true());
    Expr load_g = Load::make(Int(32), "g", 0, const_true());
    // f is stored in the loop: its load stays. g is not: its load moves (extent 10 > 0).
    Stmt s1 = serial("x", 0, 10, LetStmt::make("v", load_f, store("f", v + x, x)));
    EXPECT_NE(loop_invariant_code_motion(s1).as<For>(), nullptr);
    Stmt s2 = serial("x", 0, 10, LetStmt::make("v", load_g, store("f", v + x, x)));
    EXPECT_NE(loop_invariant_code_motion(s2).as<LetStmt>(), nullptr);
    // With an extent that may be zero, the load is not moved (it might be out of bounds).
    Stmt s3 = serial("x", 0, ivar("n"), LetStmt::make("v", load_g, store("f", v + x, x)));
    EXPECT_NE(loop_invariant_code_motion(s3).as<For>(), nullptr);
}

TEST(LICM, InvariantIfMovesOutOfTheLoop) {
    Expr x = ivar("x"), k = ivar("k");
    Stmt s = serial("x", 0, 10, IfThenElse::make(k > 3, store("f", x, x), store("g", x, x)));
    Stmt r = loop_invariant_code_motion(s);
    Stmt expected = IfThenElse::make(k > 3, serial("x", 0, 10, store("f", x, x)),
                                     serial("x", 0, 10, store("g", x, x)));
    EXPECT_IR_EQ(r, expected);
    // A condition on the loop variable stays inside.
    Stmt s2 = serial("x", 0, 10, IfThenElse::make(x > 3, store("f", x, x)));
    EXPECT_IR_EQ(loop_invariant_code_motion(s2), s2);
}

TEST(LICM, InnerLoopLetsMoveOutOfBothLoops) {
    Expr x = ivar("x"), y = ivar("y"), n = ivar("n"), a = ivar("a"), b = ivar("b");
    // for (y) { for (x) { let a = n * n; let b = y * 2; f[x + b] = a } }
    Stmt s =
        serial("y", 0, 4,
               serial("x", 0, 4,
                      LetStmt::make("a", n * n, LetStmt::make("b", y * 2, store("f", a, x + b)))));
    Stmt r = loop_invariant_code_motion(s);
    Stmt expected = LetStmt::make(
        "a", n * n,
        serial("y", 0, 4, LetStmt::make("b", y * 2, serial("x", 0, 4, store("f", a, x + b)))));
    EXPECT_IR_EQ(r, expected);
}

TEST(LICM, IndexTermsGroupedByLoopLevelAndLifted) {
    Expr x = ivar("x"), y = ivar("y"), n = ivar("n"), m = ivar("m"), k = ivar("k"), w = ivar("w");
    // for (y) { for (x) { f[((x * 16 + m) - k) + y * w] = 1 } }: the inner loop's index is
    // its own term plus one name, bound in front of it to the y-dependent part, whose own
    // invariant part (m - k) is bound in front of the y loop.
    Stmt s = serial("y", 0, 4, serial("x", 0, n, store("f", 1, ((x * 16 + m) - k) + y * w)));
    Stmt r = loop_invariant_code_motion(s);

    const LetStmt *outer = r.as<LetStmt>();
    ASSERT_NE(outer, nullptr) << r;
    EXPECT_IR_EQ(outer->value, m - k);
    const For *ly = outer->body.as<For>();
    ASSERT_NE(ly, nullptr) << r;
    const LetStmt *inner = ly->body.as<LetStmt>();
    ASSERT_NE(inner, nullptr) << r;
    EXPECT_IR_EQ(inner->value, Variable::make(Int(32), outer->name) + y * w);
    const For *lx = inner->body.as<For>();
    ASSERT_NE(lx, nullptr) << r;
    const Store *st = lx->body.as<Store>();
    ASSERT_NE(st, nullptr) << r;
    EXPECT_IR_EQ(st->index, Variable::make(Int(32), inner->name) + x * 16);
}

TEST(LICM, ConstantsStayOutsideTheInvariantPartOfAnIndex) {
    Expr x = ivar("x"), n = ivar("n"), m = ivar("m"), w = ivar("w");
    // for (x) { f[x] = g[(m + -1) + x * w] + g[m + x * w] + g[(m + 1) + x * w] }, as a stencil's
    // taps reach the loop: the three indices share one invariant, m, lifted as one let, and
    // differ by constants, which stay outermost (they fold into the address).
    auto tap = [&](int k) {
        Expr index = k == 0 ? m + x * w : (m + k) + x * w;
        return Load::make(Int(32), "g", index, const_true());
    };
    Stmt s = serial("x", 0, n, store("f", tap(-1) + tap(0) + tap(1), x));
    Stmt r = loop_invariant_code_motion(s);
    std::vector<Expr> indices;
    visit_exprs(r, [&](const Expr &e) {
        if (const Load *l = e.as<Load>()) indices.push_back(l->index);
        return true;
    });
    ASSERT_EQ(indices.size(), 3u) << r;
    EXPECT_IR_EQ(indices[0], (m + x * w) + -1) << r;
    EXPECT_IR_EQ(indices[1], m + x * w) << r;
    EXPECT_IR_EQ(indices[2], (m + x * w) + 1) << r;
}

TEST(LICM, LoadsAndLoneNamesStay) {
    Expr x = ivar("x"), n = ivar("n"), m = ivar("m");
    // The load stays in the loop (expressions that read memory are not lifted), its invariant
    // index moves out; n alone is not worth a name.
    Stmt s =
        serial("x", 0, 10, store("f", Load::make(Int(32), "g", n + m, const_true()) + x, x + n));
    Stmt r = loop_invariant_code_motion(s);
    const LetStmt *l = r.as<LetStmt>();
    ASSERT_NE(l, nullptr) << r;
    EXPECT_IR_EQ(l->value, n + m);
    Expr t = Variable::make(Int(32), l->name);
    EXPECT_IR_EQ(l->body, serial("x", 0, 10,
                                 store("f", Load::make(Int(32), "g", t, const_true()) + x, x + n)));
}

} // namespace
} // namespace test
} // namespace loom
