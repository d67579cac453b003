// storage_folding: a Func stored outside a serial loop and computed inside it, whose region in
// one dimension moves monotonically with the loop over a constant footprint, gets a circular
// buffer there: the Realize's bounds become [0, factor) with factor the smallest power of two
// covering the footprint, and every access indexes coordinate % factor. Checked on nests built
// by hand (IR before -> IR expected: the header's example, rounding up to a power of two, a
// window moving backwards), on the cases left alone (a parallel loop, a region that does not move
// monotonically, a symbolic footprint, storage at the compute level), on fold_storage (a forced
// factor, too small: Halide's CompileError; symbolic: the run-time check; not foldable: a
// CompileError), and through the lowering on the header's blur and on lesson 8's per-pixel window.
#include "lower_test_util.h"

#include "lang/call_graph.h"
#include "lower/alias_bound_lets.h"
#include "lower/bounds_inference.h"
#include "lower/schedule_functions.h"
#include "lower/sliding_window.h"
#include "lower/storage_folding.h"

using namespace loom;
using namespace loom::test;

namespace {

Stmt serial(const std::string &v, const Expr &min, const Expr &extent, const Stmt &body,
            ForType t = ForType::Serial) {
    return For::make(v, min, extent, t, DeviceAPI::None, body);
}

/// realize f(x, y) { for (g.s0.y, 0, 100) { produce f { rows [lo, lo + n) } consume f {
/// g(x, y) = f(x, rows[0]) + ... } } }: f stored outside the loop over g.s0.y, computed inside.
/// `fold` applies to f's accesses in dimension y (undefined: none, the IR before).
struct FoldNest {
    Function f = make_func("f", {"x", "y"}, {ivar("x") + ivar("y")});
    std::map<std::string, Function> env{{"f", f}};
    Expr y = ivar("g.s0.y");

    void force_fold(const Expr &factor) {
        StorageDim d;
        d.var = "y";
        d.fold_factor = factor;
        f.schedule().storage_dims.push_back(d);
    }

    static Expr folded(const Expr &row, const Expr &fold) {
        return fold.defined() ? Mod::make(row, fold) : row;
    }

    Stmt produce_consume(const Expr &lo, const Expr &n, const std::vector<Expr> &rows,
                         const Expr &fold) const {
        Expr fx = ivar("f.s0.x"), fy = ivar("f.s0.y"), gx = ivar("g.s0.x");
        Stmt produce =
            serial("f.s0.y", lo, n,
                   serial("f.s0.x", 0, 10,
                          Provide::make("f", {fx + fy}, {fx, folded(fy, fold)}, const_true())));
        Expr sum;
        for (const Expr &r : rows) {
            Expr c = f.make_call({gx, folded(r, fold)});
            sum = sum.defined() ? sum + c : c;
        }
        Stmt consume = serial("g.s0.x", 0, 10, Provide::make("g", {sum}, {gx, y}, const_true()));
        return Block::make(ProducerConsumer::make_produce("f", produce),
                           ProducerConsumer::make_consume("f", consume));
    }

    Stmt realize(const Stmt &body, const Expr &fold) const {
        Range ry = fold.defined() ? Range(Expr(0), fold)
                                  : Range(ivar("f.y.min_realized"), ivar("f.y.extent_realized"));
        return Realize::make("f", {Int(32)}, MemoryType::Auto,
                             {Range(ivar("f.x.min_realized"), ivar("f.x.extent_realized")), ry},
                             const_true(), body);
    }

