// compute_with (lower/compute_with.h): the loop nest build_fused_group builds for a fused group
// (lang/fusion.h's relation). The header's example, IR expected compared structurally: one
// __outermost loop, every member's loop bound lets, the shared loop over the union of the
// members' ranges named after the owner ("f.s0.fused.y"), each member's part under a likely()
// guard of its own range and bound by a one-iteration loop of its own name, in order, inside
// produce f { produce g } / consume f { consume g }. Then: AlignStart / AlignEnd shifts, fusion
// down to the innermost loop, and the check only the nest can make (two stages of one Func
// share a loop only over a pure Var each reads and writes at that Var).
#include "lower_test_util.h"

#include "lang/call_graph.h"
#include "lower/build_provide_loop_nest.h"
#include "lower/compute_with.h"

#include <functional>

using namespace loom;
using namespace loom::test;

namespace {

Expr likely_of(const Expr &e) {
    return Call::make(e.type(), Call::likely, {e}, Call::PureIntrinsic);
}

/// The stage's own nest (build_provide_loop_nest) taken apart: the loop bound lets inside
/// __outermost and the body of its outermost loop.
struct OwnNest {
    Stmt nest;
    std::vector<std::pair<std::string, Expr>> lets;
    const For *outer = nullptr;
    explicit OwnNest(const Function &f, int stage = 0) : nest(build_provide_loop_nest(f, stage)) {
        Stmt s = nest.as<For>()->body;
        while (const LetStmt *l = s.as<LetStmt>()) {
            lets.emplace_back(l->name, l->value);
            s = l->body;
        }
        outer = s.as<For>();
    }
};

Stmt wrap_lets(const std::vector<std::pair<std::string, Expr>> &lets, Stmt s) {
    for (auto it = lets.rbegin(); it != lets.rend(); ++it)
        s = LetStmt::make(it->first, it->second, s);
    return s;
}

/// The first For named `name` in s (null when none).
const For *find_loop(const Stmt &s, const std::string &name) {
    const For *found = nullptr;
    class Find : public IRVisitor {
    public:
        const std::string &name;
        const For *&found;
        Find(const std::string &n, const For *&f) : name(n), found(f) {}

    protected:
        using IRVisitor::visit;
        void visit(const For *op) override {
            if (op->name == name && !found) found = op;
            IRVisitor::visit(op);
        }
    } find(name, found);
    find.dispatch(s);
    return found;
}

/// The conditions of the IfThenElse nodes on the way from s down to the For named `name`.
std::vector<Expr> guards_of(const Stmt &s, const std::string &name) {
    std::vector<Expr> path, result;
    std::function<bool(const Stmt &)> walk = [&](const Stmt &st) -> bool {
        if (!st.defined()) return false;
        if (const For *f = st.as<For>()) return f->name == name ? true : walk(f->body);
        if (const LetStmt *l = st.as<LetStmt>()) return walk(l->body);
        if (const Block *b = st.as<Block>()) return walk(b->first) || walk(b->rest);
        if (const ProducerConsumer *p = st.as<ProducerConsumer>()) return walk(p->body);
        if (const IfThenElse *i = st.as<IfThenElse>()) {
            path.push_back(i->condition);
            if (walk(i->then_case)) return true;
            path.pop_back();
            return walk(i->else_case);
        }
        return false;
    };
    if (walk(s)) result = path;
    return result;
}

/// The graph of compute_with_pair() after `tweak` changed g's schedule (the relation is read
/// when the graph is built).
CallGraph pair_graph(const std::function<void(Function &)> &tweak) {
    Function out = compute_with_pair();
    Function g = build_call_graph({out}).func("g");
    tweak(g);
    return build_call_graph({out});
}

Stmt fuse(const CallGraph &g, const Stmt &consumer) {
    EXPECT_EQ(g.fusion.groups.size(), 1u);
    return build_fused_group(g.fusion.groups[0], g.fusion, consumer, false);
}

} // namespace

