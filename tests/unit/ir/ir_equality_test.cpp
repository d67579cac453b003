// Structural equality, ordering and hashing: equal trees built separately compare and hash
// equal; any difference in kind, type, name, constant or child makes them differ.

#include "ir/ir.h"
#include "ir/ir_equality.h"
#include "ir/ir_printer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <unordered_set>

using namespace loom;
using namespace loom::internal;

namespace {

Expr var(const std::string &n, Type t = Int(32)) { return Variable::make(t, n); }

/// One builder per node kind, parameterised by a variant number: equal variants build equal
/// trees, and different variants differ in one field.
std::vector<std::function<Expr(int)>> expr_builders() {
    auto x = [](int v) { return var(v == 1 ? "y" : "x"); };
    return {
        [](int v) { return Expr(v == 1 ? 4 : 3); },
        [](int v) { return make_const(UInt(v == 1 ? 16 : 8), (uint64_t)3); },
        [](int v) { return Expr(v == 1 ? 2.5f : 1.5f); },
        [](int v) { return Expr(std::string(v == 1 ? "b" : "a")); },
        [=](int v) { return Cast::make(v == 1 ? Int(16) : UInt(8), x(0)); },
        [=](int v) { return Reinterpret::make(UInt(32), x(v)); },
        [=](int v) { return x(v); },
        [=](int v) { return Add::make(x(v), 1); },
        [=](int v) { return Sub::make(x(0), v == 1 ? 2 : 1); },
        [=](int v) { return Mul::make(x(v), x(0)); },
        [=](int v) { return Div::make(x(v), 2); },
        [=](int v) { return Mod::make(x(v), 2); },
        [=](int v) { return Min::make(x(v), 2); },
        [=](int v) { return Max::make(x(v), 2); },
        [=](int v) { return EQ::make(x(v), 2); },
        [=](int v) { return NE::make(x(v), 2); },
        [=](int v) { return LT::make(x(v), 2); },
        [=](int v) { return LE::make(x(v), 2); },
        [=](int v) { return GT::make(x(v), 2); },
        [=](int v) { return GE::make(x(v), 2); },
        [=](int v) { return And::make(var(v ? "q" : "p", Bool()), var("p", Bool())); },
        [=](int v) { return Or::make(var(v ? "q" : "p", Bool()), var("p", Bool())); },
        [=](int v) { return Not::make(var(v ? "q" : "p", Bool())); },
        [=](int v) { return Select::make(var("p", Bool()), x(v), x(0)); },
        [=](int v) { return Load::make(Int(32), v ? "g" : "f", x(0), const_true()); },
        [=](int v) {
            return Load::make(Int(32), "f", x(0), const_true(), Parameter(),
                              ModulusRemainder(v ? 4 : 1, 0));
        },
        [=](int v) { return Ramp::make(x(0), 1, v ? 8 : 4); },
        [=](int v) { return Broadcast::make(x(v), 4); },
        [=](int v) { return Let::make(v ? "u" : "t", x(0), x(0)); },
        [=](int v) { return Call::make(Int(32), "f", {x(v)}, Call::PureExtern); },
        [=](int v) {
            return Call::make(Int(32), "f", {x(0)}, v ? Call::Extern : Call::PureExtern);
        },
        [=](int v) { return Call::make(Int(32), "f", {x(0)}, Call::Image, nullptr, v); },
        [=](int v) {
            Expr a = var("a", Int(32, 4));
            return Shuffle::make({a}, {v ? 1 : 0, 2});
        },
        [=](int v) {
            return VectorReduce::make(v ? VectorReduce::Max : VectorReduce::Add,
                                      var("a", Int(32, 4)), 1);
        },
    };
}

std::vector<std::function<Stmt(int)>> stmt_builders() {
    auto x = [](int v) { return var(v == 1 ? "y" : "x"); };
    auto leaf = [=](int v) { return Evaluate::make(x(v)); };
    return {
        [=](int v) { return LetStmt::make("t", x(v), leaf(0)); },
        [=](int v) { return AssertStmt::make(LT::make(x(v), 3), Expr(std::string("m"))); },
        [=](int v) { return ProducerConsumer::make("f", v == 0, leaf(0)); },
        [=](int v) {
            return For::make("x", 0, 10, v ? ForType::Parallel : ForType::Serial, DeviceAPI::None,
                             leaf(0));
        },
        [=](int v) {
            return For::make("x", 0, v ? 11 : 10, ForType::Serial, DeviceAPI::None, leaf(0));
        },
        [=](int v) { return Store::make("f", x(v), x(0), Parameter(), const_true()); },
        [=](int v) { return Provide::make("f", {x(0)}, {x(v)}, const_true()); },
        [=](int v) {
            return Allocate::make("f", v ? Int(16) : Int(32), MemoryType::Auto, {Expr(4)},
                                  const_true(), leaf(0));
        },
        [=](int v) { return Free::make(v ? "g" : "f"); },
        [=](int v) {
            return Realize::make("f", {Int(32)}, MemoryType::Auto, {Range(0, v ? 5 : 4)},
                                 const_true(), leaf(0));
        },
        [=](int v) { return Block::make(leaf(v), leaf(0)); },
        [=](int v) { return IfThenElse::make(var("p", Bool()), leaf(0), v ? Stmt() : leaf(1)); },
        [=](int v) { return leaf(v); },
        [=](int v) { return Atomic::make("f", v ? "m" : "", leaf(0)); },
    };
}

} // namespace