    Stmt nest(const Expr &lo, const Expr &n, const std::vector<Expr> &rows,
              const Expr &fold = Expr(), ForType t = ForType::Serial) const {
        return realize(serial("g.s0.y", 0, 100, produce_consume(lo, n, rows, fold), t), fold);
    }
};

/// The message of the CompileError `f` throws ("" when it throws none).
template <typename F>
std::string compile_error(F &&f) {
    try {
        f();
    } catch (const CompileError &e) {
        return e.what();
    }
    return "";
}

/// The pipeline lowered as lower.cpp orders it, up to storage_folding.
Stmt lower_to_storage_folding(const Function &out) {
    CallGraph g = build_call_graph({out});
    Stmt s = bounds_inference(schedule_functions(g), g);
    s = simplify(sliding_window(s, g.env));
    s = simplify(alias_bound_lets(s));
    return storage_folding(s, g.env);
}

/// The Realize of `name` in s.
const Realize *find_realize(const Stmt &s, const std::string &name) {
    const Realize *found = nullptr;
    class Find : public IRVisitor {
    public:
        const std::string &name;
        const Realize *&found;
        Find(const std::string &n, const Realize *&f) : name(n), found(f) {}

    protected:
        using IRVisitor::visit;
        void visit(const Realize *op) override {
            if (op->name == name && !found) found = op;
            IRVisitor::visit(op);
        }
    } find(name, found);
    find.dispatch(s);
    return found;
}

/// The argument `dim` of every access (Provide or call) to Func `name` in s.
std::vector<Expr> access_args(const Stmt &s, const std::string &name, int dim) {
    std::vector<Expr> args;
    class Collect : public IRVisitor {
    public:
        const std::string &name;
        int dim;
        std::vector<Expr> &args;
        Collect(const std::string &n, int d, std::vector<Expr> &a) : name(n), dim(d), args(a) {}

    protected:
        using IRVisitor::visit;
        void visit(const Provide *op) override {
            if (op->name == name) args.push_back(op->args[dim]);
            IRVisitor::visit(op);
        }
        void visit(const Call *op) override {
            if (op->call_type == Call::Halide && op->name == name) args.push_back(op->args[dim]);
            IRVisitor::visit(op);
        }
    } collect(name, dim, args);
    collect.dispatch(s);
    return args;
}

} // namespace

TEST(StorageFolding, ThreeRowWindowFoldsByFour) {
    // The header's example by hand: rows y - 1 .. y + 1 live per iteration -> factor 4.
    FoldNest n;
    Expr y = n.y;
    std::vector<Expr> rows = {y - 1, y, y + 1};
    Stmt after = storage_folding(n.nest(y - 1, 3, rows), n.env);
    EXPECT_IR_EQ(after, n.nest(y - 1, 3, rows, Expr(4)));
}

TEST(StorageFolding, FactorIsThePowerOfTwoAboveTheFootprint) {
    FoldNest n;
    Expr y = n.y;
    // Five rows -> 8; two rows -> 2.
    std::vector<Expr> five = {y - 2, y + 2};
    EXPECT_IR_EQ(storage_folding(n.nest(y - 2, 5, five), n.env), n.nest(y - 2, 5, five, 8));
    std::vector<Expr> two = {y, y + 1};
    EXPECT_IR_EQ(storage_folding(n.nest(y, 2, two), n.env), n.nest(y, 2, two, 2));
}

TEST(StorageFolding, WindowMovingBackwardsFolds) {
    FoldNest n;
    Expr ny = 0 - n.y;
    std::vector<Expr> rows = {ny - 1, ny + 1};
    Stmt after = storage_folding(n.nest(ny - 1, 3, rows), n.env);
    EXPECT_IR_EQ(after, n.nest(ny - 1, 3, rows, Expr(4)));
}

TEST(StorageFolding, ParallelLoopIsNotFolded) {
    // The iterations of a parallel loop would share the circular buffer.
    FoldNest n;
    Expr y = n.y;
    Stmt before = n.nest(y - 1, 3, {y - 1, y + 1}, Expr(), ForType::Parallel);
    EXPECT_TRUE(storage_folding(before, n.env).same_as(before));
    // A forced fold there is a CompileError.
    n.force_fold(4);
    std::string msg = compile_error([&] { storage_folding(before, n.env); });
    EXPECT_NE(msg.find("Can't fold storage of f in dimension y by 4"), std::string::npos) << msg;
    EXPECT_NE(msg.find("parallel"), std::string::npos) << msg;
}

