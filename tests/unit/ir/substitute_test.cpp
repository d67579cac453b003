// Substitution by name, by map and by structure, including shadowing by Let/LetStmt/For.

#include "ir/ir.h"
#include "ir/ir_equality.h"
#include "ir/ir_printer.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"

#include <gtest/gtest.h>

using namespace loom;
using namespace loom::internal;

namespace {
Expr var(const std::string &n, Type t = Int(32)) { return Variable::make(t, n); }
Stmt eval(Expr e) { return Evaluate::make(e); }
} // namespace

#define EXPECT_IR_EQ(a, b) EXPECT_TRUE(equal(a, b)) << "got " << (a) << "\nexpected " << (b)

TEST(Substitute, ByName) {
    Expr x = var("x"), y = var("y");
    Expr e = Add::make(Mul::make(x, y), x);
    EXPECT_IR_EQ(substitute("x", Expr(3), e), Add::make(Mul::make(3, y), 3));
    EXPECT_IR_EQ(substitute("y", Add::make(x, 1), e), Add::make(Mul::make(x, Add::make(x, 1)), x));
    // Nothing to replace: the very same node comes back.
    EXPECT_TRUE(substitute("z", Expr(3), e).same_as(e));
    // Names are matched exactly, not by prefix.
    EXPECT_IR_EQ(substitute("x", Expr(1), var("x.min")), var("x.min"));
}

TEST(Substitute, LetShadowing) {
    Expr x = var("x");
    // let x = x + 1 in x * 2: the value's x is free, the body's x is the Let's.
    Expr e = Let::make("x", Add::make(x, 1), Mul::make(x, 2));
    EXPECT_IR_EQ(substitute("x", Expr(5), e), Let::make("x", Add::make(5, 1), Mul::make(x, 2)));
    // A different name is substituted in both.
    Expr f = Let::make("t", Add::make(x, 1), Mul::make(var("t"), x));
    EXPECT_IR_EQ(substitute("x", Expr(5), f),
                 Let::make("t", Add::make(5, 1), Mul::make(var("t"), 5)));
    // Shadowing ends with the Let: x after it is free again.
    Expr g = Add::make(e, x);
    EXPECT_IR_EQ(substitute("x", Expr(5), g),
                 Add::make(Let::make("x", Add::make(5, 1), Mul::make(x, 2)), 5));
}

TEST(Substitute, StmtShadowing) {
    Expr x = var("x"), y = var("y");
    Stmt s = LetStmt::make("x", Add::make(x, y), eval(Mul::make(x, y)));
    EXPECT_IR_EQ(substitute("x", Expr(2), s),
                 LetStmt::make("x", Add::make(2, y), eval(Mul::make(x, y))));
    EXPECT_IR_EQ(substitute("y", Expr(2), s),
                 LetStmt::make("x", Add::make(x, 2), eval(Mul::make(x, 2))));
    // For: min and extent are outside the loop variable's scope.
    Stmt loop = For::make("x", x, Add::make(x, 1), ForType::Serial, DeviceAPI::None, eval(x));
    EXPECT_IR_EQ(substitute("x", Expr(7), loop),
                 For::make("x", 7, Add::make(7, 1), ForType::Serial, DeviceAPI::None, eval(x)));
    Stmt block = Block::make(loop, eval(x));
    EXPECT_IR_EQ(
        substitute("x", Expr(7), block),
        Block::make(For::make("x", 7, Add::make(7, 1), ForType::Serial, DeviceAPI::None, eval(x)),
                    eval(7)));
    // Through every statement kind that holds expressions.
    Stmt st = Store::make("f", x, x, Parameter(), const_true());
    EXPECT_IR_EQ(substitute("x", Expr(1), st), Store::make("f", 1, 1, Parameter(), const_true()));
    Stmt pr = Provide::make("f", {x}, {x, y}, const_true());
    EXPECT_IR_EQ(substitute("x", Expr(1), pr), Provide::make("f", {1}, {1, y}, const_true()));
    Stmt re = Realize::make("f", {Int(32)}, MemoryType::Auto, {Range(x, 4)}, const_true(), eval(x));
    EXPECT_IR_EQ(substitute("x", Expr(1), re), Realize::make("f", {Int(32)}, MemoryType::Auto,
                                                             {Range(1, 4)}, const_true(), eval(1)));
}

