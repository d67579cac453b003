// inject_memoization (Func::memoize): the produce of a memoized Func is wrapped in a lookup in
// the runtime's cache and, on a miss, computed and stored. Checked on a realization built by
// hand (IR before -> IR expected: the key of the name's hash, the realized bounds and the
// scalar Params read; the buffer over the Func's storage; lookup, then produce + store on a
// miss), the key reaching Params through called Funcs, the eviction key, Tuple-valued Funcs,
// pipelines without memoized Funcs left unchanged, and the CompileErrors (a memoized output, a
// memoized Func not computed at the root).
#include "lower_test_util.h"

#include "lower/memoization.h"

using namespace loom;
using namespace loom::test;

namespace {

Expr u64(const Expr &e) { return Cast::make(UInt(64), e); }
Expr null_handle() { return Reinterpret::make(Handle(), make_zero(UInt(64))); }
Expr make_struct(const std::vector<Expr> &fields, Type t = Handle()) {
    return Call::make(t, Call::make_struct, fields, Call::Intrinsic);
}
Expr handle(const std::string &n) { return Variable::make(Handle(), n); }

/// FNV-1a of the name: the hash the pass puts first in the key.
uint64_t fnv1a(const std::string &s) {
    uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
    return h;
}

/// The halide_buffer_t of a dense 1-D Int(32) buffer over `host`, [min, min + extent).
Expr buffer_1d(const std::string &host, const Expr &min, const Expr &extent) {
    Expr dim = make_struct({min, extent, Expr(1), make_zero(UInt(32))});
    return make_struct({make_zero(UInt(64)), null_handle(), handle(host), make_zero(UInt(64)),
                        make_const(UInt(8), (int64_t)Int(32).code()), make_const(UInt(8), 32),
                        make_const(UInt(16), 1), Expr(1), dim, null_handle()});
}

/// realize f(bounds) { produce f { for f.s0.x { f(x) = value } } consume f { out(0) = f(0) } }
Stmt realize_1d(const Function &f, const Expr &min, const Expr &extent, const Stmt &produce) {
    Stmt consume = Provide::make("out", {f.make_call({Expr(0)})}, {Expr(0)}, const_true());
    return Realize::make(f.name(), f.output_types(), MemoryType::Auto, {Range(min, extent)},
                         const_true(),
                         Block::make(produce, ProducerConsumer::make_consume(f.name(), consume)));
}

Stmt produce_1d(const Function &f) {
    Expr x = ivar(f.name() + ".s0.x");
    return ProducerConsumer::make_produce(
        f.name(), For::make(f.name() + ".s0.x", ivar(f.name() + ".s0.x.min"), 10, ForType::Serial,
                            DeviceAPI::None, Provide::make(f.name(), {x * 2}, {x}, const_true())));
}

Function memoized(const std::string &name, const std::vector<Expr> &values) {
    Function f = make_func(name, {"x"}, values);
    f.schedule().compute_level = LoopLevelSpec::root();
    f.schedule().memoized = true;
    return f;
}

/// The Call named `name` in s (null when none).
const Call *find_call(const Stmt &s, const std::string &name) {
    const Call *found = nullptr;
    visit_exprs(s, [&](const Expr &e) {
        const Call *c = e.as<Call>();
        if (c && c->name == name && !found) found = c;
        return !found;
    });
    return found;
}

/// The value of the LetStmt `name` in s.
Expr let_value(const Stmt &s, const std::string &name) {
    auto lets = let_bindings(s);
    auto it = lets.find(name);
    return it == lets.end() ? Expr() : it->second;
}

} // namespace

TEST(Memoization, ProduceIsWrappedInCacheLookupAndStore) {
    Parameter kp(Int(32), false, 0, "k");
    Expr k = Variable::make(Int(32), "k", kp);
    Function f = memoized("mz_f", {ivar("x") * k});
    Function out = make_func("out", {"x"}, {f.make_call({ivar("x")})});
    std::map<std::string, Function> env{{"mz_f", f}, {"out", out}};
    Expr mn = ivar("mz_f.x.min_realized"), ext = ivar("mz_f.x.extent_realized");
    Stmt produce = produce_1d(f);
    Stmt after = inject_memoization(realize_1d(f, mn, ext, produce), {out}, env);

    const std::string p = "mz_f.memoize.";
    Expr key = handle(p + "key"), buf = handle(p + "buffer.0"), bufs = handle(p + "buffers");
    // 4 fields of 8 bytes: the name's hash, the min and extent realized, the Param k.
    Expr size = Expr(32);
    Expr lookup = Call::make(Int(32), "halide_memoization_cache_lookup",
                             {null_handle(), key, size, buf, Expr(1), bufs}, Call::Extern);
    Expr store = Call::make(
        Int(32), "halide_memoization_cache_store",
        {null_handle(), key, size, buf, Expr(1), bufs, make_bool(false), make_zero(UInt(64))},
        Call::Extern);
    Stmt body =
        IfThenElse::make(ivar(p + "miss") != 0, Block::make(produce, Evaluate::make(store)));
    body = LetStmt::make(p + "miss", lookup, body);
    body = LetStmt::make(p + "buffers", make_struct({buf}), body);
    body = LetStmt::make(p + "buffer.0", buffer_1d("mz_f", mn, ext), body);
    body = LetStmt::make(
        p + "key", make_struct({make_const(UInt(64), fnv1a("mz_f")), u64(mn), u64(ext), u64(k)}),
        body);
    EXPECT_IR_EQ(after, realize_1d(f, mn, ext, body));
}

