// boxes_touched_of(s, names): the boxes of some names only (add_image_checks asks for the input and
// output buffers'), equal to what boxes_touched(s) gives for them, without bounding the lets and
// loops that only the other names' coordinates depend on.

#include "unit/analysis/analysis_test_util.h"

#include "simplify/simplify.h"
#include "support/util.h"

#include <gtest/gtest.h>

using namespace loom;
using namespace loom::analysis_test;

namespace {

Expr image(const std::string &name, const std::vector<Expr> &args) {
    return Call::make(Int(32), name, args, Call::Image);
}

bool same_value(const Expr &a, const Expr &b) {
    if (!a.defined() || !b.defined()) return a.defined() == b.defined();
    if (Interval::is_pos_inf(a) || Interval::is_neg_inf(a) || Interval::is_pos_inf(b) ||
        Interval::is_neg_inf(b)) {
        return a.same_as(b);
    }
    return is_const_zero(simplify(Sub::make(a, b)));
}

/// The number the next unique_name('b') gets (boxes name the bounds of large lets with it).
int next_b() { return std::stoi(unique_name('b').substr(1)) + 1; }

/// A sum of `n` free variables plus y: its bounds over a loop on y are as large as itself.
Expr large_sum(const Expr &y, int n) {
    Expr e = y;
    for (int i = 0; i < n; i++) e = add(e, var("z" + std::to_string(i)));
    return e;
}

/// for y in [0, 10):
///   let r = y * 2 + 1              (in's coordinates)
///   let big = y + z0 + ... + z59   (only other's)
///   for x in [0, 16):
///     for k in [big, 4):           (only other's)
///       out(x, y) = in(x + r, y - 1) + other(k, big)
///   if (y < 5) out2(y) = in(y, 0)
Stmt pipeline() {
    Expr x = var("x"), y = var("y"), k = var("k"), r = var("r"), big = var("big");
    Stmt inner = provide(
        "out", add(image("in", {add(x, r), sub(y, i32(1))}), call("other", {k, big})), {x, y});
    Stmt body =
        LetStmt::make("r", add(mul(y, i32(2)), i32(1)),
                      LetStmt::make("big", large_sum(y, 60),
                                    loop("x", i32(0), i32(16), loop("k", big, i32(4), inner))));
    body = Block::make(
        body, IfThenElse::make(lt(y, i32(5)), provide("out2", image("in", {y, i32(0)}), {y})));
    return loop("y", i32(0), i32(10), body);
}

TEST(BoxesOfNames, SameBoxesAsAllNames) {
    Stmt s = pipeline();
    std::map<std::string, Box> all = boxes_touched(s);
    std::map<std::string, Box> some = boxes_touched_of(s, {"in", "out", "out2", "absent"});
    EXPECT_EQ(some.size(), 3u); // no entry for a name s does not touch, none for "other"
    EXPECT_EQ(some.count("other"), 0u);
    for (const char *name : {"in", "out", "out2"}) {
        ASSERT_EQ(some.count(name), 1u) << name;
        const Box &a = all.at(name), &b = some.at(name);
        ASSERT_EQ(a.size(), b.size()) << name;
        for (size_t d = 0; d < a.size(); d++) {
            EXPECT_TRUE(same_value(a[d].min, b[d].min)) << name << " " << a << " vs " << b;
            EXPECT_TRUE(same_value(a[d].max, b[d].max)) << name << " " << a << " vs " << b;
        }
    }
    // in: x + r over x in [0, 15] and r = 2y + 1 over y in [0, 9], or y in [0, 4]; y - 1 or 0.
    const Box &in = some.at("in");
    EXPECT_TRUE(same_value(in[0].min, i32(0))) << in;
    EXPECT_TRUE(same_value(in[0].max, i32(34))) << in;
    EXPECT_TRUE(same_value(in[1].min, i32(-1))) << in;
    EXPECT_TRUE(same_value(in[1].max, i32(8))) << in;
}

TEST(BoxesOfNames, SkipsLetsOnlyOtherNamesUse) {
    Stmt s = pipeline();
    // Every box bounds `big` (other's coordinates use it): too large to substitute, its bounds
    // get a fresh name.
    int before = next_b();
    boxes_touched(s);
    EXPECT_GT(next_b(), before + 1);
    // in's and out's boxes need neither `big` nor the loop on k: nothing is bounded or named.
    before = next_b();
    boxes_touched_of(s, {"in", "out"});
    EXPECT_EQ(next_b(), before + 1);
    // Nor does in's alone (box_required's one-name walk).
    before = next_b();
    box_required(s, "in");
    EXPECT_EQ(next_b(), before + 1);
}

} // namespace
