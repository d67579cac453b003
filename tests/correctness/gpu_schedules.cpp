// GPU schedules against the CPU: each algorithm runs once unscheduled on the CPU (the reference)
// and once per GPU schedule, and every output value must match (floats within a small
// tolerance where the GPU's math differs in the last bits). The GPU target comes from
// LOOM_GPU_TARGET: "host-opencl" by default (PoCL in CI, installed by scripts/setup.sh), or a
// CUDA target such as "host-cuda-cuda_capability_80" on a machine with an NVIDIA GPU.
// LOOM_SKIP_OPENCL=1 skips the OpenCL runs on a machine without an OpenCL driver.
#include <loom/loom.h>

#include <gtest/gtest.h>

#include "common/gpu_test_env.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>

using namespace loom;

namespace {

Target gpu_target() { return Target(gpu_target_name()); }

/// For tests that check what runs rather than what compiles.
#define REQUIRE_RUN()                                                                              \
    do {                                                                                           \
        REQUIRE_GPU();                                                                             \
        if (compile_only()) GTEST_SKIP() << "LOOM_GPU_COMPILE_ONLY=1";                             \
    } while (0)

template <typename T>
Buffer<T> random_buffer(std::vector<int> sizes, uint32_t seed, int lo = 0, int hi = 255) {
    Buffer<T> b(sizes);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> dist(lo, hi);
    b.for_each_value([&](T &v) { v = (T)dist(rng); });
    return b;
}

/// The algorithm `make` builds, realized over `sizes` with no schedule on the host, and with
/// `schedule` applied on the GPU target: every value equal (or within tol for floats).
template <typename T>
void expect_same(const std::function<Func()> &make, const std::function<void(Func)> &schedule,
                 const std::vector<int> &sizes, double tol = 0) {
    Func f = make();
    schedule(f);
    if (compile_only()) {
        f.compile_jit(gpu_target());
        return;
    }
    Func reference = make();
    Buffer<T> expected = reference.realize(sizes);
    Buffer<T> actual = f.realize(sizes, gpu_target());
    ASSERT_EQ(actual.dimensions(), expected.dimensions());
    int mismatches = 0;
    expected.for_each_element([&](const int *pos) {
        std::vector<int> p(pos, pos + expected.dimensions());
        double e = (double)expected(pos), a = (double)actual(pos);
        bool ok = tol == 0 ? e == a : std::abs(e - a) <= tol * std::max(1.0, std::abs(e));
        if (!ok && mismatches++ < 5) {
            ADD_FAILURE() << "at (" << p[0] << (p.size() > 1 ? ", " + std::to_string(p[1]) : "")
                          << "...): expected " << e << ", got " << a;
        }
    });
    EXPECT_EQ(mismatches, 0);
}

Var x("x"), y("y"), c("c"), bx("bx"), by("by"), tx("tx"), ty("ty"), xi("xi"), yi("yi");

Func brighten(const Buffer<uint8_t> &in) {
    Func f("brighten");
    f(x, y) = cast<uint8_t>(min(cast<int>(in(x, y)) * 3 / 2 + 7, 255));
    return f;
}

TEST(GpuSchedules, PointwiseTiles) {
    REQUIRE_GPU();
    Buffer<uint8_t> in = random_buffer<uint8_t>({70, 45}, 1);
    auto make = [&] { return brighten(in); };
    expect_same<uint8_t>(make, [](Func f) { f.gpu_tile(x, y, bx, by, tx, ty, 16, 8); }, {70, 45});
    expect_same<uint8_t>(
        make, [](Func f) { f.gpu_tile(x, y, bx, by, tx, ty, 16, 16, TailStrategy::GuardWithIf); },
        {70, 45});
    expect_same<uint8_t>(make, [](Func f) { f.gpu_tile(x, bx, tx, 32); }, {70, 45});
    // Lanes of a warp, as Halide's gpu_lanes: thread loops of at most 32.
    expect_same<uint8_t>(
        make, [](Func f) { f.split(x, bx, tx, 32).gpu_blocks(bx, y).gpu_lanes(tx); }, {70, 45});
    // Blocks only (one thread each), and a whole image in one thread.
    expect_same<uint8_t>(make, [](Func f) { f.gpu_blocks(x, y); }, {13, 9});
    expect_same<uint8_t>(make, [](Func f) { f.gpu_single_thread(); }, {13, 9});
    // Block and thread loops of a reordered nest (y innermost among the threads).
    expect_same<uint8_t>(
        make,
        [](Func f) {
            f.split(x, bx, tx, 8).split(y, by, ty, 4).reorder(ty, tx, by, bx).gpu_blocks(by, bx);
            f.gpu_threads(ty, tx);
        },
        {64, 32});
}

TEST(GpuSchedules, IntegerSemantics) {
    REQUIRE_GPU();
    // Euclidean division and modulus of negative values, wrapping 8- and 16-bit arithmetic,
    // saturating casts, selects and float conversions: the GPU computes what the CPU does.
    Buffer<int16_t> in = random_buffer<int16_t>({40, 30}, 2, -300, 300);
    auto make = [&] {
        Func f("ints");
        Expr v = in(x, y);
        Expr q = v / 7 + v % 5 + (v * 3) / (x - 20) + (v % (y - 15));
        Expr wrap = cast<int16_t>(cast<uint8_t>(v) * cast<uint8_t>(37));
        Expr sat = cast<int16_t>(saturating_cast<int8_t>(v));
        Expr fl = cast<int16_t>(cast<float>(v) * 0.37f);
        f(x, y) = select(v > 0, cast<int16_t>(q), wrap) + sat + fl +
                  cast<int16_t>(max(v, -17) - min(v, 23));
        return f;
    };
    expect_same<int16_t>(make, [](Func f) { f.gpu_tile(x, y, bx, by, tx, ty, 8, 8); }, {40, 30});
}

Func blur(const Buffer<uint16_t> &in, Func *bx_out = nullptr) {
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func blur_x("blur_x"), blur_y("blur_y");
    blur_x(x, y) = (clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y)) / 3;
    blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
    if (bx_out) *bx_out = blur_x;
    return blur_y;
}

