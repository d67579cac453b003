// Storage flattening: Realize/Provide/calls -> Allocate/Store/Load, IR before -> IR expected.
#include "lower_test_util.h"

#include "lower/storage_flattening.h"

using namespace loom;
using namespace loom::test;

namespace {

Expr load(Type t, const std::string &buf, Expr index, const Parameter &p = Parameter()) {
    return Load::make(t, buf, index, const_true(), p);
}
Stmt store(const std::string &buf, Expr value, Expr index) {
    return Store::make(buf, value, index, Parameter(), const_true());
}

} // namespace

TEST(StorageFlattening, InternalFuncReadingAnInput) {
    Parameter in(Int(32), true, 1, "in");
    Function f = make_func("f", {"x"}, {ivar("x")});
    Function out = make_func("out", {"x"}, {ivar("x")});
    std::map<std::string, Function> env{{"f", f}, {"out", out}};
    Expr x = ivar("x"), m = ivar("f.x.min_realized"), e = ivar("f.x.extent_realized");
    Expr in_call = Call::make(Int(32), "in", {x + 1}, Call::Image, nullptr, 0, in);
    Stmt before = Realize::make("f", {Int(32)}, MemoryType::Auto, {Range(m, e)}, const_true(),
                                Provide::make("f", {in_call}, {x}, const_true()));
    Stmt after = storage_flattening(before, {out}, env);

    Expr in_index = (x + 1 - ivar("in.min.0")) * ivar("in.stride.0");
    Stmt expected = Allocate::make("f", Int(32), MemoryType::Auto, {e}, const_true(),
                                   store("f", load(Int(32), "in", in_index, in), (x - m) * 1));
    EXPECT_IR_EQ(after, expected);
}

TEST(StorageFlattening, TwoDimensionsDenseStrides) {
    Function f = make_func("f", {"x", "y"}, {ivar("x")});
    Function out = make_func("out", {"x"}, {ivar("x")});
    std::map<std::string, Function> env{{"f", f}, {"out", out}};
    Expr x = ivar("x"), y = ivar("y");
    Expr mx = ivar("mx"), ex = ivar("ex"), my = ivar("my"), ey = ivar("ey");
    Stmt body = Block::make(Provide::make("f", {x + y}, {x, y}, const_true()),
                            Provide::make("out", {f.make_call({x, y + 1})}, {x}, const_true()));
    Stmt before = Realize::make("f", {Int(32)}, MemoryType::Auto, {Range(mx, ex), Range(my, ey)},
                                const_true(), body);
    Stmt after = storage_flattening(before, {out}, env);

    Expr stride1 = Expr(1) * ex;
    Stmt expected_body =
        Block::make(store("f", x + y, (x - mx) * 1 + (y - my) * stride1),
                    store("out", load(Int(32), "f", (x - mx) * 1 + (y + 1 - my) * stride1),
                          (x - ivar("out.min.0")) * ivar("out.stride.0")));
    Stmt expected =
        Allocate::make("f", Int(32), MemoryType::Auto, {ex, ey}, const_true(), expected_body);
    EXPECT_IR_EQ(after, expected);
}

TEST(StorageFlattening, TupleOutputsUndefAndBool) {
    // out(x) = {x, x > 3} stored into out.0 / out.1 (bool as uint8); an update with an undef
    // element stores only the other element.
    Function out = make_func("out", {"x"}, {ivar("x"), ivar("x") > 3});
    std::map<std::string, Function> env{{"out", out}};
    Expr x = ivar("x");
    Expr idx0 = (x - ivar("out.0.min.0")) * ivar("out.0.stride.0");
    Expr idx1 = (x - ivar("out.1.min.0")) * ivar("out.1.stride.0");
    Expr undef = Call::make(Bool(), Call::undef, {}, Call::PureIntrinsic);
    Stmt before = Realize::make(
        "out", {Int(32), Bool()}, MemoryType::Auto, {Range(ivar("m"), ivar("e"))}, const_true(),
        Block::make(Provide::make("out", {x, x > 3}, {x}, const_true()),
                    Provide::make("out", {out.make_call({x}, 0) + 1, undef}, {x}, const_true())));
    Stmt after = storage_flattening(before, {out}, env);

    // The values are all computed before storing: x > 3 is bound first (x needs no binding).
    Stmt expected_first = LetStmt::make(
        "out.value.1", x > 3,
        Block::make(
            store("out.0", x, idx0),
            store("out.1", Cast::make(UInt(8), Variable::make(Bool(), "out.value.1")), idx1)));
    Stmt expected_second = store("out.0", load(Int(32), "out.0", idx0) + 1, idx0);
    EXPECT_IR_EQ(after, Block::make(expected_first, expected_second));
}

TEST(StorageFlattening, UndefBranchOfASelectBecomesAConditionalStore) {
    // out(x) = select(x < 5, undef, out(x) * 10) stores only where !(x < 5); a Tuple whose
    // elements share the condition goes under one if.
    Function out = make_func("out", {"x"}, {ivar("x")});
    std::map<std::string, Function> env{{"out", out}};
    Expr x = ivar("x");
    Expr idx = (x - ivar("out.min.0")) * ivar("out.stride.0");
    Expr undef = Call::make(Int(32), Call::undef, {}, Call::PureIntrinsic);
    Expr c = x < 5;
    Stmt before = Realize::make(
        "out", {Int(32)}, MemoryType::Auto, {Range(ivar("m"), ivar("e"))}, const_true(),
        Provide::make("out", {Select::make(c, undef, out.make_call({x}, 0) * 10)}, {x},
                      const_true()));
    Stmt after = storage_flattening(before, {out}, env);
    Stmt expected =
        IfThenElse::make(Not::make(c), store("out", load(Int(32), "out", idx) * 10, idx));
    EXPECT_IR_EQ(after, expected);
}

TEST(StorageFlattening, BoolInternalStorageLoadsCompare) {
    Function f = make_func("f", {"x"}, {ivar("x") > 0});
    Function out = make_func("out", {"x"}, {ivar("x")});
    std::map<std::string, Function> env{{"f", f}, {"out", out}};
    Expr x = ivar("x"), m = ivar("m"), e = ivar("e");
    Stmt before =
        Realize::make("f", {Bool()}, MemoryType::Auto, {Range(m, e)}, const_true(),
                      Provide::make("out", {select(f.make_call({x}), 1, 2)}, {x}, const_true()));
    Stmt after = storage_flattening(before, {out}, env);
    Expr l = load(UInt(8), "f", (x - m) * 1);
    Stmt expected = Allocate::make("f", UInt(8), MemoryType::Auto, {e}, const_true(),
                                   store("out", select(NE::make(l, make_zero(UInt(8))), 1, 2),
                                         (x - ivar("out.min.0")) * ivar("out.stride.0")));
    EXPECT_IR_EQ(after, expected);
}
