// fuse_pipelines (loom/pipeline_fusion.h; Vocke §3.3, Figure 6): a blur and a Sobel of the same
// image, two independent pipelines, fused at equally deep loops under several schedules, with
// outputs of the same and of different sizes (an epilogue runs the longer one alone), through the
// JIT and the C back end. Every result equals naive loops; the lowered statement shows one merged
// loop.
#include <loom/loom.h>
#include <loom/pipeline_fusion.h>
#include <loom/serialization.h>

#include "common/c_backend_harness.h"
#include "common/lowered_text.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>

using namespace loom;

namespace {

Buffer<uint16_t> make_input(int w, int h) {
    Buffer<uint16_t> in(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) in(x, y) = (uint16_t)((x * 73 + y * 151 + x * y * 3) % 4093);
    return in;
}

uint16_t blur_ref(const Buffer<uint16_t> &in, int x, int y) {
    uint32_t s = 0;
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) s += in(x + i, y + j);
    return (uint16_t)(s / 9);
}

uint16_t sobel_ref(const Buffer<uint16_t> &in, int x, int y) {
    auto p = [&](int i, int j) { return (int32_t)in(x + i, y + j); };
    int32_t gx = (p(2, 0) + 2 * p(2, 1) + p(2, 2)) - (p(0, 0) + 2 * p(0, 1) + p(0, 2));
    int32_t gy = (p(0, 2) + 2 * p(1, 2) + p(2, 2)) - (p(0, 0) + 2 * p(1, 0) + p(2, 0));
    int32_t m = std::abs(gx) + std::abs(gy);
    return (uint16_t)(m > 65535 ? 65535 : m);
}

void expect_matches(const Buffer<uint16_t> &got, const Buffer<uint16_t> &in,
                    uint16_t (*ref)(const Buffer<uint16_t> &, int, int), const char *what) {
    for (int y = 0; y < got.height(); y++)
        for (int x = 0; x < got.width(); x++)
            ASSERT_EQ(got(x, y), ref(in, x, y)) << what << " at " << x << ", " << y;
}

/// The two pipelines, reading one input. The Sobel uses other Var names than the blur: fusion
/// matches loops by depth, not by name.
struct TwoFilters {
    ImageParam input{UInt(16), 2, "input"};
    Var x{"x"}, y{"y"}, i{"i"}, j{"j"};
    Func blur_x{"blur_x"}, blur{"blur"}, sobel{"sobel"};
    TwoFilters() {
        blur_x(x, y) = cast<uint32_t>(input(x, y)) + input(x + 1, y) + input(x + 2, y);
        blur(x, y) = cast<uint16_t>((blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 9);
        auto p = [&](int a, int b) { return cast<int32_t>(input(i + a, j + b)); };
        Expr gx = (p(2, 0) + 2 * p(2, 1) + p(2, 2)) - (p(0, 0) + 2 * p(0, 1) + p(0, 2));
        Expr gy = (p(0, 2) + 2 * p(1, 2) + p(2, 2)) - (p(0, 0) + 2 * p(1, 0) + p(2, 0));
        sobel(i, j) = cast<uint16_t>(min(abs(gx) + abs(gy), 65535));
    }
};

struct Case {
    const char *name;
    std::function<Pipeline(TwoFilters &)> schedule_and_fuse;
};

const Case cases[] = {
    {"rows",
     [](TwoFilters &t) {
         return fuse_pipelines(Pipeline(t.blur), LoopLevel(t.blur, t.y), Pipeline(t.sobel),
                               LoopLevel(t.sobel, t.j));
     }},
    {"innermost",
     [](TwoFilters &t) {
         return fuse_pipelines(Pipeline(t.blur), LoopLevel(t.blur, t.x), Pipeline(t.sobel),
                               LoopLevel(t.sobel, t.i));
     }},
    {"vectors",
     [](TwoFilters &t) {
         Var xo("xo"), xi("xi"), io("io"), ii("ii");
         t.blur.split(t.x, xo, xi, 8).vectorize(xi);
         t.sobel.split(t.i, io, ii, 16).vectorize(ii, 8);
         t.blur_x.compute_at(t.blur, t.y).vectorize(t.x, 8);
         return fuse_pipelines(Pipeline(t.blur), LoopLevel(t.blur, xo), Pipeline(t.sobel),
                               LoopLevel(t.sobel, io));
     }},
    {"parallel_rows",
     [](TwoFilters &t) {
         t.blur.parallel(t.y).vectorize(t.x, 8);
         t.sobel.parallel(t.j).vectorize(t.i, 8);
         return fuse_pipelines(Pipeline(t.blur), LoopLevel(t.blur, t.y), Pipeline(t.sobel),
                               LoopLevel(t.sobel, t.j));
     }},
    {"root_intermediate",
     [](TwoFilters &t) {
         // blur_x is a root stage of the first pipeline: fuse it, not the output, with the Sobel.
         t.blur_x.compute_root();
         return fuse_pipelines(Pipeline(t.blur), LoopLevel(t.blur_x, t.y), Pipeline(t.sobel),
                               LoopLevel(t.sobel, t.j));
     }},
};

/// The fused pipeline realized into outputs of the given sizes (the input is as large as the
/// larger needs).
void run_case(const Case &c, int bw, int bh, int sw, int sh) {
    SCOPED_TRACE(std::string(c.name) + " " + std::to_string(bw) + "x" + std::to_string(bh) +
                 " and " + std::to_string(sw) + "x" + std::to_string(sh));
    TwoFilters t;
    Pipeline p = c.schedule_and_fuse(t);
    Buffer<uint16_t> in = make_input(std::max(bw, sw) + 2, std::max(bh, sh) + 2);
    t.input.set(in);
    Buffer<uint16_t> b(bw, bh), s(sw, sh);
    p.realize({b, s});
    expect_matches(b, in, blur_ref, "blur");
    expect_matches(s, in, sobel_ref, "sobel");
}

} // namespace

