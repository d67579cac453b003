// Loop partitioning: the pass on hand-built loop nests (structure, and the same stores as the
// original for every loop extent, by an interpreter), then whole pipelines with every boundary
// condition realized over tiny and shifted regions against naive C++, and the structure of the
// lowered 3x3 blur (no clamps left in its steady state).
#include <loom/loom.h>

#include "common/boundary_reference.h"
#include "common/expr_eval.h"
#include "lower/lower.h"
#include "lower/partition_loops.h"
#include "lower_test_util.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <random>
#include <set>

using namespace loom;
using namespace loom::test;
using namespace loom_test;

namespace {

Expr likely_(Expr e) { return Call::make(e.type(), Call::likely, {e}, Call::PureIntrinsic); }
Expr likely_innermost(Expr e) {
    return Call::make(e.type(), Call::likely_if_innermost, {e}, Call::PureIntrinsic);
}
Expr clamp_(Expr e, Expr lo, Expr hi) { return Max::make(Min::make(e, hi), lo); }
Stmt store(const std::string &buf, Expr value, Expr index) {
    return Store::make(buf, value, index, Parameter(), const_true());
}
Stmt loop(const std::string &name, Expr mn, Expr ext, Stmt body, ForType t = ForType::Serial) {
    return For::make(name, mn, ext, t, DeviceAPI::None, body);
}

/// Runs a flat loop nest: For, LetStmt, Block, IfThenElse and Store (into per-name maps from
/// index to the values stored there, in order).
struct Machine {
    ExprEval ev;
    std::map<std::string, std::map<int64_t, std::vector<int64_t>>> stores;
    int64_t count = 0;

    void exec(const Stmt &s) {
        if (!s.defined()) return;
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
            if (ev.eval(c->condition).lanes[0].u) {
                exec(c->then_case);
            } else {
                exec(c->else_case);
            }
        } else if (const Store *st = s.as<Store>()) {
            stores[st->name][ev.eval(st->index).as_int()].push_back(ev.eval(st->value).as_int());
            count++;
        } else if (!s.as<Evaluate>()) {
            FAIL() << "unexpected statement " << s;
        }
    }
    void scoped(const std::string &name, const Value &v, const std::function<void()> &f) {
        const Value *old = ev.find(name);
        Value saved;
        bool had = old != nullptr;
        if (had) saved = *old;
        ev.bind(name, v);
        f();
        if (had) {
            ev.bind(name, saved);
        } else {
            ev.unbind(name);
        }
    }
};

/// Runs `before` and `after` with the free variables bound to `env` and expects the same
/// stores, each at the same index with the same values in the same order.
void expect_same_stores(const Stmt &before, const Stmt &after,
                        const std::map<std::string, int64_t> &env) {
    Machine a, b;
    for (const auto &kv : env) {
        a.ev.bind(kv.first, ExprEval::scalar_int(Int(32), kv.second));
        b.ev.bind(kv.first, ExprEval::scalar_int(Int(32), kv.second));
    }
    a.exec(before);
    b.exec(after);
    std::ostringstream where;
    for (const auto &kv : env) where << kv.first << " = " << kv.second << " ";
    ASSERT_EQ(a.count, b.count) << where.str() << "\n" << after;
    ASSERT_TRUE(a.stores == b.stores) << where.str() << "\nbefore:\n"
                                      << before << "\nafter:\n"
                                      << after;
}

std::vector<const For *> loops_named(const Stmt &s, const std::string &name) {
    std::vector<const For *> found;
    class Find : public IRVisitor {
    public:
        const std::string &name;
        std::vector<const For *> &found;
        Find(const std::string &n, std::vector<const For *> &f) : name(n), found(f) {}

    protected:
        using IRVisitor::visit;
        void visit(const For *op) override {
            if (op->name == name) found.push_back(op);
            IRVisitor::visit(op);
        }
    } f(name, found);
    f.dispatch(s);
    return found;
}

