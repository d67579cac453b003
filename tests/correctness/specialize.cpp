// specialize / specialize_fail / unscheduled: each specialized schedule gives the same values
// as naive loops, the loop nest holds one branch per specialization (if/else just inside the
// stage, with the branch's own loop kinds), and specialize_fail is a RuntimeError carrying the
// message.
#include <loom/loom.h>

#include "common/expect_error.h"
#include "ir/ir.h"
#include "ir/ir_visitor.h"
#include "lang/call_graph.h"
#include "lower/schedule_functions.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace loom;
using loom::internal::ForType;

namespace {

/// What the lowered loop nest of a stage looks like: the IfThenElse conditions met on the way
/// and, for each branch (then / else), the loop types found in it.
struct Branches {
    std::vector<std::string> conditions;
    std::vector<std::vector<ForType>> then_loops, else_loops;
};

class BranchFinder : public internal::IRVisitor {
public:
    explicit BranchFinder(const std::string &f) : func(f) {}
    Branches b;

protected:
    using internal::IRVisitor::visit;
    void visit(const internal::IfThenElse *op) override {
        std::ostringstream os;
        os << op->condition;
        b.conditions.push_back(os.str());
        b.then_loops.push_back(loops_in(op->then_case));
        b.else_loops.push_back(op->else_case.defined() ? loops_in(op->else_case)
                                                       : std::vector<ForType>());
        IRVisitor::visit(op);
    }

private:
    std::vector<ForType> loops_in(const internal::Stmt &s) {
        std::vector<ForType> r;
        class Loops : public internal::IRVisitor {
        public:
            std::vector<ForType> *out;

        protected:
            using internal::IRVisitor::visit;
            void visit(const internal::For *op) override {
                out->push_back(op->for_type);
                IRVisitor::visit(op);
            }
        } l;
        l.out = &r;
        l.dispatch(s);
        return r;
    }
    std::string func;
};

Branches branches(const Func &f) {
    internal::Stmt s = internal::schedule_functions(internal::build_call_graph({f.function()}));
    BranchFinder finder(f.name());
    finder.dispatch(s);
    return finder.b;
}

bool has(const std::vector<ForType> &v, ForType t) {
    return std::find(v.begin(), v.end(), t) != v.end();
}

int32_t ref_value(int x, int y) { return x * 3 + y * 7 - 5; }

} // namespace

TEST(Specialize, ParamBoolVectorizedBranch) {
    Var x("x"), y("y");
    Param<bool> p("sp_p");
    Func f("sp_f");
    f(x, y) = select(p, x * 3 + y * 7 - 5, x * 3 + y * 7 - 5);
    f.specialize(p).vectorize(x, 8);
    for (bool v : {true, false}) {
        p.set(v);
        Buffer<int32_t> out = f.realize({20, 6});
        for (int j = 0; j < 6; j++)
            for (int i = 0; i < 20; i++) ASSERT_EQ(out(i, j), ref_value(i, j)) << v;
    }
    Branches b = branches(f);
    ASSERT_EQ(b.conditions.size(), 1u);
    EXPECT_EQ(b.conditions[0], "sp_p");
    EXPECT_TRUE(has(b.then_loops[0], ForType::Vectorized));
    EXPECT_FALSE(has(b.else_loops[0], ForType::Vectorized));
}

TEST(Specialize, InputWidthChoosesBranch) {
    Var x("x");
    ImageParam in(Int(32), 1, "sp_in");
    Func g("sp_g");
    g(x) = in(clamp(x, 0, in.width() - 1)) * 2 + 1;
    g.specialize(in.width() >= 32).vectorize(x, 8);
    for (int w : {40, 20}) {
        Buffer<int32_t> b(w);
        for (int i = 0; i < w; i++) b(i) = i * i - 3;
        in.set(b);
        Buffer<int32_t> out = g.realize({24});
        for (int i = 0; i < 24; i++) {
            int c = std::min(i, w - 1);
            ASSERT_EQ(out(i), (c * c - 3) * 2 + 1) << w << " " << i;
        }
    }
    Branches br = branches(g);
    ASSERT_EQ(br.conditions.size(), 1u);
    EXPECT_NE(br.conditions[0].find("sp_in.extent.0"), std::string::npos) << br.conditions[0];
    EXPECT_TRUE(has(br.then_loops[0], ForType::Vectorized));
}

