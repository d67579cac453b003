// The load/store optimization (lower/optimize_loads_stores.h) on whole pipelines: vertical and
// horizontal 3- and 5-tap stencils with the loop over the stencil's direction innermost (scalar,
// vectorized, tiled, parallel, with boundary conditions), scans that read what they just
// wrote, Funcs computed inside their consumer's loop and Tuples, each against naive C++ loops
// written here; a few of them also through the C back end. Each checks in the lowered
// statement that the rewrite it exercises fired, so that none passes vacuously.
#include "common/c_backend_harness.h"
#include "common/lowered_text.h"

#include <loom/loom.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace loom;

namespace {

template <typename T>
Buffer<T> random_image(int w, int h, uint32_t seed, int range = 1000) {
    Buffer<T> b(w, h);
    std::mt19937 rng(seed);
    b.for_each_value([&](T &v) { v = (T)(int)(rng() % range); });
    return b;
}

int count(const std::string &text, const std::string &what) {
    int n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) n++;
    return n;
}

/// Register buffers that rewrite 3 (sliding loads) added.
int sliding_buffers(const std::string &stmt) { return count(stmt, "in Register"); }
/// Values that rewrites 1 and 2 bound (duplicate loads, read after write).
int reused_values(const std::string &stmt) { return count(stmt, "let lso.t"); }

template <typename T>
void expect_matches(const Buffer<T> &out, const std::function<T(int, int)> &ref) {
    int bad = 0;
    for (int y = 0; y < out.height(); y++) {
        for (int x = 0; x < out.width(); x++) {
            T e = ref(x, y);
            if (out(x, y) != e && bad++ < 5) {
                ADD_FAILURE() << "at (" << x << ", " << y << "): " << +out(x, y) << ", expected "
                              << +e;
            }
        }
    }
    EXPECT_EQ(bad, 0);
}

enum class Schedule { Scalar, Vector, VectorTiles, ParallelVector };

const char *name(Schedule s) {
    switch (s) {
    case Schedule::Scalar:
        return "scalar";
    case Schedule::Vector:
        return "vector";
    case Schedule::VectorTiles:
        return "vector tiles";
    case Schedule::ParallelVector:
        return "parallel vector";
    }
    return "";
}

/// f(x, y) with the loop over y innermost.
void schedule_vertical(Func f, Schedule s) {
    Var x = f.args()[0], y = f.args()[1];
    Var xo("xo"), xi("xi"), yo("yo"), yi("yi");
    switch (s) {
    case Schedule::Scalar:
        f.reorder(y, x);
        break;
    case Schedule::Vector:
        f.vectorize(x, 8).reorder(y, x);
        break;
    case Schedule::VectorTiles:
        // Strips of 16 rows (a constant extent: no guard on the preloads).
        f.split(y, yo, yi, 16).vectorize(x, 8).reorder(yi, x, yo);
        break;
    case Schedule::ParallelVector:
        f.split(x, xo, xi, 8).vectorize(xi).reorder(xi, y, xo).parallel(xo);
        break;
    }
}

const Schedule kSchedules[] = {Schedule::Scalar, Schedule::Vector, Schedule::VectorTiles,
                               Schedule::ParallelVector};

TEST(LoadStoreOpt, VerticalStencilsSlide) {
    const int W = 45, H = 37;
    for (int taps : {3, 5}) {
        for (Schedule s : kSchedules) {
            SCOPED_TRACE(std::to_string(taps) + " taps, " + name(s));
            Buffer<float> in = random_image<float>(W, H + taps, 1 + taps);
            Func f("vstencil");
            Var x("x"), y("y");
            Expr sum = 0.0f;
            for (int k = 0; k < taps; k++) sum += in(x, y + k) * (float)(k + 1);
            f(x, y) = sum;
            schedule_vertical(f, s);
            EXPECT_GE(sliding_buffers(lowered(f)), 1) << lowered(f);
            Buffer<float> out = f.realize({W, H});
            expect_matches<float>(out, [&](int xx, int yy) {
                float r = 0.0f;
                for (int k = 0; k < taps; k++) r += in(xx, yy + k) * (float)(k + 1);
                return r;
            });
        }
    }
}