/// How many nodes of each kind of interest s holds.
/// Counts the loads, and the mins and maxes that depend on the variables in `column`,
/// directly or through a let (of CSE or LICM) whose value does.
class ColumnClamps : public IRVisitor {
public:
    std::set<std::string> column;
    int clamps = 0, loads = 0;

protected:
    using IRVisitor::visit;
    void visit(const Let *op) override {
        bind(op->name, op->value);
        dispatch(op->body);
    }
    void visit(const LetStmt *op) override {
        bind(op->name, op->value);
        dispatch(op->body);
    }
    void visit(const Min *op) override {
        clamps += expr_uses_vars(op->a, column) || expr_uses_vars(op->b, column);
        IRVisitor::visit(op);
    }
    void visit(const Max *op) override {
        clamps += expr_uses_vars(op->a, column) || expr_uses_vars(op->b, column);
        IRVisitor::visit(op);
    }
    void visit(const Load *op) override {
        loads++;
        IRVisitor::visit(op);
    }

private:
    void bind(const std::string &name, const Expr &value) {
        dispatch(value);
        if (expr_uses_vars(value, column)) column.insert(name);
    }
};

struct Census {
    int min_max = 0, select = 0, likely = 0, if_then_else = 0;
};
Census census(const Stmt &s) {
    Census c;
    class Count : public IRVisitor {
    public:
        Census &c;
        explicit Count(Census &c) : c(c) {}

    protected:
        using IRVisitor::visit;
        void visit(const Min *op) override {
            c.min_max++;
            IRVisitor::visit(op);
        }
        void visit(const Max *op) override {
            c.min_max++;
            IRVisitor::visit(op);
        }
        void visit(const Select *op) override {
            c.select++;
            IRVisitor::visit(op);
        }
        void visit(const Call *op) override {
            if (op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost)) {
                c.likely++;
            }
            IRVisitor::visit(op);
        }
        void visit(const IfThenElse *op) override {
            c.if_then_else++;
            IRVisitor::visit(op);
        }
    } count(c);
    count.dispatch(s);
    return c;
}

Expr x = ivar("x"), y = ivar("y"), n = ivar("n"), m = ivar("m"), lo = ivar("lo"), hi = ivar("hi");

} // namespace

TEST(PartitionLoops, ClampedLoad1D) {
    // for (x, m, n) out[x - m] = clamp(likely(x - 1), lo, hi) * 10 + x
    Stmt s = loop("x", m, n, store("out", clamp_(likely_(x - 1), lo, hi) * 10 + x, x - m));
    Stmt p = partition_loops(s);
    std::vector<const For *> xs = loops_named(p, "x");
    ASSERT_EQ(xs.size(), 3u) << p;
    // The steady loop (the middle one) has no clamp; the others keep it; no likely remains.
    EXPECT_EQ(census(xs[1]->body).min_max, 0) << p;
    EXPECT_EQ(census(xs[0]->body).min_max, 2) << p;
    EXPECT_EQ(census(xs[2]->body).min_max, 2) << p;
    EXPECT_EQ(census(p).likely, 0) << p;
    // Every extent, including empty and negative ones, and clamp ranges inside, around,
    // outside and crossing (lo > hi) the loop's range.
    for (int64_t mv : {-3, 0, 2}) {
        for (int64_t nv : {-2, 0, 1, 2, 3, 4, 7}) {
            for (int64_t lov : {-5, 0, 1, 3}) {
                for (int64_t hiv : {-4, 0, 2, 5, 20}) {
                    expect_same_stores(s, p, {{"m", mv}, {"n", nv}, {"lo", lov}, {"hi", hiv}});
                }
            }
        }
    }
}

TEST(PartitionLoops, LoopsWithoutUsableLikelyAreUnchanged) {
    // No likely at all.
    Stmt plain = loop("x", 0, n, store("out", clamp_(x - 1, lo, hi), x));
    EXPECT_IR_EQ(partition_loops(plain), simplify(plain));
    // A likely on something the loop variable does not change: nothing to partition, and the
    // tag is gone.
    Stmt invariant = loop("x", 0, n, store("out", clamp_(likely_(lo + 1), 0, hi), x));
    Stmt p = partition_loops(invariant);
    EXPECT_EQ(loops_named(p, "x").size(), 1u) << p;
    EXPECT_EQ(census(p).likely, 0) << p;
    // A condition the solver cannot handle (x * x) leaves the loop whole.
    Stmt square = loop("x", 0, n, store("out", Min::make(likely_(x * x), hi), x));
    p = partition_loops(square);
    EXPECT_EQ(loops_named(p, "x").size(), 1u) << p;
    // Vectorized and unrolled loops are not partitioned.
    Stmt vec = loop("x", 0, 8, store("out", Min::make(likely_(x), hi), x), ForType::Vectorized);
    EXPECT_EQ(loops_named(partition_loops(vec), "x").size(), 1u);
}