TEST(StorageFolding, RegionNotMovingMonotonicallyIsNotFolded) {
    // Rows (y % 8) .. (y % 8) + 2: the window jumps back every 8 iterations.
    FoldNest n;
    Expr r = n.y % 8;
    Stmt before = n.nest(r, 3, {r, r + 2});
    EXPECT_TRUE(storage_folding(before, n.env).same_as(before));
    n.force_fold(4);
    std::string msg = compile_error([&] { storage_folding(before, n.env); });
    EXPECT_NE(msg.find("does not move monotonically"), std::string::npos) << msg;
}

TEST(StorageFolding, SymbolicFootprintIsNotFoldedAutomatically) {
    // Rows y .. y + k - 1 for a parameter k: the footprint has no constant bound.
    FoldNest n;
    Expr y = n.y, k = ivar("k");
    Stmt before = n.nest(y, k, {y});
    EXPECT_TRUE(storage_folding(before, n.env).same_as(before));
}

TEST(StorageFolding, ForcedFactorIsUsedAsGiven) {
    // fold_storage(y, 6): not rounded to a power of two, and more than the 3 rows needed.
    FoldNest n;
    n.force_fold(6);
    Expr y = n.y;
    std::vector<Expr> rows = {y - 1, y + 1};
    EXPECT_IR_EQ(storage_folding(n.nest(y - 1, 3, rows), n.env), n.nest(y - 1, 3, rows, 6));
}

TEST(StorageFolding, ForcedFactorTooSmallIsACompileError) {
    FoldNest n;
    n.force_fold(2);
    Expr y = n.y;
    Stmt before = n.nest(y - 1, 3, {y - 1, y + 1});
    std::string msg = compile_error([&] { storage_folding(before, n.env); });
    EXPECT_NE(msg.find("The fold factor (2) of dimension y of f is too small to store the "
                       "required region accessed by loop g.s0.y (3)."),
              std::string::npos)
        << msg;
}

TEST(StorageFolding, ForcedFactorOverSymbolicFootprintIsCheckedAtRunTime) {
    // Rows y .. y + k - 1 folded by 4: an assertion before `produce f` reports a k > 4.
    FoldNest n;
    n.force_fold(4);
    Expr y = n.y, k = ivar("k");
    Stmt after = storage_folding(n.nest(y, k, {y}), n.env);
    const Realize *r = after.as<Realize>();
    ASSERT_TRUE(r) << after;
    EXPECT_IR_EQ(r->bounds[1].min, Expr(0));
    EXPECT_IR_EQ(r->bounds[1].extent, Expr(4));
    const For *loop = r->body.as<For>();
    ASSERT_TRUE(loop) << after;
    const Block *b = loop->body.as<Block>();
    ASSERT_TRUE(b) << after;
    const AssertStmt *check = b->first.as<AssertStmt>();
    ASSERT_TRUE(check) << after;
    // The rest is the folded produce/consume.
    EXPECT_IR_EQ(b->rest, n.produce_consume(y, k, {y}, Expr(4)));
    const Call *msg = check->message.as<Call>();
    ASSERT_TRUE(msg) << after;
    EXPECT_EQ(msg->name, "halide_error_fold_factor_too_small");
    ASSERT_EQ(msg->args.size(), 6u) << after;
    EXPECT_IR_EQ(msg->args[1], Expr("f"));
    EXPECT_IR_EQ(msg->args[2], Expr("y"));
    EXPECT_IR_EQ(msg->args[3], Expr(4));
    EXPECT_IR_EQ(msg->args[4], Expr("g.s0.y"));
    // The condition is extent <= 4 with the extent reported: k rows (at least the one read).
    for (int kv : {1, 3, 4, 5, 9}) {
        std::map<std::string, Expr> at{{"k", Expr(kv)}, {"g.s0.y", Expr(7)}};
        Expr extent = simplify(substitute(at, msg->args[5]));
        Expr ok = simplify(substitute(at, check->condition));
        EXPECT_IR_EQ(extent, Expr(std::max(kv, 1))) << "k = " << kv;
        EXPECT_TRUE(is_const(ok, kv <= 4)) << "k = " << kv << ": " << ok;
    }
}