TEST(Memoization, NothingMemoizedIsUnchanged) {
    Function f = make_func("mz_plain", {"x"}, {ivar("x")});
    f.schedule().compute_level = LoopLevelSpec::root();
    Function out = make_func("out", {"x"}, {f.make_call({ivar("x")})});
    Stmt before = realize_1d(f, 0, 10, produce_1d(f));
    EXPECT_TRUE(inject_memoization(before, {out}, {{"mz_plain", f}, {"out", out}}).same_as(before));
}

TEST(Memoization, KeyHoldsParamsReadThroughCalledFuncs) {
    // f(x) = g(x) with g(x) = x + p: p changes f's values, so it is part of f's key.
    Parameter pp(Int(16), false, 0, "p");
    Expr p = Variable::make(Int(16), "p", pp);
    Function g = make_func("mz_g", {"x"}, {ivar("x") + Cast::make(Int(32), p)});
    Function f = memoized("mz_h", {g.make_call({ivar("x")})});
    Function out = make_func("out", {"x"}, {f.make_call({ivar("x")})});
    Stmt after = inject_memoization(realize_1d(f, 0, 10, produce_1d(f)), {out},
                                    {{"mz_h", f}, {"mz_g", g}, {"out", out}});
    EXPECT_IR_EQ(let_value(after, "mz_h.memoize.key"),
                 make_struct({make_const(UInt(64), fnv1a("mz_h")), u64(0), u64(10), u64(p)}));
    const Call *lookup = find_call(after, "halide_memoization_cache_lookup");
    ASSERT_TRUE(lookup) << after;
    EXPECT_IR_EQ(lookup->args[2], Expr(32));
}

TEST(Memoization, EvictionKeyIsStoredWithTheEntry) {
    Function f = memoized("mz_ev", {ivar("x")});
    f.schedule().memoize_eviction_key = ivar("generation");
    Function out = make_func("out", {"x"}, {f.make_call({ivar("x")})});
    Stmt after = inject_memoization(realize_1d(f, 0, 10, produce_1d(f)), {out},
                                    {{"mz_ev", f}, {"out", out}});
    const Call *store = find_call(after, "halide_memoization_cache_store");
    ASSERT_TRUE(store) << after;
    ASSERT_EQ(store->args.size(), 8u);
    EXPECT_IR_EQ(store->args[6], make_bool(true));
    EXPECT_IR_EQ(store->args[7], u64(ivar("generation")));
}

TEST(Memoization, TupleFuncCachesEveryElement) {
    // f(x) = {x, x * 2}: one buffer per element (storage "f.0", "f.1"), both in the lookup.
    Function f = memoized("mz_t", {ivar("x"), ivar("x") * 2});
    Function out = make_func("out", {"x"}, {f.make_call({ivar("x")}, 1)});
    Stmt after =
        inject_memoization(realize_1d(f, 0, 10, produce_1d(f)), {out}, {{"mz_t", f}, {"out", out}});
    EXPECT_IR_EQ(let_value(after, "mz_t.memoize.buffer.0"), buffer_1d("mz_t.0", 0, 10));
    EXPECT_IR_EQ(let_value(after, "mz_t.memoize.buffer.1"), buffer_1d("mz_t.1", 0, 10));
    EXPECT_IR_EQ(let_value(after, "mz_t.memoize.buffers"),
                 make_struct({handle("mz_t.memoize.buffer.0"), handle("mz_t.memoize.buffer.1")}));
    const Call *lookup = find_call(after, "halide_memoization_cache_lookup");
    ASSERT_TRUE(lookup) << after;
    EXPECT_IR_EQ(lookup->args[4], Expr(2));
}

TEST(Memoization, MemoizedOutputIsACompileError) {
    Function out = memoized("mz_out", {ivar("x")});
    try {
        inject_memoization(realize_1d(out, 0, 10, produce_1d(out)), {out}, {{"mz_out", out}});
        FAIL() << "expected a CompileError";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("mz_out is memoized but is an output"),
                  std::string::npos)
            << e.what();
    }
}

TEST(Memoization, MemoizedFuncNotAtTheRootIsACompileError) {
    Function f = memoized("mz_at", {ivar("x")});
    f.schedule().compute_level = loop_level("out", "x");
    Function out = make_func("out", {"x"}, {f.make_call({ivar("x")})});
    try {
        inject_memoization(realize_1d(f, 0, 10, produce_1d(f)), {out},
                           {{"mz_at", f}, {"out", out}});
        FAIL() << "expected a CompileError";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("needs mz_at.compute_root()"), std::string::npos)
            << e.what();
    }
}
