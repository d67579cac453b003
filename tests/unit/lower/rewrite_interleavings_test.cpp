// rewrite_interleavings on hand-built statements: a group of strided stores that covers a dense
// range becomes one store of an interleaving shuffle (in offset order, whatever the order of
// the stores), a complete group of strided loads becomes slices of one dense load, and near
// misses (a missing channel, a predicated store, a value that reads the buffer being written,
// different buffers, a load under a lazy condition) are left alone.
#include "lower/rewrite_interleavings.h"
#include "lower_test_util.h"

#include <gtest/gtest.h>

using namespace loom;
using namespace loom::test;

namespace {

const int lanes = 8;
Expr v(const std::string &n) { return Variable::make(UInt(8, lanes), n); }
Expr base() { return Variable::make(Int(32), "x") * 3 + Variable::make(Int(32), "row"); }

Stmt store(const std::string &buf, const Expr &value, int offset, int stride = 3,
           Expr predicate = Expr()) {
    Expr index = Ramp::make(simplify(base() + offset), make_const(Int(32), stride), lanes);
    return Store::make(buf, value, index, Parameter(),
                       predicate.defined() ? predicate : const_true(lanes));
}

} // namespace

TEST(RewriteInterleavings, ThreeChannelsBecomeOneDenseStore) {
    // Written in the order g, r, b: the shuffle still takes r, g, b.
    Stmt s =
        Block::make({store("out", v("g"), 1), store("out", v("r"), 0), store("out", v("b"), 2)});
    Stmt r = rewrite_interleavings(s);
    const Store *st = r.as<Store>();
    ASSERT_TRUE(st) << text(r);
    const Ramp *ramp = st->index.as<Ramp>();
    ASSERT_TRUE(ramp);
    EXPECT_EQ(ramp->lanes, 3 * lanes);
    EXPECT_TRUE(is_const_one(ramp->stride));
    EXPECT_TRUE(equal(ramp->base, simplify(base())));
    EXPECT_IR_EQ(st->value, Shuffle::make_interleave({v("r"), v("g"), v("b")}));
}

TEST(RewriteInterleavings, SurroundingStatementsStay) {
    Stmt other = Evaluate::make(Variable::make(Int(32), "other"));
    Stmt s = Block::make({other, store("out", v("a"), 0, 2), store("out", v("b"), 1, 2), other});
    Stmt r = rewrite_interleavings(s);
    const Block *b = r.as<Block>();
    ASSERT_TRUE(b) << text(r);
    EXPECT_TRUE(b->first.as<Evaluate>());
    const Block *rest = b->rest.as<Block>();
    ASSERT_TRUE(rest) << text(r);
    ASSERT_TRUE(rest->first.as<Store>()) << text(r);
    EXPECT_EQ(rest->first.as<Store>()->value.type().lanes(), 2 * lanes);
    EXPECT_TRUE(rest->rest.as<Evaluate>());
}

TEST(RewriteInterleavings, NearMissesAreLeftAlone) {
    // Only two of three channels.
    Stmt two = Block::make({store("out", v("r"), 0), store("out", v("g"), 1)});
    EXPECT_TRUE(rewrite_interleavings(two).same_as(two));
    // A repeated offset instead of offset 2.
    Stmt dup =
        Block::make({store("out", v("r"), 0), store("out", v("g"), 1), store("out", v("b"), 1)});
    EXPECT_TRUE(rewrite_interleavings(dup).same_as(dup));
    // Different buffers.
    Stmt bufs = Block::make({store("out", v("r"), 0, 2), store("other", v("g"), 1, 2)});
    EXPECT_TRUE(rewrite_interleavings(bufs).same_as(bufs));
    // A predicated store.
    Expr p = Variable::make(Bool(lanes), "p");
    Stmt pred = Block::make({store("out", v("r"), 0, 2, p), store("out", v("g"), 1, 2)});
    EXPECT_TRUE(rewrite_interleavings(pred).same_as(pred));
    // The second value reads the buffer the first store writes.
    Expr reads = Load::make(UInt(8, lanes), "out",
                            Ramp::make(Variable::make(Int(32), "y"), 1, lanes), const_true(lanes));
    Stmt dep = Block::make({store("out", v("r"), 0, 2), store("out", reads, 1, 2)});
    EXPECT_TRUE(rewrite_interleavings(dep).same_as(dep));
}