TEST(StorageFolding, StorageAtTheComputeLevelIsNotFolded) {
    // realize f inside the loop: nothing is live across iterations.
    FoldNest n;
    Expr y = n.y;
    Stmt before =
        serial("g.s0.y", 0, 100, n.realize(n.produce_consume(y - 1, 3, {y - 1}, Expr()), Expr()));
    EXPECT_TRUE(storage_folding(before, n.env).same_as(before));
}

TEST(StorageFolding, BlurStoredAtRootFoldsRowsByFour) {
    // The header's example through the lowering: blur_x store_root, compute_at(blur_y, y),
    // blur_y reading rows y - 1 .. y + 1 (the sliding window's first iteration computes 3).
    Expr x = ivar("x"), y = ivar("y");
    Function bx = make_func("sf_bx", {"x", "y"}, {x * 2 + y});
    bx.schedule().store_level = LoopLevelSpec::root();
    bx.schedule().store_level_set = true;
    bx.schedule().compute_level = loop_level("sf_by", "y");
    Function by =
        make_func("sf_by", {"x", "y"},
                  {bx.make_call({x, y - 1}) + bx.make_call({x, y}) + bx.make_call({x, y + 1})});
    Stmt s = lower_to_storage_folding(by);
    const Realize *r = find_realize(s, "sf_bx");
    ASSERT_TRUE(r) << s;
    EXPECT_IR_EQ(r->bounds[1].min, Expr(0));
    EXPECT_IR_EQ(r->bounds[1].extent, Expr(4));
    EXPECT_TRUE(is_const(r->bounds[0].min) == false) << s; // x keeps its realized bounds
    std::vector<Expr> rows = access_args(s, "sf_bx", 1);
    ASSERT_EQ(rows.size(), 4u) << s; // the Provide and the three calls
    for (const Expr &row : rows) {
        const Mod *m = row.as<Mod>();
        ASSERT_TRUE(m) << row;
        EXPECT_TRUE(is_const(m->b, 4)) << row;
    }
    for (const Expr &col : access_args(s, "sf_bx", 0)) EXPECT_FALSE(col.as<Mod>()) << col;
}

TEST(StorageFolding, PerPixelWindowFoldsAlongTheOuterLoop) {
    // Lesson 8: f store_root, compute_at(g, x), g reads f(x, y), f(x + 1, y), f(x, y + 1). The
    // rows slide down the image: they are folded (2 live rows); the columns are not (a fold
    // along x would overwrite values the next row still reads).
    Expr x = ivar("x"), y = ivar("y");
    Function f = make_func("sf_px", {"x", "y"}, {x + y});
    f.schedule().store_level = LoopLevelSpec::root();
    f.schedule().store_level_set = true;
    f.schedule().compute_level = loop_level("sf_g", "x");
    Function g =
        make_func("sf_g", {"x", "y"},
                  {f.make_call({x, y}) + f.make_call({x + 1, y}) + f.make_call({x, y + 1})});
    Stmt s = lower_to_storage_folding(g);
    const Realize *r = find_realize(s, "sf_px");
    ASSERT_TRUE(r) << s;
    EXPECT_IR_EQ(r->bounds[1].extent, Expr(2));
    for (const Expr &row : access_args(s, "sf_px", 1)) {
        const Mod *m = row.as<Mod>();
        ASSERT_TRUE(m) << row;
        EXPECT_TRUE(is_const(m->b, 2)) << row;
    }
    for (const Expr &col : access_args(s, "sf_px", 0)) EXPECT_FALSE(col.as<Mod>()) << col;
}
