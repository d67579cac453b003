// Interval basics: the infinity markers, emptiness, union and intersection.

#include "unit/analysis/analysis_test_util.h"

#include "ir/ir_equality.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace loom;
using namespace loom::analysis_test;

TEST(Interval, MarkersAndPredicates) {
    Interval e = Interval::everything();
    EXPECT_TRUE(e.is_everything());
    EXPECT_FALSE(e.is_empty());
    EXPECT_FALSE(e.has_lower_bound());
    EXPECT_FALSE(e.has_upper_bound());
    EXPECT_FALSE(e.is_bounded());
    EXPECT_TRUE(Interval::is_neg_inf(e.min));
    EXPECT_TRUE(Interval::is_pos_inf(e.max));
    EXPECT_FALSE(Interval::is_pos_inf(e.min));

    Interval n = Interval::nothing();
    EXPECT_TRUE(n.is_empty());
    EXPECT_FALSE(n.is_everything());
    EXPECT_TRUE(Interval().is_empty());

    Expr x = var("x");
    Interval p = Interval::single_point(x);
    EXPECT_TRUE(p.is_single_point());
    EXPECT_TRUE(p.is_single_point(x));
    EXPECT_TRUE(p.is_single_point(var("x"))); // structural, not identity
    EXPECT_FALSE(p.is_single_point(var("y")));
    EXPECT_TRUE(p.is_bounded());
    EXPECT_FALSE(Interval(i32(0), i32(3)).is_single_point());
    EXPECT_TRUE(Interval(i32(3), i32(3)).is_single_point());

    Interval half(i32(0), Interval::pos_inf());
    EXPECT_TRUE(half.has_lower_bound());
    EXPECT_FALSE(half.has_upper_bound());
    EXPECT_FALSE(half.is_empty());

    // A marker rebuilt by a mutator (same name, new node) is still recognised.
    EXPECT_TRUE(Interval::is_pos_inf(Variable::make(Int(32), "pos_inf")));
    EXPECT_FALSE(Interval::is_pos_inf(x));
}

TEST(Interval, UnionAndIntersection) {
    Interval a(i32(0), i32(10)), b(i32(5), i32(20));
    EXPECT_TRUE(is_interval(Interval::make_union(a, b), 0, 20));
    EXPECT_TRUE(is_interval(Interval::make_intersection(a, b), 5, 10));

    // nothing() is the identity of union and absorbs intersection.
    EXPECT_TRUE(is_interval(Interval::make_union(Interval::nothing(), a), 0, 10));
    EXPECT_TRUE(is_interval(Interval::make_union(a, Interval::nothing()), 0, 10));
    EXPECT_TRUE(Interval::make_intersection(a, Interval::nothing()).is_empty());
    // everything() absorbs union and is the identity of intersection.
    EXPECT_TRUE(Interval::make_union(a, Interval::everything()).is_everything());
    EXPECT_TRUE(is_interval(Interval::make_intersection(Interval::everything(), a), 0, 10));

    Interval half(i32(3), Interval::pos_inf());
    Interval u = Interval::make_union(a, half);
    EXPECT_TRUE(is_interval(Interval(u.min, i32(0)), 0, 0));
    EXPECT_TRUE(Interval::is_pos_inf(u.max));
    Interval i = Interval::make_intersection(a, half);
    EXPECT_TRUE(is_interval(i, 3, 10));

    Interval c = a;
    c.include(i32(-4));
    EXPECT_TRUE(is_interval(c, -4, 10));
    c.include(Interval(i32(2), i32(30)));
    EXPECT_TRUE(is_interval(c, -4, 30));
    c.intersect(Interval(i32(-1), i32(7)));
    EXPECT_TRUE(is_interval(c, -1, 7));

    // Symbolic ends combine with min/max; equal ends stay as they are.
    Expr x = var("x"), y = var("y");
    Interval s = Interval::make_union(Interval(x, y), Interval(x, y));
    EXPECT_TRUE(equal(s.min, x));
    EXPECT_TRUE(equal(s.max, y));
    Interval t = Interval::make_union(Interval::single_point(x), Interval::single_point(y));
    EXPECT_TRUE(t.min.as<Min>() != nullptr) << t;
    EXPECT_TRUE(t.max.as<Max>() != nullptr) << t;
}

TEST(Interval, Printing) {
    std::ostringstream s;
    s << Interval(i32(0), Interval::pos_inf()) << " " << Interval::everything();
    EXPECT_EQ(s.str(), "[0, +inf] [-inf, +inf]");
}
