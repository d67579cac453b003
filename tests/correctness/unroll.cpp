// unroll(): results equal the unscheduled pipeline for every tail strategy and for whole loops
// of bounded extent, and the lowered statement has no loop left for the unrolled variable but one
// store per iteration.
#include <loom/loom.h>

#include "common/lowered_text.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

using namespace loom;

namespace {

int count(const std::string &s, const std::string &what) {
    int n = 0;
    for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) n++;
    return n;
}

int32_t reference(int x, int y) { return x * 5 - y * 3 + (x % 3) * y; }

Func pipeline(Var x, Var y) {
    Func f("f");
    f(x, y) = x * 5 - y * 3 + (x % 3) * y;
    return f;
}

} // namespace

TEST(Unroll, EveryTailMatchesTheReference) {
    const TailStrategy tails[] = {TailStrategy::GuardWithIf, TailStrategy::ShiftInwards,
                                  TailStrategy::Auto};
    for (TailStrategy tail : tails) {
        for (int factor : {2, 3, 4}) {
            for (int w : {12, 13}) {
                Var x("x"), y("y");
                Func f = pipeline(x, y);
                f.unroll(x, factor, tail);
                Buffer<int32_t> out = f.realize({w, 4});
                for (int j = 0; j < 4; j++) {
                    for (int i = 0; i < w; i++) {
                        ASSERT_EQ(out(i, j), reference(i, j))
                            << "factor " << factor << " tail " << (int)tail << " width " << w;
                    }
                }
            }
        }
    }
}

TEST(Unroll, RoundUpOnAnIntermediate) {
    Var x("x"), y("y");
    Func f = pipeline(x, y), g("g");
    g(x, y) = f(x, y) + 1;
    f.compute_root().unroll(x, 4, TailStrategy::RoundUp);
    Buffer<int32_t> out = g.realize({13, 3});
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 13; i++) ASSERT_EQ(out(i, j), reference(i, j) + 1);
    }
}

TEST(Unroll, LoopNestHasCopiesAndNoLoop) {
    Var x("x"), y("y");
    Func f = pipeline(x, y);
    Var yo("yo"), yi("yi");
    f.split(y, yo, yi, 3, TailStrategy::RoundUp).unroll(yi).unroll(x, 4, TailStrategy::RoundUp);
    std::string s = lowered(f);
    EXPECT_EQ(s.find("for (f.s0.y.yi"), std::string::npos) << s;
    EXPECT_EQ(s.find("unrolled"), std::string::npos) << s;
    // 3 rows x 4 lanes of stores inside the x.x loop.
    EXPECT_EQ(count(s, "f["), 12) << s;
    Buffer<int32_t> out = f.realize({16, 3});
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 16; i++) ASSERT_EQ(out(i, j), reference(i, j));
    }
}

TEST(Unroll, UpdateStageOverAnRVar) {
    Var x("x");
    Func h("h");
    RDom r(0, 6, "r");
    h(x) = x;
    h(x) += r * x + r;
    h.update().unroll(r);
    Buffer<int32_t> out = h.realize({7});
    for (int i = 0; i < 7; i++) {
        int v = i;
        for (int k = 0; k < 6; k++) v += k * i + k;
        ASSERT_EQ(out(i), v);
    }
    EXPECT_EQ(lowered(h).find("for (h.s1.r"), std::string::npos) << lowered(h);
}
