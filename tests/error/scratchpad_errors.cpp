// Scratchpad mistakes (loom/scratchpad.h) are CompileErrors naming the memory, the Func and the
// sizes: bad declarations, buffers that do not fit (alone or together), sizes with no bound,
// scratchpad buffers inside parallel loops, and store_in of a value that is no memory.
#include <loom/loom.h>
#include <loom/scratchpad.h>

#include "common/expect_error.h"

#include <gtest/gtest.h>

using namespace loom;
using loom_test::expect_error;

namespace {

/// f(x, y) = g(x, y) + h(x, y) over 64x8 tiles, g and h computed per tile.
struct TwoPerTile {
    Var x{"x"}, y{"y"}, xi{"xi"}, yi{"yi"};
    Func g{"g"}, h{"h"}, f{"f"};
    TwoPerTile() {
        g(x, y) = x + y;
        h(x, y) = x * y;
        f(x, y) = g(x, y) + h(x, y);
        f.tile(x, y, xi, yi, 64, 8);
        g.compute_at(f, x);
        h.compute_at(f, x);
    }
};

} // namespace

TEST(ScratchpadErrors, BadDeclarations) {
    expect_error([] { Scratchpad("my memory", 1024); }, {"my memory", "not a C identifier"});
    expect_error([] { Scratchpad("zero", 0); }, {"zero", "positive size"});
    expect_error([] { Scratchpad("odd", 1024, 48); }, {"odd", "power of two"});
    Scratchpad once("declared_once", 1024, 16);
    EXPECT_EQ(Scratchpad("declared_once", 1024, 16).memory_type(), once.memory_type());
    expect_error([] { Scratchpad("declared_once", 2048, 16); },
                 {"declared_once", "1024 bytes", "2048 bytes"});
}

TEST(ScratchpadErrors, StoreInAValueThatIsNoMemory) {
    Func f("f");
    Var x("x");
    f(x) = x;
    expect_error([&] { f.store_in((MemoryType)200); }, {"f", "neither a MemoryType"});
}

TEST(ScratchpadErrors, BuffersLiveAtOnceOverflowTheMemory) {
    // g and h: 64 * 8 * 4 = 2048 bytes each, both live in each tile.
    Scratchpad small("small_pad", 3000, 64);
    TwoPerTile t;
    t.g.store_in(small);
    t.h.store_in(small);
    expect_error([&] { t.f.compile_jit(); },
                 {"small_pad", "3000 bytes", "4096", "g: 2048 bytes", "h: 2048 bytes"});
    // Alone, each fits.
    TwoPerTile u;
    u.g.store_in(small);
    EXPECT_NO_THROW(u.f.compile_jit());
}

TEST(ScratchpadErrors, OneBufferLargerThanTheMemory) {
    Scratchpad tiny("tiny_pad", 100, 4);
    TwoPerTile t;
    t.g.store_in(tiny);
    expect_error([&] { t.f.compile_jit(); }, {"tiny_pad", "100 bytes", "g"});
}

TEST(ScratchpadErrors, SizeWithoutABound) {
    Scratchpad pad("unbounded_pad", 1 << 20, 64);
    Var x("x"), y("y");
    Func g("g"), f("f");
    g(x, y) = x + y;
    f(x, y) = g(x, y) + g(x + 1, y);
    g.compute_root().store_in(pad);
    expect_error([&] { f.compile_jit(); },
                 {"Func g", "unbounded_pad", "no upper bound", "set_estimate", "bound"});
    // An estimate on the output bounds it.
    f.set_estimate(x, 0, 100).set_estimate(y, 0, 100);
    EXPECT_NO_THROW(f.compile_jit());
}

TEST(ScratchpadErrors, InsideAParallelLoop) {
    Scratchpad pad("parallel_pad", 1 << 16, 64);
    TwoPerTile t;
    t.g.store_in(pad);
    t.f.parallel(t.y);
    expect_error([&] { t.f.compile_jit(); }, {"Func g", "parallel_pad", "f.s0.y", "parallel"});
}