TEST(PartitionLoops, RowClampsStayHoistedUnlessTheRowLoopMustPartition) {
    // for y: for x: out[y * 100 + x] = clamp(likely(x + 1), lo, hi) + 1000 * clamp(likely(y - 1),
    // lo, hi). The y clamp is one min and max per row once hoisted out of the x loop: the rows
    // are not copied for it, and x is partitioned in every row.
    Expr v = clamp_(likely_(x + 1), lo, hi) + clamp_(likely_(y - 1), lo, hi) * 1000;
    Stmt s = loop("y", m, n, loop("x", lo, hi - lo + 3, store("out", v, y * 100 + x)));
    Stmt p = partition_loops(s);
    ASSERT_EQ(loops_named(p, "y").size(), 1u) << p;
    std::vector<const For *> xs = loops_named(p, "x");
    ASSERT_EQ(xs.size(), 3u) << p;
    EXPECT_EQ(census(xs[1]->body).min_max, 2) << p; // the y clamp's min and max only
    EXPECT_EQ(xs[1]->partition_policy, internal::Partition::Auto);
    for (const For *edge : {xs[0], xs[2]}) {
        EXPECT_EQ(edge->partition_policy, internal::Partition::Never) << p;
    }

    // always_partition on y: the rows partition too, in one loop whose body picks the steady
    // rows (three x loops, no clamp left in the middle one) or the edge rows (one x loop,
    // final), since the body holds a loop.
    Stmt always = For::make("y", m, n, ForType::Serial, DeviceAPI::None,
                            loop("x", lo, hi - lo + 3, store("out", v, y * 100 + x)),
                            internal::Partition::Always);
    Stmt q = partition_loops(always);
    std::vector<const For *> ys = loops_named(q, "y");
    ASSERT_EQ(ys.size(), 1u) << q;
    const IfThenElse *pick = ys[0]->body.as<IfThenElse>();
    ASSERT_NE(pick, nullptr) << q;
    std::vector<const For *> steady_xs = loops_named(pick->then_case, "x");
    ASSERT_EQ(steady_xs.size(), 3u) << q;
    EXPECT_EQ(census(steady_xs[1]->body).min_max, 0) << q;
    std::vector<const For *> edge_xs = loops_named(pick->else_case, "x");
    ASSERT_EQ(edge_xs.size(), 1u) << q;
    EXPECT_EQ(edge_xs[0]->partition_policy, internal::Partition::Never) << q;

    for (int64_t mv : {-2, 0, 3}) {
        for (int64_t nv : {0, 1, 2, 5}) {
            for (int64_t lov : {-1, 0, 2}) {
                for (int64_t hiv : {-2, 1, 4}) {
                    std::map<std::string, int64_t> env{
                        {"m", mv}, {"n", nv}, {"lo", lov}, {"hi", hiv}};
                    expect_same_stores(s, p, env);
                    expect_same_stores(s, q, env);
                }
            }
        }
    }
}

