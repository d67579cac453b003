// optimize_loads_stores: a load repeated by a later statement reads a let (rewrite 1), a load
// of what a store just wrote reads the stored value (rewrite 2), and loads that the next
// iteration of an innermost loop repeats pass through a Register buffer (rewrite 3); and each
// of the cases where that would be wrong or unclear is left alone.
#include "lower/optimize_loads_stores.h"

#include "lower_test_util.h"

namespace loom {
namespace test {
namespace {

Stmt store(const std::string &buf, const Expr &value, const Expr &index) {
    return Store::make(buf, value, index, Parameter(), const_true(index.type().lanes()));
}
Expr load(const std::string &buf, const Expr &index, Type t = Int(32)) {
    int lanes = index.type().lanes();
    return Load::make(t.with_lanes(lanes), buf, index, const_true(lanes));
}
Stmt serial(const std::string &n, const Expr &mn, const Expr &ext, const Stmt &body) {
    return For::make(n, mn, ext, ForType::Serial, DeviceAPI::Host, body);
}
Expr handle(const std::string &n) { return Variable::make(Handle(), n); }
Expr extern_call(const std::string &n, const std::vector<Expr> &args = {}) {
    return Call::make(Int(32), n, args, Call::Extern);
}

// ---- Rewrite 1: duplicate loads across statements ----

TEST(OptimizeLoadsStores, DuplicateLoadAcrossStatementsIsLoadedOnce) {
    Expr x = ivar("x"), t = ivar("lso.t0");
    // f[x] = in[x] + 1; g[x] = in[x] * 2
    Stmt s = Block::make(store("f", load("in", x) + 1, x), store("g", load("in", x) * 2, x));
    Stmt expected = LetStmt::make("lso.t0", load("in", x),
                                  Block::make(store("f", t + 1, x), store("g", t * 2, x)));
    EXPECT_IR_EQ(optimize_loads_stores(s), expected);
}

TEST(OptimizeLoadsStores, DuplicateLoadsInTupleLets) {
    Expr x = ivar("x"), a = ivar("a"), b = ivar("b"), t = ivar("lso.t0");
    // A Tuple's values: let a = in[x] + 1; let b = in[x] * 2; f.0[x] = a; f.1[x] = b
    Stmt stores = Block::make(store("f.0", a, x), store("f.1", b, x));
    Stmt s = LetStmt::make("a", load("in", x) + 1, LetStmt::make("b", load("in", x) * 2, stores));
    Stmt expected = LetStmt::make("lso.t0", load("in", x),
                                  LetStmt::make("a", t + 1, LetStmt::make("b", t * 2, stores)));
    EXPECT_IR_EQ(optimize_loads_stores(s), expected);
}

TEST(OptimizeLoadsStores, ReuseThroughProduceConsumeAndAllocate) {
    Expr x = ivar("x"), t0 = ivar("lso.t0"), t1 = ivar("lso.t1");
    // g computed at f's x: allocate g { produce g { g[0] = in[x] * 3 } consume g { f[x] = g[0] +
    // in[x] } }: both the load of in and the store to g pass through lets.
    auto nest = [&](const Expr &gv, const Expr &use_g, const Expr &use_in) {
        return Block::make(ProducerConsumer::make_produce("g", store("g", gv, 0)),
                           ProducerConsumer::make_consume("g", store("f", use_g + use_in, x)));
    };
    Stmt s = Allocate::make("g", Int(32), MemoryType::Stack, {1}, const_true(),
                            nest(load("in", x) * 3, load("g", 0), load("in", x)));
    Stmt expected = Allocate::make(
        "g", Int(32), MemoryType::Stack, {1}, const_true(),
        LetStmt::make("lso.t0", load("in", x), LetStmt::make("lso.t1", t0 * 3, nest(t1, t1, t0))));
    EXPECT_IR_EQ(optimize_loads_stores(s), expected);
}

TEST(OptimizeLoadsStores, StoreThatMayHitTheElementEndsTheValue) {
    Expr x = ivar("x"), k = ivar("k");
    // f[x] = in[x]; in[k] = 3; g[x] = in[x]: k may be x.
    Stmt s = Block::make(
        {store("f", load("in", x), x), store("in", 3, k), store("g", load("in", x), x)});
    EXPECT_IR_EQ(optimize_loads_stores(s), s);
    // A store to another element (x + 1) leaves it (and its own value is forwarded: none
    // reads it here).
    Expr t = ivar("lso.t0");
    Stmt s2 = Block::make(
        {store("f", load("in", x), x), store("in", 3, x + 1), store("g", load("in", x), x)});
    Stmt expected =
        LetStmt::make("lso.t0", load("in", x),
                      Block::make({store("f", t, x), store("in", 3, x + 1), store("g", t, x)}));
    EXPECT_IR_EQ(optimize_loads_stores(s2), expected);
}

TEST(OptimizeLoadsStores, ValueIsBoundAfterEarlierWrites) {
    Expr x = ivar("x"), k = ivar("k"), t = ivar("lso.t0");
    // in[k] = 1; f[x] = in[x]; g[x] = in[x]: the let goes after the store to in.
    Stmt s = Block::make(
        {store("in", 1, k), store("f", load("in", x), x), store("g", load("in", x), x)});
    Stmt expected = Block::make(
        store("in", 1, k),
        LetStmt::make("lso.t0", load("in", x), Block::make(store("f", t, x), store("g", t, x))));
    EXPECT_IR_EQ(optimize_loads_stores(s), expected);
}

TEST(OptimizeLoadsStores, ConditionalLoadIsNoSourceButMayReuse) {
    Expr x = ivar("x"), c = Variable::make(Bool(), "c"), t = ivar("lso.t0");
    // Loaded only under an if, or in a select's branch: not loaded ahead of the if.
    Stmt s1 = Block::make(IfThenElse::make(c, store("f", load("in", x), x)),
                          store("g", load("in", x), x));
    EXPECT_IR_EQ(optimize_loads_stores(s1), s1);
    Stmt s2 = Block::make(store("f", select(c, load("in", x), 0), x), store("g", load("in", x), x));
    EXPECT_IR_EQ(optimize_loads_stores(s2), s2);
    // Loaded unconditionally first: the select's branch reads the value.
    Stmt s3 = Block::make(store("g", load("in", x), x), store("f", select(c, load("in", x), 0), x));
    Stmt expected = LetStmt::make("lso.t0", load("in", x),
                                  Block::make(store("g", t, x), store("f", select(c, t, 0), x)));
    EXPECT_IR_EQ(optimize_loads_stores(s3), expected);
}

TEST(OptimizeLoadsStores, PredicatedLoadsAndStoresAreLeftAlone) {
    Expr x = ivar("x"), p = Variable::make(Bool(), "p");
    Expr pload = Load::make(Int(32), "in", x, p);
    Stmt s1 = Block::make(store("f", pload, x), store("g", pload, x));
    EXPECT_IR_EQ(optimize_loads_stores(s1), s1);
    Stmt pstore = Store::make("f", 7, x, Parameter(), p);
    Stmt s2 = Block::make(pstore, store("g", load("f", x), x));
    EXPECT_IR_EQ(optimize_loads_stores(s2), s2);
}

TEST(OptimizeLoadsStores, ImpureCallsEscapesAndAssertionsBlockReuse) {
    Expr x = ivar("x");
    // A call with side effects may write anything.
    Stmt s1 = Block::make({store("f", load("in", x), x), Evaluate::make(extern_call("touch")),
                           store("g", load("in", x), x)});
    EXPECT_IR_EQ(optimize_loads_stores(s1), s1);
    // in's address passed on (to an extern stage): it may be written through it.
    Stmt s2 = Block::make({store("f", load("in", x), x),
                           LetStmt::make("h", handle("in"), store("g", load("in", x), x))});
    EXPECT_IR_EQ(optimize_loads_stores(s2), s2);
    // A load after an assertion does not move in front of it (the assertion may guard it).
    Stmt check = AssertStmt::make(x < 10, extern_call("halide_error_x", {x}));
    Stmt s3 = Block::make({store("f", 0, x), Block::make(check, store("g", load("in", x), x)),
                           store("h", load("in", x), x)});
    // (The two loads' innermost common statement starts before the assertion.)
    EXPECT_IR_EQ(optimize_loads_stores(s3), s3);
}

TEST(OptimizeLoadsStores, RebindingAnIndexNameEndsTheValue) {
    Expr x = ivar("x");
    // f[x] = in[x]; let x = x + 1 in g[x] = in[x]: the second x is another value.
    Stmt s = Block::make(store("f", load("in", x), x),
                         LetStmt::make("x", x + 1, store("g", load("in", x), x)));
    EXPECT_IR_EQ(optimize_loads_stores(s), s);
}

TEST(OptimizeLoadsStores, NothingIsCarriedIntoLoops) {
    Expr x = ivar("x");
    Stmt s = Block::make(store("f", load("in", 0), 0),
                         serial("x", 0, ivar("n"), store("g", load("in", 0), x)));
    EXPECT_IR_EQ(optimize_loads_stores(s), s);
}

TEST(OptimizeLoadsStores, RepeatsWithinOneStatementAreLeftToCSE) {
    Expr x = ivar("x");
    Stmt s = store("f", load("in", x) * load("in", x), x);
    EXPECT_IR_EQ(optimize_loads_stores(s), s);
}

// ---- Rewrite 2: read after write ----

TEST(OptimizeLoadsStores, ReadAfterWriteReadsTheStoredValue) {
    Expr x = ivar("x"), t = ivar("lso.t0");
    // f[x] = in[x] * 2; g[x] = f[x] + 1
    Stmt s = Block::make(store("f", load("in", x) * 2, x), store("g", load("f", x) + 1, x));
    Stmt expected = LetStmt::make("lso.t0", load("in", x) * 2,
                                  Block::make(store("f", t, x), store("g", t + 1, x)));
    EXPECT_IR_EQ(optimize_loads_stores(s), expected);
}

TEST(OptimizeLoadsStores, UnrolledScanForwardsEachValue) {
    Expr r = ivar("r"), t0 = ivar("lso.t0"), t1 = ivar("lso.t1");
    // f[r + 1] = f[r] + in[r + 1]; f[r + 2] = f[r + 1] + in[r + 2]; f[r + 3] = f[r + 2] + ...
    auto step = [&](int k, const Expr &prev) {
        return store("f", prev + load("in", r + k), r + k);
    };
    Stmt s =
        Block::make({step(1, load("f", r)), step(2, load("f", r + 1)), step(3, load("f", r + 2))});
    Stmt expected =
        LetStmt::make("lso.t0", load("f", r) + load("in", r + 1),
                      Block::make(store("f", t0, r + 1),
                                  LetStmt::make("lso.t1", t0 + load("in", r + 2),
                                                Block::make(store("f", t1, r + 2), step(3, t1)))));
    EXPECT_IR_EQ(optimize_loads_stores(s), expected);
}

TEST(OptimizeLoadsStores, StoredLetValuesAreBoundOutsideTheirLet) {
    Expr r = ivar("r"), v = ivar("v"), t0 = ivar("lso.t0");
    // A Tuple update unrolled: each copy binds its value to the same name v and stores it;
    // the next copy's load of it reads the value, bound in front of the first let.
    auto copy = [&](int k, const Expr &prev) {
        return LetStmt::make("v", prev + load("in", r + k), store("f", v, r + k));
    };
    Stmt s = Block::make(copy(1, load("f", r)), copy(2, load("f", r + 1)));
    Stmt expected =
        LetStmt::make("lso.t0", load("f", r) + load("in", r + 1),
                      Block::make(LetStmt::make("v", t0, store("f", v, r + 1)), copy(2, t0)));
    EXPECT_IR_EQ(optimize_loads_stores(s), expected);
}

TEST(OptimizeLoadsStores, StoredLetValueIsBoundWhereTheLetWas) {
    Expr v = ivar("v"), t0 = ivar("lso.t0");
    // let v = in[0] in { in[0] = 5; f[0] = v; g[0] = f[0] }: f[0] holds in[0] as it was before
    // the store to in, so its value is bound in front of the let, not next to its use.
    Stmt inner = Block::make({store("in", 5, 0), store("f", v, 0), store("g", load("f", 0), 0)});
    Stmt s = LetStmt::make("v", load("in", 0), inner);
    Stmt expected = LetStmt::make(
        "lso.t0", load("in", 0),
        LetStmt::make("v", t0,
                      Block::make({store("in", 5, 0), store("f", v, 0), store("g", t0, 0)})));
    EXPECT_IR_EQ(optimize_loads_stores(s), expected);
}

TEST(OptimizeLoadsStores, ReadAfterWriteNeedsTheSameIndexAndType) {
    Expr x = ivar("x");
    Stmt s1 = Block::make(store("f", load("in", x), x), store("g", load("f", x + 1), x));
    EXPECT_IR_EQ(optimize_loads_stores(s1), s1);
    // A vector store, read back as one of its lanes: another element type and index.
    Expr ramp = Ramp::make(x, 1, 4);
    Stmt s2 = Block::make(store("f", Broadcast::make(7, 4), ramp), store("g", load("f", x), x));
    EXPECT_IR_EQ(optimize_loads_stores(s2), s2);
}

// ---- Rewrite 3: sliding loads ----

TEST(OptimizeLoadsStores, VerticalVectorStencilSlides) {
    Expr y = ivar("y"), b = ivar("b"), w = ivar("w"), n = ivar("n");
    // for (y, 0, n) out[ramp(y * w, 1, 8)] = in[row y] + in[row y + 1] + in[row y + 2], rows
    // `w` apart (a symbolic stride).
    auto row = [&](const Expr &yy) { return Ramp::make(b + yy * w, 1, 8); };
    auto in_row = [&](const Expr &yy) { return load("in", row(yy), Float(32)); };
    Stmt s =
        serial("y", 0, n,
               store("out", in_row(y) + in_row(y + 1) + in_row(y + 2), Ramp::make(y * w, 1, 8)));
    Stmt r = optimize_loads_stores(s);

    Type t = Float(32, 8);
    Expr v0 = Variable::make(t, "lso.r0.v0"), v1 = Variable::make(t, "lso.r0.v1"),
         v2 = Variable::make(t, "lso.r0.v2");
    auto slot = [](int k) { return Ramp::make(k * 8, 1, 8); };
    auto reg = [&](int k) { return load("lso.r0", slot(k), Float(32)); };
    auto first = [&](const Expr &yy) { return simplify(substitute("y", Expr(0), row(yy))); };
    Stmt body =
        Block::make(store("out", v0 + v1 + v2, Ramp::make(y * w, 1, 8)),
                    Block::make(store("lso.r0", v1, slot(0)), store("lso.r0", v2, slot(1))));
    body = LetStmt::make(
        "lso.r0.v0", reg(0),
        LetStmt::make("lso.r0.v1", reg(1), LetStmt::make("lso.r0.v2", in_row(y + 2), body)));
    // n may be 0: the preloads are guarded.
    Stmt preload = IfThenElse::make(
        0 < n, Block::make(store("lso.r0", load("in", first(y), Float(32)), slot(0)),
                           store("lso.r0", load("in", first(y + 1), Float(32)), slot(1))));
    Stmt expected = Allocate::make("lso.r0", Float(32), MemoryType::Register, {16}, const_true(),
                                   Block::make(preload, serial("y", 0, n, body)));
    EXPECT_IR_EQ(r, expected);
}

TEST(OptimizeLoadsStores, ScalarHorizontalStencilWithPositiveExtentNeedsNoGuard) {
    Expr x = ivar("x"), m = ivar("m");
    Stmt s = serial(
        "x", 0, 100,
        store("out", load("in", m + x) + load("in", (m + x) + 1) * 2 + load("in", (m + x) + 2), x));
    Stmt r = optimize_loads_stores(s);
    Expr v0 = ivar("lso.r0.v0"), v1 = ivar("lso.r0.v1"), v2 = ivar("lso.r0.v2");
    Stmt body = Block::make(store("out", v0 + v1 * 2 + v2, x),
                            Block::make(store("lso.r0", v1, 0), store("lso.r0", v2, 1)));
    body = LetStmt::make("lso.r0.v0", load("lso.r0", 0),
                         LetStmt::make("lso.r0.v1", load("lso.r0", 1),
                                       LetStmt::make("lso.r0.v2", load("in", (m + x) + 2), body)));
    Stmt preload = Block::make(store("lso.r0", load("in", simplify(m + 0)), 0),
                               store("lso.r0", load("in", simplify((m + 0) + 1)), 1));
    Stmt expected = Allocate::make("lso.r0", Int(32), MemoryType::Register, {2}, const_true(),
                                   Block::make(preload, serial("x", 0, 100, body)));
    EXPECT_IR_EQ(r, expected);
}

TEST(OptimizeLoadsStores, SlidingLooksThroughLetsInTheBody) {
    Expr x = ivar("x"), a = ivar("a");
    // let a = x * 3 in out[x] = in[a] + in[a + 3]: in[a + 3] at x is in[a] at x + 1.
    Stmt s = serial("x", 0, 10,
                    LetStmt::make("a", x * 3, store("out", load("in", a) + load("in", a + 3), x)));
    Stmt r = optimize_loads_stores(s);
    // The preload, the register and the new element.
    EXPECT_EQ(count_nodes<Load>(r), 3) << r;
    const Allocate *alloc = r.as<Allocate>();
    ASSERT_NE(alloc, nullptr) << r;
    EXPECT_EQ(alloc->memory_type, MemoryType::Register);
    std::map<std::string, Expr> lets = let_bindings(r);
    ASSERT_TRUE(lets.count("lso.r0.v1")) << r;
    EXPECT_IR_EQ(lets["lso.r0.v1"], load("in", x * 3 + 3));
}

TEST(OptimizeLoadsStores, NoSlidingWhereItWouldBeWrongOrUnclear) {
    Expr y = ivar("y"), n = ivar("n"), c = Variable::make(Bool(), "c");
    auto taps = [&](const std::string &buf) { return load(buf, y) + load(buf, y + 1); };
    // The loop writes the buffer it reads.
    Stmt writes = serial("y", 0, n, store("in", taps("in"), y + 2));
    EXPECT_IR_EQ(optimize_loads_stores(writes), writes);
    // A predicated load.
    Expr p = Variable::make(Bool(), "p");
    Stmt predicated = serial(
        "y", 0, n,
        store("out", Load::make(Int(32), "in", y, p) + Load::make(Int(32), "in", y + 1, p), y));
    EXPECT_IR_EQ(optimize_loads_stores(predicated), predicated);
    // Loaded only under an if: it must not be loaded before the loop (nor every iteration).
    Stmt conditional = serial("y", 0, n, IfThenElse::make(c, store("out", taps("in"), y)));
    EXPECT_IR_EQ(optimize_loads_stores(conditional), conditional);
    Stmt lazy = serial(
        "y", 0, n,
        store("out",
              Call::make(Int(32), Call::if_then_else, {c, taps("in"), 0}, Call::PureIntrinsic), y));
    EXPECT_IR_EQ(optimize_loads_stores(lazy), lazy);
    // The step is not the same in every iteration: in[y * y] and in[y * y + 1] (in[y * y]
    // at y + 1 is in[y * y + 2 * y + 1], which no load reads at y).
    Stmt squares = serial("y", 0, n, store("out", load("in", y * y) + load("in", y * y + 1), y));
    EXPECT_IR_EQ(optimize_loads_stores(squares), squares);
    // Not innermost.
    Stmt outer = serial(
        "y", 0, n,
        Block::make(store("out", taps("in"), y), serial("x", 0, n, store("o2", 0, ivar("x")))));
    EXPECT_IR_EQ(optimize_loads_stores(outer), outer);
    // The buffer's address escapes (to an extern call through a let, which is impure anyway;
    // here just named).
    Stmt escaped = serial("y", 0, n, LetStmt::make("h", handle("in"), store("out", taps("in"), y)));
    EXPECT_IR_EQ(optimize_loads_stores(escaped), escaped);
    // A call with side effects in the loop.
    Stmt impure = serial("y", 0, n, store("out", taps("in") + extern_call("side"), y));
    EXPECT_IR_EQ(optimize_loads_stores(impure), impure);
    // A parallel loop: its iterations do not run in order.
    Stmt parallel =
        For::make("y", 0, n, ForType::Parallel, DeviceAPI::Host, store("out", taps("in"), y));
    EXPECT_IR_EQ(optimize_loads_stores(parallel), parallel);
    // The index reads memory.
    Stmt gather = serial(
        "y", 0, n,
        store("out", load("in", load("idx", 0) + y) + load("in", load("idx", 0) + (y + 1)), y));
    EXPECT_IR_EQ(optimize_loads_stores(gather), gather);
}

TEST(OptimizeLoadsStores, ConditionalUseOfAChainElementReadsTheRegister) {
    Expr y = ivar("y"), c = Variable::make(Bool(), "c");
    // in[y] and in[y + 1] are loaded every iteration; a third read of in[y] under an if uses
    // the carried value too.
    Stmt s = serial("y", 0, 10,
                    Block::make(store("out", load("in", y) + load("in", y + 1), y),
                                IfThenElse::make(c, store("o2", load("in", y), y))));
    Stmt r = optimize_loads_stores(s);
    // The preload, the register and in[y + 1]: three loads.
    EXPECT_EQ(count_nodes<Load>(r), 3) << r;
}

TEST(OptimizeLoadsStores, CarriedValuesStayWithinTheRegisterBudget) {
    Expr y = ivar("y"), w = ivar("w");
    // A 12-tap vertical filter of 16-lane floats (64 bytes a value): carrying 11 values would
    // spill, so only the last 4 taps (256 bytes) are carried.
    Expr sum;
    for (int k = 0; k < 12; k++) {
        Expr tap = load("in", Ramp::make((y + k) * w, 1, 16), Float(32));
        sum = sum.defined() ? sum + tap : tap;
    }
    Stmt s = serial("y", 0, 100, store("out", sum, Ramp::make(y * 16, 1, 16)));
    Stmt r = optimize_loads_stores(s);
    const Allocate *alloc = r.as<Allocate>();
    ASSERT_NE(alloc, nullptr) << r;
    EXPECT_IR_EQ(alloc->extents[0], Expr(4 * 16));
}

} // namespace
} // namespace test
} // namespace loom
