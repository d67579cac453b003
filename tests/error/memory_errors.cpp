// Errors of the memory directives: store_in(Register) with a size that has no constant bound
// or with a non-constant index, unsupported memory types, and reorder_storage of a Var that is
// not a dimension, a repeated Var, or a single Var.
#include <loom/loom.h>

#include "common/expect_error.h"

#include <gtest/gtest.h>

using namespace loom;
using loom_test::expect_error;

TEST(MemoryErrors, RegisterWithDynamicSize) {
    Func p("p"), c("c");
    Var x("x"), y("y");
    p(x, y) = x + y;
    c(x, y) = p(x, y) + 1;
    p.compute_at(c, y).store_in(MemoryType::Register);
    expect_error([&] { c.compile_jit(); }, {"Allocation p has a dynamic size", "registers"});
}

TEST(MemoryErrors, RegisterWithNonConstantIndex) {
    Func p("p"), c("c");
    Var x("x"), y("y");
    p(x, y) = x + y;
    c(x, y) = p(x, y) + 1;
    c.bound(x, 0, 16);
    p.compute_at(c, y).store_in(MemoryType::Register);
    expect_error([&] { c.compile_jit(); }, {"Allocation p", "registers", "non-constant index"});
}

TEST(MemoryErrors, UnsupportedMemoryType) {
    Func f("f");
    Var x("x");
    f(x) = x;
    expect_error([&] { f.store_in(MemoryType::AMXTile); },
                 {"Func f", "AMXTile", "Auto, Heap, Stack or Register"});
}

TEST(MemoryErrors, ReorderStorageOfMissingVar) {
    Func f("f");
    Var x("x"), y("y"), z("z");
    f(x, y) = x + y;
    expect_error([&] { f.reorder_storage(y, z); },
                 {"f", "reorder_storage", "z", "not a pure variable", "x, y"});
}

TEST(MemoryErrors, ReorderStorageRepeatedOrSingle) {
    Func f("f");
    Var x("x"), y("y");
    f(x, y) = x + y;
    expect_error([&] { f.reorder_storage(y, y); }, {"f", "references y twice"});
    expect_error([&] { f.reorder_storage(std::vector<Var>{x}); }, {"f", "at least two dimensions"});
}
