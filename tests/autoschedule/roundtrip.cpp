// The schedule-source round trip: the C++ that Loom's autoscheduler wrote at build time
// (write_schedules.cpp) pasted after the same algorithms computes what the unscheduled pipeline
// computes, built against Loom and against Halide 21 (the same file, as compat tests are);
// under Loom the pasted source also reproduces the autoscheduler's loop nest exactly. ctest runs
// each case in a process of its own (as the writer did), so Funcs get the same names.
#include "autoschedule/autoschedule_pipelines.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

#ifdef LOOM_COMPAT_HALIDE_H
#include "lower/print_loop_nest.h"
#endif

using namespace autoschedule_pipelines;

namespace {

/// Applies the schedule the autoscheduler wrote for `name` to the Pipeline `pipeline`.
void apply_written_schedule(const std::string &name, Pipeline pipeline) {
    if (name == "blur") {
#include "blur.schedule.inc"
    } else if (name == "diamond") {
#include "diamond.schedule.inc"
    } else if (name == "matmul") {
#include "matmul.schedule.inc"
    } else if (name == "histogram_equalize") {
#include "histogram_equalize.schedule.inc"
    } else if (name == "pyramid") {
#include "pyramid.schedule.inc"
    } else if (name == "matmul_relu") {
#include "matmul_relu.schedule.inc"
    } else if (name == "conv_scaled") {
#include "conv_scaled.schedule.inc"
    } else if (name == "gradient_blur") {
#include "gradient_blur.schedule.inc"
    } else {
        FAIL() << "no schedule for " << name;
    }
}

template <typename T>
void expect_close(const Buffer<T> &a, const Buffer<T> &b) {
    int bad = 0;
    a.for_each_element([&](int x, int y) {
        if (std::fabs((double)a(x, y) - (double)b(x, y)) > 1e-3 && bad++ < 5) {
            ADD_FAILURE() << "at " << x << ", " << y << ": " << (double)a(x, y) << " vs "
                          << (double)b(x, y);
        }
    });
    EXPECT_EQ(bad, 0);
}

/// Pastes the written schedule into a fresh copy of case `name`, checks the loop nest (Loom) and
/// returns the scheduled and an unscheduled copy, bound to inputs of w x h.
std::pair<Case, Case> scheduled_and_reference(const std::string &name, int w, int h) {
    std::function<Case()> make;
    for (const auto &named : all_cases()) {
        if (named.first == name) make = named.second;
    }
    // The scheduled copy first, so its Funcs get the names the writer's did.
    Case scheduled = make(), reference = make();
    try {
        apply_written_schedule(name, Pipeline(scheduled.outputs));
    } catch (const Halide::Error &e) {
        ADD_FAILURE() << "applying the written schedule of " << name << ": " << e.what();
    }
#ifdef LOOM_COMPAT_HALIDE_H
    std::ifstream loops(std::string(LOOM_AUTOSCHEDULE_SOURCES) + "/" + name + ".loops");
    std::stringstream expected_loops;
    expected_loops << loops.rdbuf();
    std::vector<loom::internal::Function> fs;
    for (const Func &f : scheduled.outputs) fs.push_back(f.function());
    EXPECT_EQ(loom::internal::print_loop_nest(fs), expected_loops.str());
#endif
    scheduled.bind(w, h);
    reference.bind(w, h);
    return {scheduled, reference};
}

template <typename T>
void check_case(const std::string &name, int w, int h) {
    std::pair<Case, Case> c = scheduled_and_reference(name, w, h);
    Buffer<T> got = Pipeline(c.first.outputs).realize({w, h});
    Buffer<T> expected = Pipeline(c.second.outputs).realize({w, h});
    expect_close(got, expected);
}

} // namespace

TEST(AutoscheduleRoundTrip, blur) { check_case<uint16_t>("blur", 203, 117); }
TEST(AutoscheduleRoundTrip, diamond) { check_case<float>("diamond", 301, 157); }
TEST(AutoscheduleRoundTrip, matmul) { check_case<float>("matmul", 67, 67); }
TEST(AutoscheduleRoundTrip, pyramid) { check_case<float>("pyramid", 250, 190); }
TEST(AutoscheduleRoundTrip, matmul_relu) { check_case<float>("matmul_relu", 75, 61); }
TEST(AutoscheduleRoundTrip, conv_scaled) { check_case<float>("conv_scaled", 203, 117); }
TEST(AutoscheduleRoundTrip, gradient_blur) { check_case<float>("gradient_blur", 203, 117); }

TEST(AutoscheduleRoundTrip, histogram_equalize) {
    // Against naive C++: the unscheduled pipeline recomputes the histogram for every pixel.
    const int w = 155, h = 97;
    std::pair<Case, Case> c = scheduled_and_reference("histogram_equalize", w, h);
    Buffer<uint8_t> out = Pipeline(c.first.outputs).realize({w, h});
    Buffer<uint8_t> data = random_image<uint8_t>(w, h, 5, 256);
    int hist[256] = {0}, cdf[256];
    data.for_each_value([&](uint8_t v) { hist[v]++; });
    cdf[0] = hist[0];
    for (int i = 1; i < 256; i++) cdf[i] = cdf[i - 1] + hist[i];
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            ASSERT_EQ(out(x, y), (uint8_t)(cdf[data(x, y)] * 255 / (w * h))) << x << ", " << y;
        }
    }
}

// Loom's Mullapudi2016 orders loops as Halide's does (reorder_dims). Under Halide 21 this runs
// Halide's own scheduler (the plugin), under Loom Loom's, on the same matmul: both write the
// update's loops as x, k, y (k$x in Halide, k_x in Loom).
TEST(AutoscheduleRoundTrip, Mullapudi2016LoopOrderAsHalide) {
    Case c = matmul_relu();
    load_plugin("autoschedule_mullapudi2016");
    const std::string source =
        Pipeline(c.outputs).apply_autoscheduler(Target("host"), {"Mullapudi2016"}).schedule_source;
    EXPECT_TRUE(std::regex_search(source, std::regex("\\.reorder\\(x, k[$_]x, y\\)"))) << source;
}
