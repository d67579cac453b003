// The associativity prover: which update forms it recognizes (and which it refuses, with a
// reason), the contribution it extracts, and — checked with the independent evaluator
// (tests/common/expr_eval.h) on random values — that each binary form it returns really is
// associative and that its identity is an identity.
#include "analysis/associativity.h"

#include <loom/ir_operator.h>

#include "common/expr_eval.h"
#include "ir/ir.h"
#include "ir/ir_equality.h"
#include "ir/ir_utils.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace loom;
using namespace loom::internal;
using loom::test::ExprEval;

namespace {

const std::string F = "f";
Expr xv = Variable::make(Int(32), "x");
Expr g = Variable::make(Int(32), "g");
Expr h = Variable::make(Int(32), "h");

/// Stands in for f's Function (the prover looks only at the call's name and arguments).
struct FakeFunction : RefCounted {};
IntrusivePtr<RefCounted> fake_f(new FakeFunction);

/// A call f(x)[i] of type t.
Expr fcall(Type t = Int(32), int i = 0, Expr at = xv) {
    return Call::make(t, F, {at}, Call::Halide, fake_f, i);
}

AssociativeOp prove(const std::vector<Expr> &values) {
    return prove_associativity(F, {xv}, values);
}

/// Checks pattern(pattern(a, b), c) == pattern(a, pattern(b, c)) and pattern(id, a) == a
/// for random int32 tuples.
void check_laws(const AssociativeOp &op, int trials = 200) {
    ASSERT_TRUE(op.associative) << op.reason;
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> dist(-50, 50);
    const size_t n = op.pattern.size();
    auto apply = [&](const std::vector<loom::test::Value> &a,
                     const std::vector<loom::test::Value> &b) {
        ExprEval ev;
        for (size_t i = 0; i < n; i++) {
            ev.bind(op.x_names[i], a[i]);
            ev.bind(op.y_names[i], b[i]);
        }
        std::vector<loom::test::Value> r;
        for (size_t i = 0; i < n; i++) r.push_back(ev.eval(op.pattern[i]));
        return r;
    };
    auto rand_tuple = [&]() {
        std::vector<loom::test::Value> t;
        for (size_t i = 0; i < n; i++) {
            t.push_back(ExprEval::scalar_int(op.pattern[i].type(), dist(rng)));
        }
        return t;
    };
    for (int k = 0; k < trials; k++) {
        auto a = rand_tuple(), b = rand_tuple(), c = rand_tuple();
        auto l = apply(apply(a, b), c), r = apply(a, apply(b, c));
        for (size_t i = 0; i < n; i++) {
            if (op.kinds[i] == AssociativeOpKind::Unchanged) continue;
            ASSERT_TRUE(l[i].identical(r[i])) << "element " << i << " trial " << k;
        }
        std::vector<loom::test::Value> id;
        ExprEval ev;
        for (size_t i = 0; i < n; i++) id.push_back(ev.eval(op.identities[i]));
        auto ia = apply(id, a);
        for (size_t i = 0; i < n; i++) {
            if (op.kinds[i] == AssociativeOpKind::Unchanged ||
                op.kinds[i] == AssociativeOpKind::ArgMinIndex ||
                op.kinds[i] == AssociativeOpKind::ArgMaxIndex) {
                continue;
            }
            ASSERT_TRUE(ia[i].identical(a[i])) << "identity of element " << i;
        }
    }
}

} // namespace

TEST(Associativity, SingleValueOperators) {
    struct Case {
        Expr value;
        AssociativeOpKind kind;
    };
    std::vector<Case> cases = {
        {fcall() + g, AssociativeOpKind::Add},
        {g + fcall(), AssociativeOpKind::Add},
        {fcall() * g, AssociativeOpKind::Mul},
        {Min::make(g, fcall()), AssociativeOpKind::Min},
        {Max::make(fcall(), g * h), AssociativeOpKind::Max},
        {Call::make(Int(32), Call::bitwise_and, {fcall(), g}, Call::PureIntrinsic),
         AssociativeOpKind::BitAnd},
        {Call::make(Int(32), Call::bitwise_or, {g, fcall()}, Call::PureIntrinsic),
         AssociativeOpKind::BitOr},
        {Call::make(Int(32), Call::bitwise_xor, {fcall(), g}, Call::PureIntrinsic),
         AssociativeOpKind::BitXor},
    };
    for (const Case &c : cases) {
        AssociativeOp op = prove({c.value});
        ASSERT_TRUE(op.associative) << c.value;
        EXPECT_EQ(op.kinds[0], c.kind) << c.value;
        EXPECT_FALSE(expr_uses_var(op.ys[0], "x_0.assoc"));
        check_laws(op);
    }
    AssociativeOp op = prove({fcall() + g * 3});
    EXPECT_TRUE(equal(op.ys[0], g * 3));
    EXPECT_TRUE(equal(op.identities[0], make_zero(Int(32))));
    EXPECT_TRUE(equal(prove({Min::make(fcall(), g)}).identities[0], Int(32).max()));
    EXPECT_TRUE(equal(prove({Max::make(fcall(), g)}).identities[0], Int(32).min()));
}

