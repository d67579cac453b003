// reorder_storage: the storage order of a Func's dimensions (innermost first) sets the strides
// of its flat buffer; the values stay those of the unscheduled pipeline, for 2-D and 3-D Funcs,
// compute_root and compute_at, with update definitions.
#include <loom/loom.h>

#include "common/lowered_text.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace loom;

namespace {} // namespace

TEST(ReorderStorage, TwoDimensionsTransposed) {
    Func p("p"), c("c");
    Var x("x"), y("y");
    p(x, y) = x * 100 + y;
    c(x, y) = p(x, y) + p(x + 1, y + 2);
    p.compute_root().reorder_storage(y, x);
    std::string s = lowered(c);
    // y is innermost: the flat index of p is (y - min) + (x - min) * extent_y.
    EXPECT_NE(s.find("p.y.extent_realized"), std::string::npos) << s;
    Buffer<int> out = c.realize({20, 10});
    for (int y = 0; y < 10; y++)
        for (int x = 0; x < 20; x++) ASSERT_EQ(out(x, y), x * 100 + y + (x + 1) * 100 + y + 2);
    // The x stride of p is the realized y extent (12).
    size_t at = s.find("p[");
    ASSERT_NE(at, std::string::npos);
    EXPECT_NE(s.find("* p.y.extent_realized", at), std::string::npos) << s;
}

TEST(ReorderStorage, ThreeDimensionsWithUpdateAndComputeAt) {
    Func p("p"), c("c");
    Var x("x"), y("y"), z("z");
    RDom r(0, 3, "r");
    p(x, y, z) = x + y * 10 + z * 100;
    p(x, y, r) += x * r;
    c(x, y, z) = p(x, y, z % 3) * 2 - p(x + 1, y, (z + 1) % 3);
    p.compute_at(c, y).reorder_storage(z, x, y);
    Buffer<int> out = c.realize({9, 5, 4});
    auto pv = [](int x, int y, int z) { return x + y * 10 + z * 100 + x * z; };
    for (int z = 0; z < 4; z++)
        for (int y = 0; y < 5; y++)
            for (int x = 0; x < 9; x++)
                ASSERT_EQ(out(x, y, z), pv(x, y, z % 3) * 2 - pv(x + 1, y, (z + 1) % 3))
                    << x << ", " << y << ", " << z;
}

TEST(ReorderStorage, PartialListKeepsTheOtherPlaces) {
    Func p("p"), c("c");
    Var x("x"), y("y"), z("z");
    p(x, y, z) = x * 7 + y * 5 + z * 3;
    c(x, y, z) = p(x, y, z) + p(x, y + 1, z);
    // Only x and z swap places: storage order z, y, x.
    p.compute_root().reorder_storage(z, x);
    Buffer<int> out = c.realize({6, 4, 3});
    for (int z = 0; z < 3; z++)
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 6; x++)
                ASSERT_EQ(out(x, y, z), 2 * (x * 7 + z * 3) + y * 5 + (y + 1) * 5);
}