TEST(GpuSchedules, BlurStages) {
    REQUIRE_GPU();
    Buffer<uint16_t> in = random_buffer<uint16_t>({61, 47}, 3, 0, 65535);
    Func bx_f;
    auto make = [&] { return blur(in, &bx_f); };
    // Two kernels with the intermediate only on the device.
    expect_same<uint16_t>(make,
                          [&](Func f) {
                              bx_f.compute_root().gpu_tile(x, y, bx, by, tx, ty, 16, 8);
                              f.gpu_tile(x, y, bx, by, tx, ty, 16, 8);
                          },
                          {61, 47});
    // blur_x inlined, and computed per thread.
    expect_same<uint16_t>(make, [&](Func f) { f.gpu_tile(x, y, bx, by, tx, ty, 8, 8); }, {61, 47});
    expect_same<uint16_t>(make,
                          [&](Func f) {
                              f.gpu_tile(x, y, bx, by, tx, ty, 8, 8);
                              bx_f.compute_at(f, tx);
                          },
                          {61, 47});
    // A serial loop per thread: each thread computes a column of 4 outputs.
    expect_same<uint16_t>(
        make,
        [&](Func f) {
            f.split(y, y, yi, 4).gpu_tile(x, y, bx, by, tx, ty, 8, 4, TailStrategy::GuardWithIf);
            f.reorder(yi, tx, ty, bx, by);
        },
        {61, 47});
}

TEST(GpuSchedules, HostAndDeviceStagesInterleave) {
    REQUIRE_GPU();
    // CPU -> GPU -> CPU -> GPU: every hand-over copies exactly what is stale.
    Buffer<float> in = random_buffer<float>({50, 40}, 4, 0, 100);
    Func f1, f2, f3;
    auto make = [&] {
        f1 = Func("f1");
        f2 = Func("f2");
        f3 = Func("f3");
        Func out("out");
        f1(x, y) = in(x, y) * 0.5f + 1.0f;
        f2(x, y) = f1(x, y) + f1(min(x + 1, 49), y);
        f3(x, y) = f2(x, y) * f2(x, max(y - 1, 0));
        out(x, y) = f3(x, y) - f1(x, y);
        return out;
    };
    expect_same<float>(
        make,
        [&](Func out) {
            f1.compute_root();
            f2.compute_root().gpu_tile(x, y, bx, by, tx, ty, 8, 8);
            f3.compute_root();
            out.gpu_tile(x, y, bx, by, tx, ty, 8, 8);
        },
        {50, 40}, 1e-6);
}

