// Statement simplification: dead loops and branches, facts from loops and conditions, lets,
// asserts, blocks; plus a randomized check of loop nests run by a small interpreter.

#include "common/expr_eval.h"

#include "ir/ir_equality.h"
#include "ir/ir_printer.h"
#include "ir/ir_utils.h"
#include "simplify/simplify.h"

#include <loom/ir_operator.h>

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <vector>

using namespace loom;
using namespace loom::internal;
using loom::test::ExprEval;
using loom::test::Value;

namespace {

Expr var(const std::string &name, Type t = Int(32)) { return Variable::make(t, name); }

Stmt store(const Expr &value, const Expr &index) {
    return Store::make("buf", value, index, Parameter(), const_true());
}

Stmt loop(const std::string &name, const Expr &mn, const Expr &ext, const Stmt &body) {
    return For::make(name, mn, ext, ForType::Serial, DeviceAPI::None, body);
}

#define EXPECT_STMT_SIMPLIFIES(in, expected)                                                       \
    do {                                                                                           \
        Stmt in_ = (in), ex_ = (expected);                                                         \
        Stmt out_ = simplify(in_);                                                                 \
        EXPECT_TRUE(equal(out_, ex_)) << "simplify of\n"                                           \
                                      << in_ << "gave\n"                                           \
                                      << out_ << "expected\n"                                      \
                                      << ex_;                                                      \
    } while (0)

const Expr x = var("x"), i = var("i"), j = var("j"), n = var("n");

TEST(SimplifyStmt, DeadLoops) {
    Stmt body = store(i, i);
    EXPECT_TRUE(is_no_op(simplify(loop("i", 0, 0, body))));
    EXPECT_TRUE(is_no_op(simplify(loop("i", 0, -3, body))));
    EXPECT_TRUE(is_no_op(simplify(loop("i", 0, min(n, 0), body))));
    // One iteration: the loop variable is the min.
    EXPECT_STMT_SIMPLIFIES(loop("i", x, 1, store(i * 2, i)), store(x * 2, x));
    // A loop whose body does nothing is removed.
    EXPECT_TRUE(is_no_op(simplify(loop("i", 0, n, Evaluate::make(i + 1)))));
}

TEST(SimplifyStmt, Branches) {
    Stmt a = store(Expr(1), x), b = store(Expr(2), x);
    EXPECT_STMT_SIMPLIFIES(IfThenElse::make(const_true(), a, b), a);
    EXPECT_STMT_SIMPLIFIES(IfThenElse::make(const_false(), a, b), b);
    EXPECT_TRUE(is_no_op(simplify(IfThenElse::make(const_false(), a))));
    EXPECT_STMT_SIMPLIFIES(IfThenElse::make(Expr(3) < Expr(4), a), a);
    // The branch knows its condition.
    EXPECT_STMT_SIMPLIFIES(IfThenElse::make(x < 10, IfThenElse::make(x < 20, a, b)),
                           IfThenElse::make(x < 10, a));
    EXPECT_STMT_SIMPLIFIES(IfThenElse::make(x < 10, a, IfThenElse::make(x < 5, a, b)),
                           IfThenElse::make(x < 10, a, b));
    EXPECT_STMT_SIMPLIFIES(IfThenElse::make(x < 10, store(min(x, 10), x)),
                           IfThenElse::make(x < 10, store(x, x)));
    EXPECT_STMT_SIMPLIFIES(IfThenElse::make(x < 10, a, a), a);
    // An empty then-branch becomes the negated condition.
    EXPECT_STMT_SIMPLIFIES(IfThenElse::make(x < 10, Evaluate::make(0), a),
                           IfThenElse::make(10 <= x, a));
}

TEST(SimplifyStmt, LoopFacts) {
    // 0 <= i < 10 inside the loop.
    Stmt s = loop("i", 0, 10, IfThenElse::make(i < 10, store(i, i), store(-i, i)));
    EXPECT_STMT_SIMPLIFIES(s, loop("i", 0, 10, store(i, i)));
    EXPECT_STMT_SIMPLIFIES(loop("i", 0, 10, store(i % 16, i / 10)), loop("i", 0, 10, store(i, 0)));
    // Nested loops with a symbolic min known from the outer loop.
    Stmt nested = loop("j", 0, 4, loop("i", j * 2, 2, store(min(i, 8), i)));
    EXPECT_STMT_SIMPLIFIES(nested, loop("j", 0, 4, loop("i", j * 2, 2, store(i, i))));
    // A symbolic range gives relational facts.
    Stmt sym = loop("i", x, n, IfThenElse::make(i < x + n, store(i, i), store(-i, i)));
    EXPECT_STMT_SIMPLIFIES(sym, loop("i", x, n, store(i, i)));
    // The extent is positive inside the body.
    Stmt pos = loop("i", 0, n, IfThenElse::make(0 < n, store(i, i)));
    EXPECT_STMT_SIMPLIFIES(pos, loop("i", 0, n, store(i, i)));
}

TEST(SimplifyStmt, LetsAssertsBlocks) {
    Expr t = var("t");
    EXPECT_STMT_SIMPLIFIES(LetStmt::make("t", x + 1, store(t, t)), store(x + 1, x + 1));
    EXPECT_STMT_SIMPLIFIES(LetStmt::make("t", x * n, store(x, x)), store(x, x));
    // The loop rebinds x, so t = x + 1 cannot be substituted inside it.
    Stmt captured = LetStmt::make("t", x + 1, loop("x", 0, 3, store(t, x)));
    EXPECT_STMT_SIMPLIFIES(captured, captured);
    Stmt kept = LetStmt::make("t", x * n, store(t, t));
    EXPECT_STMT_SIMPLIFIES(kept, kept);
    Expr msg = Call::make(Int(32), "halide_error_oops", {}, Call::Extern);
    EXPECT_TRUE(is_no_op(simplify(AssertStmt::make(x < x + 1, msg))));
    Stmt failing = AssertStmt::make(const_false(), msg);
    EXPECT_STMT_SIMPLIFIES(failing, failing);
    Stmt a = store(Expr(1), x);
    EXPECT_STMT_SIMPLIFIES(Block::make(Evaluate::make(0), a), a);
    EXPECT_STMT_SIMPLIFIES(Block::make(a, Evaluate::make(3)), a);
    EXPECT_TRUE(is_no_op(simplify(Block::make(Evaluate::make(0), Evaluate::make(x + 1)))));
    // Evaluate of a call with side effects stays.
    Stmt effect = Evaluate::make(msg);
    EXPECT_STMT_SIMPLIFIES(effect, effect);
    EXPECT_TRUE(is_no_op(simplify(ProducerConsumer::make_produce("f", Evaluate::make(0)))));
}

// ---- Randomized loop nests, run by an interpreter ----

struct Machine {
    ExprEval ev;
    std::vector<int64_t> buf = std::vector<int64_t>(16, 0);
    std::vector<int> asserts; ///< ids of failed asserts, in order

