// vectorize_loops on hand-built loops: the widened statement's exact shape (Ramp loads and
// stores, broadcasts of invariants, renamed widened lets, predicated if bodies with a scalar
// all-lanes fast path, VectorReduce for uniform stores), the serial fallback, the error on a
// non-constant extent, and all_lanes_true's conditions.
#include "lower/lower_utils.h"
#include "lower/vectorize_loops.h"
#include "lower_test_util.h"

#include "common/expect_error.h"

#include <gtest/gtest.h>

using namespace loom;
using namespace loom::test;

namespace {

Stmt store(const std::string &buf, Expr value, Expr index) {
    return Store::make(buf, value, index, Parameter(), const_true(index.type().lanes()));
}
Expr load(Type t, const std::string &buf, Expr index) {
    return Load::make(t, buf, index, const_true(index.type().lanes()));
}
Stmt vloop(const std::string &name, Expr mn, Expr ext, Stmt body) {
    return For::make(name, mn, ext, ForType::Vectorized, DeviceAPI::None, body);
}
bool has_loop(const Stmt &s) {
    bool found = false;
    visit_exprs(s, [](const Expr &) { return true; });
    class F : public IRVisitor {
    public:
        bool &found;
        explicit F(bool &f) : found(f) {}

    protected:
        using IRVisitor::visit;
        void visit(const For *) override { found = true; }
    } f(found);
    f.dispatch(s);
    return found;
}

} // namespace

TEST(VectorizeLoops, DenseLoadAndStore) {
    Expr x = ivar("x"), k = ivar("k");
    Stmt s = vloop("x", 0, 8, store("out", load(Int(32), "in", x + k) * 3, x));
    Stmt v = vectorize_loops(s, Target()).stmt;
    Expr ramp = Ramp::make(x, 1, 8);
    Stmt expected = LetStmt::make(
        "x", 0,
        store("out",
              Mul::make(load(Int(32).with_lanes(8), "in", Add::make(ramp, Broadcast::make(k, 8))),
                        Broadcast::make(3, 8)),
              ramp));
    EXPECT_IR_EQ(v, expected);
}

TEST(VectorizeLoops, InvariantLetsStayScalarAndWidenedLetsAreRenamed) {
    Expr x = ivar("x"), k = ivar("k");
    Stmt body = LetStmt::make("a", k * 2,
                              LetStmt::make("b", x * x + ivar("a"), store("out", ivar("b"), x)));
    Stmt v = vectorize_loops(vloop("x", 0, 4, body), Target()).stmt;
    Expr b = Variable::make(Int(32, 4), "b.widened.x");
    Stmt expected = LetStmt::make(
        "x", 0,
        LetStmt::make("a", k * 2,
                      LetStmt::make("b.widened.x",
                                    Add::make(Mul::make(Ramp::make(x, 1, 4), Ramp::make(x, 1, 4)),
                                              Broadcast::make(ivar("a"), 4)),
                                    store("out", b, Ramp::make(x, 1, 4)))));
    EXPECT_IR_EQ(v, expected);
}

TEST(VectorizeLoops, LinearLetsAreSubstitutedSoIndicesStayRamps) {
    // Code generation recognizes dense accesses by a Ramp index, not a let-bound vector.
    Expr x = ivar("x"), k = ivar("k");
    Stmt body = LetStmt::make("i", x + k, store("out", load(Int(32), "in", ivar("i")), ivar("i")));
    Stmt v = simplify(vectorize_loops(vloop("x", 0, 8, body), Target()).stmt);
    const Store *st = v.as<Store>();
    ASSERT_TRUE(st) << v;
    EXPECT_TRUE(st->index.as<Ramp>()) << v;
    const Load *ld = st->value.as<Load>();
    ASSERT_TRUE(ld) << v;
    EXPECT_TRUE(ld->index.as<Ramp>()) << v;
}

