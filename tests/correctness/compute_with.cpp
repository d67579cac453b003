// compute_with: stages fused into one loop nest give the results of naive loops, and
// print_loop_nest shows one loop over the fused dimensions holding both bodies, in Halide's
// order. The loop nests quoted as Halide's were printed by Halide 21 (the halide==21.0.0
// wheel) for the same source.
#include <loom/loom.h>

#include "common/unique_names.h"

#include <gtest/gtest.h>

#include <functional>
#include <iostream>
#include <sstream>

using namespace loom;

namespace {

std::string captured(const std::function<void()> &print) {
    std::ostringstream out;
    std::streambuf *old = std::cerr.rdbuf(out.rdbuf());
    print();
    std::cerr.rdbuf(old);
    return out.str();
}

std::string nest_of(Func f) {
    return without_unique_suffixes(captured([&] { f.print_loop_nest(); }));
}

/// f(x, y) = in(x, y) + 1 over the output's region and g(x, y) = 2 * in(x, y) - x over a
/// region shifted and halved (so their loops have different extents), read by
/// out(x, y) = f(x, y) + 3 * g(x / 2 + 3, y / 2 + 1). The input buffer is exactly as large as
/// both need, so a fused loop reading outside either stage's range fails its bounds check.
struct TwoFuncs {
    Var x{"x"}, y{"y"};
    Func f{"cw_f"}, g{"cw_g"}, out{"cw_out"};
    Buffer<int32_t> in{24, 20};
    TwoFuncs() {
        for (int j = 0; j < in.height(); j++)
            for (int i = 0; i < in.width(); i++) in(i, j) = (i * 13 + j * 7) % 31;
        f(x, y) = in(x, y) + 1;
        g(x, y) = 2 * in(x, y) - x;
        out(x, y) = f(x, y) + 3 * g(x / 2 + 3, y / 2 + 1);
        f.compute_root();
        g.compute_root();
    }
    int32_t reference(int i, int j) const {
        int gi = i / 2 + 3, gj = j / 2 + 1;
        return in(i, j) + 1 + 3 * (2 * in(gi, gj) - gi);
    }
    void check(int w = 24, int h = 20) {
        Buffer<int32_t> r = out.realize({w, h});
        for (int j = 0; j < h; j++)
            for (int i = 0; i < w; i++) ASSERT_EQ(r(i, j), reference(i, j)) << i << ", " << j;
    }
};

/// Two independent Funcs over the same domain, both read by out.
struct SameDomain {
    Var x{"x"}, y{"y"};
    Func f{"sd_f"}, g{"sd_g"}, out{"sd_out"};
    SameDomain() {
        f(x, y) = x * 3 + y;
        g(x, y) = x - 2 * y;
        out(x, y) = f(x, y) * 10 + g(x, y);
        f.compute_root();
        g.compute_root();
    }
    void check(int w, int h) {
        Buffer<int32_t> r = out.realize({w, h});
        for (int j = 0; j < h; j++)
            for (int i = 0; i < w; i++)
                ASSERT_EQ(r(i, j), (i * 3 + j) * 10 + (i - 2 * j)) << i << ", " << j;
    }
};

} // namespace

TEST(ComputeWith, SameDomainAtY) {
    SameDomain p;
    p.g.compute_with(p.f, p.y);
    p.check(19, 11);
    // As Halide 21 prints it: one y loop holding f's x loop, then g's.
    EXPECT_EQ(nest_of(p.out), "produce sd_f:\n"
                              "  produce sd_g:\n"
                              "    for fused.y:\n"
                              "      for x:\n"
                              "        sd_f(...) = ...\n"
                              "      for x:\n"
                              "        sd_g(...) = ...\n"
                              "consume sd_f:\n"
                              "  consume sd_g:\n"
                              "    produce sd_out:\n"
                              "      for y:\n"
                              "        for x:\n"
                              "          sd_out(...) = ...\n");
}

TEST(ComputeWith, SameDomainAtX) {
    SameDomain p;
    p.g.compute_with(LoopLevel(p.f, p.x));
    p.check(19, 11);
    std::string nest = nest_of(p.out);
    EXPECT_NE(nest.find("    for fused.y:\n"
                        "      for fused.x:\n"
                        "        sd_f(...) = ...\n"
                        "        sd_g(...) = ...\n"),
              std::string::npos)
        << nest;
}

