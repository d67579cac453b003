// The profiler (Target::Profile, ProfileByTimer): the JIT prints Halide's report after each call
// through the print handler. The report names every Func computed (not the inlined ones), the
// Funcs' times add up to the run's total within the printed resolution, heap memory is counted
// per Func exactly, a failing run still ends its profile, and profiling never changes results.
#include <loom/loom.h>
#include <loom/runtime/loom_runtime.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

using namespace loom;

namespace {

std::string captured;

void capture_print(JITUserContext *, const char *msg) { captured += msg; }

/// One Func's line of the report.
struct FuncLine {
    std::string name;
    double ms = 0, percent = 0;
    long long peak = 0, num = 0, avg = 0;
};

/// One pipeline's report.
struct Report {
    std::string pipeline;
    double total_ms = 0, per_run_ms = 0;
    int samples = -1, runs = -1;
    long long heap_allocations = -1, peak_heap = -1;
    std::vector<FuncLine> funcs;

    const FuncLine *func(const std::string &name) const {
        for (const FuncLine &f : funcs) {
            if (f.name == name) return &f;
        }
        return nullptr;
    }
};

/// Parses the reports in `text` (Halide's format; see src/runtime/profiler.cpp), failing the
/// test on a line it cannot read.
std::vector<Report> parse_reports(const std::string &text) {
    std::vector<Report> reports;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("    ", 0) == 0) {
            EXPECT_FALSE(reports.empty()) << line;
            if (reports.empty()) break;
            FuncLine f;
            size_t colon = line.find(": ", 4);
            EXPECT_NE(colon, std::string::npos) << line;
            if (colon == std::string::npos) break;
            f.name = line.substr(4, colon - 4);
            EXPECT_EQ(sscanf(line.c_str() + colon + 1, " %lfms (%lf%%)", &f.ms, &f.percent), 2)
                << line;
            size_t peak = line.find(" peak: ");
            if (peak != std::string::npos) {
                EXPECT_EQ(sscanf(line.c_str() + peak, " peak: %lld num: %lld avg: %lld", &f.peak,
                                 &f.num, &f.avg),
                          3)
                    << line;
            }
            reports.back().funcs.push_back(f);
        } else if (line.rfind(" total time: ", 0) == 0) {
            Report &r = reports.back();
            EXPECT_EQ(sscanf(line.c_str(),
                             " total time: %lf ms  samples: %d  runs: %d  time per run: %lf ms",
                             &r.total_ms, &r.samples, &r.runs, &r.per_run_ms),
                      4)
                << line;
        } else if (line.rfind(" heap allocations: ", 0) == 0) {
            Report &r = reports.back();
            EXPECT_EQ(sscanf(line.c_str(), " heap allocations: %lld  peak heap usage: %lld bytes",
                             &r.heap_allocations, &r.peak_heap),
                      2)
                << line;
        } else if (line.rfind(" average threads used: ", 0) == 0) {
            continue;
        } else {
            EXPECT_FALSE(line.empty() || line[0] == ' ') << line;
            reports.emplace_back();
            reports.back().pipeline = line;
        }
    }
    return reports;
}

const int W = 512, H = 256;
/// wide is read at every kStride-th column: kWideExtent floats per row, over 64 KiB, so its
/// buffer is on the heap.
const int kStride = 40, kWideExtent = kStride * (W - 1) + 1;

/// `heavy` (compute_root, parallel, a lot of arithmetic per point), `wide` (heap buffers of
/// kWideExtent floats, one per output row), `inlined` (inlined: no line of its own), output
/// `prof_out`.
Func profiled_pipeline(const std::string &suffix) {
    Var x("x"), y("y");
    Func heavy("heavy" + suffix), wide("wide" + suffix), inlined("inlined" + suffix),
        out("prof_out" + suffix);
    RDom r(0, 60);
    heavy(x, y) = cast<float>(x + y);
    heavy(x, y) = sin(heavy(x, y) + r * 0.01f) * 0.5f + cos(heavy(x, y) * 1.5f);
    wide(x, y) = cast<float>(x) * 0.25f + y;
    inlined(x, y) = heavy(x, y) * 2.0f;
    out(x, y) = inlined(x, y) + wide(x * kStride, y);
    heavy.compute_root().parallel(y).vectorize(x, 8);
    heavy.update().parallel(y).vectorize(x, 8);
    wide.compute_at(out, y);
    out.parallel(y);
    return out;
}