TEST(VectorizeLoops, VaryingIfIsPredicatedWithScalarFastPath) {
    Expr x = ivar("x"), n = ivar("n");
    Stmt s = vloop("x", 0, 8, IfThenElse::make(x < n, store("out", load(Int(32), "in", x), x)));
    Stmt v = simplify(vectorize_loops(s, Target()).stmt);
    std::string t = text(v);
    // The all-lanes test is on the last lane, scalar (x is 0 here).
    EXPECT_NE(t.find("likely"), std::string::npos) << t;
    EXPECT_NE(t.find("likely((7 < n))"), std::string::npos) << t;
    // The else branch stores and loads under the lane mask.
    int predicated_stores = 0, predicated_loads = 0;
    class Count : public IRVisitor {
    public:
        int &s, &l;
        Count(int &s, int &l) : s(s), l(l) {}

    protected:
        using IRVisitor::visit;
        void visit(const Store *op) override {
            EXPECT_EQ(op->index.type().lanes(), 8);
            if (!is_const_true(op->predicate)) s++;
            IRVisitor::visit(op);
        }
        void visit(const Load *op) override {
            EXPECT_EQ(op->type.lanes(), 8);
            if (!is_const_true(op->predicate)) l++;
            IRVisitor::visit(op);
        }
    } c(predicated_stores, predicated_loads);
    c.dispatch(v);
    EXPECT_EQ(predicated_stores, 1) << t;
    EXPECT_EQ(predicated_loads, 1) << t;
    EXPECT_FALSE(has_loop(v));
}

TEST(VectorizeLoops, UniformIfStaysAnIf) {
    Expr x = ivar("x"), n = ivar("n");
    Stmt s = vloop("x", 0, 8, IfThenElse::make(n > 0, store("out", x, x)));
    Stmt v = vectorize_loops(s, Target()).stmt;
    Expr ramp = Ramp::make(x, 1, 8);
    EXPECT_IR_EQ(v, LetStmt::make("x", 0, IfThenElse::make(n > 0, store("out", ramp, ramp))));
}

TEST(VectorizeLoops, UniformStoreOfVaryingValueIsAVectorReduce) {
    Expr r = ivar("r");
    Expr self = load(Int(32), "f", 0);
    Stmt s = vloop("r", 0, 16, store("f", self + load(Int(32), "g", r), 0));
    Stmt v = vectorize_loops(s, Target()).stmt;
    Expr sum = VectorReduce::make(VectorReduce::Add,
                                  load(Int(32).with_lanes(16), "g", Ramp::make(r, 1, 16)), 1);
    EXPECT_IR_EQ(v, LetStmt::make("r", 0, store("f", Add::make(self, sum), 0)));

    // Not associative: a serial loop.
    Stmt sub = vloop("r", 0, 16, store("f", self - load(Int(32), "g", r), 0));
    VectorizeResult w = vectorize_loops(sub, Target());
    const For *f = w.stmt.as<For>();
    ASSERT_TRUE(f) << w.stmt;
    EXPECT_EQ(f->for_type, ForType::Serial);
    ASSERT_EQ(w.scalar_loops.size(), 1u);
    EXPECT_EQ(w.scalar_loops[0].loop, "r");
    EXPECT_NE(w.scalar_loops[0].reason.find("not an associative update"), std::string::npos);
}

TEST(VectorizeLoops, SideEffectsLeaveASerialLoop) {
    Expr x = ivar("x");
    Expr call = Call::make(Int(32), "print_it", {x}, Call::Extern);
    Stmt s = vloop("x", 0, 4, Evaluate::make(call));
    VectorizeResult r = vectorize_loops(s, Target());
    const For *f = r.stmt.as<For>();
    ASSERT_TRUE(f) << r.stmt;
    EXPECT_EQ(f->for_type, ForType::Serial);
    EXPECT_IR_EQ(f->body, Evaluate::make(call));
    // Reported once, with the reason, in the user's terms.
    ASSERT_EQ(r.scalar_loops.size(), 1u);
    EXPECT_EQ(r.scalar_loops[0].reason, "it calls print_it, which has no vector form");
    ScalarLoop named{"f.s0.x.xi", "why"};
    EXPECT_EQ(named.message(),
              "The loop over x.xi of f is scheduled to be vectorized, but stays scalar: why.");
    // The same loop copied (by an unroll or a specialization) is reported once.
    VectorizeResult twice = vectorize_loops(Block::make(s, s), Target());
    EXPECT_EQ(twice.scalar_loops.size(), 1u);
}

