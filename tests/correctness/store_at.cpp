// store_root / store_at with compute_at: the Realize sits at the store level and produce/consume
// at the compute level; results equal the unscheduled pipeline (and naive loops) over odd sizes
// and mins, with parallel outer loops, splits, update stages and several consumers; the
// lowered statement shows the allocation outside the compute loop.
#include <loom/loom.h>

#include "ir/ir_visitor.h"
#include "lower/lower.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

using namespace loom;
using namespace loom::internal;

namespace {

Buffer<int32_t> make_input(int w, int h) {
    Buffer<int32_t> in(w, h);
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) in(i, j) = (i * 37 + j * 11 + (i * j) % 7) % 101;
    return in;
}

/// A stencil chain on a clamped input: f (3-tap in x), g (5-tap in y of f), out (3-tap of g
/// with a downsample in y and an upsample in x).
struct Chain {
    Var x{"x"}, y{"y"};
    Func f, g, out;
    Buffer<int32_t> in = make_input(64, 64);
    explicit Chain(const std::string &p) : f(p + "_f"), g(p + "_g"), out(p + "_out") {
        Func c = BoundaryConditions::repeat_edge(in);
        f(x, y) = c(x - 1, y) + 2 * c(x, y) + c(x + 1, y);
        g(x, y) = f(x, y - 2) + f(x, y - 1) * 3 + f(x, y) * 5 + f(x, y + 1) - f(x, y + 2);
        out(x, y) = g(x / 2, 2 * y - 1) + g(x / 2, 2 * y) * 7 + g(x / 2 + 1, 2 * y + 1);
    }
};

Buffer<int32_t> realize_at(Func f, int w, int h, int x0, int y0) {
    Buffer<int32_t> b(w, h);
    b.set_min(x0, y0);
    f.realize(b);
    return b;
}

void expect_same(const std::function<void(Chain &)> &schedule) {
    // One compilation each; the JIT-compiled pipelines are reused for every size.
    // The reference computes every stage at the root (inlining the whole chain compiles slowly).
    Chain ref("ref"), c("sch");
    ref.f.compute_root();
    ref.g.compute_root();
    schedule(c);
    for (auto sz : std::vector<std::array<int, 4>>{{17, 13, 0, 0}, {23, 9, -5, 7}, {8, 5, 3, -4}}) {
        Buffer<int32_t> a = realize_at(ref.out, sz[0], sz[1], sz[2], sz[3]);
        Buffer<int32_t> b = realize_at(c.out, sz[0], sz[1], sz[2], sz[3]);
        for (int j = sz[3]; j < sz[3] + sz[1]; j++)
            for (int i = sz[2]; i < sz[2] + sz[0]; i++)
                ASSERT_EQ(a(i, j), b(i, j)) << i << ", " << j << " size " << sz[0] << "x" << sz[1];
    }
}

/// The names of the loops enclosing each Allocate, outermost first ("" at the root).
std::map<std::string, std::vector<std::string>> allocation_sites(const Stmt &s) {
    class V : public IRVisitor {
    public:
        std::map<std::string, std::vector<std::string>> sites;
        std::vector<std::string> loops;

    protected:
        using IRVisitor::visit;
        void visit(const For *op) override {
            loops.push_back(op->name);
            IRVisitor::visit(op);
            loops.pop_back();
        }
        void visit(const Allocate *op) override {
            sites[op->name] = loops;
            IRVisitor::visit(op);
        }
    } v;
    v.dispatch(s);
    return v.sites;
}

} // namespace

TEST(StoreAt, StoreRootComputeAtRow) {
    expect_same([](Chain &c) {
        c.f.store_root().compute_at(c.g, c.y);
        c.g.compute_root();
    });
}

TEST(StoreAt, ComputeAtThenStoreRootOrder) {
    expect_same([](Chain &c) {
        c.f.compute_at(c.out, c.y).store_root();
        c.g.compute_at(c.out, c.y).store_root();
    });
}

TEST(StoreAt, StoreAtOuterComputeAtInner) {
    expect_same([](Chain &c) {
        c.out.split(c.y, Var("yo"), Var("yi"), 4);
        c.g.store_at(c.out, Var("yo")).compute_at(c.out, Var("yi"));
        c.f.store_at(c.out, Var("yo")).compute_at(c.out, Var("yi"));
    });
}

TEST(StoreAt, ParallelOuterLoop) {
    expect_same([](Chain &c) {
        c.out.split(c.y, Var("yo"), Var("yi"), 3).parallel(Var("yo"));
        c.g.store_at(c.out, Var("yo")).compute_at(c.out, Var("yi"));
        c.f.store_root().compute_at(c.out, Var("yi"));
    });
}