Report run_profiled(Func out, const Target &t, Buffer<float> *result = nullptr) {
    captured.clear();
    out.jit_handlers().custom_print = capture_print;
    Buffer<float> b = out.realize({W, H}, t);
    out.jit_handlers().custom_print = nullptr;
    if (result) *result = b;
    std::vector<Report> reports = parse_reports(captured);
    EXPECT_EQ(reports.size(), 1u) << captured;
    return reports.empty() ? Report() : reports[0];
}

void check_report(const Report &r, const std::string &suffix) {
    SCOPED_TRACE(captured);
    EXPECT_EQ(r.pipeline, "prof_out" + suffix);
    EXPECT_EQ(r.runs, 1);
    // Every Func computed has a line; the inlined one has none.
    for (const char *name : {"heavy", "wide", "prof_out"}) {
        EXPECT_NE(r.func(name + suffix), nullptr) << name;
    }
    EXPECT_EQ(r.func("inlined" + suffix), nullptr);
    EXPECT_NE(r.func("halide_malloc"), nullptr);
    EXPECT_NE(r.func("halide_free"), nullptr);
    // The times add up to the total: each line is truncated to the microsecond.
    double sum = 0, percent = 0;
    for (const FuncLine &f : r.funcs) {
        sum += f.ms;
        percent += f.percent;
    }
    EXPECT_GT(r.samples, 0);
    EXPECT_NEAR(sum, r.total_ms, 0.001 * (r.funcs.size() + 1));
    EXPECT_NEAR(percent, 100.0, 0.1 * (r.funcs.size() + 1));
    EXPECT_DOUBLE_EQ(r.per_run_ms, r.total_ms);
    // Memory, exactly: heavy's one root buffer, wide's one buffer per output row.
    const FuncLine *heavy = r.func("heavy" + suffix), *wide = r.func("wide" + suffix);
    EXPECT_EQ(heavy->peak, (long long)W * H * 4);
    EXPECT_EQ(heavy->num, 1);
    EXPECT_EQ(heavy->avg, (long long)W * H * 4);
    ASSERT_NE(wide, nullptr);
    EXPECT_EQ(wide->num, H);
    EXPECT_EQ(wide->avg, (long long)kWideExtent * 4);
    EXPECT_GE(wide->peak, (long long)kWideExtent * 4);
    EXPECT_EQ(r.heap_allocations, 1 + H);
    EXPECT_GE(r.peak_heap, heavy->peak + (long long)kWideExtent * 4);
    EXPECT_LE(r.peak_heap, heavy->peak + wide->peak);
}

TEST(Profiler, ReportsEveryFuncWithTimesThatAddUp) {
    Func out = profiled_pipeline("");
    Buffer<float> profiled, plain;
    Report r = run_profiled(out, get_jit_target_from_environment().with_feature(Target::Profile),
                            &profiled);
    check_report(r, "");
    // Profiling never changes the results.
    plain = out.realize({W, H});
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) ASSERT_EQ(profiled(x, y), plain(x, y)) << x << ", " << y;
    }
}

TEST(Profiler, TimeGoesToTheFuncComputing) {
    // One serial Func without heap buffers: every sample taken while it computes must be
    // billed to it (only the few instructions between the start of the run and its produce
    // marker belong to nobody). Shares of several Funcs depend on the machine (the allocator
    // under the sanitizers takes a third of the run above), so they are not compared.
    Var x("x"), y("y");
    RDom r(0, 200);
    Func only("only_func");
    only(x, y) = cast<float>(x + y);
    only(x, y) = sin(only(x, y) + r * 0.01f);
    captured.clear();
    only.jit_handlers().custom_print = capture_print;
    only.realize({256, 256}, get_jit_target_from_environment().with_feature(Target::Profile));
    only.jit_handlers().custom_print = nullptr;
    std::vector<Report> reports = parse_reports(captured);
    ASSERT_EQ(reports.size(), 1u) << captured;
    const FuncLine *f = reports[0].func("only_func");
    ASSERT_NE(f, nullptr) << captured;
    ASSERT_GT(reports[0].samples, 0) << captured;
    EXPECT_GE(f->percent, 99.0) << captured;
}

