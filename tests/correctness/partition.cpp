// Loop partitioning with the vectorizer: the paper's Figure 1 blur (tiles, vectorize 8,
// compute_at the tile) has steady states without clamps in the inner x loops of both Funcs,
// and the partition directives (partition, never_partition_all, always_partition_all) change
// the loop nest as Halide's do, never the results.
#include <loom/loom.h>

#include "common/expect_error.h"
#include "common/lowered_text.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

using namespace loom;

namespace {

int count(const std::string &s, const std::string &what) {
    int n = 0;
    for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) n++;
    return n;
}

struct Blur {
    Buffer<uint16_t> input;
    Func blur_x{"blur_x"}, blur_y{"blur_y"};
    Var x{"x"}, y{"y"}, xi{"xi"}, yi{"yi"};
    explicit Blur(const Buffer<uint16_t> &in) : input(in) {
        Func c = BoundaryConditions::repeat_edge(input);
        blur_x(x, y) = (c(x - 1, y) + c(x, y) + c(x + 1, y)) / 3;
        blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
    }
    void paper() {
        blur_y.tile(x, y, xi, yi, 64, 8).vectorize(xi, 8).parallel(y);
        blur_x.compute_at(blur_y, x).vectorize(x, 8);
    }
};

Buffer<uint16_t> make_input(int w, int h) {
    Buffer<uint16_t> in(w, h);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) in(x, y) = (uint16_t)((x * 7919 + y * 104729) & 0xffff);
    }
    return in;
}

/// The naive blur with repeat_edge.
uint16_t reference(const Buffer<uint16_t> &in, int x, int y) {
    auto c = [&](int i, int j) {
        i = std::min(std::max(i, 0), in.width() - 1);
        j = std::min(std::max(j, 0), in.height() - 1);
        return in(i, j);
    };
    auto bx = [&](int i, int j) {
        return (uint16_t)((uint16_t)(c(i - 1, j) + c(i, j) + c(i + 1, j)) / 3);
    };
    return (uint16_t)((uint16_t)(bx(x, y - 1) + bx(x, y) + bx(x, y + 1)) / 3);
}

void check(const Buffer<uint16_t> &in, const Buffer<uint16_t> &out) {
    for (int y = 0; y < out.height(); y++) {
        for (int x = 0; x < out.width(); x++) {
            ASSERT_EQ(out(x, y), reference(in, x, y)) << "at " << x << ", " << y;
        }
    }
}

} // namespace

TEST(Partition, PaperBlurMatchesTheReference) {
    for (int w : {200, 67}) {
        Buffer<uint16_t> in = make_input(w, 37);
        Blur b(in);
        b.paper();
        check(in, b.blur_y.realize({w, 37}));
    }
}

TEST(Partition, PaperBlurSteadyStatesHaveNoClamps) {
    Buffer<uint16_t> in = make_input(200, 37);
    Blur b(in);
    b.paper();
    std::string s = lowered(b.blur_y);
    // No vector loop left: dense vector loads and stores of 8 lanes.
    EXPECT_EQ(s.find("vectorized"), std::string::npos) << s;
    EXPECT_NE(s.find("x8("), std::string::npos) << s;
    // The tile loops are partitioned (as in Halide): a steady tile is one whose whole
    // footprint, blur_x's halo included, lies inside the input. The parallel loop over tile
    // rows stays one loop, its body picking the partition.
    EXPECT_NE(s.find("if (((blur_y.s0.y.y.steady_min <= blur_y.s0.y.y) && (blur_y.s0.y.y < "
                     "blur_y.s0.y.y.steady_end)))"),
              std::string::npos)
        << s;
    // The edge tiles (three partitions: the first and last tile rows, which share one copy
    // of the code, and the first and last tiles of the other rows) still partition blur_x's
    // vector loop, so they gather only at the image's border.
    for (int e = 0; e < 3; e++) {
        std::string edge =
            "for (blur_x.s0.x.x, blur_x.s0.x.x.edge" + std::to_string(e) + ".steady_min";
        EXPECT_NE(s.find(edge), std::string::npos) << edge << "\n" << s;
    }
    // The steady tiles hold no min/max of the input's coordinates.
    size_t steady = s.find("for (blur_y.s0.x.x, blur_y.s0.x.x.steady_min");
    ASSERT_NE(steady, std::string::npos) << s;
    size_t end = s.find("for (blur_y.s0.x.x, blur_y.s0.x.x.steady_end", steady);
    ASSERT_NE(end, std::string::npos);
    std::string body = s.substr(steady, end - steady);
    // (The mins left are ShiftInwards' shift of the last vector, not clamps: no clamp bound
    // mentions the input's extent.)
    EXPECT_EQ(count(body, "max("), 0) << body;
    EXPECT_EQ(body.find(".extent.0"), std::string::npos) << body;
    // Dense vector accesses: every load and store index is a ramp.
    EXPECT_EQ(body.find("x8(b"), std::string::npos) << body;
}

TEST(Partition, NeverPartitionAllLeavesLoopsWhole) {
    Buffer<uint16_t> in = make_input(50, 20);
    Blur b(in);
    b.blur_x.compute_root().never_partition_all();
    b.blur_y.never_partition_all();
    std::string s = lowered(b.blur_y);
    EXPECT_EQ(s.find("steady"), std::string::npos) << s;
    check(in, b.blur_y.realize({50, 20}));

    Blur c(in);
    c.blur_x.compute_root();
    std::string d = lowered(c.blur_y);
    EXPECT_NE(d.find("blur_x.s0.x.steady"), std::string::npos) << d;
}

TEST(Partition, NeverPartitionOneLoop) {
    Buffer<uint16_t> in = make_input(50, 20);
    Blur b(in);
    b.blur_x.compute_root().partition(b.x, Partition::Never);
    std::string s = lowered(b.blur_y);
    EXPECT_EQ(s.find("blur_x.s0.x.steady"), std::string::npos) << s;
    EXPECT_NE(s.find("blur_x.s0.y.steady"), std::string::npos) << s;
    check(in, b.blur_y.realize({50, 20}));
}

TEST(Partition, AlwaysPartitionNeedsSomethingToPartition) {
    Buffer<uint16_t> in = make_input(50, 20);
    Blur b(in);
    b.blur_x.compute_root().always_partition_all();
    check(in, b.blur_y.realize({50, 20}));

    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + y;
    f.always_partition({x});
    loom_test::expect_error(
        [&] {
            f.realize({8, 8});
        },
        {"Always", "x of f", "nothing to partition"});
}
