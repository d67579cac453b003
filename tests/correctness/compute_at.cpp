// compute_at and LoopLevel: a producer computed per iteration of a consumer's loop (plain,
// split, parallel and update loops) gives the naive result, the loop nest shows it inside that
// loop, and illegal levels are CompileErrors that name the Funcs and list the legal loops.
#include <loom/loom.h>

#include "common/expect_error.h"

#include "common/unique_names.h"

#include <gtest/gtest.h>

#include <iostream>
#include <sstream>

using namespace loom;

namespace {

struct Blur {
    Var x{"x"}, y{"y"};
    Func bx{"at_bx"}, by{"at_by"};
    Buffer<int32_t> in{40, 30};
    Blur() {
        for (int j = 0; j < in.height(); j++)
            for (int i = 0; i < in.width(); i++) in(i, j) = (i * 37 + j * 11) % 101;
        Func clamped = BoundaryConditions::repeat_edge(in);
        bx(x, y) = clamped(x - 1, y) + 2 * clamped(x, y) + clamped(x + 1, y);
        by(x, y) = bx(x, y - 1) + bx(x, y) * 3 + bx(x, y + 1);
    }
    int32_t reference(int i, int j) const {
        auto c = [&](int a, int b) {
            a = std::min(std::max(a, 0), in.width() - 1);
            b = std::min(std::max(b, 0), in.height() - 1);
            return in(a, b);
        };
        auto h = [&](int a, int b) { return c(a - 1, b) + 2 * c(a, b) + c(a + 1, b); };
        return h(i, j - 1) + h(i, j) * 3 + h(i, j + 1);
    }
    void check(int w, int h) {
        Buffer<int32_t> out = by.realize({w, h});
        for (int j = 0; j < h; j++)
            for (int i = 0; i < w; i++) ASSERT_EQ(out(i, j), reference(i, j)) << i << ", " << j;
    }
    std::string loop_nest() {
        std::ostringstream captured;
        std::streambuf *old = std::cerr.rdbuf(captured.rdbuf());
        by.print_loop_nest();
        std::cerr.rdbuf(old);
        return without_unique_suffixes(captured.str());
    }
};

} // namespace

TEST(ComputeAt, ConsumerRow) {
    Blur b;
    b.bx.compute_at(b.by, b.y);
    b.check(40, 30);
    EXPECT_NE(b.loop_nest().find("for y:\n    produce at_bx:"), std::string::npos) << b.loop_nest();
}

TEST(ComputeAt, SplitLoopByShortName) {
    Blur b;
    b.by.split(b.y, Var("yo"), Var("yi"), 8);
    b.bx.compute_at(b.by, Var("yo"));
    b.check(40, 30);
    b.check(17, 9);
    EXPECT_NE(b.loop_nest().find("for y.yo:\n    produce at_bx:"), std::string::npos)
        << b.loop_nest();
}

TEST(ComputeAt, InsideParallelTasksAndVectorized) {
    Blur b;
    b.by.split(b.y, Var("yo"), Var("yi"), 4).parallel(Var("yo")).vectorize(b.x, 8);
    b.bx.compute_at(b.by, Var("yo")).vectorize(b.x, 8);
    b.check(40, 30);
    b.check(33, 7);
}

TEST(ComputeAt, LoopLevels) {
    {
        Blur b;
        b.bx.compute_at(LoopLevel(b.by, b.x));
        b.check(40, 30);
    }
    {
        Blur b;
        b.bx.compute_at(LoopLevel::root());
        b.check(40, 30);
        EXPECT_EQ(b.loop_nest().find("produce at_bx"), 0u) << b.loop_nest();
    }
    {
        Blur b;
        b.bx.compute_at(LoopLevel::inlined());
        b.check(40, 30);
        EXPECT_EQ(b.loop_nest().find("produce at_bx"), std::string::npos) << b.loop_nest();
    }
}

TEST(ComputeAt, AtTheRVarLoopOfAnUpdate) {
    // g is computed once per iteration of f's update loop over r.
    Func g("at_g"), f("at_f");
    Var x("x");
    RDom r(0, 20, "r");
    g(x) = x * x + 1;
    f(x) = 0;
    f(r % 5) += g(r) + g(r + 1);
    g.compute_at(f, r.x);
    Buffer<int32_t> out = f.realize({5});
    int expected[5] = {0, 0, 0, 0, 0};
    for (int i = 0; i < 20; i++) expected[i % 5] += (i * i + 1) + ((i + 1) * (i + 1) + 1);
    for (int i = 0; i < 5; i++) EXPECT_EQ(out(i), expected[i]) << i;
}

TEST(ComputeAt, Errors) {
    {
        Blur b;
        b.bx.compute_at(b.by, Var("z"));
        loom_test::expect_error(
            [&] {
                b.by.realize({10, 10});
            },
            {"at_bx", "at_by has no loop over z", "y, x"});
    }
    {
        Blur b;
        loom_test::expect_error([&] { b.by.compute_at(b.by, b.x); },
                                {"at_by can't be computed at a loop of its own"});
    }
    {
        // Another consumer uses bx outside at_by's loops.
        Blur b;
        Func other("at_other");
        other(b.x, b.y) = b.bx(b.x, b.y) + b.by(b.x, b.y);
        b.by.compute_root();
        b.bx.compute_at(b.by, b.y);
        loom_test::expect_error(
            [&] {
                other.realize({10, 10});
            },
            {"at_bx can't be computed at at_by.y", "at_other", "outside that loop"});
    }
}

// An input read by a producer computed per tile of a ShiftInwards-tiled consumer needs exactly
// the consumer's footprint: a loop over [min, min + (max - min + 1) - 1] must bound to max, not
// to max(max) + max(min) - min(min) (the region used to come out 24 columns too wide, so an
// input of exactly the needed size was refused).
TEST(ComputeAt, PerTileProducerOfAnExactSizeInput) {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    ImageParam img(Int(32), 2, "img");
    Func staged("staged"), out("out");
    staged(x, y) = img(x, y);
    out(x, y) = staged(x, y) + staged(x + 1, y) + staged(x, y + 1);
    out.tile(x, y, xo, yo, xi, yi, 8, 8);
    staged.compute_at(out, xo);
    Buffer<int32_t> input(33, 33);
    for (int j = 0; j < 33; j++) {
        for (int i = 0; i < 33; i++) input(i, j) = i * 7 + j * 3;
    }
    img.set(input);
    Buffer<int32_t> result = out.realize({32, 32});
    for (int j = 0; j < 32; j++) {
        for (int i = 0; i < 32; i++) {
            ASSERT_EQ(result(i, j), input(i, j) + input(i + 1, j) + input(i, j + 1))
                << "at " << i << ", " << j;
        }
    }
}