TEST(LoadStoreOpt, HorizontalStencilsSlide) {
    const int W = 53, H = 11;
    for (int taps : {3, 5}) {
        for (int schedule = 0; schedule < 3; schedule++) {
            SCOPED_TRACE(std::to_string(taps) + " taps, schedule " + std::to_string(schedule));
            Buffer<int32_t> in = random_image<int32_t>(W + taps, H, 11 + taps);
            Func f("hstencil");
            Var x("x"), y("y"), xo("xo"), xi("xi");
            Expr sum = 0;
            for (int k = 0; k < taps; k++) sum += in(x + k, y) * (k + 1);
            f(x, y) = sum;
            if (schedule == 1) {
                // Unrolled by 4: the copies share taps (rewrite 1), and the loop over xo
                // carries in[4 * xo + 4 + k] to the next iteration as in[4 * xo + k].
                f.split(x, xo, xi, 4).unroll(xi);
            } else if (schedule == 2) {
                // Vectors along x: x steps by whole vectors, nothing slides.
                f.vectorize(x, 8);
            }
            std::string stmt = lowered(f);
            if (schedule != 2) {
                EXPECT_GE(sliding_buffers(stmt), 1) << stmt;
            }
            if (schedule == 1) {
                EXPECT_GE(reused_values(stmt), 1) << stmt;
            }
            Buffer<int32_t> out = f.realize({W, H});
            expect_matches<int32_t>(out, [&](int xx, int yy) {
                int r = 0;
                for (int k = 0; k < taps; k++) r += in(xx + k, yy) * (k + 1);
                return r;
            });
        }
    }
}

TEST(LoadStoreOpt, Square3x3StencilWithBoundaryConditionsSlides) {
    const int W = 40, H = 31;
    Buffer<uint16_t> data = random_image<uint16_t>(W, H, 5);
    for (Schedule s : kSchedules) {
        SCOPED_TRACE(name(s));
        ImageParam input(UInt(16), 2, "input");
        Func clamped = BoundaryConditions::repeat_edge(input);
        Func f("box");
        Var x("x"), y("y");
        Expr sum = cast<uint16_t>(0);
        for (int j = -1; j <= 1; j++) {
            for (int i = -1; i <= 1; i++) sum += clamped(x + i, y + j);
        }
        f(x, y) = sum;
        schedule_vertical(f, s);
        EXPECT_GE(sliding_buffers(lowered(f, {input})), 1) << lowered(f, {input});
        input.set(data);
        Buffer<uint16_t> out = f.realize({W, H});
        expect_matches<uint16_t>(out, [&](int xx, int yy) {
            uint16_t r = 0;
            for (int j = -1; j <= 1; j++) {
                for (int i = -1; i <= 1; i++) {
                    int cx = std::min(std::max(xx + i, 0), W - 1);
                    int cy = std::min(std::max(yy + j, 0), H - 1);
                    r = (uint16_t)(r + data(cx, cy));
                }
            }
            return r;
        });
    }
}

TEST(LoadStoreOpt, LoopsOfOneOrNoIterations) {
    // Heights 1 and 2: the preloads run (or not) exactly as the loop's first iteration would;
    // an input of exactly the rows needed catches a load outside it.
    for (int h : {1, 2}) {
        SCOPED_TRACE("height " + std::to_string(h));
        const int W = 16;
        Buffer<int32_t> in = random_image<int32_t>(W, h + 2, 3);
        ImageParam input(Int(32), 2, "input");
        Func f("short");
        Var x("x"), y("y");
        f(x, y) = input(x, y) + input(x, y + 1) * 3 + input(x, y + 2);
        f.reorder(y, x);
        EXPECT_GE(sliding_buffers(lowered(f, {input})), 1);
        input.set(in);
        Buffer<int32_t> out = f.realize({W, h});
        expect_matches<int32_t>(
            out, [&](int xx, int yy) { return in(xx, yy) + in(xx, yy + 1) * 3 + in(xx, yy + 2); });
    }
}