TEST(StoreAt, StoreAtXComputeAtInnerX) {
    expect_same([](Chain &c) {
        c.out.split(c.x, Var("xo"), Var("xi"), 4);
        c.g.store_at(c.out, c.y).compute_at(c.out, Var("xi"));
        c.f.store_at(c.out, c.y).compute_at(c.out, Var("xo"));
    });
}

TEST(StoreAt, UpdateStages) {
    Var x("x"), y("y");
    Buffer<int32_t> in = make_input(40, 40);
    auto build = [&](const std::string &p, bool sched) {
        Func h(p + "_h"), o(p + "_o");
        Func c = BoundaryConditions::repeat_edge(in);
        h(x, y) = c(x, y) * 2;
        h(x, y) += c(x + 1, y - 1);
        o(x, y) = h(x, y - 1) + h(x, y + 1);
        if (sched) h.store_root().compute_at(o, y);
        return o;
    };
    Buffer<int32_t> a = realize_at(build("ua", false), 19, 11, -2, 3);
    Buffer<int32_t> b = realize_at(build("ub", true), 19, 11, -2, 3);
    for (int j = 3; j < 14; j++)
        for (int i = -2; i < 17; i++) ASSERT_EQ(a(i, j), b(i, j)) << i << ", " << j;
}

TEST(StoreAt, SeveralConsumers) {
    Var x("x"), y("y");
    Buffer<int32_t> in = make_input(40, 40);
    auto build = [&](const std::string &p, bool sched) {
        Func f(p + "_f"), a(p + "_a"), b(p + "_b"), o(p + "_o");
        Func c = BoundaryConditions::repeat_edge(in);
        f(x, y) = c(x, y) + c(x + 1, y);
        a(x, y) = f(x, y - 1) + f(x, y);
        b(x, y) = f(x, y + 1) * 3;
        o(x, y) = a(x, y) + b(x, y);
        if (sched) {
            a.compute_at(o, y);
            b.compute_at(o, y);
            f.store_root().compute_at(o, y);
        }
        return o;
    };
    Buffer<int32_t> r = realize_at(build("sa", false), 21, 15, 1, -3);
    Buffer<int32_t> s = realize_at(build("sb", true), 21, 15, 1, -3);
    for (int j = -3; j < 12; j++)
        for (int i = 1; i < 22; i++) ASSERT_EQ(r(i, j), s(i, j)) << i << ", " << j;
}

TEST(StoreAt, AllocationAtStoreLevel) {
    Chain c("alloc");
    c.out.split(c.y, Var("yo"), Var("yi"), 4);
    c.g.store_at(c.out, Var("yo")).compute_at(c.out, Var("yi"));
    c.f.store_root().compute_at(c.out, Var("yi"));
    LoweredFunc lf = lower({c.out.function()}, "alloc", get_host_target());
    auto sites = allocation_sites(lf.body);
    ASSERT_TRUE(sites.count("alloc_g")) << lf.body;
    ASSERT_TRUE(sites.count("alloc_f")) << lf.body;
    // g's storage is inside the yo loop, not inside yi; f's is outside every loop of out.
    const auto &gs = sites["alloc_g"];
    ASSERT_FALSE(gs.empty());
    EXPECT_EQ(gs.back(), "alloc_out.s0.y.yo") << lf.body;
    for (const std::string &l : sites["alloc_f"])
        EXPECT_EQ(l.find("alloc_out.s0.y"), std::string::npos);
}

TEST(StoreAt, HoistStorage) {
    Var x("x"), y("y");
    Buffer<int32_t> in = make_input(40, 40);
    auto build = [&](const std::string &p, bool sched) {
        Func f(p + "_f"), o(p + "_o");
        Func c = BoundaryConditions::repeat_edge(in);
        f(x, y) = c(x, y) * 3 - c(x + 1, y);
        o(x, y) = f(x, y) + f(x + 1, y) + f(x, y + 1);
        if (sched) {
            o.split(y, Var("yo"), Var("yi"), 4);
            f.compute_at(o, Var("yi")).hoist_storage(o, Var("yo"));
        } else {
            f.compute_root();
        }
        return o;
    };
    Func s = build("hs", true);
    LoweredFunc lf = lower({s.function()}, "hoist", get_host_target());
    auto sites = allocation_sites(lf.body);
    ASSERT_TRUE(sites.count("hs_f")) << lf.body;
    ASSERT_FALSE(sites["hs_f"].empty());
    EXPECT_EQ(sites["hs_f"].back(), "hs_o.s0.y.yo") << lf.body;
    Buffer<int32_t> a = realize_at(build("hr", false), 19, 12, -3, 2);
    Buffer<int32_t> b = realize_at(s, 19, 12, -3, 2);
    for (int j = 2; j < 14; j++)
        for (int i = -3; i < 16; i++) ASSERT_EQ(a(i, j), b(i, j)) << i << ", " << j;
}
