// split / vectorize / parallel / unroll / serial on pure and update stages: every schedule gives
// the unscheduled pipeline's result, and the loop nest shows the directive.
#include <loom/loom.h>

#include "common/expect_error.h"

#include "common/unique_names.h"

#include <gtest/gtest.h>

#include <functional>
#include <regex>
#include <sstream>
#include <string>

using namespace loom;

namespace {

/// The pipeline under test: a pure producer, a consumer with a stencil and an update over an
/// RDom. `schedule` is applied to (producer, consumer) before realizing.
Buffer<int32_t> run(const std::function<void(Func &, Func &)> &schedule, int w, int h,
                    std::string *loop_nest = nullptr) {
    Var x("x"), y("y");
    Func producer("producer"), consumer("consumer");
    producer(x, y) = x * 7 + y * 3 + (x ^ y);
    consumer(x, y) = producer(x, y) + producer(x + 1, y) * 2 - producer(x, y + 2);
    RDom r(0, 5, "r");
    consumer(x, y) += r * (x - y);
    producer.compute_root();
    schedule(producer, consumer);
    if (loop_nest) {
        std::ostringstream captured;
        std::streambuf *old = std::cerr.rdbuf(captured.rdbuf());
        consumer.print_loop_nest();
        std::cerr.rdbuf(old);
        *loop_nest = captured.str();
    }
    return consumer.realize({w, h});
}

/// The naive reference.
int32_t expected(int x, int y) {
    auto p = [](int i, int j) { return i * 7 + j * 3 + (i ^ j); };
    int32_t v = p(x, y) + p(x + 1, y) * 2 - p(x, y + 2);
    for (int r = 0; r < 5; r++) v += r * (x - y);
    return v;
}

void check(const Buffer<int32_t> &out) {
    for (int y = 0; y < out.height(); y++) {
        for (int x = 0; x < out.width(); x++) {
            ASSERT_EQ(out(x, y), expected(x, y)) << "at " << x << ", " << y;
        }
    }
}

struct Case {
    const char *name;
    std::function<void(Func &, Func &)> schedule;
    const char *loop_nest_contains; ///< a line the loop nest must show
};

} // namespace

TEST(LoopDirectives, EveryScheduleMatchesTheReference) {
    Var x("x"), y("y");
    const Case cases[] = {
        {"none", [](Func &, Func &) {}, "for x:"},
        {"split", [&](Func &, Func &c) { c.split(x, Var("xo"), Var("xi"), 4); }, "for x.xi:"},
        {"split_guard",
         [&](Func &, Func &c) { c.split(y, Var("yo"), Var("yi"), 3, TailStrategy::GuardWithIf); },
         "for y.yo:"},
        {"split_param_factor",
         [&](Func &, Func &c) {
             Param<int> k("k", 5);
             c.split(x, Var("xo"), Var("xi"), k);
         },
         "for x.xo:"},
        {"vectorize", [&](Func &p, Func &) { p.vectorize(x, 8); }, "vectorized x.v"},
        {"parallel", [&](Func &, Func &c) { c.parallel(y); }, "parallel y:"},
        {"parallel_task", [&](Func &p, Func &) { p.parallel(y, 4); }, "parallel y.y:"},
        {"unroll", [&](Func &, Func &c) { c.unroll(x, 2); }, "unrolled x.v"},
        {"split_then_vectorize_inner",
         [&](Func &, Func &c) {
             c.split(x, Var("xo"), Var("xi"), 8).vectorize(Var("xi")).parallel(y);
         },
         "vectorized x.xi:"},
        {"nested_splits",
         [&](Func &, Func &c) {
             c.split(x, Var("xo"), Var("xi"), 8).split(Var("xi"), Var("a"), Var("b"), 2);
         },
         "for x.xi.b:"},
        {"update_pure_var",
         [&](Func &, Func &c) {
             c.update(0).vectorize(x, 4, TailStrategy::GuardWithIf).parallel(y);
         },
         "parallel y:"},
        {"update_rvar_split",
         [&](Func &, Func &c) { c.update(0).split(RVar("r.x"), RVar("ro"), RVar("ri"), 2); },
         "for r.ri:"},
        {"reorder", [&](Func &, Func &c) { c.reorder(y, x); }, "for x:\n      for y:"},
        {"tile",
         [&](Func &, Func &c) { c.tile(x, y, Var("xo"), Var("yo"), Var("xi"), Var("yi"), 4, 2); },
         "for y.yo:\n      for x.xo:\n        for y.yi:\n          for x.xi:"},
        {"tile_keeping_names",
         [&](Func &p, Func &) { p.tile(x, y, Var("xi"), Var("yi"), 8, 4).parallel(y); },
         "parallel y.y:"},
        {"fuse", [&](Func &, Func &c) { c.fuse(x, y, Var("xy")).parallel(Var("xy")); },
         "parallel x.xy:"},
        {"rename", [&](Func &, Func &c) { c.rename(x, Var("col")); }, "for col:"},
        {"paper_figure_1",
         [&](Func &p, Func &c) {
             Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
             c.tile(x, y, xo, yo, xi, yi, 8, 4).vectorize(xi, 4).parallel(yo);
             // At the pure stage's tile loop (LoopLevel's default is the last stage, the update,
             // which does not call the producer).
             p.compute_at(LoopLevel(c, xo, 0)).vectorize(x, 4);
         },
         "for x.xo:\n      produce producer:"},
        {"serial_undoes", [&](Func &, Func &c) { c.parallel(y).serial(y); }, "for y:"},
    };
    for (const Case &k : cases) {
        SCOPED_TRACE(k.name);
        std::string nest;
        // Sizes that are and are not multiples of the factors.
        for (int w : {8, 13}) {
            for (int h : {4, 7}) check(run(k.schedule, w, h, &nest));
        }
        // The constant bounds print_loop_nest shows (Halide's " in [0, 3]") are not what
        // these checks are about.
        nest =
            without_unique_suffixes(std::regex_replace(nest, std::regex(" in \\[[^\\]]*\\]"), ""));
        EXPECT_NE(nest.find(k.loop_nest_contains), std::string::npos) << nest;
    }
}

