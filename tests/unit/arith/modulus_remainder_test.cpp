// Alignment facts (modulus/remainder), against brute force.

#include "common/expr_eval.h"

#include "arith/modulus_remainder.h"
#include "ir/ir_printer.h"

#include <loom/ir_operator.h>

#include <gtest/gtest.h>

#include <random>

using namespace loom;
using namespace loom::internal;
using loom::test::ExprEval;

namespace {

using MR = ModulusRemainder;

int64_t emod(int64_t a, int64_t m) {
    int64_t r = a % m;
    return r < 0 ? r + m : r;
}
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

/// Whether v satisfies the fact.
bool satisfies(const MR &m, int64_t v) {
    if (m.modulus == 0) return v == m.remainder;
    return emod(v, m.modulus) == emod(m.remainder, m.modulus);
}

TEST(ModulusRemainder, OperatorsBruteForce) {
    std::mt19937 rng(9);
    auto r = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    int informative = 0;
    for (int iter = 0; iter < 2000; iter++) {
        MR a(r(0, 12), r(-20, 20)), b(r(0, 12), r(-20, 20));
        if (r(0, 2) == 0) b = MR(0, r(-9, 9)); // constant divisors
        MR results[] = {a + b, a - b, a * b, a / b, a % b, unify(a, b)};
        for (int k = -6; k <= 6; k++) {
            for (int j = -6; j <= 6; j++) {
                int64_t va = a.modulus * k + a.remainder, vb = b.modulus * j + b.remainder;
                int64_t vals[] = {va + vb, va - vb, va * vb, euclid_div(va, vb),
                                  euclid_mod(va, vb)};
                for (int o = 0; o < 5; o++) {
                    ASSERT_TRUE(satisfies(results[o], vals[o]))
                        << "op " << o << " of " << a << " and " << b << " gave " << results[o]
                        << " but " << va << ", " << vb << " -> " << vals[o];
                }
                ASSERT_TRUE(satisfies(results[5], va) && satisfies(results[5], vb));
            }
        }
        for (const MR &m : results) informative += m.modulus != 1;
    }
    // Most results carry information (a check that only ever returns "unknown" would pass).
    EXPECT_GT(informative, 4000);
}

TEST(ModulusRemainder, Examples) {
    EXPECT_EQ(MR(4, 1) + MR(6, 3), MR(2, 0));
    EXPECT_EQ(MR(4, 1) * MR(0, 3), MR(12, 3));
    EXPECT_EQ(MR(8, 5) / MR(0, 2), MR(4, 2));
    EXPECT_EQ(MR(8, 5) % MR(0, 4), MR(0, 1));
    EXPECT_EQ(MR(6, 5) % MR(0, 4), MR(2, 1));
    EXPECT_EQ(unify(MR(0, 3), MR(0, 7)), MR(4, 3));
    EXPECT_EQ(intersect(MR(4, 1), MR(6, 3)), MR(12, 9));
    EXPECT_EQ(intersect(MR(4, 1), MR(0, 9)), MR(0, 9));
    EXPECT_EQ(normalize(MR(-4, -1)), MR(4, 3));
}

TEST(ModulusRemainder, OfExpressions) {
    Expr x = Variable::make(Int(32), "x"), y = Variable::make(Int(32), "y");
    EXPECT_EQ(modulus_remainder(x * 4 + 3), MR(4, 3));
    EXPECT_EQ(modulus_remainder((x * 6 + 4) * 2), MR(12, 8));
    EXPECT_EQ(modulus_remainder((x * 4) % 2), MR(0, 0));
    EXPECT_EQ(modulus_remainder((x * 8 + 5) / 2), MR(4, 2));
    EXPECT_EQ(modulus_remainder(min(x * 4, y * 4 + 2)), MR(2, 0));
    EXPECT_EQ(modulus_remainder(Ramp::make(x * 4, Expr(8), 4)), MR(4, 0));
    EXPECT_EQ(modulus_remainder(x + 1), MR(1, 0));
    EXPECT_EQ(modulus_remainder(x + 1, {{"x", MR(4, 3)}}), MR(4, 0));
    // Wrapping types are not analysed.
    Expr u = Variable::make(UInt(8), "u");
    EXPECT_EQ(modulus_remainder(u * Expr((uint8_t)4)), MR(1, 0));
    int64_t rem;
    EXPECT_TRUE(reduce_expr_modulo(x * 8 + 6, 4, &rem));
    EXPECT_EQ(rem, 2);
    EXPECT_FALSE(reduce_expr_modulo(x * 8 + 6, 16, &rem));

    // Random expressions over x = 4k + 1 and y = 6j + 3, checked on many k, j.
    std::map<std::string, MR> scope = {{"x", MR(4, 1)}, {"y", MR(6, 3)}};
    std::mt19937 rng(3);
    auto r = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    std::function<Expr(int)> gen = [&](int d) -> Expr {
        if (d == 0) return r(0, 2) == 0 ? Expr(r(-9, 9)) : (r(0, 1) ? x : y);
        switch (r(0, 6)) {
        case 0:
            return gen(d - 1) + gen(d - 1);
        case 1:
            return gen(d - 1) - gen(d - 1);
        case 2:
            return gen(d - 1) * gen(d - 1);
        case 3:
            return gen(d - 1) / Expr(r(1, 6));
        case 4:
            return gen(d - 1) % Expr(r(1, 6));
        case 5:
            return max(gen(d - 1), gen(d - 1));
        default:
            return gen(d - 1) * Expr(r(-4, 4)) + Expr(r(-5, 5));
        }
    };
    for (int iter = 0; iter < 500; iter++) {
        Expr e = gen(r(1, 4));
        MR m = modulus_remainder(e, scope);
        for (int k = -8; k <= 8; k++) {
            for (int j = -8; j <= 8; j++) {
                ExprEval ev;
                ev.bind("x", ExprEval::scalar_int(Int(32), 4 * k + 1));
                ev.bind("y", ExprEval::scalar_int(Int(32), 6 * j + 3));
                int64_t v = ev.eval(e).as_int();
                if (ev.int32_overflow) continue;
                ASSERT_TRUE(satisfies(m, v)) << e << " is " << m << " but is " << v
                                             << " at x = " << 4 * k + 1 << ", y = " << 6 * j + 3;
            }
        }
    }
}

} // namespace