TEST(Associativity, BooleanAndFloat) {
    Expr fb = fcall(Bool());
    Expr gb = Variable::make(Bool(), "gb");
    AssociativeOp a = prove({And::make(fb, gb)});
    ASSERT_TRUE(a.associative);
    EXPECT_EQ(a.kinds[0], AssociativeOpKind::And);
    EXPECT_TRUE(equal(a.identities[0], make_one(Bool())));
    AssociativeOp o = prove({Or::make(gb, fb)});
    ASSERT_TRUE(o.associative);
    EXPECT_TRUE(equal(o.identities[0], make_zero(Bool())));
    Expr gf = Variable::make(Float(32), "gf");
    AssociativeOp s = prove({fcall(Float(32)) + gf});
    ASSERT_TRUE(s.associative);
    AssociativeOp m = prove({Min::make(fcall(Float(32)), gf)});
    const FloatImm *inf = m.identities[0].as<FloatImm>();
    ASSERT_NE(inf, nullptr);
    EXPECT_TRUE(std::isinf(inf->value) && inf->value > 0);
}

TEST(Associativity, WideningCast) {
    Type u8 = UInt(8), u16 = UInt(16);
    Expr gu = Variable::make(u8, "gu");
    Expr v = Cast::make(u8, Cast::make(u16, fcall(u8)) + Cast::make(u16, gu));
    AssociativeOp op = prove({v});
    ASSERT_TRUE(op.associative) << op.reason;
    EXPECT_EQ(op.kinds[0], AssociativeOpKind::Add);
    EXPECT_EQ(op.pattern[0].type(), u8);
    // A saturating form (min with 255 before the narrowing) is not plain wrap-around addition.
    Expr sat = Cast::make(
        u8, Min::make(Cast::make(u16, fcall(u8)) + Cast::make(u16, gu), make_const(u16, 255)));
    EXPECT_FALSE(prove({sat}).associative);
}

TEST(Associativity, TuplesElementwiseAndArgExtremes) {
    AssociativeOp two = prove({fcall(Int(32), 0) + g, Max::make(fcall(Int(32), 1), h)});
    ASSERT_TRUE(two.associative);
    EXPECT_EQ(two.kinds[0], AssociativeOpKind::Add);
    EXPECT_EQ(two.kinds[1], AssociativeOpKind::Max);
    check_laws(two);

    Expr f0 = fcall(Int(32), 0), f1 = fcall(Int(32), 1);
    // argmin, strict: keeps the first index.
    AssociativeOp amin = prove({Min::make(f0, g), Select::make(LT::make(g, f0), h, f1)});
    ASSERT_TRUE(amin.associative) << amin.reason;
    EXPECT_EQ(amin.kinds[1], AssociativeOpKind::ArgMinIndex);
    EXPECT_TRUE(equal(amin.ys[1], h));
    check_laws(amin);
    // argmax written with the old value on the true side.
    AssociativeOp amax = prove({Max::make(g, f0), Select::make(GE::make(f0, g), f1, h)});
    ASSERT_TRUE(amax.associative) << amax.reason;
    EXPECT_EQ(amax.kinds[1], AssociativeOpKind::ArgMaxIndex);
    check_laws(amax);
    // min with a select that picks the index of the larger value is not an argmin.
    EXPECT_FALSE(prove({Min::make(f0, g), Select::make(GT::make(g, f0), h, f1)}).associative);
    // An element left unchanged is fine.
    AssociativeOp keep = prove({f0 + g, f1});
    ASSERT_TRUE(keep.associative);
    EXPECT_EQ(keep.kinds[1], AssociativeOpKind::Unchanged);
}

TEST(Associativity, Refusals) {
    AssociativeOp sub = prove({fcall() - g});
    EXPECT_FALSE(sub.associative);
    EXPECT_NE(sub.reason.find("op g"), std::string::npos) << sub.reason;
    AssociativeOp overwrite = prove({g});
    EXPECT_FALSE(overwrite.associative);
    EXPECT_NE(overwrite.reason.find("does not depend"), std::string::npos) << overwrite.reason;
    AssociativeOp elsewhere = prove({fcall() + fcall(Int(32), 0, xv - 1)});
    EXPECT_FALSE(elsewhere.associative);
    EXPECT_NE(elsewhere.reason.find("other than"), std::string::npos) << elsewhere.reason;
    EXPECT_FALSE(prove({fcall() * fcall()}).associative); // f*f: g reads f
    EXPECT_FALSE(prove({fcall() + g * fcall()}).associative);
    Expr f0 = fcall(Int(32), 0), f1 = fcall(Int(32), 1);
    EXPECT_FALSE(prove({f0 + f1, f1}).associative); // element 0 reads element 1
}
