// trim_no_ops: loops doing nothing disappear; a loop whose body only acts under an if on the
// loop variable shrinks to the range where it holds (checked by running both versions).
#include "lower/trim_no_ops.h"

#include "lower_test_util.h"

#include <vector>

namespace loom {
namespace test {
namespace {

Stmt store(const std::string &buf, const Expr &value, const Expr &index) {
    return Store::make(buf, value, index, Parameter(), const_true());
}

/// The integer e evaluates to with the variables bound in env.
int64_t evaluate(const std::map<std::string, Expr> &env, const Expr &e) {
    const Expr value = simplify(substitute(env, e));
    return *as_const_int(value);
}

/// Runs the loop nest of serial loops, stores into one array, over free variables `vars`:
/// a tiny interpreter for For / IfThenElse / LetStmt / Store / Block.
void run(const Stmt &s, std::map<std::string, Expr> env, std::vector<int> *mem) {
    if (!s.defined()) return;
    if (const For *f = s.as<For>()) {
        int64_t mn = evaluate(env, f->min);
        int64_t ex = evaluate(env, f->extent);
        for (int64_t i = mn; i < mn + ex; i++) {
            env[f->name] = make_const(Int(32), i);
            run(f->body, env, mem);
        }
    } else if (const IfThenElse *c = s.as<IfThenElse>()) {
        if (is_const_true(simplify(substitute(env, c->condition)))) {
            run(c->then_case, env, mem);
        } else {
            run(c->else_case, env, mem);
        }
    } else if (const LetStmt *l = s.as<LetStmt>()) {
        env[l->name] = simplify(substitute(env, l->value));
        run(l->body, env, mem);
    } else if (const Block *b = s.as<Block>()) {
        run(b->first, env, mem);
        run(b->rest, env, mem);
    } else if (const Store *st = s.as<Store>()) {
        int64_t idx = evaluate(env, st->index);
        (*mem)[idx] += (int)evaluate(env, st->value);
    }
}

TEST(TrimNoOps, LoopGuardedFromBelowIsTrimmed) {
    Expr x = ivar("x");
    Stmt s = For::make("x", 0, 100, ForType::Serial, DeviceAPI::Host,
                       IfThenElse::make(x >= 10, store("f", x, x)));
    Stmt r = trim_no_ops(s);
    const For *f = r.as<For>();
    ASSERT_NE(f, nullptr) << r;
    EXPECT_TRUE(is_const(f->min, 10)) << r;
    EXPECT_TRUE(is_const(f->extent, 90)) << r;
    EXPECT_EQ(f->body.as<IfThenElse>(), nullptr) << r;
    std::vector<int> a(100), b(100);
    run(s, {}, &a);
    run(r, {}, &b);
    EXPECT_EQ(a, b);
}

TEST(TrimNoOps, SymbolicGuardsAndInvariantConditions) {
    Expr x = ivar("x"), n = ivar("n"), k = ivar("k");
    // for (x, 0, 32) { if (x < n && k > 0 && 4 <= x) f[x] += x }
    Stmt s = For::make("x", 0, 32, ForType::Serial, DeviceAPI::Host,
                       IfThenElse::make(x < n && k > 0 && 4 <= x, store("f", x, x)));
    Stmt r = trim_no_ops(s);
    EXPECT_EQ(text(r).find("if ((x"), std::string::npos) << r;
    for (int nv : {-5, 0, 3, 4, 17, 32, 50})
        for (int kv : {0, 1}) {
            std::map<std::string, Expr> env{{"n", make_const(Int(32), nv)},
                                            {"k", make_const(Int(32), kv)}};
            std::vector<int> a(32), b(32);
            run(s, env, &a);
            run(r, env, &b);
            EXPECT_EQ(a, b) << "n = " << nv << ", k = " << kv << "\n" << r;
        }
}

TEST(TrimNoOps, EmptyLoopsAreRemoved) {
    Expr x = ivar("x");
    Stmt s = Block::make(For::make("x", 0, 100, ForType::Serial, DeviceAPI::Host,
                                   LetStmt::make("y", x * 2, Evaluate::make(ivar("y")))),
                         store("f", 1, 0));
    Stmt r = trim_no_ops(s);
    EXPECT_EQ(text(r).find("for"), std::string::npos) << r;
    EXPECT_NE(text(r).find("f[0]"), std::string::npos) << r;
}

TEST(TrimNoOps, UnsolvableConditionsLeaveTheLoop) {
    Expr x = ivar("x");
    Stmt s = For::make("x", 0, 100, ForType::Serial, DeviceAPI::Host,
                       IfThenElse::make(x % 3 == 0, store("f", x, x)));
    Stmt r = trim_no_ops(s);
    std::vector<int> a(100), b(100);
    run(s, {}, &a);
    run(r, {}, &b);
    EXPECT_EQ(a, b);
}

} // namespace
} // namespace test
} // namespace loom