TEST(ComputeWith, DifferentExtentsEachAlignment) {
    const LoopAlignStrategy aligns[] = {LoopAlignStrategy::Auto, LoopAlignStrategy::NoAlign,
                                        LoopAlignStrategy::AlignStart, LoopAlignStrategy::AlignEnd};
    for (LoopAlignStrategy a : aligns) {
        TwoFuncs p;
        p.g.compute_with(p.f, p.x, a);
        p.check(13, 7);
        EXPECT_NE(nest_of(p.out).find("for fused.y:\n      for fused.x:\n        cw_f(...) = ...\n"
                                      "        cw_g(...) = ...\n"),
                  std::string::npos)
            << nest_of(p.out);
    }
    // A strategy per loop (Halide's vector form).
    TwoFuncs p;
    p.g.compute_with(p.f, p.x,
                     {{p.x, LoopAlignStrategy::AlignEnd}, {p.y, LoopAlignStrategy::AlignStart}});
    p.check();
}

TEST(ComputeWith, TiledParent) {
    TwoFuncs p;
    Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
    // The fused loops are loop counters: g's tiles may be of another size (Halide 21 prints the
    // same nest for this source).
    p.f.tile(p.x, p.y, xo, yo, xi, yi, 4, 4);
    p.g.tile(p.x, p.y, xo, yo, xi, yi, 8, 2);
    p.g.compute_with(p.f, xo);
    p.check();
    p.check(13, 7);
    EXPECT_EQ(nest_of(p.out), "produce cw_f:\n"
                              "  produce cw_g:\n"
                              "    for y.fused.yo:\n"
                              "      for x.fused.xo:\n"
                              "        for y.yi in [0, 3]:\n"
                              "          for x.xi in [0, 3]:\n"
                              "            cw_f(...) = ...\n"
                              "        for y.yi in [0, 1]:\n"
                              "          for x.xi in [0, 7]:\n"
                              "            cw_g(...) = ...\n"
                              "consume cw_f:\n"
                              "  consume cw_g:\n"
                              "    produce cw_out:\n"
                              "      for y:\n"
                              "        for x:\n"
                              "          cw_out(...) = ...\n");
    TwoFuncs q;
    q.f.tile(q.x, q.y, xo, yo, xi, yi, 4, 4);
    q.g.tile(q.x, q.y, xo, yo, xi, yi, 8, 2);
    q.g.compute_with(q.f, xo, LoopAlignStrategy::AlignEnd);
    q.check();
}

TEST(ComputeWith, VectorizedAndParallel) {
    {
        // The vectorized loops are each stage's own (inside the fused x loop).
        TwoFuncs p;
        p.f.vectorize(p.x, 8);
        p.g.vectorize(p.x, 4);
        p.g.compute_with(p.f, p.x);
        p.check();
        std::string nest = nest_of(p.out);
        EXPECT_NE(nest.find("    for fused.y:\n      for x.fused.x:\n"
                            "        vectorized x.v0 in [0, 7]:\n          cw_f(...) = ...\n"
                            "        vectorized x.v1 in [0, 3]:\n          cw_g(...) = ...\n"),
                  std::string::npos)
            << nest;
    }
    {
        // A vectorized fused loop: both stages in one vector loop.
        SameDomain p;
        p.f.bound(p.x, 0, 8).vectorize(p.x);
        p.g.bound(p.x, 0, 8).vectorize(p.x);
        p.g.compute_with(p.f, p.x);
        p.out.bound(p.x, 0, 8);
        p.check(8, 5);
        EXPECT_NE(nest_of(p.out).find("      vectorized fused.x in [0, 7]:\n        sd_f(...) = "
                                      "...\n        sd_g(...) = ...\n"),
                  std::string::npos)
            << nest_of(p.out);
    }
    {
        TwoFuncs p;
        Var yo("yo"), yi("yi");
        p.f.split(p.y, yo, yi, 4).parallel(yo);
        p.g.split(p.y, yo, yi, 2).parallel(yo);
        p.g.compute_with(p.f, yo, LoopAlignStrategy::AlignEnd);
        p.check();
        EXPECT_NE(nest_of(p.out).find("    parallel y.fused.yo:\n"), std::string::npos)
            << nest_of(p.out);
    }
}

TEST(ComputeWith, SplitTailsOfEachStage) {
    TwoFuncs p;
    Var xo("xo"), xi("xi");
    p.f.split(p.x, xo, xi, 3, TailStrategy::GuardWithIf);
    p.g.split(p.x, xo, xi, 5, TailStrategy::RoundUp);
    p.g.compute_with(p.f, xo);
    p.check();
    p.check(11, 9);
}