TEST(PartitionLoops, RegionClampsPartitionEvenWhenHoisted) {
    // for y: for x: let f.s0.y.max = min(likely(y * 8 + 7), hi) in
    //   out[y * 4 + x] = f.s0.y.max - y * 8
    // A Func region's clamp (what bounds inference writes under a GuardWithIf test) sets a
    // buffer's size: though invariant in the x loop, it partitions y, and the steady rows
    // have the constant extent 8 (a register block's accumulators, in the apps).
    Stmt body = LetStmt::make("f.s0.y.max", Min::make(likely_(y * 8 + 7), hi),
                              store("out", ivar("f.s0.y.max") - y * 8, y * 4 + x));
    Stmt s = loop("y", 0, n, loop("x", 0, 4, body));
    Stmt p = partition_loops(s);
    // One y loop (its body holds a loop) whose body picks the steady rows or the others.
    std::vector<const For *> ys = loops_named(p, "y");
    ASSERT_EQ(ys.size(), 1u) << p;
    const IfThenElse *pick = ys[0]->body.as<IfThenElse>();
    ASSERT_NE(pick, nullptr) << p;
    EXPECT_EQ(census(pick->then_case).min_max, 0) << p;
    EXPECT_EQ(census(p).likely, 0) << p;
    // The same clamp under another name is a plain hoisted row clamp: y is not partitioned.
    Stmt other = loop("y", 0, n,
                      loop("x", 0, 4,
                           LetStmt::make("t", Min::make(likely_(y * 8 + 7), hi),
                                         store("out", ivar("t") - y * 8, y * 4 + x))));
    Stmt other_p = partition_loops(other);
    std::vector<const For *> other_ys = loops_named(other_p, "y");
    ASSERT_EQ(other_ys.size(), 1u);
    EXPECT_EQ(other_ys[0]->body.as<IfThenElse>(), nullptr) << other_p;
    for (int64_t nv : {0, 1, 3, 6}) {
        for (int64_t hiv : {-3, 0, 7, 20, 100}) {
            expect_same_stores(s, p, {{"n", nv}, {"hi", hiv}});
        }
    }
}

TEST(PartitionLoops, InnerConditionsPartitionOuterLoopsWhereTheyHoldThroughout) {
    // The clamp on x + y holds for the whole row where y + m - 1 <= hi: those rows are the
    // steady state of y, with no clamp left in their x loop (as Halide relaxes an inner
    // condition over the inner loop's range). The other rows run the original x loop, whole.
    Stmt s =
        loop("y", 0, n, loop("x", 0, m, store("out", Min::make(likely_(x + y), hi), y * 50 + x)));
    // (The y loop holds a loop: one loop whose body picks steady or edge rows.)
    Stmt p = partition_loops(s);
    std::vector<const For *> ys = loops_named(p, "y");
    ASSERT_EQ(ys.size(), 1u) << p;
    const IfThenElse *pick = ys[0]->body.as<IfThenElse>();
    ASSERT_NE(pick, nullptr) << p;
    std::vector<const For *> xs = loops_named(p, "x");
    ASSERT_EQ(xs.size(), 2u) << p;
    EXPECT_EQ(count_nodes<Min>(pick->then_case), 0) << p;
    std::vector<const For *> edge_xs = loops_named(pick->else_case, "x");
    ASSERT_EQ(edge_xs.size(), 1u) << p;
    EXPECT_EQ(edge_xs[0]->partition_policy, internal::Partition::Never) << p;
    EXPECT_EQ(count_nodes<Min>(pick->else_case), 1) << p;
    for (int64_t nv : {0, 1, 3, 6}) {
        for (int64_t mv : {0, 1, 4, 9}) {
            for (int64_t hiv : {-1, 0, 3, 8}) {
                expect_same_stores(s, p, {{"n", nv}, {"m", mv}, {"hi", hiv}});
            }
        }
    }
}

TEST(PartitionLoops, InnerConditionsThatNeverHoldThroughoutPartitionOnlyTheInnerLoop) {
    // x - 1 >= lo fails at the first x of every row: y is not partitioned, each row's x loop
    // is (its bounds do not depend on y).
    Stmt s =
        loop("y", 0, n, loop("x", 0, m, store("out", Max::make(likely_(x - 1), lo), y * 50 + x)));
    Stmt p = partition_loops(s);
    EXPECT_EQ(loops_named(p, "y").size(), 1u) << p;
    EXPECT_EQ(loops_named(p, "x").size(), 2u) << p; // no upper bound: no epilogue
    for (int64_t nv : {0, 2}) {
        for (int64_t mv : {0, 1, 4, 9}) {
            for (int64_t lov : {-3, -1, 0, 3, 8}) {
                expect_same_stores(s, p, {{"n", nv}, {"m", mv}, {"lo", lov}});
            }
        }
    }
}