TEST(LoopDirectives, RoundUpPastAnOutputIsARuntimeError) {
    // Auto is RoundUp for an update's pure Var (Halide's rule): on an output whose width is not
    // a multiple of the factor, the rounded-up loop writes past the requested width. realize()
    // with sizes allocates what a bounds query asks for and crops (as Halide); into a buffer the
    // caller made, the pipeline's bounds check says so instead of writing out of bounds.
    Func f("rounded");
    Var x("x");
    f(x) = x;
    f(x) += 1;
    f.update(0).vectorize(x, 4);
    Buffer<int32_t> ok = f.realize({12});
    for (int i = 0; i < 12; i++) EXPECT_EQ(ok(i), i + 1);
    Buffer<int32_t> cropped = f.realize({13});
    ASSERT_EQ(cropped.width(), 13);
    for (int i = 0; i < 13; i++) EXPECT_EQ(cropped(i), i + 1);
    Buffer<int32_t> given(13);
    loom_test::expect_error<RuntimeError>([&] { f.realize(given); },
                                          {"rounded", "beyond the max (12)"});
}

TEST(LoopDirectives, PureRVarMayBeParallelized) {
    // r appears bare on the left and the update reads only f(r): iterations are independent.
    Func f("independent");
    Var x("x");
    RDom r(0, 20, "r");
    f(x) = x;
    f(r) = f(r) * 3 + 1;
    f.update(0).parallel(r).vectorize(r.x, 4);
    Buffer<int32_t> out = f.realize({20});
    for (int i = 0; i < 20; i++) EXPECT_EQ(out(i), i * 3 + 1);
}

TEST(LoopDirectives, Errors) {
    Var x("x"), y("y");
    Func f("sched_err");
    f(x, y) = x + y;
    RDom r(0, 10, "r");
    f(r, 0) = f(r - 1, 0) + 1; // a scan: iterations depend on each other
    loom_test::expect_error([&] { f.split(Var("z"), Var("zo"), Var("zi"), 4); },
                            {"sched_err", "no loop over z", "y, x"});
    Param<int> w("w");
    loom_test::expect_error([&] { f.vectorize(x, w); }, {"vector factor of x must be a constant"});
    loom_test::expect_error([&] { f.unroll(x, 0); }, {"must be positive"});
    loom_test::expect_error([&] { f.update(0).parallel(r); },
                            {"sched_err.update(0)", "can't parallelize RVar r", "rfactor"});
    loom_test::expect_error([&] { f.update(0).vectorize(r.x, 4); },
                            {"can't vectorize RVar", "atomic"});
    loom_test::expect_error([&] { f.update(0).split(r.x, Var("a"), Var("b"), 2); },
                            {"can't split RVar r.x into Vars"});
    Func g("sched_err_g");
    g(x) = x;
    g(x) += 1;
    loom_test::expect_error(
        [&] { g.update(0).split(x, Var("a"), Var("b"), 2, TailStrategy::ShiftInwards); },
        {"ShiftInwards", "update definition"});
    // "x" is not a loop of f's update (its only loop is the RVar r.x).
    loom_test::expect_error([&] { f.update(0).parallel(x); }, {"no loop over x", "r.x"});
    loom_test::expect_error([&] { f.split(x, Var("a"), Var("a"), 2); }, {"different names"});
    loom_test::expect_error([&] { f.reorder(x, x); }, {"names the loop x twice"});
    loom_test::expect_error([&] { f.fuse(x, Var("nope"), Var("f")); }, {"no loop over nope"});
    loom_test::expect_error([&] { f.fuse(x, r.x, RVar("f")); }, {"fuse Vars into a Var"});
    // A 2-D scan: r2.y's iterations read what earlier r2.x iterations wrote.
    Func scan("sched_scan");
    scan(x, y) = x + y;
    RDom r2(1, 8, 1, 8, "r2");
    scan(r2.x, r2.y) = scan(r2.x - 1, r2.y) + scan(r2.x, r2.y - 1);
    loom_test::expect_error([&] { scan.update(0).reorder(r2.y, r2.x); },
                            {"can't reorder RVars r2.x and r2.y", "rfactor"});
    // Fusing loops that are not adjacent first moves the outer one directly outside the inner
    // one (as Halide does), which a scan over RVars refuses as that reorder would be.
    Var z("z");
    RDom r3(1, 4, 1, 4, 1, 4, "r3");
    Func scan3("sched_scan3");
    scan3(x, y, z) = x + y + z;
    scan3(r3.x, r3.y, r3.z) = scan3(r3.x, r3.y - 1, r3.z) + scan3(r3.x, r3.y, r3.z - 1);
    loom_test::expect_error([&] { scan3.update(0).fuse(r3.x, r3.z, RVar("xz")); },
                            {"can't reorder RVars r3.y and r3.z"});
    loom_test::expect_error(
        [&] { f.update(0).split(r.x, RVar("ro"), RVar("ri"), 2, TailStrategy::RoundUp); },
        {"RoundUp", "outside its domain"});
}