TEST(GpuSchedules, UpdatesAndReductions) {
    REQUIRE_GPU();
    // Updates round their loops up (Halide's default tail for pure variables of updates), so the
    // output is a whole number of tiles and the input covers it.
    Buffer<int32_t> in = random_buffer<int32_t>({32, 24}, 5, -50, 50);
    RDom r(0, 5, "r");
    auto make = [&] {
        Func f("f");
        f(x, y) = in(x, y);
        f(x, y) += sum(in(clamp(x + r, 0, 31), y)) * 2;
        f(x, y) = f(x, y) * 3 - y;
        return f;
    };
    expect_same<int32_t>(make,
                         [](Func f) {
                             f.gpu_tile(x, y, bx, by, tx, ty, 8, 4);
                             f.update(0).gpu_tile(x, y, bx, by, tx, ty, 4, 4);
                             f.update(1).gpu_tile(x, y, bx, by, tx, ty, 16, 2);
                         },
                         {32, 24});
    // Only the last update on the GPU: the buffer moves host -> device once.
    expect_same<int32_t>(make, [](Func f) { f.update(1).gpu_tile(x, y, bx, by, tx, ty, 8, 8); },
                         {32, 24});
}

TEST(GpuSchedules, ThreeDimensionsAndFloatMath) {
    REQUIRE_GPU();
    Buffer<float> in = random_buffer<float>({20, 12, 3}, 6, 1, 200);
    auto make = [&] {
        Func f("math");
        Expr v = in(x, y, c) / 50.0f;
        f(x, y, c) = sqrt(v) + exp(-v) + sin(v) * cos(v) + log(v + 1.0f) + pow(v, 1.5f) +
                     floor(v * 3.0f) + abs(v - 2.0f);
        return f;
    };
    Var tz("tz"), bz("bz");
    expect_same<float>(
        make, [&](Func f) { f.gpu_tile(x, y, c, bx, by, bz, tx, ty, tz, 4, 4, 1); }, {20, 12, 3},
        1e-4);
}

TEST(GpuSchedules, HostModifiedInputIsUploadedAgain) {
    REQUIRE_RUN();
    ImageParam input(Int(32), 1, "input");
    Func f("f");
    f(x) = input(x) * 2 + 1;
    f.gpu_tile(x, bx, tx, 16);
    Buffer<int32_t> in(100);
    in.for_each_element([&](int i) { in(i) = i; });
    input.set(in);
    Buffer<int32_t> out = f.realize({100}, gpu_target());
    for (int i = 0; i < 100; i++) ASSERT_EQ(out(i), 2 * i + 1);
    // The input now lives on the device too; a host change marked dirty must reach it.
    EXPECT_TRUE(in.raw_buffer()->device != 0);
    in.for_each_element([&](int i) { in(i) = 1000 - i; });
    in.set_host_dirty();
    out = f.realize({100}, gpu_target());
    for (int i = 0; i < 100; i++) ASSERT_EQ(out(i), 2 * (1000 - i) + 1);
    // Outputs passed in stay on the device (as in Halide) until copied.
    Buffer<int32_t> given(100);
    f.realize(given, gpu_target());
    EXPECT_TRUE(given.device_dirty());

    // A device-dirty input: a pipeline for a GPU target copies it back before its host stages
    // read it; one for a CPU target cannot reach the device and says so.
    ImageParam from_gpu(Int(32), 1, "from_gpu");
    from_gpu.set(given);
    Func on_host("on_host"), last("last");
    on_host(x) = from_gpu(x) - 1;
    last(x) = on_host(x) / 2;
    on_host.compute_root();
    last.gpu_tile(x, bx, tx, 16);
    Buffer<int32_t> halved = last.realize({100}, gpu_target());
    for (int i = 0; i < 100; i++) ASSERT_EQ(halved(i), 1000 - i);
    EXPECT_FALSE(given.device_dirty());
    given.set_device_dirty();
    Func cpu_only("cpu_only");
    cpu_only(x) = from_gpu(x);
    try {
        cpu_only.realize({100}, Target("host"));
        ADD_FAILURE() << "a CPU pipeline read a device-dirty buffer";
    } catch (const RuntimeError &e) {
        EXPECT_NE(std::string(e.what()).find("from_gpu"), std::string::npos) << e.what();
    }
    given.set_device_dirty(false);
    given.copy_to_host();
    for (int i = 0; i < 100; i++) ASSERT_EQ(given(i), 2 * (1000 - i) + 1);
}