TEST(PartitionLoops, SelectsIfsAndLets) {
    // constant_exterior's form: select(outside, k, load at clamp(likely(x))); an if on
    // likely(x < hi); a let-bound clamp (as inlining produces); if_then_else.
    Expr outside = Or::make(LT::make(x, lo), GE::make(x, hi));
    Expr inner = clamp_(likely_(x), lo, hi - 1);
    Expr sel = Select::make(outside, make_const(Int(32), -7), inner * 3);
    Expr lazy = Call::make(Int(32), Call::if_then_else,
                           {likely_(LT::make(x, hi)), x + 100, make_const(Int(32), 9)},
                           Call::PureIntrinsic);
    Stmt body = Block::make(
        {store("a", sel, x),
         IfThenElse::make(likely_(LT::make(x, hi)), store("b", x, x), store("b", -x, x)),
         LetStmt::make("t", clamp_(likely_(x - 2), lo, hi),
                       store("c",
                             Let::make("u", Variable::make(Int(32), "t") + 1,
                                       Variable::make(Int(32), "u") * 2),
                             x)),
         store("d", lazy, x)});
    Stmt s = loop("x", m, n, body);
    Stmt p = partition_loops(s);
    std::vector<const For *> xs = loops_named(p, "x");
    ASSERT_EQ(xs.size(), 3u) << p;
    Census steady = census(xs[1]->body);
    EXPECT_EQ(steady.min_max + steady.select + steady.if_then_else, 0) << p;
    for (int64_t mv : {-4, 0, 3}) {
        for (int64_t nv : {-1, 0, 1, 2, 6, 12}) {
            for (int64_t lov : {-2, 1, 4}) {
                for (int64_t hiv : {0, 2, 5, 9}) {
                    expect_same_stores(s, p, {{"m", mv}, {"n", nv}, {"lo", lov}, {"hi", hiv}});
                }
            }
        }
    }
}

TEST(PartitionLoops, LikelyIfInnermost) {
    // Counts in a loop without inner loops...
    Stmt inner = loop("x", 0, n, store("out", Min::make(likely_innermost(x), hi), x));
    EXPECT_EQ(loops_named(partition_loops(inner), "x").size(), 2u);
    // ...but not in a loop that holds one.
    Stmt outer = loop("y", 0, n,
                      Block::make(loop("x", 0, m, store("out", x, y * 20 + x)),
                                  store("row", Min::make(likely_innermost(y), hi), y)));
    Stmt p = partition_loops(outer);
    EXPECT_EQ(loops_named(p, "y").size(), 1u) << p;
    EXPECT_EQ(census(p).likely, 0) << p;
}

TEST(PartitionLoops, ParallelLoopsPartitionInsideOneLoop) {
    // One parallel loop (a join per loop, and the edge iterations run beside the steady
    // ones), its body an if between the steady state and one copy of the edge code.
    Stmt s = loop("x", m, n, store("out", clamp_(likely_(x + 2), lo, hi), x), ForType::Parallel);
    Stmt p = partition_loops(s);
    std::vector<const For *> xs = loops_named(p, "x");
    ASSERT_EQ(xs.size(), 1u) << p;
    EXPECT_EQ(xs[0]->for_type, ForType::Parallel);
    const IfThenElse *pick = xs[0]->body.as<IfThenElse>();
    ASSERT_NE(pick, nullptr) << p;
    EXPECT_EQ(count_nodes<Min>(pick->then_case), 0) << p;
    EXPECT_EQ(count_nodes<Min>(pick->else_case), 1) << p;
    for (int64_t mv : {-3, 0, 5}) {
        for (int64_t nv : {0, 1, 10}) {
            for (int64_t lov : {-4, 0, 3}) {
                for (int64_t hiv : {-1, 4, 20}) {
                    expect_same_stores(s, p, {{"m", mv}, {"n", nv}, {"lo", lov}, {"hi", hiv}});
                }
            }
        }
    }
}

