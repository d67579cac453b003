// print_loop_nest: Halide's compact summary of the loop nest. Each expected string is what
// Halide 21's Func::print_loop_nest printed for the same algorithm and schedule.
#include <loom/loom.h>

#include "lower/print_loop_nest.h"

#include "common/unique_names.h"

#include <gtest/gtest.h>

using namespace loom;
using namespace loom::internal;

namespace {

/// The loop nest without the suffixes of reused Func names (each TEST names its Funcs f, g).
std::string nest_of(const std::vector<Function> &outputs) {
    return without_unique_suffixes(print_loop_nest(outputs));
}

TEST(PrintLoopNest, StoreRootShowsTheStoreLevelAndHidesSingleIterations) {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = x + y;
    g(x, y) = f(x, y) + f(x + 1, y);
    f.compute_at(g, y).store_root();
    // Halide 21: f's loop over y has one iteration per y of g, so it is not shown.
    EXPECT_EQ(nest_of({g.function()}), "store f:\n"
                                       "  produce g:\n"
                                       "    for y:\n"
                                       "      produce f:\n"
                                       "        for x:\n"
                                       "          f(...) = ...\n"
                                       "      consume f:\n"
                                       "        for x:\n"
                                       "          g(...) = ...\n");
}

TEST(PrintLoopNest, TileParallelVectorizeUnrollStoreAt) {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func f("f"), g("g");
    f(x, y) = x + y;
    g(x, y) = f(x, y) + f(x + 1, y);
    g.tile(x, y, xo, yo, xi, yi, 4, 4).parallel(yo).vectorize(xi).unroll(yi);
    f.compute_at(g, xo).store_at(g, yo).vectorize(x, 4);
    // Halide 21.
    EXPECT_EQ(nest_of({g.function()}), "produce g:\n"
                                       "  parallel y.yo:\n"
                                       "    store f:\n"
                                       "      for x.xo:\n"
                                       "        produce f:\n"
                                       "          for y:\n"
                                       "            for x.x:\n"
                                       "              vectorized x.v0 in [0, 3]:\n"
                                       "                f(...) = ...\n"
                                       "        consume f:\n"
                                       "          unrolled y.yi in [0, 3]:\n"
                                       "            vectorized x.xi in [0, 3]:\n"
                                       "              g(...) = ...\n");
}

TEST(PrintLoopNest, ComputeAtWithoutStoreAtHasNoStoreLine) {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = x + y;
    g(x, y) = f(x, y);
    f.compute_at(g, y);
    // Halide 21.
    EXPECT_EQ(nest_of({g.function()}), "produce g:\n"
                                       "  for y:\n"
                                       "    produce f:\n"
                                       "      for x:\n"
                                       "        f(...) = ...\n"
                                       "    consume f:\n"
                                       "      for x:\n"
                                       "        g(...) = ...\n");
}

TEST(PrintLoopNest, ConstantRDomBounds) {
    Var x("x");
    Func f("f"), g("g");
    RDom r(0, 10);
    f(x) = x;
    f(r) += 1;
    f.update().parallel(r);
    g(x) = f(x);
    f.compute_root();
    // Halide 21 prints the same nest; its RVar is named "r5" where Loom's is "r4.x"-like,
    // so the RVar's name is read from the nest itself.
    std::string nest = nest_of({g.function()});
    size_t p = nest.find("  parallel ");
    ASSERT_NE(p, std::string::npos) << nest;
    std::string rvar = nest.substr(p + 11, nest.find(' ', p + 11) - p - 11);
    EXPECT_EQ(nest, "produce f:\n"
                    "  for x:\n"
                    "    f(...) = ...\n"
                    "  parallel " +
                        rvar +
                        " in [0, 9]:\n"
                        "    f(...) = ...\n"
                        "consume f:\n"
                        "  produce g:\n"
                        "    for x:\n"
                        "      g(...) = ...\n");
}

} // namespace