TEST(ComputeWith, UpdateStageWithAnotherFuncsPureStage) {
    // Halide's doc example: f.compute_with(g, y); f.update().compute_with(g.update(), y).
    Var x("x"), y("y");
    Func f("up_f"), g("up_g"), out("up_out");
    f(x, y) = x * 5 + y;
    f(x, y) += 5;
    g(x, y) = x - y;
    g(x, y) += 10;
    out(x, y) = f(x, y) + g(x + 1, y + 2) * 100;
    f.compute_root();
    g.compute_root();
    f.compute_with(g, y);
    f.update().compute_with(g.update(), y);
    Buffer<int32_t> r = out.realize({15, 9});
    for (int j = 0; j < 9; j++)
        for (int i = 0; i < 15; i++)
            ASSERT_EQ(r(i, j), (i * 5 + j + 5) + ((i + 1) - (j + 2) + 10) * 100) << i << ", " << j;
    EXPECT_NE(nest_of(out).find("produce up_g:\n"
                                "  produce up_f:\n"
                                "    for fused.y:\n"
                                "      for x:\n        up_g(...) = ...\n"
                                "      for x:\n        up_f(...) = ...\n"
                                "    for fused.y:\n"
                                "      for x:\n        up_g(...) = ...\n"
                                "      for x:\n        up_f(...) = ...\n"),
              std::string::npos)
        << nest_of(out);

    // An update of one Func fused with the pure stage of another: f's pure stage runs first,
    // then the fused nest, then g's update (Halide 21's order).
    Func f2("up_f2"), g2("up_g2"), out2("up_out2");
    RDom rd(0, 4, "r");
    f2(x, y) = x + y;
    f2(x, y) += f2(x, y) * 2;
    g2(x, y) = x * y;
    g2(x, y) += rd;
    out2(x, y) = f2(x, y) + g2(x, y) * 1000;
    f2.compute_root();
    g2.compute_root();
    f2.update().compute_with(g2, y);
    Buffer<int32_t> res2 = out2.realize({7, 6});
    for (int j = 0; j < 6; j++)
        for (int i = 0; i < 7; i++)
            ASSERT_EQ(res2(i, j), 3 * (i + j) + (i * j + 6) * 1000) << i << ", " << j;
    EXPECT_NE(nest_of(out2).find("produce up_g2:\n"
                                 "  produce up_f2:\n"
                                 "    for y:\n      for x:\n        up_f2(...) = ...\n"
                                 "    for fused.y:\n"
                                 "      for x:\n        up_g2(...) = ...\n"
                                 "      for x:\n        up_f2(...) = ...\n"
                                 "    for y:\n      for x:\n        for r in [0, 3]:\n"
                                 "          up_g2(...) = ...\n"),
              std::string::npos)
        << nest_of(out2);
}

TEST(ComputeWith, TwoReductionsOverOneDomain) {
    // A histogram and a sum by class computed in one pass over the input (the RVar loops are
    // fused), their pure stages in one loop too.
    Buffer<int32_t> in(16, 12);
    for (int j = 0; j < 12; j++)
        for (int i = 0; i < 16; i++) in(i, j) = (i * 5 + j * 3) % 7;
    Var x("x");
    RDom r(0, 16, 0, 12, "r");
    Func hist("rd_hist"), sums("rd_sums"), out("rd_out");
    hist(x) = 0;
    hist(clamp(in(r.x, r.y), 0, 7)) += 1;
    sums(x) = 0;
    sums(in(r.x, r.y) % 3) += in(r.x, r.y);
    out(x) = hist(x) * 1000 + sums(x);
    hist.compute_root();
    sums.compute_root();
    sums.compute_with(hist, x);
    sums.update().compute_with(hist.update(), r.x);
    Buffer<int32_t> res = out.realize({8});
    int h[8] = {0}, s[8] = {0};
    for (int j = 0; j < 12; j++) {
        for (int i = 0; i < 16; i++) {
            h[std::min(std::max(in(i, j), 0), 7)]++;
            s[in(i, j) % 3] += in(i, j);
        }
    }
    for (int i = 0; i < 8; i++) EXPECT_EQ(res(i), h[i] * 1000 + s[i]) << i;
    EXPECT_NE(nest_of(out).find("    for r.fused.y in [0, 11]:\n      for r.fused.x in [0, 15]:\n"
                                "        rd_hist(...) = ...\n        rd_sums(...) = ...\n"),
              std::string::npos)
        << nest_of(out);
}