namespace {

/// Random 1-D and 2-D loop nests whose stores use clamps, selects and ifs with likely tags on
/// affine functions of the loop variables.
struct NestGen {
    std::mt19937 rng;
    explicit NestGen(unsigned seed) : rng(seed) {}
    int pick(int k) { return (int)(rng() % k); }
    Expr small() { return make_const(Int(32), pick(7) - 3); }
    Expr bound() {
        switch (pick(3)) {
        case 0:
            return lo + small();
        case 1:
            return hi + small();
        default:
            return small() * 2;
        }
    }
    Expr coord(const Expr &v) {
        switch (pick(4)) {
        case 0:
            return v + small();
        case 1:
            return v * 2 + small();
        case 2:
            return small() - v;
        default:
            return v;
        }
    }
    Expr term(const std::vector<Expr> &vars) {
        Expr v = vars[pick((int)vars.size())];
        switch (pick(4)) {
        case 0:
            return clamp_(likely_(coord(v)), bound(), bound());
        case 1:
            return Min::make(likely_(coord(v)), bound());
        case 2:
            return Max::make(bound(), likely_(coord(v)));
        default: {
            Expr out = Or::make(LT::make(coord(v), bound()), GE::make(coord(v), bound()));
            return Select::make(out, small(), clamp_(likely_(coord(v)), bound(), bound()));
        }
        }
    }
    Stmt nest(bool two_d) {
        std::vector<Expr> vars = two_d ? std::vector<Expr>{x, y} : std::vector<Expr>{x};
        Expr value = term(vars) + term(vars) * 7;
        Expr index = two_d ? y * 64 + x : x;
        Stmt body = store("out", value, index);
        if (pick(3) == 0) {
            Expr v = vars[pick((int)vars.size())];
            body = IfThenElse::make(likely_(LT::make(coord(v), bound())), body,
                                    store("out", small(), index));
        }
        Stmt s = loop("x", m + small(), n, body);
        if (two_d) s = loop("y", small(), n + small(), s);
        return s;
    }
};

} // namespace

TEST(PartitionLoops, RandomNestsMatchTheOriginal) {
    NestGen g(77);
    int partitioned = 0;
    for (int k = 0; k < 60; k++) {
        Stmt s = g.nest(k % 2 == 1);
        Stmt p = partition_loops(s);
        if (loops_named(p, "x").size() > 1) partitioned++;
        ASSERT_EQ(census(p).likely, 0) << p;
        for (int64_t mv : {-3, 1}) {
            for (int64_t nv : {0, 1, 3, 8}) {
                for (int64_t lov : {-2, 1}) {
                    for (int64_t hiv : {2, 6}) {
                        expect_same_stores(s, p, {{"m", mv}, {"n", nv}, {"lo", lov}, {"hi", hiv}});
                    }
                }
            }
        }
    }
    EXPECT_GT(partitioned, 40) << "most random nests should partition";
}

// ---- Whole pipelines ----

namespace {

using BoundaryFn = std::function<Func(const ImageParam &)>;

struct Condition {
    const char *name;
    BoundaryFn make;
    std::function<int(const Buffer<int32_t> &, int, int)> ref;
};

std::vector<Condition> conditions() {
    auto at = [](const Buffer<int32_t> &in, int (*map)(int, int, int), int px, int py) {
        return in(map(px, in.dim(0).min(), in.width()), map(py, in.dim(1).min(), in.height()));
    };
    return {
        {"repeat_edge", [](const ImageParam &p) { return BoundaryConditions::repeat_edge(p); },
         [=](const Buffer<int32_t> &in, int px, int py) {
             return at(in, repeat_edge_ref, px, py);
         }},
        {"constant_exterior",
         [](const ImageParam &p) { return BoundaryConditions::constant_exterior(p, -9); },
         [](const Buffer<int32_t> &in, int px, int py) {
             bool inside = px >= in.dim(0).min() && px < in.dim(0).min() + in.width() &&
                           py >= in.dim(1).min() && py < in.dim(1).min() + in.height();
             return inside ? in(px, py) : -9;
         }},
        {"repeat_image", [](const ImageParam &p) { return BoundaryConditions::repeat_image(p); },
         [=](const Buffer<int32_t> &in, int px, int py) {
             return at(in, repeat_image_ref, px, py);
         }},
        {"mirror_image", [](const ImageParam &p) { return BoundaryConditions::mirror_image(p); },
         [=](const Buffer<int32_t> &in, int px, int py) {
             return at(in, mirror_image_ref, px, py);
         }},
        {"mirror_interior",
         [](const ImageParam &p) { return BoundaryConditions::mirror_interior(p); },
         [=](const Buffer<int32_t> &in, int px, int py) {
             return at(in, mirror_interior_ref, px, py);
         }},
    };
}

/// An asymmetric 5-point stencil, so a wrong neighbour shows.
template <typename F>
int stencil(F g, int px, int py) {
    return g(px - 1, py) + 2 * g(px, py) + 3 * g(px + 1, py) + 5 * g(px, py - 1) +
           7 * g(px, py + 1);
}

} // namespace