TEST(LoadStoreOpt, ScansReadWhatTheyJustWrote) {
    const int N = 203;
    Buffer<int32_t> in = random_image<int32_t>(N, 1, 9);
    for (int unroll : {1, 4}) {
        SCOPED_TRACE("unroll " + std::to_string(unroll));
        Func f("scan");
        Var x("x");
        RDom r(1, N - 1);
        f(x) = in(x, 0);
        f(r) = f(r - 1) + in(r, 0);
        if (unroll > 1) {
            RVar ro("ro"), ri("ri");
            f.update().split(r, ro, ri, unroll).unroll(ri);
            // Each unrolled step reads the value the one before stored.
            EXPECT_GE(reused_values(lowered(f)), unroll - 1) << lowered(f);
        }
        Buffer<int32_t> out = f.realize({N});
        int acc = 0;
        for (int i = 0; i < N; i++) {
            acc = i == 0 ? in(0, 0) : acc + in(i, 0);
            ASSERT_EQ(out(i), acc) << "at " << i;
        }
    }
}

TEST(LoadStoreOpt, UpdatesThatReadTheirOwnOutput) {
    // f(x, y) = in(x, y); then, for y in order with the loop over y innermost,
    // f(x, y) = f(x, y) * 2 + f(x, y - 1) + in(x, y) * in(x, y + 1): the update reads the row
    // it wrote one iteration before (f's loads must not slide), and in's loads slide.
    const int W = 24, H = 19;
    Buffer<int32_t> in = random_image<int32_t>(W, H + 1, 13, 100);
    Func f("rows");
    Var x("x"), y("y");
    RDom r(0, W, 1, H - 1);
    f(x, y) = in(x, y);
    f(r.x, r.y) = f(r.x, r.y) * 2 + f(r.x, r.y - 1) + in(r.x, r.y) * in(r.x, r.y + 1);
    f.update().reorder(r.y, r.x);
    std::string stmt = lowered(f);
    EXPECT_EQ(sliding_buffers(stmt), 1) << stmt;
    Buffer<int32_t> out = f.realize({W, H});
    std::vector<int32_t> ref(W * H);
    for (int yy = 0; yy < H; yy++) {
        for (int xx = 0; xx < W; xx++) ref[yy * W + xx] = in(xx, yy);
    }
    for (int xx = 0; xx < W; xx++) {
        for (int yy = 1; yy < H; yy++) {
            ref[yy * W + xx] =
                ref[yy * W + xx] * 2 + ref[(yy - 1) * W + xx] + in(xx, yy) * in(xx, yy + 1);
        }
    }
    expect_matches<int32_t>(out, [&](int xx, int yy) { return ref[yy * W + xx]; });
}

TEST(LoadStoreOpt, ProducerComputedInsideItsConsumer) {
    // g computed at f's x: g's store is read back by f (read after write), and both read in.
    const int W = 30, H = 7;
    Buffer<int32_t> in = random_image<int32_t>(W, H, 17);
    Func g("g"), f("f");
    Var x("x"), y("y");
    g(x, y) = in(x, y) * 3 + 1;
    f(x, y) = g(x, y) + in(x, y);
    g.compute_at(f, x);
    EXPECT_GE(reused_values(lowered(f)), 2) << lowered(f);
    Buffer<int32_t> out = f.realize({W, H});
    expect_matches<int32_t>(out, [&](int xx, int yy) { return in(xx, yy) * 4 + 1; });
}