TEST(RewriteInterleavings, EvenAndOddLoadsShareOneDenseLoad) {
    Expr b = Variable::make(Int(32), "b");
    auto load = [&](int offset) {
        return Load::make(UInt(8, lanes), "in", Ramp::make(simplify(b + offset), 2, lanes),
                          const_true(lanes));
    };
    // Odd + even: both become slices of in[ramp(b, 1, 16)].
    Stmt s = store("out", load(1) + load(0), 0, 1);
    Stmt r = rewrite_interleavings(s);
    const Store *st = r.as<Store>();
    ASSERT_TRUE(st);
    Expr dense =
        Load::make(UInt(8, 2 * lanes), "in", Ramp::make(b, 1, 2 * lanes), const_true(2 * lanes));
    EXPECT_IR_EQ(st->value,
                 Shuffle::make_slice(dense, 1, 2, lanes) + Shuffle::make_slice(dense, 0, 2, lanes));
    // Offsets -1 and 0 group from b - 1.
    Stmt s2 = store("out", load(-1) + load(0), 0, 1);
    Stmt r2 = rewrite_interleavings(s2);
    const Store *st2 = r2.as<Store>();
    ASSERT_TRUE(st2);
    EXPECT_NE(text(st2->value).find("in[ramp((b + -1), 1, 16)]"), std::string::npos)
        << text(st2->value);
    // A lone strided load stays.
    Stmt lone = store("out", load(0) * load(0), 0, 1);
    EXPECT_TRUE(rewrite_interleavings(lone).same_as(lone));
    // A pair two elements apart: each reads the element the other's dense load reads past its
    // own span, so the first loads densely from b and the second from b + 1 (its odd lanes).
    Stmt pair = store("out", load(0) + load(2), 0, 1);
    Stmt rp = rewrite_interleavings(pair);
    const Store *stp = rp.as<Store>();
    ASSERT_TRUE(stp);
    Expr dense0 =
        Load::make(UInt(8, 2 * lanes), "in", Ramp::make(b, 1, 2 * lanes), const_true(2 * lanes));
    Expr dense1 = Load::make(UInt(8, 2 * lanes), "in", Ramp::make(simplify(b + 1), 1, 2 * lanes),
                             const_true(2 * lanes));
    EXPECT_IR_EQ(stp->value, Shuffle::make_slice(dense0, 0, 2, lanes) +
                                 Shuffle::make_slice(dense1, 1, 2, lanes));
    // The odd load is inside a Let that rebinds b: its b is another value, so no group.
    Expr odd_in_let = Let::make("b", b + 7, load(1));
    Stmt shadow = store("out", load(0) + odd_in_let, 0, 1);
    EXPECT_TRUE(rewrite_interleavings(shadow).same_as(shadow));
    // A boundary condition's taps each bind the clamped row in a Let of their own: seen
    // through the lets, their bases are a constant apart, so they group (interpolate's 2x
    // downsampling of a bordered input).
    Expr y = Variable::make(Int(32), "y");
    auto bordered_tap = [&](int offset, const std::string &row) {
        Expr index =
            Ramp::make(simplify(b + offset) + Variable::make(Int(32), row) * 1000, 2, lanes);
        return Let::make(row, max(min(y, 99), 0),
                         Load::make(UInt(8, lanes), "in", index, const_true(lanes)));
    };
    Stmt taps = store("out", bordered_tap(0, "row0") + bordered_tap(1, "row1"), 0, 1);
    std::string grouped = text(rewrite_interleavings(taps));
    EXPECT_EQ(grouped.find(", 2, 8)]"), std::string::npos) << grouped;
    EXPECT_NE(grouped.find(", 1, 16)]"), std::string::npos) << grouped;
    // A load whose index is a variable bound to its ramp groups too.
    Expr ramp_var = Variable::make(Int(32, lanes), "odd");
    Expr odd_by_name = Let::make("odd", Ramp::make(simplify(b + 1), 2, lanes),
                                 Load::make(UInt(8, lanes), "in", ramp_var, const_true(lanes)));
    Stmt named = store("out", load(0) + odd_by_name, 0, 1);
    Stmt rn = rewrite_interleavings(named);
    const Store *stn = rn.as<Store>();
    ASSERT_TRUE(stn);
    EXPECT_NE(text(stn->value).find("in[ramp(b, 1, 16)]"), std::string::npos) << text(rn);
    // Under a lazy condition: left alone.
    Expr lazy = Call::make(UInt(8, lanes), Call::if_then_else,
                           {Variable::make(Bool(), "c"), load(0), load(1)}, Call::PureIntrinsic);
    Stmt cond = store("out", lazy, 0, 1);
    EXPECT_TRUE(rewrite_interleavings(cond).same_as(cond));
}
