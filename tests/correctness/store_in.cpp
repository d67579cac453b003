// store_in (Auto, Heap, Stack, Register) and the automatic stack allocation of small buffers:
// each memory type gives the unscheduled pipeline's values, and the lowered statement shows
// where the storage went (a per-tile intermediate inside a parallel loop on the stack with a
// constant size, no halide_malloc per tile).
#include <loom/loom.h>

#include "common/lowered_text.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace loom;

namespace {

int32_t ref(int x, int y) {
    auto p = [](int a, int b) { return a * 3 + b * 7; };
    return p(x, y) + p(x + 1, y) + p(x, y + 1);
}

/// p(x, y) computed per tile of c (64x8 tiles), c parallel over tile rows.
struct Tiled {
    Func p{"p"}, c{"c"};
    Var x{"x"}, y{"y"}, xi{"xi"}, yi{"yi"};
    Tiled() {
        p(x, y) = x * 3 + y * 7;
        c(x, y) = p(x, y) + p(x + 1, y) + p(x, y + 1);
        c.tile(x, y, xi, yi, 64, 8).parallel(y);
        p.compute_at(c, x);
    }
};

void check(const Buffer<int32_t> &out) {
    for (int y = 0; y < out.height(); y++)
        for (int x = 0; x < out.width(); x++) ASSERT_EQ(out(x, y), ref(x, y)) << x << ", " << y;
}

} // namespace

TEST(StoreIn, AutoPutsTheBoundedPerTileBufferOnTheStack) {
    Tiled t;
    std::string s = lowered(t.c);
    // 65 x 9 int32 per tile (ShiftInwards keeps the tile size constant).
    EXPECT_NE(s.find("allocate p[int32 * 585] in Stack"), std::string::npos) << s;
    check(t.c.realize({200, 45}));
    check(t.c.realize({64, 8}));
}

TEST(StoreIn, HeapStaysOnTheHeap) {
    Tiled t;
    t.p.store_in(MemoryType::Heap);
    std::string s = lowered(t.c);
    EXPECT_NE(s.find("in Heap"), std::string::npos) << s;
    EXPECT_EQ(s.find("in Stack"), std::string::npos) << s;
    check(t.c.realize({150, 33}));
}

TEST(StoreIn, StackWithConstantBound) {
    Tiled t;
    t.p.store_in(MemoryType::Stack);
    std::string s = lowered(t.c);
    EXPECT_NE(s.find("allocate p[int32 * 585] in Stack"), std::string::npos) << s;
    check(t.c.realize({129, 17}));
}

TEST(StoreIn, StackWithDynamicSize) {
    // A row of p per row of c, as wide as the output: a dynamic size, allocated on the stack
    // for each row (and released after it, or 4000 rows would not fit), serial and parallel.
    for (bool parallel : {false, true}) {
        Func p("p"), c("c");
        Var x("x"), y("y");
        p(x, y) = x * 3 + y * 7;
        c(x, y) = p(x, y) + p(x + 1, y) + p(x, y + 1);
        p.compute_at(c, y).store_in(MemoryType::Stack);
        if (parallel) c.parallel(y);
        std::string s = lowered(c);
        EXPECT_NE(s.find("in Stack"), std::string::npos) << s;
        check(c.realize({37, 5}));
        check(c.realize({3000, 4000}));
    }
}

TEST(StoreIn, RegisterWithUnrolledAccesses) {
    Func p("p"), c("c");
    Var x("x"), y("y");
    p(x, y) = x * 3 + y * 7;
    c(x, y) = p(x, y) + p(x + 1, y) + p(x, y + 1);
    // p is computed per point of c over a 2x2 box, with every loop over it unrolled.
    p.compute_at(c, x).unroll(x).unroll(y).store_in(MemoryType::Register);
    c.bound(x, 0, 16).bound(y, 0, 8);
    std::string s = lowered(c);
    EXPECT_NE(s.find("in Register"), std::string::npos) << s;
    check(c.realize({16, 8}));
}

TEST(StoreIn, LargeAndDynamicBuffersStayOnTheHeap) {
    Func p("p"), c("c");
    Var x("x"), y("y");
    p(x, y) = x * 3 + y * 7;
    c(x, y) = p(x, y) + p(x + 1, y) + p(x, y + 1);
    p.compute_root();
    std::string s = lowered(c);
    EXPECT_EQ(s.find("in Stack"), std::string::npos) << s;
    check(c.realize({300, 20}));
}