TEST(LoadStoreOpt, TuplesShareTheirLoads) {
    const int W = 33, H = 21;
    Buffer<int32_t> in = random_image<int32_t>(W, H + 1, 19);
    for (bool vector : {false, true}) {
        SCOPED_TRACE(vector ? "vector" : "scalar");
        Func f("pair");
        Var x("x"), y("y");
        f(x, y) = Tuple(in(x, y) + in(x, y + 1), in(x, y) * in(x, y + 1));
        if (vector) f.vectorize(x, 8);
        f.reorder(y, x);
        std::string stmt = lowered(f);
        EXPECT_GE(reused_values(stmt), 1) << stmt;
        EXPECT_GE(sliding_buffers(stmt), 1) << stmt;
        Realization rz = f.realize({W, H});
        Buffer<int32_t> a = rz[0], b = rz[1];
        expect_matches<int32_t>(a, [&](int xx, int yy) { return in(xx, yy) + in(xx, yy + 1); });
        expect_matches<int32_t>(b, [&](int xx, int yy) { return in(xx, yy) * in(xx, yy + 1); });
    }
}

// ---- The C back end ----

class LoadStoreOptC : public ::testing::TestWithParam<c_backend_test::CConfig> {};

TEST_P(LoadStoreOptC, VerticalStencilsThroughC) {
    const int W = 45, H = 29;
    Buffer<float> data = random_image<float>(W, H + 4, 23);
    for (Schedule s : {Schedule::Scalar, Schedule::Vector, Schedule::VectorTiles}) {
        SCOPED_TRACE(name(s));
        ImageParam input(Float(32), 2, "input");
        Func f("vstencil_c");
        Var x("x"), y("y");
        f(x, y) = input(x, y) + input(x, y + 2) * 2.0f + input(x, y + 4) - input(x, y + 1);
        schedule_vertical(f, s);
        EXPECT_GE(sliding_buffers(lowered(f, {input})), 1);
        c_backend_test::CBackendRun c(Pipeline(f), {input}, GetParam());
        ASSERT_TRUE(c.ok());
        Buffer<float> out(W, H);
        ASSERT_EQ(c.call({(void *)data.raw_buffer(), (void *)out.raw_buffer()}), 0) << c.errors();
        expect_matches<float>(out, [&](int xx, int yy) {
            return data(xx, yy) + data(xx, yy + 2) * 2.0f + data(xx, yy + 4) - data(xx, yy + 1);
        });
    }
}

TEST_P(LoadStoreOptC, UnrolledScanAndTuplesThroughC) {
    const int N = 101;
    Buffer<int32_t> data = random_image<int32_t>(N, 2, 29);
    ImageParam input(Int(32), 2, "input");
    Func scan("scan_c"), out("out_c");
    Var x("x");
    RDom r(1, N - 1);
    scan(x) = Tuple(input(x, 0), input(x, 1));
    scan(r) = Tuple(scan(r - 1)[0] + input(r, 0), scan(r - 1)[1] ^ input(r, 1));
    RVar ro("ro"), ri("ri");
    scan.update().split(r, ro, ri, 4).unroll(ri);
    scan.compute_root();
    out(x) = scan(x)[0] * 3 + scan(x)[1];
    EXPECT_GE(reused_values(lowered(out, {input})), 3);
    c_backend_test::CBackendRun c(Pipeline(out), {input}, GetParam());
    ASSERT_TRUE(c.ok());
    Buffer<int32_t> result(N);
    ASSERT_EQ(c.call({(void *)data.raw_buffer(), (void *)result.raw_buffer()}), 0) << c.errors();
    int a = 0, b = 0;
    for (int i = 0; i < N; i++) {
        a = i == 0 ? data(0, 0) : a + data(i, 0);
        b = i == 0 ? data(0, 1) : (b ^ data(i, 1));
        ASSERT_EQ(result(i), a * 3 + b) << "at " << i;
    }
}

INSTANTIATE_TEST_SUITE_P(Configs, LoadStoreOptC, ::testing::ValuesIn(c_backend_test::configs()),
                         [](const ::testing::TestParamInfo<c_backend_test::CConfig> &info) {
                             return info.param.name();
                         });

} // namespace