TEST(Specialize, NestedAndChained) {
    Var x("x"), y("y");
    Param<bool> a("sp_a"), c("sp_c");
    Func f("sp_nested");
    f(x, y) = x * 3 + y * 7 - 5;
    Stage sa = f.specialize(a);
    sa.specialize(c).vectorize(x, 4);
    sa.parallel(y);
    f.specialize(c).unroll(x, 2);
    // Specializing again on the same condition returns the same stage.
    f.specialize(a).split(y, y, Var("yi"), 2);
    for (bool va : {false, true}) {
        for (bool vc : {false, true}) {
            a.set(va);
            c.set(vc);
            Buffer<int32_t> out = f.realize({13, 9});
            for (int j = 0; j < 9; j++)
                for (int i = 0; i < 13; i++)
                    ASSERT_EQ(out(i, j), ref_value(i, j)) << va << vc << " " << i << "," << j;
        }
    }
    Branches b = branches(f);
    // if (a) { if (c) vec else par } else if (c) unrolled else default
    ASSERT_EQ(b.conditions.size(), 3u);
    EXPECT_EQ(b.conditions[0], "sp_a");
    EXPECT_TRUE(has(b.then_loops[0], ForType::Parallel));
    EXPECT_TRUE(has(b.then_loops[0], ForType::Vectorized));
}

TEST(Specialize, UpdateStageOverRVar) {
    Var x("x");
    RDom r(0, 50, "sp_r");
    Param<bool> p("sp_up");
    Func h("sp_hist");
    h(x) = 0;
    h(r % 10) += r;
    Func f("sp_upd");
    f(x) = x * 2;
    f(x) += h(x % 10);
    h.compute_root();
    f.update(0).specialize(p).vectorize(x, 4);
    std::vector<int> hist(10, 0);
    for (int i = 0; i < 50; i++) hist[i % 10] += i;
    for (bool v : {true, false}) {
        p.set(v);
        // (RoundUp for the update's x: the output's width is a multiple of 4.)
        Buffer<int32_t> out = f.realize({24});
        for (int i = 0; i < 24; i++) ASSERT_EQ(out(i), i * 2 + hist[i % 10]) << v;
    }
    // And on an update over an RVar (split with a guard in one branch only).
    Func g("sp_rupd");
    RDom q(0, 17, "sp_q");
    g(x) = x;
    g(q) += q * 5;
    RVar qo("qo"), qi("qi");
    g.update(0).specialize(p).split(q, qo, qi, 4);
    for (bool v : {true, false}) {
        p.set(v);
        Buffer<int32_t> out = g.realize({20});
        for (int i = 0; i < 20; i++) ASSERT_EQ(out(i), i < 17 ? i * 6 : i) << v;
    }
}

TEST(Specialize, ProducerComputedInsideEveryBranch) {
    Var x("x"), y("y");
    Param<bool> p("sp_pc");
    Func prod("sp_prod"), cons("sp_cons");
    prod(x, y) = x + y * 2;
    cons(x, y) = prod(x - 1, y) + prod(x + 1, y);
    prod.compute_at(cons, y);
    cons.specialize(p).vectorize(x, 4);
    for (bool v : {true, false}) {
        p.set(v);
        Buffer<int32_t> out = cons.realize({11, 5});
        for (int j = 0; j < 5; j++)
            for (int i = 0; i < 11; i++) ASSERT_EQ(out(i, j), 2 * i + 4 * j) << v;
    }
}

TEST(Specialize, FailIsARuntimeError) {
    Var x("x");
    Param<bool> p("sp_fail_p");
    Func f("sp_fail");
    f(x) = x + 1;
    f.specialize(p);
    f.specialize_fail("no schedule for this case");
    p.set(true);
    Buffer<int32_t> out = f.realize({5});
    for (int i = 0; i < 5; i++) EXPECT_EQ(out(i), i + 1);
    p.set(false);
    loom_test::expect_error<RuntimeError>([&] { f.realize({5}); }, {"no schedule for this case"});
}

TEST(Specialize, Unscheduled) {
    Var x("x");
    Func f("sp_unsched");
    f(x) = x;
    f(x) += 2;
    f.update(0).unscheduled();
    f.unscheduled();
    Buffer<int32_t> out = f.realize({4});
    for (int i = 0; i < 4; i++) EXPECT_EQ(out(i), i + 2);
}
