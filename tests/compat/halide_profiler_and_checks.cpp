// The profiler's report and two entry checks, as Halide 21 has them (built against Loom and, as
// compat_halide_profiler_and_checks_halide, against Halide 21, so each expectation is Halide's):
// the report's lines and columns, exact heap counts, no line for an inlined Func, realize()
// after compile_jit(t) running the code compiled for t, "Input buffer <name>" in region errors,
// and set_host_alignment checked when the pipeline runs.
#include "Halide.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

using namespace Halide;

namespace {

std::string printed;
void capture(JITUserContext *, const char *msg) { printed += msg; }

std::vector<std::string> lines_of(const std::string &text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
    return lines;
}

/// The line of Func `name` in the report ("" if none).
std::string func_line(const std::vector<std::string> &lines, const std::string &name) {
    for (const std::string &l : lines) {
        if (l.rfind("    " + name + ":", 0) == 0) return l;
    }
    return "";
}

} // namespace

TEST(HalideProfiler, ReportLinesAndColumns) {
    const int W = 512, H = 256;
    Var x("x"), y("y");
    Func work("prof_work"), inlined("prof_inlined"), out("prof_report");
    RDom r(0, 40);
    work(x, y) = cast<float>(x + y);
    work(x, y) = sin(work(x, y) + r * 0.01f);
    inlined(x, y) = work(x, y) * 2.0f;
    out(x, y) = inlined(x, y) + 1.0f;
    work.compute_root().parallel(y);
    work.update().parallel(y);
    out.parallel(y);
    out.jit_handlers().custom_print = capture;
    // compile_jit with the feature, then realize() without a Target: the profiled code runs.
    out.compile_jit(get_jit_target_from_environment().with_feature(Target::Profile));
    printed.clear();
    out.realize({W, H});
    std::vector<std::string> lines = lines_of(printed);
    ASSERT_GE(lines.size(), 4u) << printed;
    EXPECT_EQ(lines[0], "prof_report");
    double total = 0, per_run = 0;
    int samples = 0, runs = 0;
    EXPECT_EQ(sscanf(lines[1].c_str(),
                     " total time: %lf ms  samples: %d  runs: %d  time per run: %lf ms", &total,
                     &samples, &runs, &per_run),
              4)
        << lines[1];
    EXPECT_EQ(runs, 1);
    bool heap_line = false;
    for (const std::string &l : lines) {
        long long count = 0, peak = 0;
        if (sscanf(l.c_str(), " heap allocations: %lld  peak heap usage: %lld bytes", &count,
                   &peak) == 2) {
            heap_line = true;
            EXPECT_EQ(count, 1) << l;
            EXPECT_EQ(peak, (long long)W * H * 4) << l;
        }
    }
    EXPECT_TRUE(heap_line) << printed;
    EXPECT_EQ(func_line(lines, "prof_inlined"), "") << printed;
    // Columns: the names padded to 43 (the longest name, "waiting for parallel tasks to
    // finish", plus 7), the time right-aligned in 9 then "ms", the share at 55, the threads at
    // 65 (a parallel pipeline), the memory from 80.
    for (const char *name : {"prof_work", "prof_report"}) {
        std::string l = func_line(lines, name);
        ASSERT_NE(l, "") << name << "\n" << printed;
        EXPECT_EQ(l.find("ms ("), 52u) << l;
        EXPECT_EQ(l[55], '(') << l;
        EXPECT_EQ(l.find("threads: "), 65u) << l;
    }
    std::string work_line = func_line(lines, "prof_work");
    const std::string memory = " peak: " + std::to_string(W * H * 4);
    EXPECT_EQ(work_line.find(memory), 80u) << work_line;
    EXPECT_EQ(work_line.find(" num: 1 "), 95u) << work_line;
    EXPECT_EQ(work_line.find(" avg: " + std::to_string(W * H * 4)), 110u) << work_line;
    out.jit_handlers().custom_print = nullptr;
}

TEST(HalideEntryChecks, RegionErrorsNameTheInputBuffer) {
    ImageParam input(UInt(8), 1, "small_in");
    Func f("reads_past");
    Var x("x");
    f(x) = input(x + 1);
    Buffer<uint8_t> in(5);
    input.set(in);
    try {
        f.realize({5});
        FAIL() << "reading past the input must fail";
    } catch (const RuntimeError &e) {
        EXPECT_NE(std::string(e.what()).find(
                      "Input buffer small_in is accessed at 5, which is beyond the max (4) in "
                      "dimension 0"),
                  std::string::npos)
            << e.what();
    }
}

TEST(HalideEntryChecks, HostAlignmentIsChecked) {
    ImageParam input(Float(32), 1, "aligned_in");
    input.set_host_alignment(32);
    Func f("doubled");
    Var x("x");
    f(x) = input(x) * 2.0f;
    std::vector<float> storage(64, 1.0f);
    float *aligned = storage.data();
    while (reinterpret_cast<uintptr_t>(aligned) % 32) aligned++;
    Buffer<float> shifted(aligned + 1, 16);
    input.set(shifted);
    try {
        f.realize({16});
        FAIL() << "a host pointer off the promised alignment must be refused";
    } catch (const RuntimeError &e) {
        EXPECT_NE(std::string(e.what()).find(
                      "The host pointer of aligned_in is not aligned to a 32 bytes boundary."),
                  std::string::npos)
            << e.what();
    }
    Buffer<float> ok(aligned, 16);
    input.set(ok);
    Buffer<float> out = f.realize({16});
    EXPECT_EQ(out(15), 2.0f);
}