TEST(ComputeWith, HeaderExampleSharesTheOuterLoop) {
    // f(x, y) = x + y; g(x, y) = x - y; both compute_root; g.compute_with(f, y).
    CallGraph graph = build_call_graph({compute_with_pair()});
    const Function &f = graph.func("f"), &g = graph.func("g");
    Stmt consumer = Evaluate::make(ivar("consumer"));
    Stmt after = fuse(graph, consumer);

    OwnNest fn(f), gn(g);
    ASSERT_TRUE(fn.outer && gn.outer);
    Expr fused = ivar("f.s0.fused.y");
    auto part = [&](const std::string &s, const OwnNest &n) {
        Expr in_range = ivar(s + ".s0.y.loop_min") <= fused && fused <= ivar(s + ".s0.y.loop_max");
        return IfThenElse::make(
            likely_of(in_range),
            For::make(s + ".s0.y", fused, 1, ForType::Serial, DeviceAPI::None, n.outer->body));
    };
    Stmt loop =
        For::make("f.s0.fused.y", ivar("f.s0.fused.y.loop_min"), ivar("f.s0.fused.y.loop_extent"),
                  ForType::Serial, DeviceAPI::None, Block::make(part("f", fn), part("g", gn)));
    std::vector<std::pair<std::string, Expr>> lets = fn.lets;
    lets.insert(lets.end(), gn.lets.begin(), gn.lets.end());
    lets.emplace_back("f.s0.fused.y.loop_min",
                      Min::make(ivar("f.s0.y.loop_min"), ivar("g.s0.y.loop_min")));
    lets.emplace_back("f.s0.fused.y.loop_max",
                      Max::make(ivar("f.s0.y.loop_max"), ivar("g.s0.y.loop_max")));
    lets.emplace_back("f.s0.fused.y.loop_extent",
                      simplify(ivar("f.s0.fused.y.loop_max") + 1 - ivar("f.s0.fused.y.loop_min")));
    Stmt unit = For::make("f.s0.__outermost", 0, 1, ForType::Serial, DeviceAPI::None,
                          wrap_lets(lets, loop));
    Stmt expected = Block::make(
        ProducerConsumer::make_produce("f", ProducerConsumer::make_produce("g", unit)),
        ProducerConsumer::make_consume("f", ProducerConsumer::make_consume("g", consumer)));
    EXPECT_IR_EQ(after, expected);
}

TEST(ComputeWith, AlignStartShiftsTheChildToTheParentsMin) {
    // g's iteration = fused + (g.loop_min - f.loop_min): both start together.
    CallGraph graph = pair_graph([](Function &g) {
        g.definition().schedule.fuse_align_default = LoopAlignStrategy::AlignStart;
    });
    Stmt after = fuse(graph, Evaluate::make(0));
    Expr fused = ivar("f.s0.fused.y");
    Expr shift = ivar("g.s0.y.loop_min") - ivar("f.s0.y.loop_min");
    const For *gy = find_loop(after, "g.s0.y");
    ASSERT_TRUE(gy) << after;
    EXPECT_IR_EQ(gy->min, simplify(fused + shift));
    EXPECT_TRUE(is_const(gy->extent, 1));
    std::vector<Expr> guards = guards_of(after, "g.s0.y");
    ASSERT_EQ(guards.size(), 1u) << after;
    Expr lo = simplify(ivar("g.s0.y.loop_min") - shift),
         hi = simplify(ivar("g.s0.y.loop_max") - shift);
    EXPECT_IR_EQ(guards[0], likely_of(lo <= fused && fused <= hi));
    // The shared loop covers f's range and g's range shifted.
    auto lets = let_bindings(after);
    EXPECT_IR_EQ(lets["f.s0.fused.y.loop_min"], Min::make(ivar("f.s0.y.loop_min"), lo));
    EXPECT_IR_EQ(lets["f.s0.fused.y.loop_max"], Max::make(ivar("f.s0.y.loop_max"), hi));
    // f runs unshifted.
    const For *fy = find_loop(after, "f.s0.y");
    ASSERT_TRUE(fy) << after;
    EXPECT_IR_EQ(fy->min, fused);
}

TEST(ComputeWith, AlignEndShiftsTheChildToTheParentsMax) {
    CallGraph graph = pair_graph(
        [](Function &g) { g.definition().schedule.fuse_align["y"] = LoopAlignStrategy::AlignEnd; });
    Stmt after = fuse(graph, Evaluate::make(0));
    Expr shift = ivar("g.s0.y.loop_max") - ivar("f.s0.y.loop_max");
    const For *gy = find_loop(after, "g.s0.y");
    ASSERT_TRUE(gy) << after;
    EXPECT_IR_EQ(gy->min, simplify(ivar("f.s0.fused.y") + shift));
}

