// Scratchpads (loom/scratchpad.h; Vocke §3.2): Funcs stored in user-declared memories through
// copy stages, allocated statically. Each schedule gives the values of naive loops, through the
// JIT and through the C back end; the lowered statement shows the static placement (no
// allocation left in the scratchpad, offsets in one block) and the run-time check of a size
// bounded by an estimate.
#include <loom/loom.h>
#include <loom/scratchpad.h>
#include <loom/serialization.h>

#include "common/c_backend_harness.h"
#include "common/expect_error.h"
#include "common/lowered_text.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace loom;

namespace {

Buffer<uint16_t> make_input(int w, int h) {
    Buffer<uint16_t> in(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) in(x, y) = (uint16_t)((x * 37 + y * 101 + x * y) % 1021);
    return in;
}

/// The 3x3 box blur of `in` (without its 1-pixel border), by naive loops.
Buffer<uint16_t> reference_blur(const Buffer<uint16_t> &in) {
    Buffer<uint16_t> out(in.width() - 2, in.height() - 2);
    for (int y = 0; y < out.height(); y++) {
        for (int x = 0; x < out.width(); x++) {
            int sum = 0;
            for (int j = 0; j < 3; j++)
                for (int i = 0; i < 3; i++) sum += in(x + i, y + j);
            out(x, y) = (uint16_t)(sum / 9);
        }
    }
    return out;
}

void expect_equal(const Buffer<uint16_t> &got, const Buffer<uint16_t> &want) {
    ASSERT_EQ(got.width(), want.width());
    ASSERT_EQ(got.height(), want.height());
    for (int y = 0; y < want.height(); y++)
        for (int x = 0; x < want.width(); x++)
            ASSERT_EQ(got(x, y), want(x, y)) << "at " << x << ", " << y;
}

/// Vocke's Figure 5: a 3x3 blur line by line, the input rows copied into a local memory by a
/// copy stage, the horizontal pass stored there too.
struct LineBlur {
    ImageParam input{UInt(16), 2, "input"};
    Var x{"x"}, y{"y"};
    Func rows{"rows"}, blur_x{"blur_x"}, out{"out"};
    LineBlur(const Scratchpad &memory) {
        rows = input.in();
        blur_x(x, y) = cast<uint32_t>(rows(x, y)) + rows(x + 1, y) + rows(x + 2, y);
        out(x, y) = cast<uint16_t>((blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 9);
        rows.compute_at(out, y).store_in(memory);
        blur_x.compute_at(out, y).store_in(memory);
        out.set_estimate(x, 0, 256).set_estimate(y, 0, 256);
    }
    Buffer<uint16_t> run(const Buffer<uint16_t> &in) {
        input.set(in);
        return out.realize({in.width() - 2, in.height() - 2});
    }
};

} // namespace

TEST(Scratchpads, LineBufferedBlurPlacesBothStagesStatically) {
    Scratchpad vmem("vmem_line", 8192, 64);
    LineBlur b(vmem);
    std::string s = lowered(b.out, {b.input});
    // No allocation is left in the scratchpad: both buffers are lets of addresses in one block.
    EXPECT_EQ(s.find("Scratchpad(vmem_line)"), std::string::npos) << s;
    EXPECT_NE(s.find("_vmem_line\", \"vmem_line\""), std::string::npos) << s;
    // Sizes bounded by the estimate are checked when the pipeline runs.
    EXPECT_NE(s.find("halide_error_buffer_allocation_too_large"), std::string::npos) << s;
    for (auto size : {std::pair<int, int>{258, 34}, {100, 7}, {3, 3}}) {
        Buffer<uint16_t> in = make_input(size.first, size.second);
        expect_equal(b.run(in), reference_blur(in));
    }
}

TEST(Scratchpads, BeyondTheEstimateTheRunReportsTheSize) {
    Scratchpad vmem("vmem_line", 8192, 64);
    LineBlur b(vmem);
    Buffer<uint16_t> in = make_input(400, 5);
    loom_test::expect_error<RuntimeError>(
        [&] { b.run(in); }, {"Total allocation for buffer input_im_global_wrapper", "exceeds"});
}

TEST(Scratchpads, TiledCopyStagesHaveConstantSizesAndNoChecks) {
    // Tiles of 32x8: every buffer's size is a constant, so nothing is checked at run time.
    Scratchpad dmem("dmem_tiles", 4096, 32);
    ImageParam input(UInt(16), 2, "input");
    Var x("x"), y("y"), xi("xi"), yi("yi");
    Func tile_in("tile_in"), blur_x("blur_x"), out("out");
    tile_in = input.in();
    blur_x(x, y) = cast<uint32_t>(tile_in(x, y)) + tile_in(x + 1, y) + tile_in(x + 2, y);
    out(x, y) = cast<uint16_t>((blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 9);
    out.tile(x, y, xi, yi, 32, 8).vectorize(xi, 8);
    tile_in.compute_at(out, x).store_in(dmem);
    blur_x.compute_at(out, x).store_in(dmem).vectorize(x, 8);
    std::string s = lowered(out, {input});
    EXPECT_NE(s.find("loom_scratchpad_address"), std::string::npos) << s;
    EXPECT_EQ(s.find("halide_error_buffer_allocation_too_large(\"tile_in\""), std::string::npos)
        << s;
    for (auto size : {std::pair<int, int>{66, 34}, {130, 19}}) {
        Buffer<uint16_t> in = make_input(size.first, size.second);
        input.set(in);
        expect_equal(out.realize({in.width() - 2, in.height() - 2}), reference_blur(in));
    }
}

TEST(Scratchpads, FoldedLineBufferInAScratchpad) {
    // blur_x slides down the rows (stored once, computed per row) in a circular buffer of 4 rows:
    // the DSP line buffer. Its size is bounded by the width estimate.
    Scratchpad vmem("vmem_fold", 16384, 64);
    ImageParam input(UInt(16), 2, "input");
    Var x("x"), y("y");
    Func blur_x("blur_x"), out("out");
    blur_x(x, y) = cast<uint32_t>(input(x, y)) + input(x + 1, y) + input(x + 2, y);
    out(x, y) = cast<uint16_t>((blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 9);
    blur_x.store_root().compute_at(out, y).store_in(vmem).fold_storage(y, 4);
    out.set_estimate(x, 0, 1000);
    std::string s = lowered(out, {input});
    EXPECT_NE(s.find("loom_scratchpad_address"), std::string::npos) << s;
    Buffer<uint16_t> in = make_input(300, 40);
    input.set(in);
    expect_equal(out.realize({298, 38}), reference_blur(in));
}

TEST(Scratchpads, SurvivesSerialization) {
    Scratchpad vmem("vmem_serial", 8192, 64);
    LineBlur b(vmem);
    std::vector<uint8_t> data;
    serialize_pipeline(Pipeline(b.out), data);
    Pipeline copy = deserialize_pipeline(data, {});
    std::string s = text_written_by([&](const std::string &file) {
        copy.compile_to_lowered_stmt(file, copy.infer_arguments(), Text);
    });
    EXPECT_NE(s.find("_vmem_serial\", \"vmem_serial\""), std::string::npos) << s;
}

TEST(Scratchpads, ThroughTheCBackend) {
    Scratchpad vmem("vmem_c", 8192, 64);
    LineBlur b(vmem);
    Buffer<uint16_t> in = make_input(200, 30);
    Buffer<uint16_t> want = reference_blur(in);
    for (const c_backend_test::CConfig &config : c_backend_test::configs()) {
        if (config.mapping == "scalar") continue;
        SCOPED_TRACE(config.name());
        // The placement macro a DSP toolchain would define: here, a section of its own.
        c_backend_test::CBackendRun run(
            Pipeline(b.out), {b.input}, config, "blur_vmem",
            "'-DLOOM_SCRATCHPAD_PLACEMENT_vmem_c=__attribute__((section(\".data.vmem\"))) '");
        ASSERT_TRUE(run.ok());
        Buffer<uint16_t> got(want.width(), want.height());
        ASSERT_EQ(run.call({in.raw_buffer(), got.raw_buffer()}), 0) << run.errors();
        expect_equal(got, want);
        // Beyond the estimate: the error code and message, no overflow.
        Buffer<uint16_t> wide_in = make_input(400, 5);
        Buffer<uint16_t> wide(398, 3);
        EXPECT_NE(run.call({wide_in.raw_buffer(), wide.raw_buffer()}), 0);
        EXPECT_NE(run.errors().find("exceeds"), std::string::npos) << run.errors();
    }
}
