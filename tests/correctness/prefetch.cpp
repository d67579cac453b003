// prefetch(): values never change; the lowered statement holds the prefetch at the requested
// loop, for an input buffer (each bound strategy) and for a Func.
#include <loom/loom.h>

#include "common/expect_error.h"
#include "common/lowered_text.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace loom;

namespace {

/// The text from the loop `loop` on (its body comes right after its header).
std::string from_loop(const std::string &s, const std::string &loop) {
    size_t p = s.find("for (" + loop);
    return p == std::string::npos ? std::string() : s.substr(p);
}

} // namespace

TEST(Prefetch, InputBufferEveryStrategy) {
    for (PrefetchBoundStrategy st :
         {PrefetchBoundStrategy::GuardWithIf, PrefetchBoundStrategy::Clamp,
          PrefetchBoundStrategy::NonFaulting}) {
        ImageParam in(Int(32), 2, "pf_in");
        Var x("x"), y("y");
        Func f("pf_blur");
        f(x, y) = in(x, y) + in(x, y + 1) * 2 + in(x + 1, y);
        f.prefetch(in, y, y, 2, st);
        Buffer<int32_t> img(65, 41);
        for (int j = 0; j < 41; j++) {
            for (int i = 0; i < 65; i++) img(i, j) = i * 7 - j * 3;
        }
        in.set(img);
        Buffer<int32_t> out = f.realize({64, 40});
        for (int j = 0; j < 40; j++) {
            for (int i = 0; i < 64; i++) {
                ASSERT_EQ(out(i, j), img(i, j) + img(i, j + 1) * 2 + img(i + 1, j))
                    << i << "," << j;
            }
        }
        std::string s = lowered(f, {in});
        std::string body = from_loop(s, "pf_blur.s0.y");
        ASSERT_FALSE(body.empty()) << s;
        size_t pf = body.find("prefetch(pf_in[");
        size_t inner = body.find("for (pf_blur.s0.x");
        EXPECT_NE(pf, std::string::npos) << s;
        EXPECT_LT(pf, inner) << "the prefetch sits in the y loop, before the x loop:\n" << s;
        if (st == PrefetchBoundStrategy::GuardWithIf) {
            EXPECT_NE(body.find("if ("), std::string::npos) << s;
        }
    }
}

TEST(Prefetch, FuncAtInnerLoopFromOuter) {
    Var x("x"), y("y");
    Func p("pf_producer"), c("pf_consumer");
    p(x, y) = x * 3 + y;
    c(x, y) = p(x, y) + p(x, y + 1);
    p.compute_root();
    Var xo("xo"), xi("xi");
    c.split(x, xo, xi, 8).prefetch(p, xo, y, 1);
    Buffer<int32_t> out = c.realize({32, 16});
    for (int j = 0; j < 16; j++) {
        for (int i = 0; i < 32; i++) ASSERT_EQ(out(i, j), i * 6 + 2 * j + 1);
    }
    std::string s = lowered(c, {});
    std::string body = from_loop(s, "pf_consumer.s0.x.xo");
    EXPECT_NE(body.find("prefetch(pf_producer["), std::string::npos) << s;
}

TEST(Prefetch, Errors) {
    Var x("x"), y("y"), z("z");
    Func f("pf_err"), g("pf_src");
    g(x) = x;
    f(x, y) = g(x + y);
    loom_test::expect_error([&] { f.prefetch(g, z, y); },
                            {"pf_err", "no loop over z", "Its loops"});
    loom_test::expect_error([&] { f.prefetch(g, y, x); }, {"pf_err", "inside", "one outside it"});
}