TEST(PartitionLoops, BoundaryConditionsAtTinySizes) {
    for (const Condition &c : conditions()) {
        for (bool root : {false, true}) {
            ImageParam input(Int(32), 2, "input");
            Func bounded = c.make(input);
            Func out("out");
            Var vx("x"), vy("y");
            out(vx, vy) = bounded(vx - 1, vy) + 2 * bounded(vx, vy) + 3 * bounded(vx + 1, vy) +
                          5 * bounded(vx, vy - 1) + 7 * bounded(vx, vy + 1);
            if (root) bounded.compute_root();
            for (int iw : {1, 2, 3, 5}) {
                for (int ih : {1, 2, 4}) {
                    Buffer<int32_t> in(iw, ih);
                    in.set_min(2, -1);
                    in.for_each_element(
                        [&](int px, int py) { in(px, py) = px * 13 + py * 101 + 7; });
                    input.set(in);
                    // Output regions: tiny, inside, straddling the edges, entirely outside.
                    struct Region {
                        int x, y, w, h;
                    };
                    for (Region r :
                         {Region{2, -1, 1, 1}, Region{1, -2, 2, 2}, Region{0, -3, 3, 3},
                          Region{2, -1, iw, ih}, Region{-1, -3, iw + 3, ih + 4},
                          Region{-20, 15, 4, 3}, Region{3, 0, 7, 1}, Region{1, -2, 1, 6}}) {
                        // The output is a window of a larger buffer whose margin must
                        // stay untouched: a loop running past its range would write there.
                        const int sentinel = 0x5ead;
                        Buffer<int32_t> big(r.w + 80, r.h + 20);
                        big.set_min(r.x - 40, r.y - 10);
                        big.fill(sentinel);
                        Buffer<int32_t> result = big.cropped({{r.x, r.w}, {r.y, r.h}});
                        out.realize(result);
                        auto g = [&](int px, int py) { return c.ref(in, px, py); };
                        big.for_each_element([&](int px, int py) {
                            bool inside =
                                px >= r.x && px < r.x + r.w && py >= r.y && py < r.y + r.h;
                            ASSERT_EQ(big(px, py), inside ? stencil(g, px, py) : sentinel)
                                << c.name << (root ? " (root)" : "") << " input " << iw << "x" << ih
                                << " output " << r.w << "x" << r.h << " at " << r.x << ", " << r.y
                                << ": wrong at " << px << ", " << py;
                        });
                    }
                }
            }
        }
    }
}

TEST(PartitionLoops, BlurSteadyStateHasNoClamps) {
    // The paper's blur with repeat_edge, blur_x inlined into blur_y (the default schedule).
    ImageParam input(UInt(16), 2, "input");
    Func clamped = BoundaryConditions::repeat_edge(input);
    Func blur_x("blur_x"), blur_y("blur_y");
    Var vx("x"), vy("y");
    blur_x(vx, vy) = (clamped(vx - 1, vy) + clamped(vx, vy) + clamped(vx + 1, vy)) / 3;
    blur_y(vx, vy) = (blur_x(vx, vy - 1) + blur_x(vx, vy) + blur_x(vx, vy + 1)) / 3;
    LoweredFunc f = lower({blur_y.function()}, "blur", get_host_target());

    // One row loop: its clamps are one min and max per row each, hoisted out of the column
    // loop, not worth copying the rows for. The columns partition in three.
    ASSERT_EQ(loops_named(f.body, "blur_y.s0.y").size(), 1u) << f.body;
    std::vector<const For *> xs = loops_named(f.body, "blur_y.s0.x");
    ASSERT_EQ(xs.size(), 3u) << f.body;
    // The steady columns: nine loads, no select, and no min or max of a column coordinate
    // (directly, or through a let of CSE or LICM whose value depends on the column).
    ColumnClamps steady;
    steady.column.insert(xs[1]->name);
    steady.dispatch(xs[1]->body);
    EXPECT_EQ(steady.clamps, 0) << xs[1]->body;
    EXPECT_EQ(census(xs[1]->body).select, 0);
    EXPECT_EQ(steady.loads, 9);
    // The edge columns keep their clamps of the column.
    ColumnClamps edge;
    edge.column.insert(xs[0]->name);
    edge.dispatch(xs[0]->body);
    EXPECT_GT(edge.clamps, 0) << xs[0]->body;
    EXPECT_EQ(census(f.body).likely, 0);
}

