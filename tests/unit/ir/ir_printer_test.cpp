// The text form of every IR node.

#include "ir/ir.h"
#include "ir/ir_printer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

using namespace loom;
using namespace loom::internal;

namespace {

template <typename T>
std::string str(const T &x) {
    std::ostringstream s;
    s << x;
    return s.str();
}

Expr var(const std::string &n, Type t = Int(32)) { return Variable::make(t, n); }

Stmt store(const std::string &buf, Expr value, Expr index) {
    return Store::make(buf, value, index, Parameter(), const_true(value.type().lanes()));
}

} // namespace

TEST(IRPrinter, Constants) {
    EXPECT_EQ(str(Expr(3)), "3");
    EXPECT_EQ(str(Expr(-7)), "-7");
    EXPECT_EQ(str(Expr((int64_t)5)), "(int64)5");
    EXPECT_EQ(str(Expr((int8_t)-2)), "(int8)-2");
    EXPECT_EQ(str(Expr((uint8_t)3)), "(uint8)3");
    EXPECT_EQ(str(Expr((uint64_t)18446744073709551615ull)), "(uint64)18446744073709551615");
    EXPECT_EQ(str(const_true()), "true");
    EXPECT_EQ(str(const_false()), "false");
    EXPECT_EQ(str(Expr(1.5f)), "1.5f");
    EXPECT_EQ(str(Expr(3.0f)), "3.0f");
    EXPECT_EQ(str(Expr(0.1f)), "0.1f");
    EXPECT_EQ(str(Expr(1e20f)), "1e+20f");
    EXPECT_EQ(str(Expr(0.25)), "(float64)0.25");
    EXPECT_EQ(str(Expr(0.1)), "(float64)0.1");
    EXPECT_EQ(str(make_const(Float(32), INFINITY)), "(float32)inf");
    EXPECT_EQ(str(make_const(Float(32), -INFINITY)), "(float32)-inf");
    EXPECT_EQ(str(Expr(std::string("a \"b\"\n"))), "\"a \\\"b\\\"\\n\"");
    EXPECT_EQ(str(Expr()), "(undefined)");
}

TEST(IRPrinter, Arithmetic) {
    Expr x = var("x"), y = var("y");
    EXPECT_EQ(str(Add::make(x, 1)), "(x + 1)");
    EXPECT_EQ(str(Sub::make(x, y)), "(x - y)");
    EXPECT_EQ(str(Mul::make(Add::make(x, 1), y)), "((x + 1) * y)");
    EXPECT_EQ(str(Div::make(x, 2)), "(x / 2)");
    EXPECT_EQ(str(Mod::make(x, 2)), "(x % 2)");
    EXPECT_EQ(str(Min::make(x, y)), "min(x, y)");
    EXPECT_EQ(str(Max::make(x, 0)), "max(x, 0)");
    EXPECT_EQ(str(EQ::make(x, y)), "(x == y)");
    EXPECT_EQ(str(NE::make(x, y)), "(x != y)");
    EXPECT_EQ(str(LT::make(x, y)), "(x < y)");
    EXPECT_EQ(str(LE::make(x, y)), "(x <= y)");
    EXPECT_EQ(str(GT::make(x, y)), "(x > y)");
    EXPECT_EQ(str(GE::make(x, y)), "(x >= y)");
    Expr b = var("b", Bool()), c = var("c", Bool());
    EXPECT_EQ(str(And::make(b, c)), "(b && c)");
    EXPECT_EQ(str(Or::make(b, c)), "(b || c)");
    EXPECT_EQ(str(Not::make(b)), "!b");
    EXPECT_EQ(str(Select::make(b, x, y)), "select(b, x, y)");
}

TEST(IRPrinter, ConversionsAndVectors) {
    Expr x = var("x");
    EXPECT_EQ(str(Cast::make(UInt(8), x)), "uint8(x)");
    EXPECT_EQ(str(Cast::make(Float(32), x)), "float32(x)");
    EXPECT_EQ(str(Reinterpret::make(UInt(32), x)), "reinterpret<uint32>(x)");
    EXPECT_EQ(str(Ramp::make(x, 1, 8)), "ramp(x, 1, 8)");
    EXPECT_EQ(str(Broadcast::make(x, 4)), "x4(x)");
    Expr v = var("v", Int(32, 8)), w = var("w", Int(32, 8));
    EXPECT_EQ(str(Shuffle::make_concat({v, w})), "concat_vectors(v, w)");
    EXPECT_EQ(str(Shuffle::make_interleave({v, w})), "interleave_vectors(v, w)");
    EXPECT_EQ(str(Shuffle::make_slice(v, 1, 2, 4)), "slice_vectors(v, 1, 2, 4)");
    EXPECT_EQ(str(Shuffle::make_extract_element(v, 3)), "extract_element(v, 3)");
    EXPECT_EQ(str(Shuffle::make({v}, {3, 1, 2})), "shuffle(v, 3, 1, 2)");
    EXPECT_EQ(str(VectorReduce::make(VectorReduce::Add, v, 2)), "(int32x2)vector_reduce_add(v)");
    EXPECT_EQ(str(VectorReduce::make(VectorReduce::Max, v, 1)), "(int32)vector_reduce_max(v)");
}