    void exec(const Stmt &s) {
        if (const Block *b = s.as<Block>()) {
            exec(b->first);
            exec(b->rest);
        } else if (const For *f = s.as<For>()) {
            int64_t mn = ev.eval(f->min).as_int(), ext = ev.eval(f->extent).as_int();
            for (int64_t k = mn; k < mn + ext; k++) {
                scoped(f->name, ExprEval::scalar_int(Int(32), k), [&] { exec(f->body); });
            }
        } else if (const LetStmt *l = s.as<LetStmt>()) {
            scoped(l->name, ev.eval(l->value), [&] { exec(l->body); });
        } else if (const IfThenElse *c = s.as<IfThenElse>()) {
            if (ev.eval(c->condition).lanes[0].u)
                exec(c->then_case);
            else if (c->else_case.defined())
                exec(c->else_case);
        } else if (const Store *st = s.as<Store>()) {
            int64_t idx = ev.eval(st->index).as_int();
            buf.at((size_t)idx) = ev.eval(st->value).as_int();
        } else if (const AssertStmt *a = s.as<AssertStmt>()) {
            if (!ev.eval(a->condition).lanes[0].u)
                asserts.push_back((int)ev.eval(a->message).as_int());
        } else if (!s.as<Evaluate>()) {
            FAIL() << "unexpected statement";
        }
    }
    void scoped(const std::string &name, const Value &v, const std::function<void()> &f) {
        const Value *old = ev.find(name);
        Value saved;
        bool had = old != nullptr;
        if (had) saved = *old;
        ev.bind(name, v);
        f();
        if (had)
            ev.bind(name, saved);
        else
            ev.unbind(name);
    }
};

class StmtGen {
public:
    explicit StmtGen(uint32_t seed) : rng(seed) {}
    int r(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

    Expr leaf() {
        if (vars.empty() || r(0, 2) == 0) return Expr(r(-6, 12));
        return var(vars[r(0, (int)vars.size() - 1)]);
    }
    Expr expr(int d) {
        if (d == 0) return leaf();
        switch (r(0, 8)) {
        case 0:
            return expr(d - 1) + expr(d - 1);
        case 1:
            return expr(d - 1) - expr(d - 1);
        case 2:
            return expr(d - 1) * Expr(r(-3, 4));
        case 3:
            return expr(d - 1) / Expr(r(1, 5));
        case 4:
            return expr(d - 1) % Expr(r(1, 5));
        case 5:
            return min(expr(d - 1), expr(d - 1));
        case 6:
            return max(expr(d - 1), expr(d - 1));
        case 7:
            return select(cond(d - 1), expr(d - 1), expr(d - 1));
        default:
            return leaf();
        }
    }
    Expr cond(int d) {
        switch (r(0, 5)) {
        case 0:
            return expr(d) < expr(d);
        case 1:
            return expr(d) <= expr(d);
        case 2:
            return expr(d) == expr(d);
        case 3:
            return cond(d > 0 ? d - 1 : 0) && cond(d > 0 ? d - 1 : 0);
        case 4:
            return cond(d > 0 ? d - 1 : 0) || cond(d > 0 ? d - 1 : 0);
        default:
            return !(expr(d) < expr(d));
        }
    }
    Stmt stmt(int d) {
        int k = d == 0 ? 5 : r(0, 6);
        switch (k) {
        case 0:
        case 1: {
            std::string name = "i" + std::to_string(counter++);
            Expr mn = expr(1), ext = r(0, 3) == 0 ? expr(1) : Expr(r(-1, 4));
            vars.push_back(name);
            Stmt body = stmt(d - 1);
            vars.pop_back();
            return loop(name, mn, ext, body);
        }
        case 2:
            return IfThenElse::make(cond(1), stmt(d - 1), r(0, 1) ? stmt(d - 1) : Stmt());
        case 3: {
            std::string name = "t" + std::to_string(counter++);
            Expr v = expr(2);
            vars.push_back(name);
            Stmt body = stmt(d - 1);
            vars.pop_back();
            return LetStmt::make(name, v, body);
        }
        case 4:
            return Block::make(stmt(d - 1), stmt(d - 1));
        case 6:
            return AssertStmt::make(cond(1), Expr(counter++));
        default:
            return store(expr(2), expr(2) % 16);
        }
    }

    std::mt19937 rng;
    std::vector<std::string> vars;
    int counter = 0;
};

TEST(SimplifyStmt, RandomLoopNests) {
    int compared = 0;
    for (uint32_t seed = 1; seed <= 600; seed++) {
        StmtGen g(seed);
        g.vars = {"x", "y"};
        Stmt s = g.stmt(4);
        Stmt simp;
        try {
            simp = simplify(s);
        } catch (const std::exception &e) {
            ADD_FAILURE() << "simplify threw on\n" << s << e.what();
            continue;
        }
        for (int sample = 0; sample < 4; sample++) {
            Machine m1, m2;
            for (Machine *m : {&m1, &m2}) {
                std::mt19937 vr(seed * 31 + sample);
                m->ev.bind("x", ExprEval::scalar_int(
                                    Int(32), std::uniform_int_distribution<int>(-20, 20)(vr)));
                m->ev.bind("y", ExprEval::scalar_int(
                                    Int(32), std::uniform_int_distribution<int>(-20, 20)(vr)));
            }
            m1.exec(s);
            m2.exec(simp);
            compared++;
            EXPECT_TRUE(m1.buf == m2.buf && m1.asserts == m2.asserts) << "statement:\n"
                                                                      << s << "simplified:\n"
                                                                      << simp;
            if (m1.buf != m2.buf) break;
        }
        if (HasFailure()) break;
    }
    EXPECT_EQ(compared, 2400);
}

} // namespace