TEST(Profiler, ByTimer) {
    Report r = run_profiled(profiled_pipeline("_t"),
                            get_jit_target_from_environment().with_feature(Target::ProfileByTimer));
    check_report(r, "_t");
}

TEST(Profiler, EachJITCallReportsItsOwnRun) {
    Func out = profiled_pipeline("_twice");
    Target t = get_jit_target_from_environment().with_feature(Target::Profile);
    for (int i = 0; i < 2; i++) {
        Report r = run_profiled(out, t);
        EXPECT_EQ(r.runs, 1);
        EXPECT_NE(r.func("heavy_twice"), nullptr);
    }
    // Reported and reset: nothing is left for the report at exit.
    EXPECT_EQ(halide_profiler_get_pipeline_state("prof_out_twice"), nullptr);
}

TEST(Profiler, AFailingRunEndsItsProfile) {
    Var x("x");
    Param<int> limit("limit");
    Func checked("checked"), fails("fails");
    checked(x) = require(x < limit, x, "x is past the limit", x);
    checked.compute_root();
    fails(x) = checked(x) + 1;
    Target t = get_jit_target_from_environment().with_feature(Target::Profile);
    limit.set(5);
    captured.clear();
    fails.jit_handlers().custom_print = capture_print;
    EXPECT_THROW(fails.realize({10}, t), RuntimeError);
    // The failed run was ended (a run left in progress would make this reset wait forever)
    // and reported like any other.
    std::vector<Report> reports = parse_reports(captured);
    ASSERT_EQ(reports.size(), 1u) << captured;
    EXPECT_EQ(reports[0].runs, 1);
    limit.set(100);
    captured.clear();
    Buffer<int> ok = fails.realize({10}, t);
    for (int i = 0; i < 10; i++) EXPECT_EQ(ok(i), i + 1);
    reports = parse_reports(captured);
    ASSERT_EQ(reports.size(), 1u) << captured;
    EXPECT_NE(reports[0].func("checked"), nullptr);
    fails.jit_handlers().custom_print = nullptr;
}

TEST(Profiler, SerialPipelinesHaveNoThreadColumns) {
    Var x("x"), y("y");
    Func f("serial_f"), g("serial_g");
    f(x, y) = x * y;
    g(x, y) = f(x, y) + f(x + 1, y);
    f.compute_root();
    captured.clear();
    g.jit_handlers().custom_print = capture_print;
    Buffer<int> out =
        g.realize({64, 64}, get_jit_target_from_environment().with_feature(Target::Profile));
    g.jit_handlers().custom_print = nullptr;
    EXPECT_EQ(captured.find("threads"), std::string::npos) << captured;
    std::vector<Report> reports = parse_reports(captured);
    ASSERT_EQ(reports.size(), 1u) << captured;
    EXPECT_NE(reports[0].func("serial_f"), nullptr);
    EXPECT_NE(reports[0].func("serial_g"), nullptr);
    for (int y = 0; y < 64; y++) {
        for (int x = 0; x < 64; x++) ASSERT_EQ(out(x, y), x * y + (x + 1) * y);
    }
}

TEST(Profiler, RealizeAfterCompileJitRunsTheProfiledCode) {
    // As in Halide: realize() without a Target runs what compile_jit compiled last.
    Func out = profiled_pipeline("_jit");
    out.compile_jit(get_jit_target_from_environment().with_feature(Target::Profile));
    captured.clear();
    out.jit_handlers().custom_print = capture_print;
    out.realize({W, H});
    out.jit_handlers().custom_print = nullptr;
    std::vector<Report> reports = parse_reports(captured);
    ASSERT_EQ(reports.size(), 1u) << captured;
    EXPECT_EQ(reports[0].pipeline, "prof_out_jit");
}

} // namespace