TEST(Substitute, MapIsSimultaneous) {
    Expr x = var("x"), y = var("y");
    std::map<std::string, Expr> swap{{"x", y}, {"y", x}};
    EXPECT_IR_EQ(substitute(swap, Sub::make(x, y)), Sub::make(y, x));
    // Shadowing hides only the rebound name.
    Expr e = Let::make("x", y, Add::make(x, y));
    EXPECT_IR_EQ(substitute(swap, e), Let::make("x", x, Add::make(x, x)));
    Stmt s = eval(Add::make(x, y));
    EXPECT_IR_EQ(substitute(std::map<std::string, Expr>{{"x", Expr(1)}}, s), eval(Add::make(1, y)));
    EXPECT_TRUE(substitute(std::map<std::string, Expr>{}, s).same_as(s));
}

TEST(Substitute, ByStructure) {
    Expr x = var("x"), y = var("y");
    Expr find = Add::make(x, 1);
    Expr e = Mul::make(Add::make(var("x"), 1), Min::make(Add::make(x, 1), y));
    EXPECT_IR_EQ(substitute(find, y, e), Mul::make(y, Min::make(y, y)));
    // Outermost match first; the replacement is not searched again.
    Expr nested = Add::make(Add::make(x, 1), 1);
    EXPECT_IR_EQ(substitute(find, Add::make(x, 1), Add::make(x, 1)), Add::make(x, 1));
    EXPECT_IR_EQ(substitute(find, y, nested), Add::make(y, 1));
    // Inside a rebinding of x, x + 1 means something else.
    Expr l = Let::make("x", Add::make(x, 1), Add::make(x, 1));
    EXPECT_IR_EQ(substitute(find, y, l), Let::make("x", y, Add::make(x, 1)));
    Stmt s =
        For::make("y", Add::make(x, 1), 4, ForType::Serial, DeviceAPI::None, eval(Add::make(x, 1)));
    EXPECT_IR_EQ(substitute(find, Expr(0), s),
                 For::make("y", 0, 4, ForType::Serial, DeviceAPI::None, eval(0)));
}

TEST(Substitute, ExpandLetsFollowsChainsUpToASize) {
    // a = b + 1, b = c * 2: a expands through both; names not bound stay.
    std::map<std::string, Expr> lets = {{"a", Add::make(var("b"), 1)},
                                        {"b", Mul::make(var("c"), 2)}};
    EXPECT_IR_EQ(expand_lets(lets, Sub::make(var("a"), var("d"))),
                 Sub::make(Add::make(Mul::make(var("c"), 2), 1), var("d")));
    const Expr d = var("d");
    EXPECT_TRUE(expand_lets(lets, d).same_as(d));
    // t0 = x, t_k = t_{k-1} + t_{k-1}: the tree doubles with each let (2^20 leaves for t20).
    std::map<std::string, Expr> chain = {{"t0", var("x")}};
    for (int k = 1; k <= 20; k++) {
        Expr prev = var("t" + std::to_string(k - 1));
        chain["t" + std::to_string(k)] = Add::make(prev, prev);
    }
    EXPECT_FALSE(expand_lets(chain, var("t20"), 1000).defined());
    // Within the size, it expands: t3 is 8 x's and 7 additions.
    Expr t3 = expand_lets(chain, var("t3"), 1000);
    ASSERT_TRUE(t3.defined());
    int xs = 0;
    visit_exprs(t3, [&](const Expr &e) {
        const Variable *v = e.as<Variable>();
        xs += v && v->name == "x";
        return true;
    });
    EXPECT_EQ(xs, 8);
}