TEST(IREquality, EveryExprKind) {
    auto builders = expr_builders();
    for (size_t i = 0; i < builders.size(); i++) {
        Expr a = builders[i](0), b = builders[i](0), c = builders[i](1);
        EXPECT_FALSE(a.same_as(b));
        EXPECT_TRUE(equal(a, b)) << a;
        EXPECT_EQ(hash_expr(a), hash_expr(b)) << a;
        EXPECT_EQ(deep_compare(a, b), 0) << a;
        EXPECT_FALSE(equal(a, c)) << a << " vs " << c;
        EXPECT_NE(hash_expr(a), hash_expr(c)) << a << " vs " << c;
        int ac = deep_compare(a, c), ca = deep_compare(c, a);
        EXPECT_NE(ac, 0);
        EXPECT_EQ(ac<0, ca> 0);
    }
    // Different kinds differ from each other.
    for (size_t i = 0; i < builders.size(); i++) {
        for (size_t j = 0; j < builders.size(); j++) {
            Expr a = builders[i](0), b = builders[j](0);
            if (a.node_type() != b.node_type()) {
                EXPECT_FALSE(equal(a, b)) << a << " vs " << b;
            }
        }
    }
}

TEST(IREquality, EveryStmtKind) {
    auto builders = stmt_builders();
    for (size_t i = 0; i < builders.size(); i++) {
        Stmt a = builders[i](0), b = builders[i](0), c = builders[i](1);
        EXPECT_TRUE(equal(a, b)) << a;
        EXPECT_EQ(hash_stmt(a), hash_stmt(b)) << a;
        EXPECT_FALSE(equal(a, c)) << a << "vs\n" << c;
        EXPECT_NE(hash_stmt(a), hash_stmt(c)) << a << "vs\n" << c;
        EXPECT_NE(deep_compare(a, c), 0);
    }
}

TEST(IREquality, TypesAndConstants) {
    EXPECT_FALSE(equal(Expr(1), Expr((int64_t)1)));
    EXPECT_FALSE(equal(var("x", Int(32)), var("x", Int(16))));
    EXPECT_TRUE(equal(Expr(), Expr()));
    EXPECT_FALSE(equal(Expr(), Expr(1)));
    EXPECT_LT(deep_compare(Expr(), Expr(1)), 0);
    // Floats compare by bits: NaN equals NaN, 0 and -0 differ.
    EXPECT_TRUE(equal(Expr(NAN), Expr(NAN)));
    EXPECT_FALSE(equal(Expr(0.0f), Expr(-0.0f)));
}

TEST(IREquality, OrderingForMaps) {
    std::map<Expr, int, IRDeepCompare> m;
    Expr x = var("x");
    m[Add::make(x, 1)] = 1;
    m[Add::make(x, 2)] = 2;
    m[Add::make(var("x"), 1)] = 3; // same key as the first
    EXPECT_EQ(m.size(), 2u);
    EXPECT_EQ(m[Add::make(x, 1)], 3);
    // A strict weak order over a mixed set: irreflexive and antisymmetric, transitive.
    std::vector<Expr> es;
    for (auto &b : expr_builders()) {
        es.push_back(b(0));
        es.push_back(b(1));
    }
    IRDeepCompare lt;
    for (const Expr &a : es) {
        EXPECT_FALSE(lt(a, a));
        for (const Expr &b : es) {
            // Exactly one of a < b, b < a, equal(a, b).
            EXPECT_EQ((int)lt(a, b) + (int)lt(b, a) + (int)equal(a, b), 1) << a << " vs " << b;
            for (const Expr &c : es) {
                if (lt(a, b) && lt(b, c)) {
                    EXPECT_TRUE(lt(a, c));
                }
            }
        }
    }
    // Hash-based sets agree with the structural order on the number of distinct trees.
    std::set<Expr, IRDeepCompare> ordered(es.begin(), es.end());
    std::unordered_set<Expr, IRDeepHash, IRDeepEqual> hashed(es.begin(), es.end());
    hashed.insert(Add::make(var("x"), 1)); // already present
    EXPECT_EQ(hashed.size(), ordered.size());
    EXPECT_LT(ordered.size(), es.size()); // some builders share their variant-0 tree
}

TEST(IREquality, SharedDAGsStayLinear) {
    // 2^60 paths through each DAG: only memoisation of shared nodes makes this finish.
    auto build = [](const std::string &leaf) {
        Expr e = var(leaf);
        for (int i = 0; i < 60; i++) e = Add::make(e, e);
        return e;
    };
    Expr a = build("x"), b = build("x"), c = build("y");
    auto start = std::chrono::steady_clock::now();
    EXPECT_TRUE(equal(a, b));
    EXPECT_FALSE(equal(a, c));
    EXPECT_EQ(hash_expr(a), hash_expr(b));
    EXPECT_NE(hash_expr(a), hash_expr(c));
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(secs, 1.0);
}