TEST(ComputeWith, ChainOfThree) {
    Var x("x"), y("y");
    Func f("ch_f"), g("ch_g"), h("ch_h"), out("ch_out");
    f(x, y) = x + y;
    g(x, y) = x - y;
    h(x, y) = x * y;
    out(x, y) = f(x, y) + g(x + 1, y) * 10 + h(x, y + 2) * 100;
    f.compute_root();
    g.compute_root();
    h.compute_root();
    h.compute_with(g, x);
    g.compute_with(f, x);
    auto check = [&] {
        Buffer<int32_t> r = out.realize({12, 8});
        for (int j = 0; j < 8; j++)
            for (int i = 0; i < 12; i++)
                ASSERT_EQ(r(i, j), (i + j) + (i + 1 - j) * 10 + i * (j + 2) * 100)
                    << i << ", " << j;
    };
    check();
    EXPECT_NE(nest_of(out).find("produce ch_f:\n  produce ch_g:\n    produce ch_h:\n"
                                "      for fused.y:\n        for fused.x:\n"
                                "          ch_f(...) = ...\n          ch_g(...) = ...\n"
                                "          ch_h(...) = ...\n"),
              std::string::npos)
        << nest_of(out);
    // h shares g's loops deeper than g shares f's: g's x loop (not f's) runs h too.
    h.compute_with(g, x);
    g.compute_with(f, y);
    check();
    EXPECT_NE(nest_of(out).find("      for fused.y:\n        for x:\n          ch_f(...) = ...\n"
                                "        for fused.x:\n          ch_g(...) = ...\n"
                                "          ch_h(...) = ...\n"),
              std::string::npos)
        << nest_of(out);
    // Several stages computed with one, in realization order.
    h.compute_with(f, x, LoopAlignStrategy::AlignEnd);
    g.compute_with(f, x, LoopAlignStrategy::AlignStart);
    check();
    EXPECT_NE(nest_of(out).find("        for fused.x:\n          ch_f(...) = ...\n"
                                "          ch_g(...) = ...\n          ch_h(...) = ...\n"),
              std::string::npos)
        << nest_of(out);
}

TEST(ComputeWith, ComputedAtAConsumerLoop) {
    TwoFuncs p;
    p.f.compute_at(p.out, p.y);
    p.g.compute_at(p.out, p.y);
    p.g.compute_with(p.f, p.x);
    p.check();
    p.check(9, 13);
    // As Halide 21: the group is produced in out's y loop (its fused y loop covers f's row and
    // the row g needs there).
    EXPECT_EQ(nest_of(p.out), "produce cw_out:\n"
                              "  for y:\n"
                              "    produce cw_f:\n"
                              "      produce cw_g:\n"
                              "        for fused.y:\n"
                              "          for fused.x:\n"
                              "            cw_f(...) = ...\n"
                              "            cw_g(...) = ...\n"
                              "    consume cw_f:\n"
                              "      consume cw_g:\n"
                              "        for x:\n"
                              "          cw_out(...) = ...\n");
}

TEST(ComputeWith, StoredOutsideTheComputeLevel) {
    // Both computed per row of out; f stored at the root (so it slides down the rows), g per
    // row, then both per strip of 4 rows.
    for (int schedule = 0; schedule < 2; schedule++) {
        Var x("x"), y("y"), yo("yo"), yi("yi");
        Func f("st_f"), g("st_g"), out("st_out");
        f(x, y) = x * 7 + y * 3 + 1;
        g(x, y) = (x * 7 + y * 3) * 2;
        out(x, y) = f(x, y - 1) + f(x, y + 1) + g(x, y) * 3 + g(x + 1, y + 2);
        if (schedule == 0) {
            f.store_root().compute_at(out, y);
            g.compute_at(out, y);
        } else {
            out.split(y, yo, yi, 4);
            f.store_at(out, yo).compute_at(out, yi);
            g.store_at(out, yo).compute_at(out, yi);
        }
        g.compute_with(f, x);
        Buffer<int32_t> r = out.realize({17, 11});
        for (int j = 0; j < 11; j++) {
            for (int i = 0; i < 17; i++) {
                auto fv = [](int a, int b) { return a * 7 + b * 3 + 1; };
                auto gv = [](int a, int b) { return (a * 7 + b * 3) * 2; };
                ASSERT_EQ(r(i, j), fv(i, j - 1) + fv(i, j + 1) + gv(i, j) * 3 + gv(i + 1, j + 2))
                    << schedule << ": " << i << ", " << j;
            }
        }
        std::string nest = nest_of(out);
        EXPECT_NE(nest.find(schedule == 0 ? "store st_f:\n  produce st_out:\n    for y:\n"
                                            "      produce st_f:\n        produce st_g:\n"
                                          : "  for y.yo:\n    store st_f:\n      store st_g:\n"),
                  std::string::npos)
            << nest;
    }
}

