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
    // The tile loop is partitioned: a steady tile is one whose whole footprint, blur_x's halo
    // included, lies inside the input. It stays one loop, its body picking the partition, so
    // the tile's code is there twice: steady, and the first and last tiles' (shared).
    EXPECT_NE(s.find("if (((blur_y.s0.x.x.steady_min <= blur_y.s0.x.x) && (blur_y.s0.x.x < "
                     "blur_y.s0.x.x.steady_end)))"),
              std::string::npos)
        << s;
    EXPECT_EQ(count(s, "consume blur_x"), 2) << s;
    // The rows' clamps are one min and max per row of blur_x, hoisted out of its vector loop:
    // the parallel loop over tile rows and blur_x's rows are not partitioned for them.
    EXPECT_EQ(s.find("blur_y.s0.y.y.steady"), std::string::npos) << s;
    EXPECT_EQ(s.find("blur_x.s0.y.steady"), std::string::npos) << s;
    // The edge tiles still partition blur_x's vector loop, so they gather only at the image's
    // border.
    EXPECT_NE(s.find("for (blur_x.s0.x.x, blur_x.s0.x.x.edge0.steady_min"), std::string::npos) << s;
    // The steady tiles clamp no column: no vector min or max, and no clamp bound mentions the
    // input's width. (The scalar mins left are the rows' clamps and ShiftInwards' shift of the
    // last tile and vector.)
    size_t steady = s.find("if (((blur_y.s0.x.x.steady_min");
    ASSERT_NE(steady, std::string::npos) << s;
    size_t end = s.find("} else {", steady);
    ASSERT_NE(end, std::string::npos);
    std::string body = s.substr(steady, end - steady);
    EXPECT_EQ(body.find("x8(0)"), std::string::npos) << body;
    EXPECT_EQ(body.find("(ramp("), std::string::npos) << body;
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
    // x never, y always: only blur_x's rows partition. (With Auto, its rows would not: their
    // clamps are a min and max per row, hoisted out of the row.)
    Buffer<uint16_t> in = make_input(50, 20);
    Blur b(in);
    b.blur_x.compute_root().partition(b.x, Partition::Never).partition(b.y, Partition::Always);
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
