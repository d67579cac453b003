// User mistakes with Pipeline::apply_autoscheduler raise a CompileError that says what to add
// or change: missing estimates (outputs, Params in RDom bounds, inputs read at data-dependent
// places), unknown scheduler names and parameter keys, malformed parameter values, and
// Func::set_estimate(s) on something that is not a pure dimension.
#include <loom/loom.h>

#include "common/expect_error.h"

#include <gtest/gtest.h>

using namespace loom;
using loom_test::expect_error;

namespace {

struct Blur {
    ImageParam in{UInt(16), 2, "in"};
    Var x{"x"}, y{"y"};
    Func blur{"blur"};
    Blur() {
        Func c = BoundaryConditions::repeat_edge(in);
        blur(x, y) = c(x - 1, y) + c(x + 1, y);
    }
};

} // namespace

TEST(AutoscheduleErrors, OutputWithoutEstimates) {
    Blur b;
    b.blur.set_estimate(b.x, 0, 100);
    expect_error([&] { Pipeline(b.blur).apply_autoscheduler(Target("host"), {"Mullapudi2016"}); },
                 {"needs an estimate of the region of Func blur", "dimension y",
                  "blur.set_estimate(y, min, extent)"});
}

TEST(AutoscheduleErrors, UnknownSchedulerName) {
    Blur b;
    b.blur.set_estimates({{0, 100}, {0, 100}});
    expect_error([&] { Pipeline(b.blur).apply_autoscheduler(Target("host"), {"Mullapudi"}); },
                 {"There is no autoscheduler named \"Mullapudi\"", "Mullapudi2016"});
    expect_error([&] { Pipeline(b.blur).apply_autoscheduler(Target("host"), {}); },
                 {"apply_autoscheduler needs a scheduler name", "Mullapudi2016"});
}

TEST(AutoscheduleErrors, UnknownParameterKey) {
    Blur b;
    b.blur.set_estimates({{0, 100}, {0, 100}});
    expect_error(
        [&] {
            Pipeline(b.blur).apply_autoscheduler(Target("host"),
                                                 {"Mullapudi2016", {{"beam_size", "32"}}});
        },
        {"Autoscheduler Mullapudi2016 has no parameter \"beam_size\"",
         "its parameters are balance, last_level_cache_size, parallelism."});
    expect_error(
        [&] {
            Pipeline(b.blur).apply_autoscheduler(Target("host"), {"PolyMage", {{"balance", "2"}}});
        },
        {"Autoscheduler PolyMage has no parameter \"balance\"",
         "autotune_s, overlap_threshold, parallelism, tile_sizes"});
    expect_error(
        [&] {
            Pipeline(b.blur).apply_autoscheduler(Target("host"),
                                                 {"Adams2019", {{"cache_size", "32"}}});
        },
        {"Autoscheduler Adams2019 has no parameter \"cache_size\""});
}

TEST(AutoscheduleErrors, MalformedParameterValue) {
    Blur b;
    b.blur.set_estimates({{0, 100}, {0, 100}});
    expect_error(
        [&] {
            Pipeline(b.blur).apply_autoscheduler(Target("host"),
                                                 {"Mullapudi2016", {{"parallelism", "lots"}}});
        },
        {"parameter parallelism must be a positive integer", "\"lots\""});
    expect_error(
        [&] {
            Pipeline(b.blur).apply_autoscheduler(Target("host"),
                                                 {"Mullapudi2016", {{"balance", "-1"}}});
        },
        {"parameter balance must be a positive number"});
    expect_error(
        [&] {
            Pipeline(b.blur).apply_autoscheduler(Target("host"),
                                                 {"PolyMage", {{"tile_sizes", "64xy"}}});
        },
        {"parameter tile_sizes must be a positive integer", "\"y\""});
    expect_error(
        [&] {
            Pipeline(b.blur).apply_autoscheduler(Target("host"), {"Loom", {{"autotune_s", "-5"}}});
        },
        {"parameter autotune_s must be a non-negative number", "\"-5\""});
}

TEST(AutoscheduleErrors, RDomBoundByParamWithoutEstimate) {
    ImageParam in(Float(32), 1, "in");
    Param<int> n("n");
    Func s("s");
    Var x("x");
    RDom r(0, n, "r");
    s(x) = 0.0f;
    s(x) += in(x + r);
    s.set_estimate(x, 0, 100);
    expect_error([&] { Pipeline(s).apply_autoscheduler(Target("host"), {"Mullapudi2016"}); },
                 {"can't estimate the range of RVar r", "Func s", "Param::set_estimate"});
}

TEST(AutoscheduleErrors, DataDependentReadOfInputWithoutEstimates) {
    ImageParam lut(Int(32), 1, "lut"), idx(Int(32), 1, "idx");
    Func f("f");
    Var x("x");
    f(x) = lut(idx(x));
    f.set_estimate(x, 0, 100);
    idx.set_estimates({{0, 100}});
    expect_error(
        [&] { Pipeline(f).apply_autoscheduler(Target("host"), {"Mullapudi2016"}); },
        {"can't bound the region of input lut", "clamp the index", "ImageParam::set_estimates"});
}

TEST(AutoscheduleErrors, EstimateOfNonPureDimension) {
    Blur b;
    Var z("z");
    expect_error([&] { b.blur.set_estimate(z, 0, 10); },
                 {"Can't set the estimate of variable z of function blur"});
    expect_error(
        [&] {
            b.blur.set_estimates({{0, 10}});
        },
        {"Func blur has 2 dimensions but set_estimates was given 1 ranges"});
}

TEST(AutoscheduleErrors, DuplicateRegistration) {
    expect_error([] { Pipeline::add_autoscheduler("Mullapudi2016", nullptr); },
                 {"An autoscheduler named \"Mullapudi2016\" already exists"});
}

TEST(AutoscheduleErrors, PluginThatDoesNotExist) {
    expect_error([] { load_plugin("no_such_loom_plugin"); },
                 {"load_plugin can't open \"libno_such_loom_plugin.so\""});
}

TEST(AutoscheduleErrors, Li2018ParametersAndOverrides) {
    Blur b;
    b.blur.set_estimates({{0, 100}, {0, 100}});
    b.in.set_estimates({{-1, 102}, {0, 100}});
    expect_error(
        [&] {
            Pipeline(b.blur).apply_autoscheduler(Target("host"), {"Li2018", {{"balance", "2"}}});
        },
        {"Autoscheduler Li2018 has no parameter \"balance\"",
         "its parameters are compute_root, inline, parallelism."});
    expect_error(
        [&] {
            Pipeline(b.blur).apply_autoscheduler(Target("host"),
                                                 {"Li2018", {{"inline", b.blur.name()}}});
        },
        {"can't inline \"blur\" (parameter inline): it is an output of the pipeline"});
    expect_error(
        [&] {
            Pipeline(b.blur).apply_autoscheduler(Target("host"),
                                                 {"Li2018", {{"compute_root", "blurr"}}});
        },
        {"the Func \"blurr\" named in parameter compute_root is not computed by this pipeline"});
    expect_error(
        [&] {
            Pipeline(b.blur).apply_autoscheduler(Target("host"),
                                                 {"Li2018", {{"parallelism", "0"}}});
        },
        {"Autoscheduler Li2018 parameter parallelism must be a positive integer"});
}