TEST(ComputeWith, TwoOutputsOfAPipeline) {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func f("po_f"), g("po_g");
    f(x, y) = x + 2 * y;
    g(x, y) = x * y - 1;
    f.split(x, xo, xi, 8).vectorize(xi);
    g.split(x, xo, xi, 8).vectorize(xi);
    g.compute_with(f, xo);
    Pipeline p({f, g});
    // Outputs of different sizes: each is written only over its own buffer.
    Buffer<int32_t> a(37, 11), b(21, 15);
    p.realize({a, b});
    for (int j = 0; j < 11; j++)
        for (int i = 0; i < 37; i++) ASSERT_EQ(a(i, j), i + 2 * j) << i << ", " << j;
    for (int j = 0; j < 15; j++)
        for (int i = 0; i < 21; i++) ASSERT_EQ(b(i, j), i * j - 1) << i << ", " << j;
    std::string nest = captured([&] { p.print_loop_nest(); });
    EXPECT_NE(nest.find("produce po_f:\n  produce po_g:\n    for fused.y:\n      for x.fused.xo:\n"
                        "        vectorized x.xi in [0, 7]:\n          po_f(...) = ...\n"
                        "        vectorized x.xi in [0, 7]:\n          po_g(...) = ...\n"),
              std::string::npos)
        << nest;
}

TEST(ComputeWith, ProducerComputedInTheFusedLoops) {
    // `in` is computed per iteration of the fused y loop: its region there covers what both
    // f and g read (Halide's compute_at(parent, y)), or, at g's own y, only g's part.
    for (int where = 0; where < 3; where++) {
        Var x("x"), y("y");
        Func in("pr_in"), f("pr_f"), g("pr_g"), out("pr_out");
        in(x, y) = x * 7 + y * 3;
        // With where == 2 only g reads in.
        f(x, y) = where == 2 ? x + y + 1 : in(x, y) + 1;
        g(x, y) = in(x + 2, y * 2) * 2;
        out(x, y) = f(x, y) + g(x / 2, y / 2 + 1) * 100;
        f.compute_root();
        g.compute_root();
        g.compute_with(f, y);
        if (where == 0) in.compute_at(f, y);
        if (where == 1) in.compute_at(f, Var::outermost());
        if (where == 2) in.compute_at(g, y);
        Buffer<int32_t> r = out.realize({14, 10});
        for (int j = 0; j < 10; j++) {
            for (int i = 0; i < 14; i++) {
                int fi = where == 2 ? i + j + 1 : i * 7 + j * 3 + 1;
                int gi = ((i / 2 + 2) * 7 + (j / 2 + 1) * 2 * 3) * 2;
                ASSERT_EQ(r(i, j), fi + gi * 100) << where << ": " << i << ", " << j;
            }
        }
        std::string nest = nest_of(out);
        if (where == 0) {
            EXPECT_NE(nest.find("    for fused.y:\n      produce pr_in:\n"), std::string::npos)
                << nest;
        }
        if (where == 2) {
            // As Halide 21: around g's part, after f's x loop.
            EXPECT_NE(nest.find("      for x:\n        pr_f(...) = ...\n      produce pr_in:\n"),
                      std::string::npos)
                << nest;
        }
    }
}

TEST(ComputeWith, StagesOfOneFuncThatProvablyCommute) {
    // f's update reads f only at its own y: sharing the y loop keeps f's values (Halide refuses
    // this schedule outright; Loom proves it safe). Also both of f's stages with g's at y.
    Var x("x"), y("y");
    Func f("sf_f"), g("sf_g"), out("sf_out");
    f(x, y) = x + 10 * y;
    f(x, y) += f(max(x - 1, 0), y);
    g(x, y) = x * y;
    out(x, y) = f(x, y) + g(x, y) * 1000;
    f.compute_root();
    g.compute_root();
    f.update().compute_with(f, y);
    auto check = [&] {
        Buffer<int32_t> r = out.realize({9, 6});
        for (int j = 0; j < 6; j++) {
            // The update is a scan along x: it reads the point it updated just before.
            int row[9];
            for (int i = 0; i < 9; i++) row[i] = i + 10 * j;
            for (int i = 0; i < 9; i++) row[i] += row[std::max(i - 1, 0)];
            for (int i = 0; i < 9; i++) ASSERT_EQ(r(i, j), row[i] + i * j * 1000) << i << ", " << j;
        }
    };
    check();
    EXPECT_NE(nest_of(out).find("  for fused.y:\n    for x:\n      sf_f(...) = ...\n"
                                "    for x:\n      sf_f(...) = ...\n"),
              std::string::npos)
        << nest_of(out);
    f.update().compute_with(g, y);
    f.compute_with(g, y);
    check();
}