TEST(IRPrinter, LoadsLetsCalls) {
    Expr x = var("x");
    EXPECT_EQ(str(Load::make(Int(32), "buf", x, const_true())), "buf[x]");
    EXPECT_EQ(str(Load::make(UInt(8), "in", x, const_true())), "(uint8)in[x]");
    Expr r = Ramp::make(x, 1, 4);
    EXPECT_EQ(str(Load::make(Float(32, 4), "f", r, var("p", Bool(4)))),
              "((float32x4)f[ramp(x, 1, 4)] if p)");
    EXPECT_EQ(str(Let::make("t", Add::make(x, 1), Mul::make(var("t"), var("t")))),
              "(let t = (x + 1) in (t * t))");
    EXPECT_EQ(str(Call::make(Float(32), "sqrt_f32", {Expr(2.0f)}, Call::PureExtern)),
              "sqrt_f32(2.0f)");
    EXPECT_EQ(str(Call::make(Int(32), "in", {x, var("y")}, Call::Image)), "in(x, y)");
    EXPECT_EQ(str(Call::make(Int(32), "g", {x}, Call::Image, nullptr, 1)), "g(x)[1]");
}

TEST(IRPrinter, Statements) {
    Expr x = var("x"), y = var("y");
    Stmt body = store("f", Add::make(x, y), x);
    Stmt loop = For::make("x", 0, 10, ForType::Serial, DeviceAPI::None, body);
    EXPECT_EQ(str(loop), "for (x, 0, 10) {\n  f[x] = (x + y)\n}\n");
    Stmt par = For::make("y", var("y.min"), 4, ForType::Parallel, DeviceAPI::None, loop);
    EXPECT_EQ(str(par),
              "parallel (y, y.min, 4) {\n  for (x, 0, 10) {\n    f[x] = (x + y)\n  }\n}\n");
    EXPECT_EQ(str(For::make("v", 0, 8, ForType::Vectorized, DeviceAPI::None, body)),
              "vectorized (v, 0, 8) {\n  f[x] = (x + y)\n}\n");
    EXPECT_EQ(str(For::make("u", 0, 2, ForType::GPUBlock, DeviceAPI::CUDA, body)),
              "gpu_block<CUDA> (u, 0, 2) {\n  f[x] = (x + y)\n}\n");

    EXPECT_EQ(str(LetStmt::make("y", 3, body)), "let y = 3\nf[x] = (x + y)\n");
    EXPECT_EQ(str(Store::make("f", x, x, Parameter(), var("p", Bool()))), "f[x] = x if p\n");
    EXPECT_EQ(str(AssertStmt::make(GT::make(x, 0), Expr(std::string("bad")))),
              "assert((x > 0), \"bad\")\n");
    EXPECT_EQ(str(ProducerConsumer::make_produce("f", body)), "produce f {\n  f[x] = (x + y)\n}\n");
    EXPECT_EQ(str(ProducerConsumer::make_consume("f", body)), "consume f {\n  f[x] = (x + y)\n}\n");

    Stmt prov = Provide::make("f", {Add::make(x, 1)}, {x, y}, const_true());
    EXPECT_EQ(str(prov), "f(x, y) = (x + 1)\n");
    EXPECT_EQ(str(Provide::make("g", {x, y}, {x}, const_true())), "g(x) = {x, y}\n");
    EXPECT_EQ(str(Provide::make("g", {x}, {x}, var("p", Bool()))), "g(x) = x if p\n");

    Stmt alloc =
        Allocate::make("f", Int(32), MemoryType::Auto, {var("e0"), var("e1")}, const_true(), body);
    EXPECT_EQ(str(alloc), "allocate f[int32 * e0 * e1]\nf[x] = (x + y)\n");
    Stmt stack = Allocate::make("t", UInt(8), MemoryType::Stack, {Expr(16)}, var("c", Bool()),
                                Evaluate::make(Load::make(UInt(8), "t", x, const_true())));
    EXPECT_EQ(str(stack), "allocate t[uint8 * 16] in Stack if c\nt[x]\n");
    EXPECT_EQ(str(Free::make("f")), "free f\n");

    Stmt realize = Realize::make("f", {Int(32)}, MemoryType::Auto, {Range(0, 10), Range(x, y)},
                                 const_true(), prov);
    EXPECT_EQ(str(realize), "realize f([0, 10], [x, y]) {\n  f(x, y) = (x + 1)\n}\n");

    EXPECT_EQ(str(Block::make(body, Free::make("f"))), "f[x] = (x + y)\nfree f\n");
    Expr c = GT::make(x, 0);
    EXPECT_EQ(str(IfThenElse::make(c, body)), "if ((x > 0)) {\n  f[x] = (x + y)\n}\n");
    EXPECT_EQ(str(IfThenElse::make(c, body, Free::make("f"))),
              "if ((x > 0)) {\n  f[x] = (x + y)\n} else {\n  free f\n}\n");
    EXPECT_EQ(str(IfThenElse::make(c, body, IfThenElse::make(LT::make(x, 5), Free::make("f")))),
              "if ((x > 0)) {\n  f[x] = (x + y)\n} else if ((x < 5)) {\n  free f\n}\n");
    EXPECT_EQ(str(Evaluate::make(x)), "x\n");
    EXPECT_EQ(str(Atomic::make("f", "", body)), "atomic {\n  f[x] = (x + y)\n}\n");
    EXPECT_EQ(str(Atomic::make("f", "f.mutex", body)), "atomic (f.mutex) {\n  f[x] = (x + y)\n}\n");
}

TEST(IRPrinter, IndentParameter) {
    std::ostringstream s;
    IRPrinter p(s, 4);
    p.print(Free::make("f"));
    EXPECT_EQ(s.str(), "    free f\n");
}
