// ConstantInterval arithmetic and constant_integer_bounds, against brute force.

#include "common/expr_eval.h"

#include "arith/constant_interval.h"
#include "ir/ir_printer.h"

#include <loom/ir_operator.h>

#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <random>

using namespace loom;
using namespace loom::internal;
using loom::test::ExprEval;

namespace {

using CI = ConstantInterval;

int64_t euclid_div(int64_t a, int64_t b) {
    if (b == 0) return 0;
    int64_t q = a / b, r = a % b;
    if (r < 0) q += b > 0 ? -1 : 1;
    return q;
}
int64_t euclid_mod(int64_t a, int64_t b) {
    if (b == 0) return 0;
    int64_t r = a % b;
    return r < 0 ? r + (b > 0 ? b : -b) : r;
}

struct Op {
    const char *name;
    std::function<CI(const CI &, const CI &)> interval;
    std::function<int64_t(int64_t, int64_t)> value;
    bool exact; ///< whether the result interval must be tight
};

const std::vector<Op> &ops() {
    static const std::vector<Op> v = {
        {"+", [](const CI &a, const CI &b) { return a + b; },
         [](int64_t x, int64_t y) { return x + y; }, true},
        {"-", [](const CI &a, const CI &b) { return a - b; },
         [](int64_t x, int64_t y) { return x - y; }, true},
        {"*", [](const CI &a, const CI &b) { return a * b; },
         [](int64_t x, int64_t y) { return x * y; }, true},
        {"min", [](const CI &a, const CI &b) { return min(a, b); },
         [](int64_t x, int64_t y) { return std::min(x, y); }, true},
        {"max", [](const CI &a, const CI &b) { return max(a, b); },
         [](int64_t x, int64_t y) { return std::max(x, y); }, true},
        {"/", [](const CI &a, const CI &b) { return a / b; }, euclid_div, false},
        {"%", [](const CI &a, const CI &b) { return a % b; }, euclid_mod, false},
    };
    return v;
}

TEST(ConstantInterval, BruteForceSmallRanges) {
    std::mt19937 rng(5);
    auto r = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    for (int iter = 0; iter < 3000; iter++) {
        int a0 = r(-12, 12), a1 = a0 + r(0, 8), b0 = r(-12, 12), b1 = b0 + r(0, 8);
        if (r(0, 3) == 0) b1 = b0; // single points are common divisors
        CI a = CI::bounded(a0, a1), b = CI::bounded(b0, b1);
        for (const Op &op : ops()) {
            CI res = op.interval(a, b);
            int64_t lo = std::numeric_limits<int64_t>::max(),
                    hi = std::numeric_limits<int64_t>::min();
            for (int x = a0; x <= a1; x++) {
                for (int y = b0; y <= b1; y++) {
                    int64_t v = op.value(x, y);
                    lo = std::min(lo, v);
                    hi = std::max(hi, v);
                    ASSERT_TRUE(res.contains(v))
                        << a << " " << op.name << " " << b << " = " << res << " misses " << x << " "
                        << op.name << " " << y << " = " << v;
                }
            }
            bool tight_div = (op.name[0] == '/') && b.is_single_point() && b0 != 0;
            if (op.exact || tight_div) {
                EXPECT_TRUE(res.is_single_point() ? (res.min == lo && lo == hi)
                                                  : (res.min == lo && res.max == hi))
                    << a << " " << op.name << " " << b << " = " << res << ", exact is [" << lo
                    << ", " << hi << "]";
            }
        }
    }
}

TEST(ConstantInterval, UnboundedAndOverflow) {
    CI pos = CI::bounded_below(0);
    EXPECT_EQ(pos + CI::single_point(1), CI::bounded_below(1));
    EXPECT_EQ(CI::everything() * CI::single_point(0), CI::single_point(0));
    EXPECT_EQ(pos * CI::single_point(-2), CI::bounded_above(0));
    EXPECT_EQ(CI::bounded_above(5) / CI::single_point(2), CI::bounded_above(2));
    EXPECT_EQ(CI::bounded_above(5) / CI::single_point(-2), CI::bounded_below(-2));
    EXPECT_EQ(CI::everything() % CI::bounded(-5, 3), CI::bounded(0, 4));
    EXPECT_EQ(pos % CI::bounded_below(1), pos);
    EXPECT_EQ(CI::bounded(3, 5) % CI::bounded(8, 9), CI::bounded(3, 5));
    // Division by a range with zero includes 0 (x / 0 == 0).
    EXPECT_TRUE((CI::bounded(10, 20) / CI::bounded(0, 2)).contains(0));
    EXPECT_EQ(CI::bounded(10, 20) / CI::bounded(0, 2), CI::bounded(0, 20));
    int64_t big = std::numeric_limits<int64_t>::max();
    CI sum = CI::single_point(big) + CI::single_point(1);
    EXPECT_FALSE(sum.max_defined);
    CI prod = CI::single_point(big) * CI::bounded(-2, 2);
    EXPECT_FALSE(prod.min_defined || prod.max_defined);
    EXPECT_EQ(abs(CI::bounded(-7, 3)), CI::bounded(0, 7));
    EXPECT_EQ(-CI::bounded(-7, 3), CI::bounded(-3, 7));
}

TEST(ConstantInterval, Types) {
    EXPECT_EQ(CI::bounds_of_type(UInt(8)), CI::bounded(0, 255));
    EXPECT_EQ(CI::bounds_of_type(Int(16)), CI::bounded(-32768, 32767));
    EXPECT_EQ(CI::bounds_of_type(UInt(64)), CI::bounded_below(0));
    EXPECT_EQ(CI::bounded(0, 300).cast_to(UInt(8)), CI::bounded(0, 255));
    EXPECT_EQ(CI::bounded(0, 200).cast_to(UInt(8)), CI::bounded(0, 200));
    EXPECT_EQ(CI::bounded(-1, 3).cast_to(Bool()), CI::bounded(0, 1));
    EXPECT_EQ(CI::bounded(1, 3).cast_to(Bool()), CI::single_point(1));
    // A result that does not fit wrapped, and can be anything.
    EXPECT_EQ(CI::bounded(0, int64_t(1) << 40).fit_to(Int(32)), CI::bounds_of_type(Int(32)));
    EXPECT_EQ(CI::bounded(0, 100).fit_to(Int(32)), CI::bounded(0, 100));
    EXPECT_EQ(CI::bounded(-3, 300).fit_to(UInt(8)), CI::bounded(0, 255));
    EXPECT_EQ(CI::bounded_below(16).fit_to(UInt(64)), CI::bounded_below(0));
}

// constant_integer_bounds over small variable ranges, checked by evaluating every point.
TEST(ConstantInterval, BoundsOfExpressions) {
    Expr x = Variable::make(Int(32), "x"), y = Variable::make(Int(32), "y");
    Expr u = Variable::make(UInt(8), "u");
    std::map<std::string, CI> scope = {{"x", CI::bounded(-5, 5)}, {"y", CI::bounded(1, 4)}};
    struct Case {
        Expr e;
        bool tight;
    };
    std::vector<Case> cases = {
        {x + y * 3 - 2, true},
        {x * y, true},
        {min(x, y) + max(x, 2), false},
        {clamp(x * 3, -4, 7), true},
        {x / 3, true},
        {x % 3, true},
        {(x + 10) / y, false},
        {x % y, false},
        {select(x < 0, x * 2, y), false},
        {Cast::make(Int(32), Cast::make(UInt(8), x)), false},
        {Cast::make(Int(32), u) / 4, true},
        {Cast::make(Int(32), u) * 2 - 1, true},
        {Let::make("t", x * 2, Variable::make(Int(32), "t") + 1), true},
        {Call::make(UInt(32), Call::abs, {x}, Call::PureIntrinsic), true},
        {Call::make(Int(32), Call::bitwise_and, {x, Expr(6)}, Call::PureIntrinsic), false},
        {Call::make(Int(32), Call::shift_right, {x * 8, Expr(2)}, Call::PureIntrinsic), true},
    };
    for (const Case &c : cases) {
        CI b = constant_integer_bounds(c.e, scope);
        int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
        for (int xv = -5; xv <= 5; xv++) {
            for (int yv = 1; yv <= 4; yv++) {
                for (int uv = 0; uv < 256; uv += 5) {
                    ExprEval ev;
                    ev.bind("x", ExprEval::scalar_int(Int(32), xv));
                    ev.bind("y", ExprEval::scalar_int(Int(32), yv));
                    ev.bind("u", ExprEval::scalar_uint(UInt(8), uv));
                    int64_t v = ev.eval(c.e).as_int();
                    lo = std::min(lo, v);
                    hi = std::max(hi, v);
                    ASSERT_TRUE(b.contains(v)) << c.e << " in " << b << " misses " << v;
                }
            }
        }
        if (c.tight) {
            EXPECT_TRUE(b.min == lo && b.max == hi && b.is_bounded())
                << c.e << ": " << b << ", exact [" << lo << ", " << hi << "]";
        }
    }
    // Unknown variables are bounded by their type only.
    EXPECT_EQ(constant_integer_bounds(Cast::make(Int(32), u) + 1), CI::bounded(1, 256));
    EXPECT_EQ(constant_integer_bounds(Variable::make(Int(16), "s")), CI::bounds_of_type(Int(16)));
    EXPECT_TRUE(constant_integer_bounds(Variable::make(Float(32), "f")).is_everything());
}

} // namespace