TEST(PipelineFusion, EqualSizes) {
    for (const Case &c : cases) run_case(c, 64, 20, 64, 20);
}

TEST(PipelineFusion, DifferentSizesRunAnEpilogue) {
    for (const Case &c : cases) {
        run_case(c, 70, 13, 45, 29);
        run_case(c, 33, 30, 80, 9);
    }
}

TEST(PipelineFusion, OneMergedLoopWithASteadyStateAndEdges) {
    auto lowered_fused = [](const Case &c) {
        TwoFilters t;
        Pipeline p = c.schedule_and_fuse(t);
        return without_unique_suffixes(text_written_by(
            [&](const std::string &f) { p.compile_to_lowered_stmt(f, {t.input}, Text); }));
    };
    // Fused at the rows: one loop over the union of both row ranges, whose body tests once per
    // row whether both filters run (partition_loops keeps a loop that holds loops whole).
    std::string rows = lowered_fused(cases[0]);
    EXPECT_NE(rows.find("for (blur.s0.fused.y, blur.s0.fused.y.loop_min"), std::string::npos)
        << rows;
    EXPECT_NE(rows.find("(blur.s0.fused.y < blur.s0.fused.y.steady_end)"), std::string::npos)
        << rows;
    EXPECT_EQ(rows.find("for (sobel.s0.j, sobel.s0.j.loop_min"), std::string::npos) << rows;
    // Fused innermost (Vocke's Figure 6): a prologue, a steady loop running both bodies with no
    // test, and an epilogue.
    std::string inner = lowered_fused(cases[1]);
    EXPECT_NE(inner.find("for (blur.s0.fused.x, blur.s0.fused.x.steady_min, "
                         "(blur.s0.fused.x.steady_end - blur.s0.fused.x.steady_min))"),
              std::string::npos)
        << inner;
    EXPECT_NE(inner.find("for (blur.s0.fused.x, blur.s0.fused.x.steady_end"), std::string::npos)
        << inner;
}

TEST(PipelineFusion, ResultsEqualRunningThemSeparately) {
    // The unfused pipelines, run one after the other, give the same bytes.
    TwoFilters t;
    Buffer<uint16_t> in = make_input(90, 40);
    t.input.set(in);
    Buffer<uint16_t> b1 = t.blur.realize({88, 38}), s1 = t.sobel.realize({60, 30});
    Pipeline fused = cases[2].schedule_and_fuse(t);
    Buffer<uint16_t> b2(88, 38), s2(60, 30);
    fused.realize({b2, s2});
    for (int y = 0; y < 38; y++)
        for (int x = 0; x < 88; x++) ASSERT_EQ(b1(x, y), b2(x, y));
    for (int y = 0; y < 30; y++)
        for (int x = 0; x < 60; x++) ASSERT_EQ(s1(x, y), s2(x, y));
}

TEST(PipelineFusion, ThroughTheCBackend) {
    for (const c_backend_test::CConfig &config : c_backend_test::configs()) {
        if (config.mapping == "scalar" && config.compiler == "clang") continue;
        SCOPED_TRACE(config.name());
        TwoFilters t;
        Pipeline p = cases[2].schedule_and_fuse(t);
        c_backend_test::CBackendRun run(p, {t.input}, config, "fused_filters");
        ASSERT_TRUE(run.ok());
        Buffer<uint16_t> in = make_input(82, 35);
        Buffer<uint16_t> b(80, 20), s(51, 33);
        ASSERT_EQ(run.call({in.raw_buffer(), b.raw_buffer(), s.raw_buffer()}), 0) << run.errors();
        expect_matches(b, in, blur_ref, "blur");
        expect_matches(s, in, sobel_ref, "sobel");
    }
}

TEST(PipelineFusion, SurvivesSerialization) {
    // The fusion by depth is recorded in the schedule: a deserialized copy still merges the
    // loops (the Sobel's loops are named i and j) and computes the same values.
    TwoFilters t;
    Pipeline p = cases[1].schedule_and_fuse(t);
    std::vector<uint8_t> data;
    serialize_pipeline(p, data);
    Pipeline copy = deserialize_pipeline(data, {{"input", t.input.parameter()}});
    std::string s = without_unique_suffixes(text_written_by(
        [&](const std::string &f) { copy.compile_to_lowered_stmt(f, {t.input}, Text); }));
    EXPECT_NE(s.find("blur.s0.fused.x"), std::string::npos) << s;
    Buffer<uint16_t> in = make_input(50, 20);
    t.input.set(in);
    Buffer<uint16_t> b(48, 18), o(40, 12);
    copy.realize({b, o});
    expect_matches(b, in, blur_ref, "blur");
    expect_matches(o, in, sobel_ref, "sobel");
}