TEST(ComputeWith, FusedDownToTheInnermostLoop) {
    // g.compute_with(f, x): both loops shared; each member's Provide under two guards.
    CallGraph graph =
        pair_graph([](Function &g) { g.definition().schedule.fuse_level = loop_level("f", "x"); });
    Stmt after = fuse(graph, Evaluate::make(0));
    const For *fy = find_loop(after, "f.s0.fused.y");
    ASSERT_TRUE(fy) << after;
    const For *fx = fy->body.as<For>();
    ASSERT_TRUE(fx) << after;
    EXPECT_EQ(fx->name, "f.s0.fused.x");
    for (const std::string &s : {"f", "g"}) {
        std::vector<Expr> guards = guards_of(after, s + ".s0.y");
        ASSERT_EQ(guards.size(), 2u) << after;
        const For *own_y = find_loop(after, s + ".s0.y");
        ASSERT_TRUE(own_y);
        EXPECT_IR_EQ(own_y->min, ivar("f.s0.fused.y"));
        const For *own_x = own_y->body.as<For>();
        ASSERT_TRUE(own_x) << after;
        EXPECT_EQ(own_x->name, s + ".s0.x");
        EXPECT_IR_EQ(own_x->min, ivar("f.s0.fused.x"));
        EXPECT_TRUE(is_const(own_x->extent, 1));
        EXPECT_TRUE(own_x->body.as<Provide>()) << after;
    }
    // f's part runs before g's in each iteration.
    const Block *b = fx->body.as<Block>();
    ASSERT_TRUE(b) << after;
    EXPECT_TRUE(find_loop(b->first, "f.s0.y"));
    EXPECT_TRUE(find_loop(b->rest, "g.s0.y"));
}

namespace {

/// f(x, y) = x + y; f(x, y) = f(x, read_y) * 2, the update computed with the pure stage at y.
CallGraph own_stages(const Expr &read_y) {
    Expr x = ivar("x"), y = ivar("y");
    Function f = make_func("f", {"x", "y"}, {x + y});
    f.define_update({x, y}, {f.make_call({x, read_y}) * 2});
    f.schedule().compute_level = LoopLevelSpec::root();
    LoopLevelSpec at = loop_level("f", "y");
    at.stage_index = 0;
    f.updates()[0].schedule.fuse_level = at;
    Function out = make_func("out", {"x", "y"}, {f.make_call({x, y})});
    return build_call_graph({out});
}

} // namespace

TEST(ComputeWith, StagesOfOneFuncShareTheLoopOverTheVarTheyAccessAt) {
    CallGraph graph = own_stages(ivar("y"));
    Stmt after = fuse(graph, Evaluate::make(0));
    const For *fy = find_loop(after, "f.s0.fused.y");
    ASSERT_TRUE(fy) << after;
    const Block *b = fy->body.as<Block>();
    ASSERT_TRUE(b) << after;
    // The pure stage's part, then the update's.
    EXPECT_TRUE(find_loop(b->first, "f.s0.y"));
    EXPECT_TRUE(find_loop(b->rest, "f.s1.y"));
    EXPECT_FALSE(find_loop(b->first, "f.s1.y"));
}

TEST(ComputeWith, StagesOfOneFuncReadingAnotherRowCantShareTheLoop) {
    // f(x, y) = f(x, y - 1) * 2 reads the row the pure stage computes in another iteration.
    CallGraph graph = own_stages(ivar("y") - 1);
    try {
        fuse(graph, Evaluate::make(0));
        FAIL() << "expected a CompileError";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("two stages of f, would share the loop over y"),
                  std::string::npos)
            << e.what();
    }
}

TEST(ComputeWith, WithRealizeWrapsTheGroupInTheMembersRealizations) {
    CallGraph graph = build_call_graph({compute_with_pair()});
    const FusedGroup &group = graph.fusion.groups[0];
    Stmt consumer = Evaluate::make(0);
    Stmt bare = build_fused_group(group, graph.fusion, consumer, false);
    Stmt after = build_fused_group(group, graph.fusion, consumer, true);
    // realize f { realize g { <the group> } }, f outermost.
    const Realize *rf = after.as<Realize>();
    ASSERT_TRUE(rf) << after;
    EXPECT_EQ(rf->name, "f");
    const Realize *rg = rf->body.as<Realize>();
    ASSERT_TRUE(rg) << after;
    EXPECT_EQ(rg->name, "g");
    EXPECT_IR_EQ(rg->body, bare);
}
