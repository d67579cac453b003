// inject_early_frees: a Free right after the last statement that uses a heap buffer, never
// inside a loop that uses it, none when the last use ends the scope, none for the stack.
#include "lower/inject_early_frees.h"

#include "lower_test_util.h"

namespace loom {
namespace test {
namespace {

Stmt store(const std::string &buf, const Expr &value, const Expr &index) {
    return Store::make(buf, value, index, Parameter(), const_true());
}

Expr load(const std::string &buf, const Expr &index) {
    return Load::make(Int(32), buf, index, const_true());
}

Stmt loop(const std::string &v, Stmt body) {
    return For::make(v, 0, 8, ForType::Serial, DeviceAPI::Host, std::move(body));
}

TEST(InjectEarlyFrees, FreedAfterTheLoopOfItsLastUse) {
    Expr x = ivar("x");
    // allocate a; a[x] = x; out[x] = a[x]; out2[x] = x (a no longer used)
    Stmt body = Block::make({loop("x", store("a", x, x)), loop("x", store("out", load("a", x), x)),
                             loop("x", store("out2", x, x))});
    Stmt s = Allocate::make("a", Int(32), MemoryType::Heap, {8}, const_true(), body);
    std::string t = text(inject_early_frees(s));
    size_t free_at = t.find("free a"), reader = t.find("out["), after = t.find("out2[");
    ASSERT_NE(free_at, std::string::npos) << t;
    EXPECT_LT(reader, free_at) << t;
    EXPECT_LT(free_at, after) << t;
    // Not inside the loop: the free is at the indentation of the loops.
    EXPECT_NE(t.find("}\nfree a\n"), std::string::npos) << t;
}

TEST(InjectEarlyFrees, ThroughLetsAndProducerConsumer) {
    Expr x = ivar("x");
    Stmt consume = ProducerConsumer::make_consume(
        "a", Block::make(loop("x", store("out", load("a", x), x)), loop("x", store("o2", x, x))));
    Stmt body = Block::make(ProducerConsumer::make_produce("a", loop("x", store("a", x, x))),
                            LetStmt::make("k", 3, consume));
    Stmt s = Allocate::make("a", Int(32), MemoryType::Heap, {8}, const_true(), body);
    std::string t = text(inject_early_frees(s));
    size_t free_at = t.find("free a");
    ASSERT_NE(free_at, std::string::npos) << t;
    EXPECT_LT(t.find("out["), free_at) << t;
    EXPECT_LT(free_at, t.find("o2[")) << t;
}

TEST(InjectEarlyFrees, NoneWhenTheLastUseEndsTheScopeOrOnTheStack) {
    Expr x = ivar("x");
    Stmt body = Block::make(loop("x", store("a", x, x)), loop("x", store("out", load("a", x), x)));
    Stmt heap = Allocate::make("a", Int(32), MemoryType::Heap, {8}, const_true(), body);
    EXPECT_EQ(text(inject_early_frees(heap)).find("free"), std::string::npos);
    Stmt later = Block::make(body, loop("x", store("o2", x, x)));
    Stmt stack = Allocate::make("a", Int(32), MemoryType::Stack, {8}, const_true(), later);
    EXPECT_EQ(text(inject_early_frees(stack)).find("free"), std::string::npos);
}

TEST(InjectEarlyFrees, BufferFieldsCountAsUses) {
    // An extern stage gets the buffer through "a.buffer": that is a use.
    Expr x = ivar("x");
    Stmt pass = Evaluate::make(
        Call::make(Int(32), "extern_stage", {Variable::make(Handle(), "a.buffer")}, Call::Extern));
    Stmt body = Block::make({loop("x", store("a", x, x)), pass, loop("x", store("o2", x, x))});
    Stmt s = Allocate::make("a", Int(32), MemoryType::Heap, {8}, const_true(), body);
    std::string t = text(inject_early_frees(s));
    size_t free_at = t.find("free a");
    ASSERT_NE(free_at, std::string::npos) << t;
    EXPECT_LT(t.find("extern_stage"), free_at) << t;
    EXPECT_LT(free_at, t.find("o2[")) << t;
}

} // namespace
} // namespace test
} // namespace loom