TEST(GpuSchedules, CropsAndSlicesOfDeviceBuffers) {
    REQUIRE_RUN();
    // A buffer whose newest data is on the device, read through a crop and a slice (which
    // alias its device allocation) by other GPU pipelines, and a crop written on the device
    // then copied back without touching the rest of its parent.
    Func make("make");
    make(x, y) = x * 1000 + y;
    make.gpu_tile(x, y, bx, by, tx, ty, 16, 8);
    Buffer<int32_t> whole(64, 32);
    make.realize(whole, gpu_target());
    ASSERT_TRUE(whole.device_dirty());

    ImageParam crop_in(Int(32), 2, "crop_in");
    Func twice("twice");
    twice(x, y) = crop_in(x + 32, y + 4) * 2;
    twice.gpu_tile(x, y, bx, by, tx, ty, 8, 8);
    // (At a multiple of 128 bytes: OpenCL aliases device memory only at the device's base
    // address alignment.)
    crop_in.set(whole.cropped({{32, 32}, {4, 24}}));
    Buffer<int32_t> doubled = twice.realize({32, 24}, gpu_target());
    for (int j = 0; j < 24; j++) {
        for (int i = 0; i < 32; i++) ASSERT_EQ(doubled(i, j), 2 * ((i + 32) * 1000 + j + 4));
    }
    if (gpu_target().has_feature(Target::OpenCL)) {
        // Elsewhere the crop cannot alias the device data, and says so rather than give a
        // Buffer whose host memory is stale.
        EXPECT_THROW(whole.cropped({{1, 8}, {1, 8}}), std::runtime_error);
    }

    ImageParam row_in(Int(32), 1, "row_in");
    Func plus("plus");
    plus(x) = row_in(x) + 1;
    plus.gpu_tile(x, bx, tx, 16);
    row_in.set(whole.sliced(1, 5));
    Buffer<int32_t> row = plus.realize({64}, gpu_target());
    for (int i = 0; i < 64; i++) ASSERT_EQ(row(i), i * 1000 + 5 + 1);

    Buffer<int32_t> target(64, 32);
    target.fill(-1);
    Buffer<int32_t> part = target.cropped({{8, 16}, {2, 8}});
    Func fill_part("fill_part");
    fill_part(x, y) = x + y;
    fill_part.gpu_tile(x, y, bx, by, tx, ty, 8, 8);
    fill_part.realize(part, gpu_target());
    ASSERT_EQ(part.copy_to_host(), 0);
    for (int j = 0; j < 32; j++) {
        for (int i = 0; i < 64; i++) {
            bool inside = i >= 8 && i < 24 && j >= 2 && j < 10;
            ASSERT_EQ(target(i, j), inside ? i + j : -1) << i << ", " << j;
        }
    }
}

TEST(GpuSchedules, BlockLevelStagesUseSharedMemory) {
    REQUIRE_GPU();
    Buffer<uint16_t> in = random_buffer<uint16_t>({64, 48}, 7, 0, 65535);
    Func bx_f;
    auto make = [&] { return blur(in, &bx_f); };
    // Halide's GPU blur: blur_x per block in shared memory, computed by the block's threads
    // (a 16x10 region for a 16x8 tile), then blur_y's threads read it after a barrier.
    expect_same<uint16_t>(make,
                          [&](Func f) {
                              f.gpu_tile(x, y, bx, by, tx, ty, 16, 8);
                              bx_f.compute_at(f, bx).gpu_threads(x, y);
                          },
                          {64, 48});
    // The same region computed by thread 0 alone (no thread loops of its own).
    expect_same<uint16_t>(make,
                          [&](Func f) {
                              f.gpu_tile(x, y, bx, by, tx, ty, 8, 8);
                              bx_f.compute_at(f, bx);
                          },
                          {64, 48});
    // Two block-level stages and a consumer, in one kernel with three thread nests.
    Buffer<float> fin = random_buffer<float>({40, 40}, 8, 0, 100);
    Func p1, p2;
    auto chain = [&] {
        p1 = Func("p1");
        p2 = Func("p2");
        Func c("c");
        Func clamped = BoundaryConditions::repeat_edge(fin);
        p1(x, y) = clamped(x, y) * 2.0f + 1.0f;
        p2(x, y) = p1(x - 1, y) + p1(x + 1, y + 1);
        c(x, y) = p2(x, y) - p2(x, y - 1);
        return c;
    };
    expect_same<float>(
        chain,
        [&](Func c) {
            c.gpu_tile(x, y, bx, by, tx, ty, 8, 8);
            p2.compute_at(c, bx).gpu_threads(x, y);
            p1.compute_at(c, bx).gpu_threads(x, y);
        },
        {40, 40}, 1e-6);
}