TEST(PartitionLoops, GuardedEdgeTilesPartitionTheirProducerRows) {
    // blur_x per 64-wide tile of blur_y, every split GuardWithIf (as the autoschedulers write
    // them). An edge tile's blur_x rows run min(64, what is left) columns: not a constant trip
    // count, but a bounded one, so they are partitioned like a steady tile's, and only the
    // vectors at the image's edge clamp their loads (gathers), not every vector of the row.
    ImageParam input(UInt(16), 2, "input");
    Func clamped = BoundaryConditions::repeat_edge(input);
    Func blur_x("edge_blur_x"), blur_y("edge_blur_y");
    Var vx("x"), vy("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi"), xv("xv"), xvi("xvi");
    blur_x(vx, vy) = (clamped(vx - 1, vy) + clamped(vx, vy) + clamped(vx + 1, vy)) / 3;
    blur_y(vx, vy) = (blur_x(vx, vy - 1) + blur_x(vx, vy) + blur_x(vx, vy + 1)) / 3;
    const TailStrategy guard = TailStrategy::GuardWithIf;
    blur_y.split(vx, xo, xi, 64, guard).split(vy, yo, yi, 64, guard).reorder(xi, yi, xo, yo);
    blur_y.split(xi, xv, xvi, 16, guard).vectorize(xvi);
    blur_x.compute_at(blur_y, xo).split(vx, xv, xvi, 16, guard).vectorize(xvi);
    LoweredFunc f = lower({blur_y.function()}, "blur", get_host_target());

    // The tile loop picks the steady tiles or the edge ones; in the edge tiles, blur_x's rows
    // split into an edge, a steady part and an edge, and the steady part does not gather.
    std::vector<const For *> tiles = loops_named(f.body, "edge_blur_y.s0.x.xo");
    ASSERT_FALSE(tiles.empty()) << f.body;
    int dense_edge_rows = 0;
    for (const For *t : tiles) {
        const IfThenElse *pick = t->body.as<IfThenElse>();
        if (!pick || !pick->else_case.defined()) continue;
        std::vector<const For *> rows = loops_named(pick->else_case, "edge_blur_x.s0.x.xv");
        EXPECT_GE(rows.size(), 3u) << pick->else_case;
        for (const For *r : rows) {
            int gathers = 0;
            visit_exprs(r->body, [&](const Expr &e) {
                const Load *l = e.as<Load>();
                if (l && l->type.is_vector() && !l->index.as<Ramp>()) gathers++;
                return true;
            });
            dense_edge_rows += gathers == 0;
        }
    }
    EXPECT_GT(dense_edge_rows, 0) << f.body;
    EXPECT_EQ(census(f.body).likely, 0);

    // And the values: every output pixel against the naive blur, on sizes that leave partial
    // tiles and vectors.
    for (int w : {5, 64, 100}) {
        Buffer<uint16_t> in(w, 70), out(w, 70);
        in.for_each_element([&](int x, int y) { in(x, y) = (uint16_t)((x * 37 + y * 11) % 1000); });
        input.set(in);
        blur_y.realize(out);
        auto at = [&](int x, int y) {
            return (int)in(std::min(std::max(x, 0), w - 1), std::min(std::max(y, 0), 69));
        };
        for (int y = 0; y < 70; y++) {
            for (int x = 0; x < w; x++) {
                auto bx = [&](int yy) { return (at(x - 1, yy) + at(x, yy) + at(x + 1, yy)) / 3; };
                ASSERT_EQ(out(x, y), (bx(y - 1) + bx(y) + bx(y + 1)) / 3)
                    << w << " " << x << " " << y;
            }
        }
    }
}