TEST(VectorizeLoops, AllocationInsideIsWidenedPerLane) {
    // Each lane gets its own copy: element i of lane l is at i * lanes + l.
    Expr x = ivar("x"), i = ivar("i");
    Stmt body = Block::make(store("tmp", x, 2),
                            store("out", load(Int(32), "tmp", 2) + load(Int(32), "tmp", i), x));
    Stmt a =
        vloop("x", 0, 4, Allocate::make("tmp", Int(32), MemoryType::Auto, {3}, const_true(), body));
    Stmt va = vectorize_loops(a, Target()).stmt;
    Expr rx = Ramp::make(Expr(0), 1, 4);
    Expr slot2 = Ramp::make(Expr(2) * 4, 1, 4);
    Expr slot_i = i * Broadcast::make(4, 4) + Ramp::make(Expr(0), 1, 4);
    Type v4 = Int(32).with_lanes(4);
    Stmt want = Block::make(store("tmp", Ramp::make(Expr(0), 1, 4), slot2),
                            store("out", load(v4, "tmp", slot2) + load(v4, "tmp", slot_i), rx));
    EXPECT_IR_EQ(
        simplify(va),
        simplify(LetStmt::make(
            "x", 0, Allocate::make("tmp", Int(32), MemoryType::Auto, {3, 4}, const_true(), want))))
        << va;
    EXPECT_FALSE(has_loop(va));

    // The buffer's name used as a value (a handle for an extern call): a serial loop.
    Expr handle =
        Call::make(Int(32), "use_buffer", {Variable::make(Handle(), "tmp")}, Call::Extern);
    Stmt h = vloop("x", 0, 4,
                   Allocate::make("tmp", Int(32), MemoryType::Auto, {4}, const_true(),
                                  Block::make(store("tmp", x, 0), Evaluate::make(handle))));
    Stmt vh = vectorize_loops(h, Target()).stmt;
    const For *g = vh.as<For>();
    ASSERT_TRUE(g) << vh;
    EXPECT_EQ(g->for_type, ForType::Serial);
}

TEST(VectorizeLoops, InnerLoopWithUniformBoundsStays) {
    Expr x = ivar("x"), y = ivar("y");
    Stmt inner = For::make("y", 0, 3, ForType::Serial, DeviceAPI::None,
                           store("out", load(Int(32), "in", x + y * 10), x + y * 8));
    Stmt v = vectorize_loops(vloop("x", 0, 8, inner), Target()).stmt;
    const LetStmt *l = v.as<LetStmt>();
    ASSERT_TRUE(l) << v;
    const For *f = l->body.as<For>();
    ASSERT_TRUE(f) << v;
    EXPECT_EQ(f->name, "y");
    const Store *st = f->body.as<Store>();
    ASSERT_TRUE(st) << v;
    EXPECT_EQ(st->value.type().lanes(), 8);

    // An inner loop whose extent varies by lane: serial.
    Stmt varying = For::make("y", 0, x, ForType::Serial, DeviceAPI::None, store("out", y, y));
    VectorizeResult vv = vectorize_loops(vloop("x", 0, 8, varying), Target());
    const For *g = vv.stmt.as<For>();
    ASSERT_TRUE(g);
    EXPECT_EQ(g->for_type, ForType::Serial);
    ASSERT_EQ(vv.scalar_loops.size(), 1u);
    EXPECT_NE(vv.scalar_loops[0].reason.find("differ between lanes"), std::string::npos);
}

TEST(VectorizeLoops, NonConstantExtentIsAnError) {
    Expr x = ivar("f.s0.x.v0");
    Stmt s = vloop("f.s0.x.v0", 0, ivar("n"), store("f", x, x));
    loom_test::expect_error([&] { vectorize_loops(s, Target()); },
                            {"constant extent", "x.v0 of f", "vectorize(x, factor)"});
    // A let-bound constant extent is fine.
    Stmt ok = LetStmt::make("n", 4, s);
    EXPECT_NO_THROW(vectorize_loops(ok, Target()).stmt);
}

TEST(VectorizeLoops, AllLanesTrue) {
    Expr x = ivar("x"), n = ivar("n");
    Expr ramp = Ramp::make(x, 2, 4);
    Expr c = LT::make(ramp, Broadcast::make(n, 4));
    EXPECT_IR_EQ(simplify(all_lanes_true(c)), simplify(x + 6 < n));
    Expr d = GE::make(Ramp::make(x, -1, 4), Broadcast::make(n, 4));
    EXPECT_IR_EQ(simplify(all_lanes_true(d)), simplify(n <= x + -3));
    Expr both = And::make(c, Not::make(LT::make(ramp, Broadcast::make(ivar("m"), 4))));
    EXPECT_IR_EQ(simplify(all_lanes_true(both)), simplify(x + 6 < n && ivar("m") <= x));
    // Data-dependent lanes: unknown.
    Expr data = LT::make(load(Int(32).with_lanes(4), "in", ramp), Broadcast::make(n, 4));
    EXPECT_FALSE(all_lanes_true(data).defined());
}
