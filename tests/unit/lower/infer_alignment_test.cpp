// infer_alignment: the ramp base of a vector load or store is analysed with the enclosing lets
// substituted, so offsets that cancel symbolically give a known alignment; unknown parts stay
// unknown.
#include "lower/infer_alignment.h"
#include "lower_test_util.h"

#include "ir/ir_visitor.h"

#include <gtest/gtest.h>

using namespace loom;
using namespace loom::test;

namespace {

/// The alignment facts of the loads and stores of s, in visiting order.
std::vector<ModulusRemainder> facts(const Stmt &s) {
    std::vector<ModulusRemainder> r;
    class Collect : public IRVisitor {
    public:
        std::vector<ModulusRemainder> *out;
        using IRVisitor::visit;
        void visit(const Load *op) override {
            out->push_back(op->alignment);
            IRVisitor::visit(op);
        }
        void visit(const Store *op) override {
            IRVisitor::visit(op);
            out->push_back(op->alignment);
        }
    } c;
    c.out = &r;
    c.dispatch(s);
    return r;
}

} // namespace

TEST(InferAlignment, SeesThroughCancellingLets) {
    // let m = min(xo * 64, e - 64) + f_min in
    // let t = (x * 8 + min(xo * 64, e - 64) + f_min) - m in
    //   out[ramp(t, 1, 8)] = g[ramp(t + 64, 1, 8)] + g[ramp(t + y, 1, 8)]
    Expr xo = ivar("xo"), e = ivar("e"), x = ivar("x"), y = ivar("y"), fmin = ivar("f_min");
    Expr clamp_ = Min::make(xo * 64, e - 64);
    Expr t = ivar("t");
    Expr load64 = Load::make(UInt(16, 8), "g", Ramp::make(t + 64, 1, 8), const_true(8));
    Expr loady = Load::make(UInt(16, 8), "g", Ramp::make(t + y, 1, 8), const_true(8));
    Stmt st = Store::make("out", load64 + loady, Ramp::make(t, 1, 8), Parameter(), const_true(8));
    Stmt s = LetStmt::make("m", clamp_ + fmin,
                           LetStmt::make("t", (x * 8 + clamp_ + fmin) - ivar("m"), st));
    std::vector<ModulusRemainder> f = facts(infer_alignment(s));
    ASSERT_EQ(f.size(), 3u);
    EXPECT_EQ(f[0].modulus, 8);
    EXPECT_EQ(f[0].remainder, 0);
    EXPECT_EQ(f[1].modulus, 1) << "t + y is unknown";
    EXPECT_EQ(f[2].modulus, 8);
}

TEST(InferAlignment, ARemainderIsKept) {
    Expr x = ivar("x");
    Stmt st = Store::make("out", Broadcast::make(make_const(UInt(8), 1), 16),
                          Ramp::make(ivar("b"), 1, 16), Parameter(), const_true(16));
    Stmt s = LetStmt::make("b", x * 32 + 4, st);
    std::vector<ModulusRemainder> f = facts(infer_alignment(s));
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].modulus, 32);
    EXPECT_EQ(f[0].remainder, 4);
}

TEST(InferAlignment, RepeatedBasesKeepTheirOwnFacts) {
    // The facts of expanded bases are remembered (a row's loads share a few bases); the same
    // name under different lets, and different bases, must still get their own facts:
    // let a = x * 16 in g[ramp(a, 1, 8)], g[ramp(a + 1, 1, 8)], g[ramp(a, 1, 8)]
    // let a = x * 16 + 4 in g[ramp(a, 1, 8)]       (same base text, another value)
    // let b = x * 16 in g[ramp(b, 1, 8)]           (another name, the first value)
    Expr x = ivar("x"), a = ivar("a"), b = ivar("b");
    auto load = [](const Expr &base) {
        return Load::make(UInt(16, 8), "g", Ramp::make(base, 1, 8), const_true(8));
    };
    auto store = [](const std::string &out, const Expr &v) {
        return Store::make(out, v, Ramp::make(make_zero(Int(32)), 1, 8), Parameter(),
                           const_true(8));
    };
    Stmt first = LetStmt::make("a", x * 16, store("o1", load(a) + load(a + 1) + load(a)));
    Stmt second = LetStmt::make("a", x * 16 + 4, store("o2", load(a)));
    Stmt third = LetStmt::make("b", x * 16, store("o3", load(b)));
    std::vector<ModulusRemainder> f = facts(infer_alignment(Block::make({first, second, third})));
    // Loads in visiting order, each store after its loads.
    ASSERT_EQ(f.size(), 8u);
    EXPECT_EQ(f[0].modulus, 16);
    EXPECT_EQ(f[0].remainder, 0);
    EXPECT_EQ(f[1].modulus, 16);
    EXPECT_EQ(f[1].remainder, 1);
    EXPECT_EQ(f[2].modulus, 16);
    EXPECT_EQ(f[2].remainder, 0);
    EXPECT_EQ(f[4].modulus, 16);
    EXPECT_EQ(f[4].remainder, 4);
    EXPECT_EQ(f[6].modulus, 16);
    EXPECT_EQ(f[6].remainder, 0);
}