TEST(GpuSchedules, AtomicUpdates) {
    REQUIRE_GPU();
    // Histograms: every thread adds its pixels' counts to shared bins with atomic adds (integer
    // and float), and a max reduction through compare-and-swap.
    Buffer<uint8_t> in = random_buffer<uint8_t>({64, 40}, 9, 0, 255);
    RDom r(0, 64, 0, 40, "r");
    RVar rxo("rxo"), rxi("rxi");
    auto counts = [&] {
        Func hist("hist");
        hist(x) = 0;
        hist(cast<int>(in(r.x, r.y)) / 16) += 1;
        return hist;
    };
    expect_same<int32_t>(
        counts,
        [&](Func h) {
            h.gpu_tile(x, bx, tx, 16);
            h.update().atomic().split(r.x, rxo, rxi, 16).gpu_blocks(rxo).gpu_threads(rxi);
        },
        {16});
    auto weights = [&] {
        Func hist("weights");
        hist(x) = 0.0f;
        hist(cast<int>(in(r.x, r.y)) / 32) += cast<float>(in(r.x, r.y)) * 0.25f;
        return hist;
    };
    expect_same<float>(
        weights,
        [&](Func h) {
            h.update().atomic().split(r.x, rxo, rxi, 16).gpu_blocks(rxo).gpu_threads(rxi);
        },
        {8}, 1e-5);
    auto maxes = [&] {
        Func m("maxes");
        m(x) = 0;
        m(r.y % 4) = max(m(r.y % 4), cast<int>(in(r.x, r.y)) * 3 - r.x);
        return m;
    };
    expect_same<int32_t>(
        maxes,
        [&](Func m) {
            m.update().atomic().split(r.x, rxo, rxi, 16).gpu_blocks(rxo).gpu_threads(rxi);
        },
        {4});
}

TEST(GpuSchedules, IllegalNestsAreCompileErrors) {
    Func f("f");
    f(x, y) = x + y;
    f.gpu_threads(x);
    EXPECT_THROW(f.realize({8, 8}, gpu_target()), CompileError);

    // Shared memory beyond what every CUDA GPU has (48 KB per block), named in the error.
    Func g("g"), h("h");
    g(x, y) = cast<float>(x * y);
    h(x, y) = g(x, y) + g(x + 1, y);
    h.gpu_tile(x, y, bx, by, tx, ty, 128, 128);
    g.compute_at(h, bx).gpu_threads(x, y);
    try {
        h.compile_jit(gpu_target());
        ADD_FAILURE() << "66 KB of shared memory per block was accepted";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("shared memory"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("g"), std::string::npos) << e.what();
    }

    Func k("k");
    k(x) = x;
    k.gpu_tile(x, bx, tx, 8);
    EXPECT_THROW(k.realize({16}, Target("host")), CompileError);
}

TEST(GpuSchedules, OversizedBlocksAreRefusedBeforeLaunch) {
    REQUIRE_RUN();
    // More threads per block than any GPU runs (PoCL allows 4096, CUDA 1024): the runtime
    // names the kernel and the limit instead of launching.
    Func f("f");
    f(x, y) = x + y;
    f.gpu_tile(x, y, bx, by, tx, ty, 128, 128);
    try {
        f.realize({256, 256}, gpu_target());
        ADD_FAILURE() << "a block of 16384 threads was launched";
    } catch (const RuntimeError &e) {
        EXPECT_NE(std::string(e.what()).find("kernel"), std::string::npos) << e.what();
    }
}

} // namespace
